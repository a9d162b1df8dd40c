Feature: Safe fallback SHALL use a fixed schema
  A Safe Fallback has a fixed type and message code, lists only verified sources, and never carries
  unvalidated Draft content or internal error text.

  @spec @requirement:safe-fallback-shall-use-a-fixed-schema @scenario:evidence-validation-fails-twice @capability:STRUCTURAL_REPAIR
  Scenario: Evidence validation fails twice
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_9"
    And the structural repair submits a draft observing "call_9"
    When initial validation and the single no-Tool structural repair both fail
    Then the fallback type is EVIDENCE_VALIDATION_FAILED and verified sources are empty
    And every global invariant holds

  @extension @requirement:safe-fallback-shall-use-a-fixed-schema
  Scenario: A tool's raised error text reaches no record of the Run
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 1 the agent calls list_alerts with the Tool Call ID "call_2"
    And each search_logs execution returns a different matching line
    And list_alerts raises "upstream 10.0.0.9 refused the query: password=hunter2 on db-7"
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the raised text reaches no invocation, run row, trace event, published result or client frame
    And every global invariant holds

  @extension @requirement:safe-fallback-shall-use-a-fixed-schema
  Scenario: SemanticGuard is unavailable
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard is unavailable
    When the Run is executed
    Then the Run falls back with SEMANTIC_UNAVAILABLE, listing only verified sources and no draft text
    And every global invariant holds

  @extension @requirement:safe-fallback-shall-use-a-fixed-schema
  Scenario: SemanticGuard finds the draft unsupported
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard finds the analysis "a1" unsupported
    When the Run is executed
    Then the Run falls back with SEMANTIC_UNSUPPORTED, listing only verified sources and no draft text
    And every global invariant holds

  @extension @requirement:safe-fallback-shall-use-a-fixed-schema
  Scenario Outline: A semantic fallback lists exactly the READY calls the draft cites
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 1 the agent calls query_metrics with the Tool Call ID "call_2"
    And in step 1 the agent calls list_alerts with the Tool Call ID "call_3"
    And each search_logs execution returns a different matching line
    And each query_metrics execution returns a different matching line
    And list_alerts raises "alerts backend down at 10.0.0.8"
    And the agent then submits <draft>
    And the SemanticGuard <review>
    When the Run is executed
    Then the Run falls back with <fallback>, listing only verified sources and no draft text
    And every global invariant holds

    # rows 3-6 (red-team-11.md): a READY call cited by a limitation only is listed; a call cited
    # from two places (an analysis and a limitation, two analyses) is listed once
    Examples:
      | draft                                                    | review                              | fallback             |
      | a draft observing "call_1" with "call_3" as a limitation | finds the analysis "a1" unsupported | SEMANTIC_UNSUPPORTED |
      | a draft observing "call_1" with "call_3" as a limitation | is unavailable                      | SEMANTIC_UNAVAILABLE |
      | a draft observing "call_1" with "call_2" as a limitation | finds the analysis "a1" unsupported | SEMANTIC_UNSUPPORTED |
      | a draft observing "call_1" with "call_2" as a limitation | is unavailable                      | SEMANTIC_UNAVAILABLE |
      | a draft observing "call_1" with "call_1" as a limitation | is unavailable                      | SEMANTIC_UNAVAILABLE |
      | a draft whose analyses "a1", "a2" each observe "call_1"  | finds the analysis "a2" unsupported | SEMANTIC_UNSUPPORTED |

  @extension @requirement:safe-fallback-shall-use-a-fixed-schema
  Scenario Outline: A semantic fallback lists a narrowed NEGATIVE_OBSERVATION's call with the call's own query scope
    Given a user asks "Did checkout log any errors in the last 15 minutes?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And search_logs finds nothing
    And the agent then submits a draft with a NEGATIVE_OBSERVATION on "call_1" narrowed to one instant
    And the SemanticGuard <review>
    When the Run is executed
    Then the Run falls back with <fallback>, listing only verified sources and no draft text
    And every global invariant holds

    Examples:
      | review                              | fallback             |
      | finds the analysis "a1" unsupported | SEMANTIC_UNSUPPORTED |
      | is unavailable                      | SEMANTIC_UNAVAILABLE |

  @extension @requirement:safe-fallback-shall-use-a-fixed-schema @capability:STRUCTURAL_REPAIR
  Scenario Outline: A semantic fallback lists a call whose arguments carry an extra member with the call's own query scope
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 1 the agent calls query_metrics with the Tool Call ID "call_2"
    And the arguments of "call_1" carry an extra member
    And each search_logs execution returns a different matching line
    And each query_metrics execution returns a different matching line
    And the agent then submits a draft observing "call_1" and "call_2"
    And if the agent is asked again, it submits a draft observing "call_2"
    And the SemanticGuard <review>
    When the Run is executed
    Then the Run falls back with <fallback>, listing only verified sources and no draft text
    And every global invariant holds

    Examples:
      | review                              | fallback             |
      | finds the analysis "a1" unsupported | SEMANTIC_UNSUPPORTED |
      | is unavailable                      | SEMANTIC_UNAVAILABLE |

  @extension @requirement:safe-fallback-shall-use-a-fixed-schema @capability:STRUCTURAL_REPAIR
  Scenario: A semantic fallback after a repair lists the repaired draft's sources
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 1 the agent calls query_metrics with the Tool Call ID "call_2"
    And each search_logs execution returns a different matching line
    And each query_metrics execution returns a different matching line
    And the agent then submits a draft observing "call_1" and "call_2" with "call_9" as a limitation
    And the structural repair submits a draft observing "call_1"
    And the SemanticGuard finds the analysis "a1" unsupported
    When the Run is executed
    Then the Run falls back with SEMANTIC_UNSUPPORTED, listing only verified sources and no draft text
    And every global invariant holds

  @extension @requirement:safe-fallback-shall-use-a-fixed-schema
  Scenario Outline: The SemanticGuard's last allowed answer decides the fallback
    Given a user asks "Why is checkout failing?"
    And model calls time out after 300 ms
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard answers <answers>
    When the Run is executed
    Then the Run ends as the scripted answers and the declared retry policy decide
    And every global invariant holds

    Examples:
      | answers                  |
      | TIMEOUT                  |
      | BLOCK                    |
      | INVALID, TIMEOUT         |
      | UNAVAILABLE, BLOCK       |
      | UNAVAILABLE, UNSUPPORTED |
      | LOWER_CASE, SUPPORTED    |
      | UNKNOWN_ANALYSIS, SUPPORTED |
      | WRONG_CASE, SUPPORTED    |
      | WRONG_CASE, WRONG_CASE   |

  @extension @requirement:safe-fallback-shall-use-a-fixed-schema @capability:STRUCTURAL_REPAIR
  Scenario Outline: The structural repair answers with a tool call
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_9"
    And the structural repair answers with <answer>
    And if the agent is asked again, it submits a draft observing "call_1" and "call_2"
    When the Run is executed
    Then the repair fails without executing "call_2" and the Run falls back with EVIDENCE_VALIDATION_FAILED and no verified sources
    And every global invariant holds

    Examples:
      | answer                                                                                   |
      | a call of search_logs with the Tool Call ID "call_2"                                     |
      | a draft observing "call_1" together with a call of search_logs with the Tool Call ID "call_2" |

  @extension @requirement:safe-fallback-shall-use-a-fixed-schema @capability:KNOWLEDGE_QUERY
  Scenario Outline: The semantic fallback of a knowledge answer lists the READY lookup it cites
    Given a user asks the knowledge question "How do I rotate the checkout API key?"
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_1"
    And lookup_documents returns the documents "d1" and "d2"
    And the agent then submits <answer>
    And the SemanticGuard <review>
    When the Run is executed
    Then the Run falls back with <fallback>, listing only verified sources and no draft text
    And every global invariant holds

    Examples:
      | answer                                                       | review                          | fallback             |
      | an answer citing the documents "d1" from "lookup_1"          | finds the item "i1" unsupported | SEMANTIC_UNSUPPORTED |
      | an answer citing the documents "d1" from "lookup_1"          | is unavailable                  | SEMANTIC_UNAVAILABLE |
      | an answer citing the documents "d1" and "d2" from "lookup_1" | finds the item "i2" unsupported | SEMANTIC_UNSUPPORTED |
