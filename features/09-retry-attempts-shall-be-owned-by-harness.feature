Feature: Retry attempts SHALL be owned by Harness
  SDK, HTTP and database layers make one attempt; the Harness alone retries the Router and the
  SemanticGuard, and records every attempt.

  @spec @requirement:retry-attempts-shall-be-owned-by-harness @scenario:semanticguard-returns-an-invalid-schema
  Scenario: SemanticGuard returns an invalid schema
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard first returns an invalid verdict, then supports the draft
    When the first SemanticGuard attempt returns an invalid structured result
    Then Harness may execute one second attempt with the same verified snapshot and records both attempts
    And every global invariant holds

  @extension @requirement:retry-attempts-shall-be-owned-by-harness
  Scenario Outline: A SemanticGuard answer breaking one rule of the verdict schema is an invalid structured result
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard's first answer is <answer>, then it supports the draft
    When the Run is executed
    Then Harness may execute one second attempt with the same verified snapshot and records both attempts
    And every global invariant holds

    Examples:
      | answer                                             |
      | a verdict with a member the schema does not define |
      | an UNSUPPORTED verdict naming no analysis          |
      | a SUPPORTED verdict naming the analysis "a1"       |

  @extension @requirement:retry-attempts-shall-be-owned-by-harness
  Scenario: The SemanticGuard is unavailable once
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard answers UNAVAILABLE, SUPPORTED
    When the Run is executed
    Then the Harness may make its second SemanticGuard attempt on the same verified snapshot after UNAVAILABLE too, and records both attempts
    And every global invariant holds

  @extension @requirement:retry-attempts-shall-be-owned-by-harness
  Scenario: The second SemanticGuard attempt also fails
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard returns an invalid verdict twice
    When the Run is executed
    Then the Harness makes exactly two SemanticGuard attempts on the same snapshot and the Run falls back with SEMANTIC_UNAVAILABLE
    And every global invariant holds

  @extension @requirement:retry-attempts-shall-be-owned-by-harness
  Scenario: The Router answers with an invalid intent once
    Given a user asks "Why is checkout failing?"
    And the Router first answers an invalid intent, then routes the question
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the Harness records two Router attempts, INVALID_SCHEMA then VALID, and the Run goes on to SUCCESS
    And every global invariant holds

  @extension @requirement:retry-attempts-shall-be-owned-by-harness
  Scenario: The Router is unavailable
    Given a user asks "Why is checkout failing?"
    And the Router is unavailable
    When the Run is executed
    Then the Harness records two Router attempts, both UNAVAILABLE, and the Run fails with ROUTER_UNAVAILABLE
    And every global invariant holds

  @extension @requirement:retry-attempts-shall-be-owned-by-harness
  Scenario: The Diagnosis Agent is unavailable
    Given a user asks "Why is checkout failing?"
    And the agent's first model call is unavailable
    When the Run is executed
    Then the Harness records one Diagnosis Agent attempt, UNAVAILABLE, and the Run fails with AGENT_UNAVAILABLE
    And every global invariant holds

  @extension @requirement:retry-attempts-shall-be-owned-by-harness
  Scenario Outline: Every Router answer gets the attempts the declared policy allows
    Given a user asks "Why is checkout failing?"
    And model calls time out after 300 ms
    And the Router answers <answers>
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard supports the draft
    When the Run is executed
    Then the Run ends as the scripted answers and the declared retry policy decide
    And every global invariant holds

    Examples:
      | answers                 |
      | TIMEOUT                 |
      | UNAVAILABLE, DIAGNOSIS  |
      | INVALID, INVALID        |
      | UNAVAILABLE, TIMEOUT    |
      | INVALID, BLOCK          |
      | LOWER_CASE, DIAGNOSIS   |
      | WRONG_CASE, DIAGNOSIS   |
      | WRONG_CASE, WRONG_CASE  |

  @extension @requirement:retry-attempts-shall-be-owned-by-harness
  Scenario Outline: Two SemanticGuard answers each break one keyword of the verdict schema
    Given a user asks "Why is checkout failing?"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And each search_logs execution returns a different matching line
    And the agent then submits a draft observing "call_1"
    And the SemanticGuard's first answer breaks <first>, its second breaks <second>
    When the Run is executed
    Then the Harness makes exactly two SemanticGuard attempts on the same snapshot and the Run falls back with SEMANTIC_UNAVAILABLE
    And every global invariant holds

    # Generated from schemas/semantic-verdict.schema.json by conformance.keywordbreaks: one row
    # per pair of keyword breaks; tests/conformance/test_conf_keyword_breaks.py checks the table.
    Examples:
      | first | second |
      | type at "" | enum at "/verdict" |
      | type at "/unsupported_analysis_ids" | type at "/unsupported_analysis_ids/0" |
      | maxLength at "/unsupported_analysis_ids/0" | pattern at "/unsupported_analysis_ids/0" |
      | uniqueItems at "/unsupported_analysis_ids" | required at "/verdict" |
      | required at "/unsupported_analysis_ids" | additionalProperties at "/extra" |
      | minItems at "/unsupported_analysis_ids" | maxItems at "/unsupported_analysis_ids" |
      | type at "/unsupported_analysis_ids" with its lone item | type at "" |
