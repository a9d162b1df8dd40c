Feature: Diagnosis Draft SHALL expose typed report structure
  A Diagnosis Draft is a typed report: conclusion, analyses, action plan, recommendations and
  limitations, each analysis bound to Tool Call IDs, with no chain-of-thought or raw payloads.

  @spec @requirement:diagnosis-draft-shall-expose-typed-report-structure @scenario:draft-contains-an-analysis-item
  Scenario: Draft contains an analysis item
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 1 the agent calls query_metrics with the Tool Call ID "call_2"
    And each search_logs execution returns a different matching line
    And each query_metrics execution returns a different matching line
    And the agent then submits a draft with three analyses citing "call_1" and "call_2"
    And the SemanticGuard supports the draft
    When the Diagnosis Agent emits a structured Draft
    Then every Analysis has a unique analysis ID, a fixed Analysis kind and at least one Tool Call ID
    And every global invariant holds

  @extension @requirement:diagnosis-draft-shall-expose-typed-report-structure @capability:STRUCTURAL_REPAIR
  Scenario: The agent always omits Tool Call IDs
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent submits a draft whose analyses have no Tool Call IDs every time
    When the Run is executed
    Then the agent is called for exactly one draft and one structural repair, and the Run falls back with EVIDENCE_VALIDATION_FAILED and no verified sources
    And every global invariant holds

  @extension @requirement:diagnosis-draft-shall-expose-typed-report-structure @capability:STRUCTURAL_REPAIR
  Scenario: A draft repeats an analysis ID
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft repeating the analysis ID "a1" for "call_1"
    And the structural repair submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then EvidenceGuard rejects the first draft with DUPLICATE_ANALYSIS_ID and releases the repaired draft
    And every global invariant holds

  @extension @requirement:diagnosis-draft-shall-expose-typed-report-structure @capability:STRUCTURAL_REPAIR
  Scenario: A draft repeats its second analysis ID after a hundred distinct ones
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft whose analyses "a1" through "a100" and "a2" each observe "call_1"
    And the structural repair submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then EvidenceGuard rejects the first draft with DUPLICATE_ANALYSIS_ID and releases the repaired draft
    And every global invariant holds

  @extension @requirement:diagnosis-draft-shall-expose-typed-report-structure
  Scenario: Analysis IDs that differ only in case are two unique analysis IDs
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft whose analyses "a1", "A1" each observe "call_1"
    And if the agent is asked again, it submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the released Diagnosis Draft is canonical-JSON-identical to the draft the agent submitted
    And every global invariant holds

  @extension @requirement:diagnosis-draft-shall-expose-typed-report-structure
  Scenario: Raw rows beyond the bounded projection never reach a model
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And search_logs returns more rows than the bounded projection keeps
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then no model call receives a backend row beyond the bounded projection
    And every global invariant holds

  @extension @requirement:diagnosis-draft-shall-expose-typed-report-structure @capability:STRUCTURAL_REPAIR
  Scenario Outline: A draft binds an unknown Tool Call ID or analysis among known ones
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits <draft>
    And the structural repair submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then EvidenceGuard rejects the first draft with <code> at "<pointer>" and releases the repaired draft
    And every global invariant holds

    Examples:
      | draft                                                       | code                 | pointer                        |
      | a draft observing "call_1" and "call_9"                     | UNKNOWN_TOOL_CALL_ID | /analyses/0/tool_call_ids/1    |
      | a draft observing "call_1" with "call_9" as a limitation    | UNKNOWN_TOOL_CALL_ID | /limitations/0/tool_call_ids/0 |
      | a draft observing "call_1" whose conclusion also names "a9" | UNKNOWN_ANALYSIS_ID  | /conclusion/analysis_ids/1     |
      | a draft observing "call_1" whose action plan also names "a9" | UNKNOWN_ANALYSIS_ID | /action_plan/0/analysis_ids/1 |
      | a draft observing "call_1" whose recommendation also names "a9" | UNKNOWN_ANALYSIS_ID | /recommendations/0/analysis_ids/1 |

  @extension @requirement:diagnosis-draft-shall-expose-typed-report-structure
  Scenario Outline: A backend result larger than the projection limits is cut and marked truncated
    Given a user asks "Why is checkout failing?"
    And the projection limits are <items> items of at most <chars> characters
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And search_logs returns <rows> rows of <length> characters
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the projection of "call_1" keeps at most <items> items of at most <chars> characters, with the backend's total_matched, and is marked truncated
    And every global invariant holds

    Examples:
      | items | chars | rows | length |
      | 20    | 2000  | 1    | 3000   |
      | 3     | 2000  | 5    | 40     |
      | 3     | 100   | 5    | 3000   |
      | 3     | 100   | 13   | 4096   |
      | 3     | 10    | 2    | 12 astral |
      | 0     | 2000  | 2    | 40     |
      | 3     | 0     | 2    | 40     |

  @extension @requirement:diagnosis-draft-shall-expose-typed-report-structure @capability:STRUCTURAL_REPAIR
  Scenario Outline: A missing Tool Call ID binding is reported with the contract's violation code
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits <draft>
    And the structural repair submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the trace records it as the frozen contracts define
    And every global invariant holds

    Examples:
      | draft                                                                    |
      | a draft whose analyses have no Tool Call IDs                             |
      | a draft whose analyses lack the tool_call_ids field                      |
      | a draft observing "call_1" whose limitation lacks the tool_call_ids field |
      | a draft observing "call_1" beside an inference without Tool Call IDs      |

  @extension @requirement:diagnosis-draft-shall-expose-typed-report-structure
  Scenario Outline: A backend reports more matches than the rows it returns
    Given a user asks "Why is checkout failing?"
    And the projection limits are <items> items of at most <chars> characters
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And search_logs returns <rows> rows of <length> characters out of <matches> matches
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the projection of "call_1" keeps at most <items> items of at most <chars> characters, with the backend's total_matched, and is marked truncated
    And every global invariant holds

    Examples:
      | items | chars | rows | length | matches |
      | 2     | 100   | 3    | 40     | 50      |
      | 3     | 100   | 0    | 40     | 3       |

  @extension @requirement:diagnosis-draft-shall-expose-typed-report-structure @capability:STRUCTURAL_REPAIR
  Scenario Outline: A draft carries a member its contract does not define
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1" with an extra "<member>" member <where>
    And the structural repair submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then EvidenceGuard rejects the first draft with SCHEMA_INVALID and releases the repaired draft
    And every global invariant holds

    Examples:
      | member    | where                 |
      | reasoning | at its top level      |
      | thoughts  | in its first analysis |

  @extension @requirement:diagnosis-draft-shall-expose-typed-report-structure @capability:STRUCTURAL_REPAIR
  Scenario Outline: A draft breaks its contract in one value only
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits <draft>
    And the structural repair submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then EvidenceGuard rejects the first draft with SCHEMA_INVALID and releases the repaired draft
    And every global invariant holds

    Examples:
      | draft                                                                                         |
      | a draft observing "call_1" whose analysis kind is written "observation"                       |
      | a draft observing "call_1" whose analysis kind is written " OBSERVATION"                      |
      | a draft observing "call_1" whose confidence is written "high"                                 |
      | a draft observing "call_1" whose action plan has an entry naming no analysis                  |
      | a draft observing "call_1" whose analysis kind is written "Inference"                         |
      | a draft observing "call_1" whose confidence is written "Medium"                               |
      | a draft observing "call_1" beside an analysis named by nothing whose ID is "a 2"              |
      | a draft observing "call_1" beside an analysis named by nothing whose ID is a 129-character ID |
      | a draft observing "call_1" whose analysis list is written as its one ID                       |
      | a draft observing "call_1" whose conclusion list is written as its one ID                     |
      | a draft observing "call_1" whose action list is written as its one ID                         |
      | a draft observing "call_1" whose recommendation list is written as its one ID                 |
      | a draft observing "call_1" whose limitation list is written as its one ID                     |

  @extension @requirement:diagnosis-draft-shall-expose-typed-report-structure
  Scenario Outline: A backend result exactly at the projection limits is kept whole
    Given a user asks "Why is checkout failing?"
    And the projection limits are <items> items of at most <chars> characters
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And search_logs returns <rows> rows of <length> characters
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the projection of "call_1" keeps every row whole and is not marked truncated
    And every global invariant holds

    Examples:
      | items | chars | rows | length |
      | 3     | 100   | 3    | 40     |
      | 20    | 40    | 1    | 40     |

  @extension @requirement:diagnosis-draft-shall-expose-typed-report-structure
  Scenario Outline: A draft whose texts sit at their schema bounds is released
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1" whose <member> is <text>
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the released Diagnosis Draft is canonical-JSON-identical to the draft the agent submitted
    And every global invariant holds

    Examples:
      | member    | text                          |
      | summary   | 4000 characters long          |
      | statement | 4000 characters long          |
      | summary   | 4000 astral characters long   |
      | statement | only whitespace               |
      | summary   | 1 character long              |

  @extension @requirement:diagnosis-draft-shall-expose-typed-report-structure @capability:STRUCTURAL_REPAIR
  Scenario Outline: A draft and its repair each break one keyword of the diagnosis-draft schema
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And in step 1 the agent calls query_metrics with the Tool Call ID "call_2"
    And each search_logs execution returns a different matching line
    And query_metrics finds nothing
    And the agent then submits a full draft on "call_1" and "call_2" breaking <first>
    And the structural repair submits a full draft on "call_1" and "call_2" breaking <second>
    When the Run is executed
    Then the fallback type is EVIDENCE_VALIDATION_FAILED and verified sources are empty
    And every global invariant holds

    # Generated from schemas/diagnosis-draft.schema.json by conformance.keywordbreaks: one row
    # per pair of keyword breaks; tests/conformance/test_conf_keyword_breaks.py checks the table.
    Examples:
      | first | second |
      | type at "" | type at "/conclusion/summary" |
      | minLength at "/conclusion/summary" | maxLength at "/conclusion/summary" |
      | enum at "/conclusion/confidence" | type at "/conclusion/analysis_ids" |
      | maxLength at "/conclusion/analysis_ids/0" | pattern at "/conclusion/analysis_ids/0" |
      | minItems at "/conclusion/analysis_ids" | required at "/conclusion/summary" |
      | required at "/conclusion/confidence" | required at "/conclusion/analysis_ids" |
      | additionalProperties at "/conclusion/extra" | maxLength at "/analyses/0/analysis_id" |
      | pattern at "/analyses/0/analysis_id" | enum at "/analyses/0/kind" |
      | minLength at "/analyses/0/statement" | maxLength at "/analyses/0/statement" |
      | maxLength at "/analyses/0/tool_call_ids/0" | pattern at "/analyses/0/tool_call_ids/0" |
      | minItems at "/analyses/0/tool_call_ids" | enum at "/analyses/0/scope/tool" |
      | minLength at "/analyses/0/scope/target" | maxLength at "/analyses/0/scope/target" |
      | type at "/analyses/0/scope/time_range/start_ms" | minimum at "/analyses/0/scope/time_range/start_ms" |
      | minimum at "/analyses/0/scope/time_range/end_ms" | required at "/analyses/0/scope/time_range/start_ms" |
      | required at "/analyses/0/scope/time_range/end_ms" | additionalProperties at "/analyses/0/scope/time_range/extra" |
      | maxLength at "/analyses/0/scope/query" | required at "/analyses/0/scope/tool" |
      | required at "/analyses/0/scope/target" | required at "/analyses/0/scope/time_range" |
      | required at "/analyses/0/scope/query" | additionalProperties at "/analyses/0/scope/extra" |
      | required at "/analyses/0/analysis_id" | required at "/analyses/0/kind" |
      | required at "/analyses/0/statement" | required at "/analyses/0/tool_call_ids" |
      | additionalProperties at "/analyses/0/extra" | required at "/analyses/1/scope" |
      | minItems at "/analyses" | minLength at "/action_plan/0/action" |
      | maxLength at "/action_plan/0/action" | required at "/action_plan/0/action" |
      | required at "/action_plan/0/analysis_ids" | additionalProperties at "/action_plan/0/extra" |
      | minLength at "/recommendations/0/text" | maxLength at "/recommendations/0/text" |
      | required at "/recommendations/0/text" | required at "/recommendations/0/analysis_ids" |
      | additionalProperties at "/recommendations/0/extra" | required at "/limitations/0/text" |
      | required at "/limitations/0/tool_call_ids" | additionalProperties at "/limitations/0/extra" |
      | required at "/conclusion" | required at "/analyses" |
      | required at "/action_plan" | required at "/recommendations" |
      | required at "/limitations" | additionalProperties at "/extra" |
      | type at "/analyses/0/tool_call_ids" with its lone item | type at "/action_plan" with its lone item |
      | type at "/action_plan/0/analysis_ids" with its lone item | type at "/recommendations" with its lone item |
      | type at "/recommendations/0/analysis_ids" with its lone item | type at "/limitations" with its lone item |
      | type at "/conclusion/analysis_ids" with its lone item | type at "/analyses" with its lone item |
      | type at "/limitations/0/tool_call_ids" with its lone item | type at "" |

  @extension @requirement:diagnosis-draft-shall-expose-typed-report-structure @capability:STRUCTURAL_REPAIR
  Scenario: The last of a hundred analyses cites a Tool Call ID the Run never accepted
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call IDs "call_1" through "call_99"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft with one analysis observing each of "call_1" through "call_99" and "call_404"
    And the structural repair submits a draft with one analysis observing each of "call_1" through "call_99"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then EvidenceGuard rejects the first draft with UNKNOWN_TOOL_CALL_ID at "/analyses/99/tool_call_ids/0" and releases the repaired draft
    And every global invariant holds
