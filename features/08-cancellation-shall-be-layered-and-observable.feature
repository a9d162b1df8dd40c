Feature: Cancellation SHALL be layered and observable
  A cancellation request closes the release gate, prevents new work, interrupts the agent, cancels
  tool work and discards any late model result; each layer is a trace event.

  @spec @requirement:cancellation-shall-be-layered-and-observable @scenario:client-disconnects-during-a-model-call @capability:CANCELLATION
  Scenario: Client disconnects during a model call
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent's next model call blocks until the Run is cancelled, then answers late with a draft observing "call_1"
    And the client disconnects when that model call starts
    When an SSE client disconnects while a synchronous model call is in flight
    Then the system prevents later Draft release, requests interruption, records an internal cancelled terminal state and discards any late model result
    And every global invariant holds

  @extension @requirement:cancellation-shall-be-layered-and-observable @capability:CANCELLATION
  Scenario: The model adapter swallows the first cancellation
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent's next model call swallows the cancellation and answers with a draft observing "call_1"
    And the client disconnects when that model call starts
    When the Run is executed
    Then the Run is CANCELLED and nothing is released
    And every global invariant holds

  @extension @requirement:cancellation-shall-be-layered-and-observable @capability:CANCELLATION
  Scenario Outline: The client disconnects at any event of the Run
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 1 the agent calls list_alerts with the Tool Call ID "call_2"
    And each search_logs execution returns a different matching line
    And each list_alerts execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    And the client disconnects on the <event> event number <n>
    When the Run is executed
    Then the disconnect cancels the Run layer by layer and nothing is released
    And every global invariant holds

    Examples:
      | event                     | n |
      | RUN_STARTED               | 1 |
      | MODEL_CALL_STARTED        | 1 |
      | PREVIOUS_TURN_SELECTED    | 1 |
      | TOOL_CALL_ACCEPTED        | 1 |
      | EVIDENCE_CLASSIFIED       | 1 |
      | TOOL_CALL_ACCEPTED        | 2 |
      | MODEL_CALL_STARTED        | 3 |
      | EVIDENCE_VALIDATION       | 1 |
      | MODEL_CALL_STARTED        | 4 |
      | MODEL_CALL_FINISHED       | 4 |
      | SEMANTIC_VERDICT          | 1 |

  @extension @requirement:cancellation-shall-be-layered-and-observable @capability:CANCELLATION
  Scenario: The client leaves on the release
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    And the client disconnects on the RESULT_RELEASED event number 1
    When the Run is executed
    Then the Run stays released and the client receives no result frame after it left
    And every global invariant holds

  @extension @requirement:cancellation-shall-be-layered-and-observable @capability:CANCELLATION
  Scenario: A tool answers after its work is cancelled
    Given a user asks "Why is checkout failing?"
    And tool calls time out after 300 ms
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And search_logs blocks until its work is cancelled, then answers a matching line late
    And the client disconnects on the TOOL_CALL_ACCEPTED event number 1
    When the Run is executed
    Then the tool work in flight is cancelled and recorded, and its invocation never becomes READY
    And every global invariant holds

  @extension @requirement:cancellation-shall-be-layered-and-observable
  Scenario: A tool blocks past its timeout and answers late
    Given a user asks "Why is checkout failing?"
    And tool calls time out after 300 ms
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 1 the agent calls list_alerts with the Tool Call ID "call_2"
    And search_logs blocks until its work is cancelled, then answers a matching line late
    And each list_alerts execution returns a different matching line
    And the agent then submits a draft observing "call_2"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the timed-out tool ends ERROR with code TOOL_TIMEOUT and its late answer is never classified or sent to a model
    And every global invariant holds

  @extension @requirement:cancellation-shall-be-layered-and-observable
  Scenario: A model call blocks past its timeout and no client disconnects
    Given a user asks "Why is checkout failing?"
    And model calls time out after 300 ms
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent's next model call blocks until the Run is cancelled, then answers late with a draft observing "call_1"
    When the Run is executed
    Then the Harness ends the blocked call by its own timeout, the Run fails with AGENT_UNAVAILABLE and the late draft is discarded
    And every global invariant holds

  @extension @requirement:cancellation-shall-be-layered-and-observable
  Scenario: The Router call blocks past its timeout
    Given a user asks "Why is checkout failing?"
    And model calls time out after 300 ms
    And the Router answers BLOCK
    When the Run is executed
    Then the Harness ends the blocked Router call by its own timeout and the Run fails with ROUTER_UNAVAILABLE
    And every global invariant holds

  @extension @requirement:cancellation-shall-be-layered-and-observable @capability:CANCELLATION @capability:STRUCTURAL_REPAIR
  Scenario: The client disconnects on the verdict that decides a fallback
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent submits a draft whose analyses have no Tool Call IDs every time
    And the client disconnects on the EVIDENCE_VALIDATION event number 2
    When the Run is executed
    Then the disconnect cancels the Run layer by layer and nothing is released
    And every global invariant holds

  @extension @requirement:cancellation-shall-be-layered-and-observable @capability:CANCELLATION
  Scenario: The client disconnects on an UNSUPPORTED verdict
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard finds the analysis "a1" unsupported
    And the client disconnects on the SEMANTIC_VERDICT event number 1
    When the Run is executed
    Then the disconnect cancels the Run layer by layer and nothing is released
    And every global invariant holds

  @extension @requirement:cancellation-shall-be-layered-and-observable @capability:CANCELLATION
  Scenario: The client disconnects while the SemanticGuard call is in flight
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And model calls time out after 20000 ms
    And the SemanticGuard answers BLOCK
    And the client disconnects on the MODEL_CALL_STARTED event number 4
    When the Run is executed
    Then the disconnect cancels the Run layer by layer and nothing is released
    And every global invariant holds

  @extension @requirement:cancellation-shall-be-layered-and-observable @capability:CANCELLATION @capability:STRUCTURAL_REPAIR
  Scenario: The client disconnects while the structural repair call is in flight
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft with a NEGATIVE_OBSERVATION on "call_1" within its query scope
    And model calls time out after 20000 ms
    And the structural repair blocks until the Run is cancelled, then answers late with a draft observing "call_1"
    And the SemanticGuard supports the draft
    And the client disconnects on the MODEL_CALL_STARTED event number 4
    When the Run is executed
    Then the disconnect cancels the Run layer by layer and nothing is released
    And every global invariant holds

  @extension @requirement:cancellation-shall-be-layered-and-observable @capability:CANCELLATION
  Scenario: The client disconnects while the Router call is in flight
    Given a user asks "Why is checkout failing?"
    And model calls time out after 20000 ms
    And the Router answers BLOCK
    And the client disconnects on the MODEL_CALL_STARTED event number 1
    When the Run is executed
    Then the disconnect cancels the Run layer by layer and nothing is released
    And every global invariant holds

  @extension @requirement:cancellation-shall-be-layered-and-observable @capability:CANCELLATION
  Scenario: The client disconnects while a model call with a long timeout is in flight
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And model calls time out after 20000 ms
    And the agent's next model call blocks until the Run is cancelled, then answers late with a draft observing "call_1"
    And the client disconnects when that model call starts
    When the Run is executed
    Then the disconnect cancels the Run layer by layer and nothing is released
    And every global invariant holds

  @extension @requirement:cancellation-shall-be-layered-and-observable @capability:CANCELLATION
  Scenario: The client disconnects while tool work with a long timeout is in flight
    Given a user asks "Why is checkout failing?"
    And tool calls time out after 20000 ms
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And search_logs blocks until its work is cancelled, then answers a matching line late
    And the client disconnects on the TOOL_CALL_ACCEPTED event number 1
    When the Run is executed
    Then the tool work in flight is cancelled and recorded, and its invocation never becomes READY
    And every global invariant holds
