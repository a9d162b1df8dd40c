"""Check rule ids: registered, quoting real spec sentences, named in every failure line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conformance.checks import RULES, CheckResult, Findings, rule_ids_in
from conformance.checks._rules import CONTRACT_SOURCES, REQUIREMENT_IDS

SPEC = Path(__file__).resolve().parents[2] / "openspec" / "specs"


def _spec_text() -> str:
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted(SPEC.rglob("spec.md")))
    return re.sub(r"\s+", " ", text.replace("**", ""))


def test_rules_quote_the_spec_verbatim():
    """Every sentence fragment a rule quotes occurs in the current spec, word for word."""
    text = _spec_text()
    missing = [(r.id, s) for r in RULES.values() for s in r.sentences if s not in text]
    assert missing == []


def test_rule_ids_name_a_requirement_in_spec_order():
    """R<n> names the n-th requirement; R0 rules belong to the protocol."""
    for rule in RULES.values():
        assert re.fullmatch(r"R\d+\.[a-z0-9-]+", rule.id), rule.id
        number = int(rule.id[1:].split(".")[0])
        expected = REQUIREMENT_IDS[number - 1] if number else None
        assert rule.requirement_id == expected


def test_findings_tag_every_line_with_its_rule():
    """A failure line reads ``[rule] problem``; the result lists the rules in first-seen order."""
    found = Findings("demo", "R2.tool-call-identity")
    found.expect(condition=False, problem="first")
    found.add("second", rule="R0.valid-observation")
    found.add("third")
    result = found.result()
    assert not result.passed
    assert result.rules == ("R2.tool-call-identity", "R0.valid-observation")
    assert "  - [R2.tool-call-identity] first" in result.message
    assert "  - [R0.valid-observation] second" in result.message
    assert rule_ids_in(result.message) == result.rules


def test_findings_refuse_an_unregistered_rule():
    """A check cannot name a rule that is not registered."""
    with pytest.raises(KeyError, match="unknown check rule id"):
        Findings("demo", "R2.no-such-rule")
    found = Findings("demo", "R2.tool-call-identity")
    with pytest.raises(KeyError, match=r"R9\.nope"):
        found.add("x", rule="R9.nope")


def test_rule_ids_in_ignores_unregistered_tags():
    """Only registered ids are read back from a failure text."""
    text = "[R2.tool-call-identity] a\n[R2.invented] b\n[R2.tool-call-identity] c"
    assert rule_ids_in(text) == ("R2.tool-call-identity",)
    assert CheckResult(passed=True, message="ok").rules == ()


ROOT = Path(__file__).resolve().parents[2]


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_contract_quotes_are_verbatim_in_a_frozen_contract_document():
    """Every contract fragment a rule quotes occurs, word for word, in the document it names,
    and that document is a contract source (the sheet, the design freeze, a schema)."""
    quoted = [(r.id, q) for r in RULES.values() for q in r.contract]
    assert quoted, "no rule quotes the contract"
    for rule_id, quote in quoted:
        assert quote.source.startswith(CONTRACT_SOURCES), (rule_id, quote.source)
        path = ROOT / quote.source
        assert path.is_file(), (rule_id, quote.source)
        assert _flat(quote.text) in _flat(path.read_text(encoding="utf-8")), (rule_id, quote)


def test_a_rule_says_what_it_rests_on():
    """basis: spec sentences, the contract, both, or the protocol (R0)."""
    assert RULES["R2.tool-call-identity"].basis == "spec"
    assert RULES["R2.rejected-presented-id"].basis == "contract"
    assert RULES["R0.valid-observation"].basis == "protocol"
    for rule in RULES.values():
        if rule.requirement_id is not None:
            assert rule.sentences or rule.contract, f"{rule.id} rests on nothing"
