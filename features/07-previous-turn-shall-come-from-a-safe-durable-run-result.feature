Feature: Previous turn SHALL come from a safe durable Run result
  The previous turn of a Diagnosis Run is the latest same-session Run with intent DIAGNOSIS and
  state SUCCESS; every newer Run passed over is reported with its reason.

  @spec @requirement:previous-turn-shall-come-from-a-safe-durable-run-result @scenario:latest-run-is-a-fallback @capability:PREVIOUS_TURN
  Scenario: Latest Run is a fallback
    Given the session has these earlier Runs:
      | seq | intent    | state    |
      | 1   | DIAGNOSIS | SUCCESS  |
      | 2   | DIAGNOSIS | FALLBACK |
    And a user asks "And what about the payment service?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the latest same-session Run ended with FALLBACK
    Then it is not used as Diagnosis previous turn and selection continues to the latest eligible DIAGNOSIS + SUCCESS Run
    And every global invariant holds

  @extension @requirement:previous-turn-shall-come-from-a-safe-durable-run-result @capability:PREVIOUS_TURN
  Scenario: Every earlier Run is ineligible
    Given the session has these earlier Runs:
      | seq | intent          | state     |
      | 1   | KNOWLEDGE_QUERY | SUCCESS   |
      | 2   | DIAGNOSIS       | FAILED    |
      | 3   | DIAGNOSIS       | CANCELLED |
      | 4   | DIAGNOSIS       | FALLBACK  |
    And a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then no previous turn is selected and every earlier Run is skipped with its reason
    And every global invariant holds

  @extension @requirement:previous-turn-shall-come-from-a-safe-durable-run-result @capability:PREVIOUS_TURN
  Scenario: A newer Run is still running
    Given these earlier Runs exist:
      | session   | seq | intent    | state   | created |
      | session-1 | 3   | -         | RUNNING | 3       |
      | session-1 | 2   | DIAGNOSIS | RUNNING | 2       |
      | session-1 | 1   | DIAGNOSIS | SUCCESS | 1       |
    And a user asks "And what about the payment service?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the previous turn is the latest same-session DIAGNOSIS + SUCCESS Run by seq, and every newer same-session Run is skipped with its reason
    And every global invariant holds

  @extension @requirement:previous-turn-shall-come-from-a-safe-durable-run-result @capability:PREVIOUS_TURN
  Scenario: Another session has newer Runs
    Given these earlier Runs exist:
      | session   | seq | intent          | state     | created |
      | session-2 | 7   | DIAGNOSIS       | SUCCESS   | 9       |
      | session-1 | 1   | DIAGNOSIS       | SUCCESS   | 1       |
      | session-2 | 4   | KNOWLEDGE_QUERY | SUCCESS   | 8       |
      | session-1 | 5   | DIAGNOSIS       | CANCELLED | 2       |
      | session-2 | 3   | DIAGNOSIS       | SUCCESS   | 7       |
      | session-2 | 2   | DIAGNOSIS       | RUNNING   | 6       |
    And a user asks "And what about the payment service?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the previous turn is the latest same-session DIAGNOSIS + SUCCESS Run by seq, and every newer same-session Run is skipped with its reason
    And every global invariant holds

  @extension @requirement:previous-turn-shall-come-from-a-safe-durable-run-result @capability:PREVIOUS_TURN
  Scenario: A long history of ineligible Runs lies between the previous turn and the new Run
    Given these earlier Runs exist:
      | session   | seq | intent          | state     | created |
      | session-1 | 1   | DIAGNOSIS       | SUCCESS   | 1       |
      | session-1 | 2   | DIAGNOSIS       | FAILED    | 2       |
      | session-1 | 3   | DIAGNOSIS       | SUCCESS   | 3       |
      | session-1 | 4   | KNOWLEDGE_QUERY | FALLBACK  | 4       |
      | session-1 | 5   | KNOWLEDGE_QUERY | SUCCESS   | 5       |
      | session-2 | 6   | DIAGNOSIS       | SUCCESS   | 6       |
      | session-1 | 7   | -               | FAILED    | 7       |
      | session-1 | 8   | DIAGNOSIS       | CANCELLED | 8       |
      | session-1 | 9   | KNOWLEDGE_QUERY | RUNNING   | 9       |
      | session-1 | 10  | DIAGNOSIS       | FALLBACK  | 10      |
      | session-1 | 11  | KNOWLEDGE_QUERY | CANCELLED | 11      |
      | session-1 | 12  | DIAGNOSIS       | RUNNING   | 12      |
    And a user asks "And what about the payment service?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the previous turn is the latest same-session DIAGNOSIS + SUCCESS Run by seq, and every newer same-session Run is skipped with its reason
    And every global invariant holds

  @extension @requirement:previous-turn-shall-come-from-a-safe-durable-run-result @capability:PREVIOUS_TURN
  Scenario: Creation times disagree with seq
    Given these earlier Runs exist:
      | session   | seq | intent          | state    | created |
      | session-1 | 1   | DIAGNOSIS       | SUCCESS  | 3       |
      | session-1 | 3   | KNOWLEDGE_QUERY | SUCCESS  | 2       |
      | session-1 | 2   | DIAGNOSIS       | SUCCESS  | 1       |
      | session-1 | 4   | -               | FAILED   | 4       |
    And a user asks "And what about the payment service?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the previous turn is the latest same-session DIAGNOSIS + SUCCESS Run by seq, and every newer same-session Run is skipped with its reason
    And every global invariant holds

  @extension @requirement:previous-turn-shall-come-from-a-safe-durable-run-result @capability:PREVIOUS_TURN
  Scenario: Only the selected previous turn reaches the Diagnosis Agent
    Given the session has these earlier Runs:
      | seq | intent    | state     |
      | 1   | DIAGNOSIS | SUCCESS   |
      | 2   | DIAGNOSIS | FAILED    |
      | 3   | DIAGNOSIS | CANCELLED |
      | 4   | DIAGNOSIS | FALLBACK  |
    And another session has a successful earlier Run asking "Why is the other tenant's billing job stuck?"
    And a user asks "And what about the payment service?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then no model call receives text of an earlier Run other than the selected previous turn
    And every global invariant holds

  @extension @requirement:previous-turn-shall-come-from-a-safe-durable-run-result @capability:PREVIOUS_TURN @capability:KNOWLEDGE_QUERY
  Scenario: A knowledge question follows failed and fallback Runs
    Given the session has these earlier Runs:
      | seq | intent          | state    |
      | 1   | DIAGNOSIS       | SUCCESS  |
      | 2   | DIAGNOSIS       | FAILED   |
      | 3   | KNOWLEDGE_QUERY | FALLBACK |
    And a user asks the knowledge question "How do I rotate the checkout API key?"
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_1"
    And lookup_documents returns the documents "d1" and "d2"
    And the agent then submits an answer citing the documents "d1" from "lookup_1"
    And the SemanticGuard supports the answer
    When the Run is executed
    Then no model call receives text of an earlier Run other than the selected previous turn
    And every global invariant holds

  @extension @requirement:previous-turn-shall-come-from-a-safe-durable-run-result @capability:PREVIOUS_TURN
  Scenario: More than a hundred newer Runs were passed over
    Given the session has a DIAGNOSIS + SUCCESS Run followed by 120 Runs that ended with FALLBACK
    And a user asks "And what about the payment service?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the trace records it as the frozen contracts define
    And every global invariant holds

  @extension @requirement:previous-turn-shall-come-from-a-safe-durable-run-result @capability:CANCELLATION
  Scenario Outline: A disconnect after the Run finished changes nothing
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits <draft>
    And the SemanticGuard <review>
    And the client disconnects on the RUN_FINISHED event number 1
    When the Run is executed
    Then the finished Run stays as it was released: its row, its trace and its published result
    And every global invariant holds

    Examples:
      | draft                      | review                               |
      | a draft observing "call_1" | supports the draft                   |
      | a draft observing "call_1" | finds the analysis "a1" unsupported  |

  @extension @requirement:previous-turn-shall-come-from-a-safe-durable-run-result @capability:PREVIOUS_TURN @capability:CANCELLATION
  Scenario: A cancelled Run leaves an older running Run as it was
    Given a user asks "Why is checkout failing?"
    And the session has these earlier Runs:
      | seq | intent    | state   |
      | 1   | DIAGNOSIS | SUCCESS |
      | 2   | DIAGNOSIS | RUNNING |
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    And the client disconnects on the TOOL_CALL_ACCEPTED event number 1
    When the Run is executed
    Then the disconnect cancels the Run layer by layer and nothing is released
    And every global invariant holds

  @extension @requirement:previous-turn-shall-come-from-a-safe-durable-run-result
  Scenario Outline: The Run's row keeps the user's message as it was asked
    Given <question>
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the Run's diagnosis_run row holds the user's message as it was asked
    And every global invariant holds

    Examples:
      | question                                       |
      | a user asks "  Why is checkout failing?\u000a" |
      | a user asks a question of 16000 characters     |

  @extension @requirement:previous-turn-shall-come-from-a-safe-durable-run-result @capability:PREVIOUS_TURN
  Scenario: The previous turn is the greatest seq as a number, of this very session
    Given these earlier Runs exist:
      | session   | seq | intent    | state    | created |
      | session-1 | 9   | DIAGNOSIS | SUCCESS  | 1       |
      | session-1 | 10  | DIAGNOSIS | SUCCESS  | 2       |
      | SESSION-1 | 11  | DIAGNOSIS | SUCCESS  | 3       |
      | session-1 | 12  | DIAGNOSIS | FALLBACK | 4       |
    And a user asks "And what about the payment service?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the previous turn is the latest same-session DIAGNOSIS + SUCCESS Run by seq, and every newer same-session Run is skipped with its reason
    And every global invariant holds
