"""Red team 6's kinds are drawn by the any-fixture generator, and its property alone kills them.

Red team 6 closed its survivors with Gherkin rows (docs/decisions/red-team-6.md). Here the rows
play no part: each kind is a choice of :func:`conformance.hypothesis.scenario_fixtures`
(docs/decisions/open-world-7.md), each fixture is judged by every check of the any-fixture
property (:func:`conformance.anyfixture.judge_any_fixture`: the global invariants with the
outcome and runtime oracles, the model-input rules), and the catalogue mutant of the kind fails:

* by the committed pin of its kind (``conformance/anyfixture/pins.json``, what every default
  ``srdh run`` presents), for the kinds with a pin;
* by fixtures drawn with the kind's choices forced (other shapes than the pin's and the rows'),
  for every kind.

The reference passes the same drawn fixtures (no false kill); the composites and the Java example
pass the pins in their whole-suite runs (tests/selftest/test_selftest_variants.py,
tests/examples/test_java_example.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from conformance.anyfixture._property import PINS
from reference_harness.mutants import MUTANTS
from tests._profile import depth
from tests.selftest.conftest import judge_forced_draws, judge_pin, pinned_fixture

PINNED: dict[str, tuple[str, str]] = {
    "duplicate_after_failed_call_accepted": ("id:duplicate-of-failed-call", "id:"),
    "duplicate_after_no_evidence_accepted": ("id:duplicate-of-failed-call", "id:"),
    "fabricated_reference_on_empty_lookup_accepted": (
        "knowledge:empty-lookup",
        "citation:empty-lookup",
    ),
    "lookup_id_matched_loosely": ("knowledge:respelled", "citation:respelled-lookup-id"),
    "knowledge_fallback_without_sources": (
        "knowledge:semantic-fallback",
        "fallback:KNOWLEDGE_QUERY/SEMANTIC_UNSUPPORTED",
    ),
    "router_call_uncancellable": ("held:ROUTE", "held:ROUTE"),
    "structural_repair_uncancellable": ("held:STRUCTURAL_REPAIR", "held:STRUCTURAL_REPAIR"),
    "semantic_review_uncancellable": ("held:SEMANTIC_REVIEW", "held:SEMANTIC_REVIEW"),
}
"""Mutant (S1-S8) -> the pin of its kind and the vocabulary element the pin's Run reaches."""

_DRAFT: dict[str, Any] = {
    "intent": "DIAGNOSIS",
    "router": ["intent"],
    "submission": "keyword_break",
    "repair": "keyword_break",
    "mixed_step": False,
    "calls": 2,
}
_DRAFT_RULE = "R4.analysis-structure"

DRAWN: dict[str, tuple[dict[str, Any], str]] = {
    **{name: (PINS()[pin], MUTANTS[name].rule_id) for name, (pin, _) in PINNED.items()},
    # S11-S16: one keyword broken, walked from the drawn document (conformance.keywordbreaks).
    # A draft mutant accepts the broken first draft: the property names the verdict it judges,
    # R4.analysis-structure, saying the draft is not a valid contract document but passed
    # validation; the rows, which end in the fallback, name R6.evidence-validation-failed.
    "negative_scope_not_required": (
        {**_DRAFT, "keyword": "required:scope", "tool_kinds": ["empty", "found", "empty"]},
        _DRAFT_RULE,
    ),
    "statement_length_unbounded": ({**_DRAFT, "keyword": "maxLength:statement"}, _DRAFT_RULE),
    "conclusion_without_analyses_accepted": (
        {**_DRAFT, "keyword": "minItems:analysis_ids"},
        _DRAFT_RULE,
    ),
    "observation_scope_unvalidated": (
        {**_DRAFT, "keyword": "type:start_ms", "tool_kinds": ["found", "found", "found"]},
        _DRAFT_RULE,
    ),
    "verdict_repeated_ids_accepted": (
        {
            "intent": "DIAGNOSIS",
            "router": ["intent"],
            "submission": "valid",
            "review": ["keyword_break", "keyword_break"],
            "keyword": "uniqueItems",
            "calls": 2,
            # the session's history is not the kind: forced empty, so the review draws do not
            # move whenever the history's own choices change (c808c37's greatest_seq did)
            "history": "none",
        },
        "R9.model-call-outcome",
    ),
    "knowledge_item_text_unbounded": (
        {
            **PINS()["knowledge:semantic-fallback"],
            "submission": "keyword_break",
            "repair": "keyword_break",
            "keyword": "maxLength:text",
        },
        "R5.exact-rag-bindings",
    ),
    "negative_start_ms_executed": (
        {
            "intent": "DIAGNOSIS",
            "router": ["intent"],
            "submission": "valid",
            "invalid_arguments": True,
            "keyword": "minimum:start_ms",
            "calls": 2,
        },
        "R3.malformed-arguments-error",
    ),
}
"""Mutant -> the forced choices of its kind and the rule the property's failure names."""

_EXAMPLES = depth(ci=6, dev=4)
"""Fixtures drawn per mutant (derandomized; the first failing one stops the run), and the same
fixtures on the reference. Depth: every mutant here is killed by its kind's first draw but
``verdict_repeated_ids_accepted``, killed by its third (the draws are the same prefix at any
count); ``dev`` keeps one draw beyond it."""


@pytest.mark.parametrize("name", list(PINNED))
def test_the_pin_of_the_kind_kills_its_mutant_naming_its_rule(name):
    """The committed pin of the mutant's kind, judged alone by the any-fixture property, fails
    the mutant naming its catalogue rule; on the reference it reaches the kind's element."""
    pin, element = PINNED[name]
    reached, named = judge_pin(name, pin)
    assert any(e.startswith(element) for e in reached), sorted(reached)
    assert MUTANTS[name].rule_id in named, named


@pytest.mark.parametrize("name", list(DRAWN))
def test_drawn_fixtures_of_the_kind_kill_its_mutant_and_pass_the_reference(name):
    """Fixtures drawn with the kind's choices forced fail the mutant naming the rule; the same
    fixtures pass the reference (every check: the outcome comes from the kit's oracle)."""
    recipe, rule = DRAWN[name]
    outcome, named, message = judge_forced_draws(
        f"reference_harness.mutants:{name}", recipe, _EXAMPLES
    )
    assert outcome == "failed", f"{name} survived {_EXAMPLES} drawn fixtures of its kind"
    assert rule in named, message
    outcome, _, message = judge_forced_draws("reference_harness.iut:create", recipe, _EXAMPLES)
    assert outcome == "passed", message


def test_every_new_pin_is_in_the_corpus():
    """Each pin of PINNED is in the committed corpus (a test keeps it the strategy's)."""
    for pin, _ in PINNED.values():
        assert pinned_fixture(pin)["fixture_id"].startswith("any-fixture-pin-")
