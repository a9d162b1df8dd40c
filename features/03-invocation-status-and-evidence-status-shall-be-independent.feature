Feature: Invocation status and evidence status SHALL be independent
  PROJECTING/READY/ERROR is the invocation lifecycle; EVIDENCE_FOUND/NO_EVIDENCE/ERROR is what the
  result says. A successful query can find nothing, and a backend can answer with an error.

  @spec @requirement:invocation-status-and-evidence-status-shall-be-independent @scenario:successful-query-returns-no-evidence
  Scenario: Successful query returns no evidence
    Given a user asks "Did checkout log any errors in the last 15 minutes?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And search_logs finds nothing
    And the agent then submits a draft with a NEGATIVE_OBSERVATION on "call_1" within its query scope
    And the SemanticGuard supports the draft
    When a Tool executes successfully and its bounded projection contains zero matching evidence
    Then invocation status is READY and evidence status is NO_EVIDENCE
    And every global invariant holds

  @spec @requirement:invocation-status-and-evidence-status-shall-be-independent @scenario:no-evidence-result-is-cited @capability:STRUCTURAL_REPAIR
  Scenario: No-evidence result is cited
    Given a user asks "Did checkout log any errors in the last 15 minutes?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And search_logs finds nothing
    And the agent then submits a draft observing "call_1"
    And the structural repair submits a draft with a NEGATIVE_OBSERVATION on "call_1" within its query scope
    And the SemanticGuard supports the draft
    When a Diagnosis Draft cites a NO_EVIDENCE Tool result
    Then the Analysis kind MUST be NEGATIVE_OBSERVATION and MUST remain bounded to the Tool query scope
    And every global invariant holds

  @extension @requirement:invocation-status-and-evidence-status-shall-be-independent
  Scenario: A NEGATIVE_OBSERVATION narrowed to one instant of its query is released
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And search_logs finds nothing
    And the agent then submits a draft with a NEGATIVE_OBSERVATION on "call_1" narrowed to one instant
    And the SemanticGuard supports the draft
    When a Diagnosis Draft cites a NO_EVIDENCE Tool result
    Then the Analysis kind MUST be NEGATIVE_OBSERVATION and MUST remain bounded to the Tool query scope
    And every global invariant holds

  @extension @requirement:invocation-status-and-evidence-status-shall-be-independent @capability:STRUCTURAL_REPAIR
  Scenario: An INFERENCE cites only a NO_EVIDENCE result
    Given a user asks "Did checkout log any errors in the last 15 minutes?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And search_logs finds nothing
    And the agent then submits a draft inferring from "call_1" only
    And the structural repair submits a draft with a NEGATIVE_OBSERVATION on "call_1" within its query scope
    And the SemanticGuard supports the draft
    When a Diagnosis Draft cites a NO_EVIDENCE Tool result
    Then EvidenceGuard rejects the first draft with NO_EVIDENCE_NOT_NEGATIVE and releases the repaired draft
    And every global invariant holds

  @extension @requirement:invocation-status-and-evidence-status-shall-be-independent
  Scenario: A backend answers with an in-band error
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 1 the agent calls query_metrics with the Tool Call ID "call_2"
    And each search_logs execution returns a different matching line
    And query_metrics answers with the in-band error "RATE_LIMITED"
    And the agent then submits a draft observing "call_1" with "call_2" as a limitation
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the invocation "call_2" is READY with evidence status ERROR and the error code BACKEND_ERROR
    And every global invariant holds

  @extension @requirement:invocation-status-and-evidence-status-shall-be-independent @capability:STRUCTURAL_REPAIR
  Scenario: An analysis cites ERROR evidence
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 1 the agent calls query_metrics with the Tool Call ID "call_2"
    And each search_logs execution returns a different matching line
    And query_metrics answers with the in-band error "RATE_LIMITED"
    And the agent then submits a draft observing "call_1" and "call_2"
    And the structural repair submits a draft observing "call_1" with "call_2" as a limitation
    And the SemanticGuard supports the draft
    When the Run is executed
    Then EvidenceGuard rejects the first draft with ERROR_EVIDENCE_CITED and releases the repaired draft
    And every global invariant holds

  @extension @requirement:invocation-status-and-evidence-status-shall-be-independent @capability:STRUCTURAL_REPAIR
  Scenario: An INFERENCE cites an in-band error
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 1 the agent calls query_metrics with the Tool Call ID "call_2"
    And each search_logs execution returns a different matching line
    And query_metrics answers with the in-band error "RATE_LIMITED"
    And the agent then submits a draft inferring from "call_2" only
    And the structural repair submits a draft observing "call_1" with "call_2" as a limitation
    And the SemanticGuard supports the draft
    When the Run is executed
    Then EvidenceGuard rejects the first draft with ERROR_EVIDENCE_CITED and releases the repaired draft
    And every global invariant holds

  @extension @requirement:invocation-status-and-evidence-status-shall-be-independent
  Scenario: A call whose time range ends before it starts is never executed
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 1 the agent calls query_metrics with the Tool Call ID "call_2"
    And "call_2" asks for a time range that ends before it starts
    And each search_logs execution returns a different matching line
    And query_metrics finds nothing
    And the agent then submits a draft observing "call_1" with "call_2" as a limitation
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the released Diagnosis Draft is canonical-JSON-identical to the draft the agent submitted
    And every global invariant holds

  @extension @requirement:invocation-status-and-evidence-status-shall-be-independent @capability:STRUCTURAL_REPAIR
  Scenario Outline: A NEGATIVE_OBSERVATION is wider than its query
    Given a user asks "Did checkout log any errors in the last 15 minutes?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And search_logs finds nothing
    And the agent submits a draft with a NEGATIVE_OBSERVATION on "call_1" widened to <widening> every time
    When the Run is executed
    Then EvidenceGuard rejects both drafts with NEGATIVE_SCOPE_TOO_WIDE and the Run falls back with EVIDENCE_VALIDATION_FAILED and no verified sources
    And every global invariant holds

    Examples:
      | widening                      |
      | every service                 |
      | a whole day                   |
      | any query                     |
      | every service and a whole day |
      | another tool                  |
      | an earlier start              |
      | the target in another case    |
      | a millisecond earlier start   |
      | a millisecond later end       |

  @extension @requirement:invocation-status-and-evidence-status-shall-be-independent @capability:STRUCTURAL_REPAIR
  Scenario: A backend that raises cannot be cited as NO_EVIDENCE
    Given a user asks "Did checkout log any errors in the last 15 minutes?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And search_logs raises "connection refused by 10.0.0.7: token sk-live-0000"
    And the agent submits a draft with a NEGATIVE_OBSERVATION on "call_1" within its query scope every time
    When the Run is executed
    Then the invocation "call_1" ends ERROR with evidence status ERROR and the error code TOOL_FAILED
    And EvidenceGuard rejects both drafts for citing ERROR evidence and the Run falls back with EVIDENCE_VALIDATION_FAILED and no verified sources
    And every global invariant holds

  @extension @requirement:invocation-status-and-evidence-status-shall-be-independent @capability:STRUCTURAL_REPAIR
  Scenario: A NEGATIVE_OBSERVATION stays within the scope of every call it cites
    Given a user asks "Did checkout log any errors in the last 15 minutes?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_2"
    And "call_2" looks at the same query as "call_1" over its last 5 minutes
    And search_logs finds nothing
    And the agent submits a draft with a NEGATIVE_OBSERVATION on "call_1" and "call_2" within the query scope of "call_1" every time
    When the Run is executed
    Then EvidenceGuard rejects both drafts with NEGATIVE_SCOPE_TOO_WIDE and the Run falls back with EVIDENCE_VALIDATION_FAILED and no verified sources
    And every global invariant holds

  @extension @requirement:invocation-status-and-evidence-status-shall-be-independent @capability:STRUCTURAL_REPAIR
  Scenario: A NEGATIVE_OBSERVATION cites a call that found evidence
    Given a user asks "Did checkout log any errors in the last 15 minutes?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft with a NEGATIVE_OBSERVATION on "call_1" within its query scope
    And the structural repair submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then EvidenceGuard rejects the first draft with NEGATIVE_WITHOUT_NO_EVIDENCE and releases the repaired draft
    And every global invariant holds

  @extension @requirement:invocation-status-and-evidence-status-shall-be-independent
  Scenario: A tool call whose time range ends before it starts is never executed
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_2"
    And the time range of "call_1" ends before it starts
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_2"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the invocation "call_1" is never executed and ends ERROR with evidence status ERROR and the error code INVALID_ARGUMENTS
    And every global invariant holds

  @extension @requirement:invocation-status-and-evidence-status-shall-be-independent
  Scenario: A tool call whose arguments carry an extra member keeps them as presented
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_2"
    And the arguments of "call_1" carry an extra member
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_2"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the invocation "call_1" records its arguments as presented
    And the released Diagnosis Draft is canonical-JSON-identical to the draft the agent submitted
    And every global invariant holds

  @extension @requirement:invocation-status-and-evidence-status-shall-be-independent @capability:STRUCTURAL_REPAIR
  Scenario: An OBSERVATION cites a found result and a NO_EVIDENCE result
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 1 the agent calls query_metrics with the Tool Call ID "call_2"
    And each search_logs execution returns a different matching line
    And query_metrics finds nothing
    And the agent then submits a draft observing "call_1" and "call_2"
    And the structural repair submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When a Diagnosis Draft cites a NO_EVIDENCE Tool result
    Then EvidenceGuard rejects the first draft with NO_EVIDENCE_NOT_NEGATIVE and releases the repaired draft
    And every global invariant holds

  @extension @requirement:invocation-status-and-evidence-status-shall-be-independent
  Scenario Outline: A tool call whose arguments sit at the grammar bounds is executed
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And the arguments of "call_1" have <bound>
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then every action is accepted and executed under the Tool Call ID it presented
    And the released Diagnosis Draft is canonical-JSON-identical to the draft the agent submitted
    And every global invariant holds

    Examples:
      | bound                             |
      | a 256-character target            |
      | a 1024-character query            |
      | an empty query                    |
      | a time range of one instant       |
      | a target of 256 astral characters |
      | a query of 1024 astral characters |

  @extension @requirement:invocation-status-and-evidence-status-shall-be-independent
  Scenario Outline: Two tool calls each break one keyword of the arguments schema
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_2"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_3"
    And the arguments of "call_1" break <first>
    And the arguments of "call_2" break <second>
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_3"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the invocation "call_1" is never executed and ends ERROR with evidence status ERROR and the error code INVALID_ARGUMENTS
    And the invocation "call_2" is never executed and ends ERROR with evidence status ERROR and the error code INVALID_ARGUMENTS
    And every global invariant holds

    # Generated from schemas/query-scope.schema.json (the arguments: without tool, open) by
    # conformance.keywordbreaks; tests/conformance/test_conf_keyword_breaks.py checks the table.
    Examples:
      | first | second |
      | type at "/target" | minLength at "/target" |
      | maxLength at "/target" | type at "/time_range" |
      | type at "/time_range/start_ms" | minimum at "/time_range/start_ms" |
      | minimum at "/time_range/end_ms" | required at "/time_range/start_ms" |
      | required at "/time_range/end_ms" | maxLength at "/query" |
      | required at "/target" | required at "/time_range" |
      | required at "/query" | type at "/target" |
