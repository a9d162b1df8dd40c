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
