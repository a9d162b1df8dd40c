Feature: Knowledge answers SHALL use exact RAG bindings
  A knowledge answer is bounded answer items whose references name the single lookup Tool Call and
  document IDs that lookup returned.

  @spec @requirement:knowledge-answers-shall-use-exact-rag-bindings @scenario:knowledge-answer-cites-an-unknown-document @capability:KNOWLEDGE_QUERY @capability:STRUCTURAL_REPAIR
  Scenario: Knowledge answer cites an unknown document
    Given a user asks the knowledge question "How do I rotate the checkout API key?"
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_1"
    And lookup_documents returns the documents "d1" and "d2"
    And the agent then submits an answer citing the documents "d1" and "d9" from "lookup_1"
    And the structural repair submits an answer citing the documents "d1" from "lookup_1"
    And the SemanticGuard supports the answer
    When an answer item references a document ID absent from the bounded lookup result
    Then later Harness validation rejects the answer instead of publishing the fabricated citation
    And every global invariant holds

  @extension @requirement:knowledge-answers-shall-use-exact-rag-bindings @capability:KNOWLEDGE_QUERY @capability:STRUCTURAL_REPAIR
  Scenario: A repaired answer still cites a fabricated document
    Given a user asks the knowledge question "How do I rotate the checkout API key?"
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_1"
    And lookup_documents returns the documents "d1" and "d2"
    And the agent submits an answer citing the documents "d1" and "d9" from "lookup_1" every time
    When the Run is executed
    Then EvidenceGuard rejects both answers with FABRICATED_DOCUMENT_ID and the Run falls back with EVIDENCE_VALIDATION_FAILED and no verified sources
    And every global invariant holds

  @extension @requirement:knowledge-answers-shall-use-exact-rag-bindings @capability:KNOWLEDGE_QUERY @capability:STRUCTURAL_REPAIR
  Scenario: A knowledge answer has zero items although the lookup found documents
    Given a user asks the knowledge question "How do I rotate the checkout API key?"
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_1"
    And lookup_documents returns the documents "d1" and "d2"
    And the agent then submits an answer with zero items from "lookup_1"
    And the structural repair submits an answer citing the documents "d1" and "d2" from "lookup_1"
    And the SemanticGuard supports the answer
    When the Run is executed
    Then EvidenceGuard rejects the first answer with EMPTY_ANSWER_WITH_DOCUMENTS and releases the repaired answer
    And every global invariant holds

  @extension @requirement:knowledge-answers-shall-use-exact-rag-bindings @capability:KNOWLEDGE_QUERY @capability:STRUCTURAL_REPAIR
  Scenario: A knowledge answer has zero items and a limitation although the lookup found documents
    Given a user asks the knowledge question "How do I rotate the checkout API key?"
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_1"
    And lookup_documents returns the documents "d1" and "d2"
    And the agent then submits an answer with zero items and the limitation "The documents do not say." from "lookup_1"
    And the structural repair submits an answer citing the documents "d1" and "d2" from "lookup_1"
    And the SemanticGuard supports the answer
    When the Run is executed
    Then EvidenceGuard rejects the first answer with EMPTY_ANSWER_WITH_DOCUMENTS and releases the repaired answer
    And every global invariant holds

  @extension @requirement:knowledge-answers-shall-use-exact-rag-bindings @capability:KNOWLEDGE_QUERY @capability:STRUCTURAL_REPAIR
  Scenario Outline: A knowledge answer cites a document id that only resembles a returned one
    Given a user asks the knowledge question "How do I rotate the checkout API key?"
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_1"
    And lookup_documents returns the documents "d1" and "d2"
    And the agent submits an answer citing the documents <cited> from "lookup_1" every time
    When the Run is executed
    Then EvidenceGuard rejects both answers with FABRICATED_DOCUMENT_ID and the Run falls back with EVIDENCE_VALIDATION_FAILED and no verified sources
    And every global invariant holds

    Examples:
      | cited        |
      | "D1"         |
      | "1"          |
      | "d1" and "0" |
      | "d10"        |

  @extension @requirement:knowledge-answers-shall-use-exact-rag-bindings @capability:KNOWLEDGE_QUERY @capability:STRUCTURAL_REPAIR
  Scenario: A knowledge answer names one of two lookups
    Given a user asks the knowledge question "How do I rotate the checkout API key?"
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_1"
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_2"
    And lookup_documents returns the documents "d1" and "d2"
    And the agent submits an answer citing the documents "d1" from "lookup_1" every time
    When the Run is executed
    Then EvidenceGuard rejects both answers with LOOKUP_CALL_COUNT and the Run falls back with EVIDENCE_VALIDATION_FAILED and no verified sources
    And every global invariant holds

  @extension @requirement:knowledge-answers-shall-use-exact-rag-bindings @capability:KNOWLEDGE_QUERY
  Scenario: A knowledge answer names the lookup beside another tool's call
    Given a user asks the knowledge question "How do I rotate the checkout API key?"
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_1"
    And in step 1 the agent calls search_logs with the Tool Call ID "call_2"
    And lookup_documents returns the documents "d1" and "d2"
    And each search_logs execution returns a different matching line
    And the agent then submits an answer citing the documents "d1" from "lookup_1"
    And the SemanticGuard supports the answer
    When the Run is executed
    Then every global invariant holds

  @extension @requirement:knowledge-answers-shall-use-exact-rag-bindings @capability:KNOWLEDGE_QUERY
  Scenario: A failed lookup is called again and the answer names the READY one
    Given a user asks the knowledge question "How do I rotate the checkout API key?"
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_1"
    And in step 2 the agent calls lookup_documents with the Tool Call ID "lookup_2"
    And the first lookup_documents execution raises "lookup backend down at 10.0.0.9" and later ones return the documents "d1" and "d2"
    And the agent then submits an answer citing the documents "d1" from "lookup_2"
    And if the agent is asked again, it submits an answer citing the documents "d1" from "lookup_2"
    And the SemanticGuard supports the answer
    When the Run is executed
    Then every global invariant holds

  @extension @requirement:knowledge-answers-shall-use-exact-rag-bindings @capability:KNOWLEDGE_QUERY @capability:STRUCTURAL_REPAIR
  Scenario: A knowledge answer names the lookup that failed
    Given a user asks the knowledge question "How do I rotate the checkout API key?"
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_1"
    And in step 2 the agent calls lookup_documents with the Tool Call ID "lookup_2"
    And the first lookup_documents execution raises "lookup backend down at 10.0.0.9" and later ones return the documents "d1" and "d2"
    And the agent then submits an answer with zero items from "lookup_1"
    And the structural repair submits an answer citing the documents "d2" from "lookup_2"
    And the SemanticGuard supports the answer
    When the Run is executed
    Then EvidenceGuard rejects the first answer with LOOKUP_CALL_COUNT or INVOCATION_NOT_READY at "/lookup_tool_call_id"
    And every global invariant holds

  @extension @requirement:knowledge-answers-shall-use-exact-rag-bindings @capability:KNOWLEDGE_QUERY @capability:STRUCTURAL_REPAIR
  Scenario: A knowledge answer cites a document the bounded lookup result left out
    Given a user asks the knowledge question "How do I rotate the checkout API key?"
    And the projection limits are 2 items of at most 2000 characters
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_1"
    And lookup_documents returns the documents "d1", "d2" and "d3"
    And the agent submits an answer citing the documents "d3" from "lookup_1" every time
    When an answer item references a document ID absent from the bounded lookup result
    Then EvidenceGuard rejects both answers with FABRICATED_DOCUMENT_ID and the Run falls back with EVIDENCE_VALIDATION_FAILED and no verified sources
    And every global invariant holds

  @extension @requirement:knowledge-answers-shall-use-exact-rag-bindings @capability:KNOWLEDGE_QUERY @capability:STRUCTURAL_REPAIR
  Scenario Outline: A knowledge item without references is reported with the contract's violation code
    Given a user asks the knowledge question "How do I rotate the checkout API key?"
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_1"
    And lookup_documents returns the documents "d1" and "d2"
    And the agent then submits an answer from "lookup_1" whose item <binding>
    And the structural repair submits an answer citing the documents "d1" from "lookup_1"
    And the SemanticGuard supports the answer
    When the Run is executed
    Then the trace records it as the frozen contracts define
    And every global invariant holds

    Examples:
      | binding                    |
      | has no references          |
      | lacks the references field |

  @extension @requirement:knowledge-answers-shall-use-exact-rag-bindings @capability:KNOWLEDGE_QUERY @capability:STRUCTURAL_REPAIR
  Scenario: An answer item cites a returned document and a fabricated one
    Given a user asks the knowledge question "How do I rotate the checkout API key?"
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_1"
    And lookup_documents returns the documents "d1" and "d2"
    And the agent submits an answer whose one item cites the documents "d1" and "d9" from "lookup_1" every time
    When the Run is executed
    Then EvidenceGuard rejects both answers with FABRICATED_DOCUMENT_ID and the Run falls back with EVIDENCE_VALIDATION_FAILED and no verified sources
    And every global invariant holds

  @extension @requirement:knowledge-answers-shall-use-exact-rag-bindings @capability:KNOWLEDGE_QUERY @capability:STRUCTURAL_REPAIR
  Scenario: A knowledge item without references stands beside a valid one
    Given a user asks the knowledge question "How do I rotate the checkout API key?"
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_1"
    And lookup_documents returns the documents "d1" and "d2"
    And the agent then submits an answer citing the documents "d1" from "lookup_1" and an item without references
    And the structural repair submits an answer citing the documents "d1" from "lookup_1"
    And the SemanticGuard supports the answer
    When the Run is executed
    Then the trace records it as the frozen contracts define
    And every global invariant holds

  @extension @requirement:knowledge-answers-shall-use-exact-rag-bindings @capability:KNOWLEDGE_QUERY @capability:STRUCTURAL_REPAIR
  Scenario Outline: A knowledge answer writes one of its lists as its one entry
    Given a user asks the knowledge question "How do I rotate the checkout API key?"
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_1"
    And lookup_documents returns the documents "d1" and "d2"
    And the agent then submits <answer>
    And the structural repair submits an answer citing the documents "d1" from "lookup_1"
    And the SemanticGuard supports the answer
    When the Run is executed
    Then EvidenceGuard rejects the first answer with SCHEMA_INVALID and releases the repaired answer
    And every global invariant holds

    Examples:
      | answer                                                                                                 |
      | an answer citing the documents "d1" from "lookup_1" whose items list is written as its one entry       |
      | an answer citing the documents "d1" from "lookup_1" whose references list is written as its one entry  |
      | an answer citing the documents "d1" from "lookup_1" whose limitations list is written as its one entry |

  @extension @requirement:knowledge-answers-shall-use-exact-rag-bindings @capability:KNOWLEDGE_QUERY @capability:STRUCTURAL_REPAIR
  Scenario: A knowledge answer repeats an item ID
    Given a user asks the knowledge question "How do I rotate the checkout API key?"
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_1"
    And lookup_documents returns the documents "d1" and "d2"
    And the agent then submits an answer citing the documents "d1" and "d2" from "lookup_1" under one item ID
    And the structural repair submits an answer citing the documents "d1" from "lookup_1"
    And the SemanticGuard supports the answer
    When the Run is executed
    Then EvidenceGuard rejects the first answer with DUPLICATE_ITEM_ID and releases the repaired answer
    And every global invariant holds

  @extension @requirement:knowledge-answers-shall-use-exact-rag-bindings @capability:KNOWLEDGE_QUERY @capability:STRUCTURAL_REPAIR
  Scenario: A knowledge answer repeats its second item ID after a hundred distinct ones
    Given a user asks the knowledge question "How do I rotate the checkout API key?"
    And the projection limits are 200 items of at most 2000 characters
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_1"
    And lookup_documents returns the documents "doc-1" through "doc-101"
    And the agent then submits an answer whose items "i1" through "i100" and "i2" cite the documents "doc-1" through "doc-101" from "lookup_1"
    And the structural repair submits an answer citing the documents "doc-1" from "lookup_1"
    And the SemanticGuard supports the answer
    When the Run is executed
    Then EvidenceGuard rejects the first answer with DUPLICATE_ITEM_ID and releases the repaired answer
    And every global invariant holds

  @extension @requirement:knowledge-answers-shall-use-exact-rag-bindings @capability:KNOWLEDGE_QUERY @capability:STRUCTURAL_REPAIR
  Scenario Outline: A knowledge answer cites documents of a lookup that returned none
    Given a user asks the knowledge question "How do I rotate the checkout API key?"
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_1"
    And lookup_documents finds nothing
    And the agent submits <answer> every time
    When the Run is executed
    Then EvidenceGuard rejects both answers with FABRICATED_DOCUMENT_ID and the Run falls back with EVIDENCE_VALIDATION_FAILED and no verified sources
    And every global invariant holds

    Examples:
      | answer                                                               |
      | an answer citing the documents "d1" from "lookup_1"                  |
      | an answer citing the documents "d1" and "d2" from "lookup_1"         |
      | an answer whose one item cites the documents "d1" and "d9" from "lookup_1" |

  @extension @requirement:knowledge-answers-shall-use-exact-rag-bindings @capability:KNOWLEDGE_QUERY @capability:STRUCTURAL_REPAIR
  Scenario: A knowledge answer cites documents of the lookup that failed
    Given a user asks the knowledge question "How do I rotate the checkout API key?"
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_1"
    And lookup_documents raises "lookup backend down at 10.0.0.9"
    And the agent submits an answer citing the documents "d1" from "lookup_1" every time
    When the Run is executed
    Then EvidenceGuard rejects both answers and the Run falls back with EVIDENCE_VALIDATION_FAILED and no verified sources
    And every global invariant holds

  @extension @requirement:knowledge-answers-shall-use-exact-rag-bindings @capability:KNOWLEDGE_QUERY @capability:STRUCTURAL_REPAIR
  Scenario Outline: A knowledge answer names the lookup Tool Call ID in another spelling
    Given a user asks the knowledge question "How do I rotate the checkout API key?"
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_1"
    And lookup_documents returns the documents "d1" and "d2"
    And the agent submits <answer> every time
    When the Run is executed
    Then EvidenceGuard rejects both answers and the Run falls back with EVIDENCE_VALIDATION_FAILED and no verified sources
    And every global invariant holds

    Examples:
      | answer                                                                               |
      | an answer citing the documents "d1" from "LOOKUP_1"                                  |
      | an answer citing the documents "d1" from "Lookup_1"                                  |
      | an answer citing the documents "d1" from "\uff4cookup_1"                             |
      | an answer citing the documents "d1" from " lookup_1"                                 |
      | an answer naming "lookup_1" whose references cite the documents "d1" from "LOOKUP_1" |
      | an answer naming "LOOKUP_1" whose references cite the documents "d1" from "lookup_1" |
      | an answer naming "lookup_1" whose references cite the documents "d1" from "lookup_1 " |

  @extension @requirement:knowledge-answers-shall-use-exact-rag-bindings @capability:KNOWLEDGE_QUERY @capability:STRUCTURAL_REPAIR
  Scenario Outline: A knowledge answer and its repair each break one keyword of the knowledge-answer schema
    Given a user asks the knowledge question "How do I rotate the checkout API key?"
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_1"
    And lookup_documents returns the documents "d1" and "d2"
    And the agent then submits a full answer on "lookup_1" breaking <first>
    And the structural repair submits a full answer on "lookup_1" breaking <second>
    When the Run is executed
    Then the fallback type is EVIDENCE_VALIDATION_FAILED and verified sources are empty
    And every global invariant holds

    # Generated from schemas/knowledge-answer.schema.json by conformance.keywordbreaks: one row
    # per pair of keyword breaks; tests/conformance/test_conf_keyword_breaks.py checks the table.
    Examples:
      | first | second |
      | type at "" | type at "/lookup_tool_call_id" |
      | maxLength at "/lookup_tool_call_id" | pattern at "/lookup_tool_call_id" |
      | type at "/items" | maxLength at "/items/0/item_id" |
      | pattern at "/items/0/item_id" | minLength at "/items/0/text" |
      | maxLength at "/items/0/text" | maxLength at "/items/0/references/0/tool_call_id" |
      | pattern at "/items/0/references/0/tool_call_id" | maxLength at "/items/0/references/0/document_id" |
      | pattern at "/items/0/references/0/document_id" | required at "/items/0/references/0/tool_call_id" |
      | required at "/items/0/references/0/document_id" | additionalProperties at "/items/0/references/0/extra" |
      | minItems at "/items/0/references" | required at "/items/0/item_id" |
      | required at "/items/0/text" | required at "/items/0/references" |
      | additionalProperties at "/items/0/extra" | minLength at "/limitations/0/text" |
      | maxLength at "/limitations/0/text" | required at "/limitations/0/text" |
      | additionalProperties at "/limitations/0/extra" | required at "/lookup_tool_call_id" |
      | required at "/items" | required at "/limitations" |
      | additionalProperties at "/extra" | type at "/items" with its lone item |
      | type at "/items/0/references" with its lone item | type at "/limitations" with its lone item |

  @extension @requirement:knowledge-answers-shall-use-exact-rag-bindings @capability:KNOWLEDGE_QUERY
  Scenario Outline: A released knowledge answer keeps the order of its items and references
    Given a user asks the knowledge question "How do I rotate the checkout API key?"
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_1"
    And lookup_documents returns the documents "runbook-zeta", "faq-mid" and "runbook-alpha"
    And the agent then submits <answer>
    And the SemanticGuard supports the answer
    When the Run is executed
    Then every global invariant holds

    Examples:
      | answer                                                                                                                      |
      | an answer citing the documents "runbook-zeta", "faq-mid" and "runbook-alpha" from "lookup_1"                                |
      | an answer whose one item cites the documents "runbook-zeta", "faq-mid" and "runbook-alpha" from "lookup_1"                  |
      | an answer whose items "i3", "i10" and "i2" cite the documents "runbook-alpha", "faq-mid" and "runbook-zeta" from "lookup_1" |

  @extension @requirement:knowledge-answers-shall-use-exact-rag-bindings @capability:KNOWLEDGE_QUERY @capability:STRUCTURAL_REPAIR
  Scenario: The last of a hundred answer items cites a fabricated document
    Given a user asks the knowledge question "How do I rotate the checkout API key?"
    And the projection limits are 200 items of at most 2000 characters
    And in step 1 the agent calls lookup_documents with the Tool Call ID "lookup_1"
    And lookup_documents returns the documents "doc-1" through "doc-99"
    And the agent then submits an answer citing the documents "doc-1" through "doc-99" and "doc-404" from "lookup_1"
    And the structural repair submits an answer citing the documents "doc-1" through "doc-99" from "lookup_1"
    And the SemanticGuard supports the answer
    When the Run is executed
    Then later Harness validation rejects the answer instead of publishing the fabricated citation
    And every global invariant holds
