Feature: Tool invocation identity SHALL use the framework Tool Call ID
  The framework-provided tool_call_id is the only reference to a Tool invocation; missing, invalid
  and duplicate ids are rejected, never executed, and never overwrite an accepted invocation.

  @spec @requirement:tool-invocation-identity-shall-use-the-framework-tool-call-id @scenario:duplicate-tool-call-id-is-proposed
  Scenario: Duplicate Tool Call ID is proposed
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 2 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When two Tool actions in one Run present the same framework Tool Call ID
    Then the contract classifies the second action as an error and prohibits overwriting the first canonical invocation
    And every global invariant holds

  @extension @requirement:tool-invocation-identity-shall-use-the-framework-tool-call-id
  Scenario Outline: A missing or invalid Tool Call ID is rejected and never executed
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID <presented>
    And in step 1 the agent calls query_metrics with the Tool Call ID "call_ok"
    And each search_logs execution returns a different matching line
    And each query_metrics execution returns a different matching line
    And the agent then submits a draft observing "call_ok"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the first action is rejected as <reason>, is never executed, and the Run goes on
    And every global invariant holds

    Examples:
      | presented                    | reason     |
      | ""                           | MISSING_ID |
      | absent                       | MISSING_ID |
      | null                         | MISSING_ID |
      | "   "                        | INVALID_ID |
      | "call\u0000x"                | INVALID_ID |
      | a 300-character ID           | INVALID_ID |
      | " call_1 "                   | INVALID_ID |
      | "\uff43\uff41\uff4c\uff4c_1" | INVALID_ID |
      | 42                           | INVALID_ID |
      | a 129-character ID           | INVALID_ID |

  @extension @requirement:tool-invocation-identity-shall-use-the-framework-tool-call-id
  Scenario Outline: A Tool Call ID at a bound of its grammar is accepted
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID <presented>
    And in step 1 the agent calls query_metrics with the Tool Call ID "call_ok"
    And each search_logs execution returns a different matching line
    And each query_metrics execution returns a different matching line
    And the agent then submits a draft observing "call_ok"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then every action is accepted and executed under the Tool Call ID it presented
    And every global invariant holds

    Examples:
      | presented          |
      | "a"                |
      | "7"                |
      | a 128-character ID |
      | "A.b:c-d_e"        |

  @extension @requirement:tool-invocation-identity-shall-use-the-framework-tool-call-id
  Scenario: Two calls in one step share a Tool Call ID
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs twice, both with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the second action is rejected as DUPLICATE_ID and the first invocation's arguments, status and projection are unchanged
    And every global invariant holds

  @extension @requirement:tool-invocation-identity-shall-use-the-framework-tool-call-id
  Scenario: A Tool Call ID is reused on a later step
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "functions.get_weather:0"
    And in step 2 the agent calls query_metrics with the Tool Call ID "call_2"
    And in step 3 the agent calls search_logs with the Tool Call ID "functions.get_weather:0"
    And each search_logs execution returns a different matching line
    And each query_metrics execution returns a different matching line
    And the agent then submits a draft observing "functions.get_weather:0"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the step-3 action is rejected as DUPLICATE_ID and the step-1 invocation and its evidence are unchanged
    And every global invariant holds

  @extension @requirement:tool-invocation-identity-shall-use-the-framework-tool-call-id
  Scenario: Two parallel calls both present an empty Tool Call ID
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs twice, both with the Tool Call ID ""
    And in step 2 the agent calls search_logs with the Tool Call ID "call_ok"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_ok"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then both actions are rejected as MISSING_ID, neither as a duplicate of the other
    And every global invariant holds

  @extension @requirement:tool-invocation-identity-shall-use-the-framework-tool-call-id
  Scenario: Tool Call IDs that differ only in case are two calls
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 2 the agent calls search_logs with the Tool Call ID "CALL_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1" and "CALL_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then both actions are accepted as distinct invocations, each with its own result
    And every global invariant holds

  @extension @requirement:tool-invocation-identity-shall-use-the-framework-tool-call-id @capability:PREVIOUS_TURN
  Scenario: A Tool Call ID an earlier Run of the session used is accepted
    Given a user asks "And what about the payment service?"
    And the session has an earlier SUCCESS Run whose draft cited the Tool Call ID "call_1"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the action is accepted and executed, because duplicates are judged within one Run
    And every global invariant holds

  @extension @requirement:tool-invocation-identity-shall-use-the-framework-tool-call-id
  Scenario Outline: Two calls present the same arguments under distinct Tool Call IDs
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step <step> the agent calls search_logs with the Tool Call ID "call_2"
    And "call_2" repeats the arguments of "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1" and "call_2"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then both actions are accepted as distinct invocations, each with its own result
    And every global invariant holds

    Examples:
      | step |
      | 1    |
      | 2    |

  @extension @requirement:tool-invocation-identity-shall-use-the-framework-tool-call-id
  Scenario: Another tool presents a Tool Call ID already accepted
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 2 the agent calls query_metrics with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And each query_metrics execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the second action is rejected as DUPLICATE_ID and the first invocation's arguments, status and projection are unchanged
    And every global invariant holds

  @extension @requirement:tool-invocation-identity-shall-use-the-framework-tool-call-id
  Scenario Outline: A Tool Call ID is presented again after its first call did not succeed
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step <step> the agent calls search_logs with the Tool Call ID "call_1"
    And in step 1 the agent calls query_metrics with the Tool Call ID "call_ok"
    And the first call presenting "call_1" ends <first>, later executions return a matching line
    And each query_metrics execution returns a different matching line
    And the agent then submits a draft observing "call_ok"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the second action is rejected as DUPLICATE_ID and the first invocation's arguments, status and projection are unchanged
    And every global invariant holds

    Examples:
      | first             | step |
      | TOOL_FAILED       | 1    |
      | TOOL_FAILED       | 2    |
      | INVALID_ARGUMENTS | 1    |
      | INVALID_ARGUMENTS | 2    |
      | TOOL_TIMEOUT      | 1    |
      | TOOL_TIMEOUT      | 2    |
      | BACKEND_ERROR     | 1    |
      | BACKEND_ERROR     | 2    |
      | NO_EVIDENCE       | 1    |
      | NO_EVIDENCE       | 2    |

  @extension @requirement:tool-invocation-identity-shall-use-the-framework-tool-call-id
  Scenario: The first Tool Call ID is presented again after a hundred other calls
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call IDs "call_1" through "call_101"
    And in step 2 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the second action is rejected as DUPLICATE_ID and the first invocation's arguments, status and projection are unchanged
    And every global invariant holds

  @extension @requirement:tool-invocation-identity-shall-use-the-framework-tool-call-id
  Scenario: Two 128-character Tool Call IDs that differ only in their last character are two calls
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID a 128-character ID ending "a"
    And in step 2 the agent calls search_logs with the Tool Call ID a 128-character ID ending "b"
    And in step 2 the agent calls query_metrics with the Tool Call ID "call_ok"
    And each search_logs execution returns a different matching line
    And each query_metrics execution returns a different matching line
    And the agent then submits a draft observing "call_ok"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then both actions are accepted as distinct invocations, each with its own result
    And every global invariant holds

  @extension @requirement:tool-invocation-identity-shall-use-the-framework-tool-call-id @capability:STRUCTURAL_REPAIR
  Scenario Outline: A draft cites a Tool Call ID that only an earlier Run of the IUT called
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID <called>
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing <cited>
    And the structural repair submits a draft observing <called>
    And the SemanticGuard supports the draft
    When the Run is executed
    Then EvidenceGuard rejects the first draft with UNKNOWN_TOOL_CALL_ID at "<pointer>" and releases the repaired draft
    And every global invariant holds

    Examples:
      | called   | cited                  | pointer                     |
      | "call_1" | "call_1" and "call_404" | /analyses/0/tool_call_ids/1 |
      | "call_2" | "call_1"               | /analyses/0/tool_call_ids/0 |
