Feature: Design contracts SHALL separate deterministic control from diagnosis reasoning
  The Diagnosis Agent is the only author of what a Run releases; the Harness controls execution
  deterministically and never writes report text.

  @spec @requirement:design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning @scenario:contract-ownership-is-inspected
  Scenario: Contract ownership is inspected
    Given the stage-zero contracts
    When a later phase reads the stage-zero contracts
    Then no Harness contract assigns Planner, Executor, Composer, workflow routing, or diagnosis reasoning responsibilities to Harness

  @extension @requirement:design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning @capability:DIAGNOSIS
  Scenario: A released Diagnosis Draft is the agent's own draft
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft with three analyses citing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the released Diagnosis Draft is canonical-JSON-identical to the draft the agent submitted
    And every global invariant holds

  @extension @requirement:design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning @capability:DIAGNOSIS
  Scenario: A released Diagnosis Draft keeps the whitespace the agent wrote
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1" whose texts are padded with whitespace
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the released Diagnosis Draft is canonical-JSON-identical to the draft the agent submitted
    And every global invariant holds

  @extension @requirement:design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning @capability:DIAGNOSIS
  Scenario: The same fixture run twice gives the same normalized trace
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 1 the agent calls query_metrics with the Tool Call ID "call_2"
    And each search_logs execution returns a different matching line
    And each query_metrics execution returns a different matching line
    And the agent then submits a draft observing "call_1" and "call_2"
    And the SemanticGuard supports the draft
    When the Run is executed twice
    Then both Runs have the same normalized trace
    And every global invariant holds

  @extension @requirement:design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning @capability:DIAGNOSIS
  Scenario: Four parallel calls give the same observation in every fresh process
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 1 the agent calls list_alerts with the Tool Call ID "call_2"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_3"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_4"
    And each search_logs execution returns a different matching line
    And each list_alerts execution returns a different matching line
    And the agent then submits a draft observing "call_1" and "call_2"
    And the SemanticGuard supports the draft
    When the Run is executed in two fresh IUT processes
    Then both processes give the same normalized observation
    And every global invariant holds

  @extension @requirement:design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning @capability:DIAGNOSIS
  Scenario: SemanticGuard finds one of two analyses unsupported
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 1 the agent calls query_metrics with the Tool Call ID "call_2"
    And each search_logs execution returns a different matching line
    And each query_metrics execution returns a different matching line
    And the agent then submits a draft with one analysis observing each of "call_1" and "call_2"
    And the SemanticGuard finds the analysis "a1" unsupported
    When the Run is executed
    Then the Run falls back with SEMANTIC_UNSUPPORTED, listing only verified sources and no draft text
    And every global invariant holds

  @extension @requirement:design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning @capability:DIAGNOSIS
  Scenario: SemanticGuard reviews a draft citing a hundred invocations and finds the last analysis unsupported
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call IDs "call_1" through "call_100"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft with one analysis observing each of "call_1" through "call_100"
    And the SemanticGuard finds the analysis "a100" unsupported
    When the Run is executed
    Then the SemanticGuard reviews a Verified Snapshot holding the projection of every READY invocation the draft cites
    And the Run falls back with SEMANTIC_UNSUPPORTED, listing only verified sources and no draft text
    And every global invariant holds

  @extension @requirement:design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning @capability:DIAGNOSIS
  Scenario: The agent asks for more tool steps than its budget
    Given a user asks "Why is checkout failing?"
    And the agent has a budget of 1 tool step
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 2 the agent calls query_metrics with the Tool Call ID "call_2"
    And search_logs finds nothing
    And query_metrics finds nothing
    And if the agent is asked again, it submits a draft observing "call_2"
    When the Run is executed
    Then the Harness takes no tool call of a step beyond the step budget
    And every global invariant holds

  @extension @requirement:design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning @capability:DIAGNOSIS
  Scenario Outline: A step whose every call is rejected still spends the step budget
    Given a user asks "Why is checkout failing?"
    And the agent has a budget of 1 tool step
    And in step 1 the agent calls search_logs with the Tool Call ID <presented>
    And in step 2 the agent calls query_metrics with the Tool Call ID "call_2"
    And query_metrics finds nothing
    And if the agent is asked again, it submits a draft observing "call_2"
    When the Run is executed
    Then the Harness takes no tool call of a step beyond the step budget
    And every global invariant holds

    Examples:
      | presented |
      | ""        |
      | "call 1"  |

  @extension @requirement:design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning @capability:DIAGNOSIS
  Scenario: A step presenting only a duplicate Tool Call ID still spends the step budget
    Given a user asks "Why is checkout failing?"
    And the agent has a budget of 2 tool steps
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 2 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 3 the agent calls query_metrics with the Tool Call ID "call_2"
    And search_logs finds nothing
    And query_metrics finds nothing
    And if the agent is asked again, it submits a draft observing "call_1"
    When the Run is executed
    Then the Harness takes no tool call of a step beyond the step budget
    And every global invariant holds

  @extension @requirement:design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning @capability:DIAGNOSIS
  Scenario: Any valid Scenario Fixture is judged by every check
    Given any valid Scenario Fixture, starting with the pinned corpus
    When each fixture is run twice through the IUT
    Then every global invariant, the outcome and runtime oracles and every model-input rule hold on both Runs, and both give the same normalized trace
