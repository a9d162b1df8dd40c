"""Check a Run's invocations, EvidenceGuard verdicts and release against the outcome oracle.

The expectations come from :func:`conformance.checks._outcome_oracle.expected_outcome` (the
fixture and the spec rules alone). Wired into :func:`check_global_invariants`, so every Gherkin
scenario and every property run is judged by it. It judges only what the fixture fixes: a
cancelled Run, a tool that times out or a reviewer answer that needs a retry are left to the
checks of their own requirements.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final

from conformance.checks._outcome_oracle import (
    ExpectedInvocation,
    ExpectedOutcome,
    ExpectedProjection,
    ExpectedVerdict,
    cited_tool_call_ids,
    expected_outcome,
)
from conformance.checks._result import CheckResult, Findings
from conformance.checks._trace_fields import arguments_kept_as_presented
from conformance.checks._view import canonical, current_run, events, validations

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["check_evidence_outcome", "record_evidence_outcome"]

_RULE_OF_CODE: Final = {
    "UNKNOWN_TOOL_CALL_ID": "R4.tool-call-bindings",
    "UNKNOWN_ANALYSIS_ID": "R4.tool-call-bindings",
    "ERROR_EVIDENCE_CITED": "R3.evidence-citation",
    "INVOCATION_NOT_READY": "R3.evidence-citation",
    "NEGATIVE_WITHOUT_NO_EVIDENCE": "R3.evidence-citation",
    "OBSERVATION_WITHOUT_EVIDENCE": "R3.evidence-citation",
    "NO_EVIDENCE_NOT_NEGATIVE": "R3.no-evidence-citation",
    "NEGATIVE_SCOPE_TOO_WIDE": "R3.no-evidence-citation",
    "FABRICATED_DOCUMENT_ID": "R5.fabricated-citation-rejected",
    "LOOKUP_CALL_COUNT": "R5.exact-rag-bindings",
    "EMPTY_ANSWER_WITH_DOCUMENTS": "R5.exact-rag-bindings",
}
"""The rule a missed violation code breaks."""

_SHOWN: Final = 40
_MAX_REPORTED: Final = 256
"""Design freeze, EvidenceGuard: "At most 256 violations are reported, in document order." A
verdict that reports that many may leave out the rules broken further on (false-kills-8, F4)."""
"""Longest item text a failure message shows whole."""
_STOPPED: Final = frozenset({"CANCELLED", "TOOL_TIMEOUT"})
_TERMINAL: Final = frozenset({"READY", "ERROR"})


def check_evidence_outcome(observation: dict[str, Any], fixture: dict[str, Any]) -> CheckResult:
    """Check ``observation`` against what ``fixture`` fixes (see the module docstring).

    * invocation table: every accepted call (of a Run nothing stops early) has exactly its
      canonical invocation and no other call was executed; each invocation was observed
      ``PROJECTING`` before one terminal change; status, evidence status and error code follow
      the scripted backend result; the projection keeps ``max_items``/``max_item_chars``,
      ``total_matched``, ``truncated`` and the lookup's ``document_ids``;
    * verdicts: EVIDENCE_VALIDATION of each submission is valid iff the document breaks no rule of
      DESIGN section 4, and a rejection reports each broken rule's code at its JSON pointer;
    * release: a structural repair exactly when the first submission fails; a repair answer that
      calls tools is a failed repair; the terminal state, fallback type and released document
      are the ones the verdicts fix;
    * verified sources: a SEMANTIC_UNSUPPORTED / SEMANTIC_UNAVAILABLE fallback lists exactly the
      READY invocations the validated body cites, each once and as its canonical invocation.
    """
    found = Findings("evidence and release outcome", "R1.evidence-guard-verdict")
    record_evidence_outcome(found, observation, fixture)
    return found.result()


def record_evidence_outcome(
    found: Findings, observation: dict[str, Any], fixture: dict[str, Any]
) -> None:
    """Record into ``found`` every problem :func:`check_evidence_outcome` finds.

    Each names its own rule; the global invariants judge every Run by it this way.
    """
    outcome = expected_outcome(fixture)
    if (current_run(observation) or {}).get("state") == "CANCELLED":
        # cancelled by something the fixture does not script: judge only what was observed
        outcome = replace(outcome, complete=False, verdicts=(), repair_requested=None, state=None)
    _invocation_table(found, observation, fixture, outcome)
    _lifecycle(found, observation)
    _verdicts(found, observation, outcome)
    _release(found, observation, outcome)
    _verified_sources(found, observation, outcome)


# --------------------------------------------------------------------------- invocations


def _repair_call_ids(fixture: dict[str, Any]) -> set[str]:
    """Tool Call IDs the agent presented in its structural repair answer (never executed)."""
    agent = fixture.get("agent", [])
    for index, turn in enumerate(agent):
        if turn.get("kind") != "tool_calls":
            repair = agent[index + 1] if index + 1 < len(agent) else {}
            calls = repair.get("tool_calls", []) if isinstance(repair, dict) else []
            return {c["id"] for c in calls if isinstance(c.get("id"), str)}
    return set()


def _invocation_table(
    found: Findings, observation: dict[str, Any], fixture: dict[str, Any], outcome: ExpectedOutcome
) -> None:
    observed = {i.get("tool_call_id"): i for i in observation.get("invocations", [])}
    if outcome.complete:
        expected = {row.tool_call_id for row in outcome.invocations}
        in_repair = _repair_call_ids(fixture)
        for extra in sorted(map(str, observed.keys() - expected)):
            rule = "R6.repair-offers-no-tools" if extra in in_repair else "R2.tool-call-identity"
            found.add(
                f"{extra!r} was executed, but it is no call the agent presented before its "
                "submission with an accepted Tool Call ID",
                rule=rule,
            )
        for missing in sorted(expected - observed.keys()):
            found.add(
                f"the accepted call {missing!r} has no canonical invocation",
                rule="R2.tool-call-identity",
            )
    if outcome.complete:
        _rejections(found, observation, outcome)
    for row in outcome.invocations:
        record = observed.get(row.tool_call_id)
        if record is None:
            continue
        call = row.call
        shown = record.get("arguments") if row.status is not None else call.arguments
        same = (record.get("tool_name"), record.get("step"), shown) == (
            call.tool,
            call.step,
            call.arguments,
        )
        _arguments_as_presented(found, row.tool_call_id, record, call.arguments)
        if found.expect(
            same,
            f"{row.tool_call_id!r}: the invocation is step {record.get('step')} "
            f"{record.get('tool_name')} {record.get('arguments')}, not the first action presenting "
            f"the id (step {call.step} {call.tool} {call.arguments})",
            rule="R2.tool-call-identity",
        ):
            _invocation(found, row, record, stopped_allowed=not outcome.complete)


def _arguments_as_presented(
    found: Findings,
    call_id: str,
    record: dict[str, Any],
    presented: Any,  # noqa: ANN401 - JSON
) -> None:
    """The invocation's ``arguments`` are the object the agent presented (executed or refused).

    Extra members are a Harness's latitude to execute or refuse; dropping them is not
    (:func:`~conformance.checks._trace_fields.arguments_kept_as_presented`).
    """
    recorded = record.get("arguments")
    found.expect(
        arguments_kept_as_presented(recorded, presented) is not False,
        f"{call_id!r}: the invocation records the arguments {recorded}, not the arguments as "
        f"presented {presented} (kept as presented so that INVALID_ARGUMENTS can be recorded)",
        rule="R3.malformed-arguments-error",
    )


def _rejections(found: Findings, observation: dict[str, Any], outcome: ExpectedOutcome) -> None:
    """Each missing, invalid or duplicate id is rejected with its reason, and no valid one is."""
    observed = {
        (e["data"].get("step"), e["data"].get("position")): e["data"].get("reason")
        for e in events(observation, "TOOL_CALL_REJECTED")
    }
    expected = {(c.step, c.position): (c, reason) for c, reason in outcome.rejected}
    for where, (call, reason) in expected.items():
        found.expect(
            observed.get(where) == reason,
            f"the action at step {where[0]} position {where[1]} (presented {call.value!r}) was "
            f"rejected as {observed.get(where)}, expected {reason}",
            rule="R2.tool-call-identity",
        )
    for where in sorted(observed.keys() - expected.keys(), key=str):
        found.add(
            f"the action at step {where[0]} position {where[1]} was rejected as "
            f"{observed[where]}, but its Tool Call ID is valid and new in this Run",
            rule="R2.tool-call-identity",
        )


def _invocation(
    found: Findings, row: ExpectedInvocation, record: dict[str, Any], *, stopped_allowed: bool
) -> None:
    name = repr(row.tool_call_id)
    error = (record.get("error") or {}).get("code")
    if stopped_allowed and error in _STOPPED:
        return
    pair = (record.get("status"), record.get("evidence_status"))
    if row.determined:
        found.expect(
            pair == (row.status, row.evidence_status),
            f"{name}: invocation status {pair[0]} and evidence status {pair[1]}, expected "
            f"{row.status} and {row.evidence_status} for its backend result",
            rule="R3.invocation-outcome",
        )
    if row.error_code is not None:
        found.expect(
            error == row.error_code,
            f"{name}: error code {error}, expected {row.error_code}",
            rule="R3.invocation-outcome",
        )
    if row.projection is not None and record.get("status") == "READY":
        _projection(found, name, row.projection, record.get("projection") or {})


def _projection(
    found: Findings, name: str, expected: ExpectedProjection, projection: dict[str, Any]
) -> None:
    items = projection.get("items") or []
    texts = [item.get("text") for item in items]
    rule = "R4.bounded-projection"
    found.expect(
        projection.get("query_scope") == expected.query_scope,
        f"{name}: query scope {projection.get('query_scope')}, expected {expected.query_scope}",
        rule=rule,
    )
    found.expect(
        len(items) <= expected.max_items,
        f"{name}: {len(items)} projected items, max_items is {expected.max_items}",
        rule=rule,
    )
    long = [len(t) for t in texts if isinstance(t, str) and len(t) > expected.max_item_chars]
    found.expect(
        not long,
        f"{name}: projected item texts of {long} characters, max_item_chars is "
        f"{expected.max_item_chars}",
        rule=rule,
    )
    if expected.texts is not None and not long:
        found.expect(
            tuple(texts) == expected.texts,
            f"{name}: projected items {_short(texts)} are not the backend rows cut to the limits "
            f"{_short(expected.texts)}",
            rule=rule,
        )
    if expected.item_document_ids is not None and not long:
        item_ids = tuple(item.get("document_id") for item in items)
        found.expect(
            item_ids == expected.item_document_ids,
            f"{name}: projected items come from the documents {list(item_ids)}, the backend "
            f"rows from {list(expected.item_document_ids)} (each item keeps its row's id)",
            rule=rule,
        )
    if expected.total_matched is not None:
        found.expect(
            projection.get("total_matched") == expected.total_matched,
            f"{name}: total_matched {projection.get('total_matched')}, the backend matched "
            f"{expected.total_matched}",
            rule=rule,
        )
    truncated = projection.get("truncated")
    if expected.truncated is not None:
        found.expect(
            truncated is expected.truncated,
            f"{name}: truncated is {truncated}, expected {expected.truncated}",
            rule=rule,
        )
    elif expected.must_truncate:
        found.expect(
            truncated is True,
            f"{name}: the projection left data out but truncated is {truncated}",
            rule=rule,
        )
    if expected.document_ids is not None:
        ids = projection.get("document_ids") or []
        found.expect(
            set(ids) == expected.document_ids and len(ids) == len(set(ids)),
            f"{name}: document_ids {ids}, expected {sorted(expected.document_ids)}",
            rule=rule,
        )


def _short(texts: Iterable[Any]) -> list[str]:
    return [
        t if not isinstance(t, str) or len(t) <= _SHOWN else f"{t[:20]}…({len(t)} chars)"
        for t in texts
    ]


def _lifecycle(found: Findings, observation: dict[str, Any]) -> None:
    """PROJECTING first, then exactly one terminal change matching the canonical record."""
    trace = observation.get("trace", [])
    changes: dict[Any, list[tuple[int, Any, Any]]] = {}
    accepted: dict[Any, int] = {}
    for index, event in enumerate(trace):
        data = event.get("data") or {}
        if event.get("type") == "INVOCATION_STATUS_CHANGED":
            changes.setdefault(data.get("tool_call_id"), []).append(
                (index, data.get("status"), data.get("evidence_status"))
            )
        elif event.get("type") == "TOOL_CALL_ACCEPTED":
            accepted.setdefault(data.get("tool_call_id"), index)
    rule = "R3.invocation-lifecycle"
    for record in observation.get("invocations", []):
        call_id = record.get("tool_call_id")
        seen = changes.get(call_id, [])
        states = [status for _, status, _ in seen]
        name = repr(call_id)
        if not found.expect(
            seen and (seen[0][1], seen[0][2]) == ("PROJECTING", None),
            f"{name}: the invocation was never observed PROJECTING before it ended "
            f"(INVOCATION_STATUS_CHANGED statuses: {states})",
            rule=rule,
        ):
            continue
        terminal = [s for s in seen if s[1] in _TERMINAL]
        found.expect(
            len(terminal) == 1 and seen[-1] == terminal[0],
            f"{name}: expected one terminal change after PROJECTING, got {states}",
            rule=rule,
        )
        if terminal:
            found.expect(
                terminal[-1][1:] == (record.get("status"), record.get("evidence_status")),
                f"{name}: the trace ends {terminal[-1][1:]}, the invocation record is "
                f"{(record.get('status'), record.get('evidence_status'))}",
                rule=rule,
            )
        found.expect(
            call_id in accepted and accepted[call_id] < seen[0][0],
            f"{name}: PROJECTING without an earlier TOOL_CALL_ACCEPTED",
            rule=rule,
        )


# --------------------------------------------------------------------------- verdicts


def _verdicts(found: Findings, observation: dict[str, Any], outcome: ExpectedOutcome) -> None:
    checked = validations(observation)
    repairs = events(observation, "STRUCTURAL_REPAIR_REQUESTED")
    for verdict in outcome.verdicts:
        observed = checked.get(verdict.attempt)
        if verdict.valid is None:
            continue
        if observed is None:
            # a repair answer that calls tools may be recorded as no submission at all
            # (implementers guide, "A failed structural repair"): only attempt 1 must be validated
            if verdict.attempt == 1:
                found.add(
                    f"no EVIDENCE_VALIDATION of submission {verdict.attempt}",
                    rule=_structure_rule(verdict),
                )
            continue
        _one_verdict(found, verdict, observed)
    if outcome.repair_requested is not None:
        found.expect(
            bool(repairs) == outcome.repair_requested,
            f"{len(repairs)} structural repair(s) requested; expected "
            f"{'one' if outcome.repair_requested else 'none'} (the first submission "
            f"{'fails' if outcome.repair_requested else 'passes'} EvidenceGuard)",
            rule="R6.one-structural-repair",
        )


def _structure_rule(verdict: ExpectedVerdict) -> str:
    if verdict.by_tool_calls:
        return "R6.repair-offers-no-tools"
    return (
        "R4.analysis-structure" if verdict.kind != "knowledge_answer" else "R5.exact-rag-bindings"
    )


def _one_verdict(found: Findings, verdict: ExpectedVerdict, observed: dict[str, Any]) -> None:
    attempt = verdict.attempt
    valid = observed.get("valid")
    reported = observed.get("violations") or []
    stricter = verdict.stricter
    if verdict.valid:
        found.expect(
            valid is True or (stricter is not None and stricter.met_by(reported)),
            f"submission {attempt} breaks no evidence rule but EvidenceGuard rejected it with "
            f"{_codes(reported)}"
            + (
                f" (a rejection may only be the stricter reading's: {stricter.why}, "
                f"{'/'.join(sorted(stricter.codes))} at {' or '.join(sorted(stricter.pointers))})"
                if stricter is not None
                else ""
            ),
            rule="R1.evidence-guard-verdict",
        )
        return
    if valid is not False:
        if verdict.by_tool_calls:
            found.add(
                "the structural repair answer called tools, but EVIDENCE_VALIDATION attempt 2 "
                "passed (a tool call inside the repair is a failed repair)",
                rule="R6.repair-offers-no-tools",
            )
        elif not verdict.required:
            found.add(
                f"submission {attempt} is not a valid contract document but passed validation",
                rule=_structure_rule(verdict),
            )
        for rule in verdict.required:
            found.add(
                f"submission {attempt} passed validation, but {rule.why}: expected "
                f"{'/'.join(sorted(rule.codes))} at {' or '.join(sorted(rule.pointers))}",
                rule=_rule_of(rule.codes),
            )
        return
    capped = len(reported) >= _MAX_REPORTED
    for rule in verdict.required:
        found.expect(
            rule.met_by(reported) or (stricter is not None and stricter.met_by(reported)) or capped,
            f"submission {attempt} was rejected with {_codes(reported)}, but not for the rule it "
            f"breaks ({rule.why}): expected {'/'.join(sorted(rule.codes))} at "
            f"{' or '.join(sorted(rule.pointers))}",
            rule=_rule_of(rule.codes),
        )


_NAMED_FIRST: Final = ("LOOKUP_CALL_COUNT", "ERROR_EVIDENCE_CITED")
"""Where two codes fit one rule, the rule of the one the contract sheet names first is blamed."""


def _rule_of(codes: frozenset[str]) -> str:
    """The rule a missed violation of ``codes`` (any one of them would do) breaks."""
    first = min(codes, key=lambda code: (code not in _NAMED_FIRST, code))
    return _RULE_OF_CODE.get(first, "R1.evidence-guard-verdict")


def _codes(reported: list[dict[str, Any]]) -> list[str]:
    return [f"{v.get('code')}@{v.get('pointer')!r}" for v in reported[:8]]


# --------------------------------------------------------------------------- release


def _release(found: Findings, observation: dict[str, Any], outcome: ExpectedOutcome) -> None:
    if outcome.state is None:
        return
    row = current_run(observation) or {}
    if row.get("state") == "FAILED":
        return  # a Router, agent or store failure is judged by its own checks
    by_tools = any(v.by_tool_calls for v in outcome.verdicts)
    failed_twice = outcome.fallback_type == "EVIDENCE_VALIDATION_FAILED"
    rule = (
        "R6.repair-offers-no-tools"
        if by_tools
        else "R6.evidence-validation-failed"
        if failed_twice
        else "R6.release-outcome"
    )
    observed = (row.get("state"), row.get("fallback_type"))
    found.expect(
        observed == (outcome.state, outcome.fallback_type),
        f"the Run ended {observed[0]} / {observed[1]}, expected {outcome.state} / "
        f"{outcome.fallback_type}",
        rule=rule,
    )
    published = observation.get("published_result") or {}
    body = published.get("diagnosis_draft", published.get("knowledge_answer"))
    if outcome.state == "SUCCESS":
        found.expect(
            body is None or canonical(body) == canonical(outcome.released),
            "the released document is not the agent's validated, supported submission",
            rule="R1.released-is-agent-authored",
        )
    else:
        found.expect(
            body is None,
            f"the Run should fall back with {outcome.fallback_type}, but it published a "
            f"{published.get('kind')}",
            rule=rule,
        )


# --------------------------------------------------------------------------- verified sources

_SEMANTIC_FALLBACKS: Final = frozenset({"SEMANTIC_UNSUPPORTED", "SEMANTIC_UNAVAILABLE"})


def _verified_sources(
    found: Findings, observation: dict[str, Any], outcome: ExpectedOutcome
) -> None:
    """A semantic fallback's ``verified_sources`` are exactly the validated body's READY citations.

    Contract sheet (safe-fallback): "Sources from READY invocations EvidenceGuard accepted". The
    body is the submission the oracle says EvidenceGuard accepts; a cited invocation whose status
    the fixture leaves open may be listed or not. Sources of other fallback types are judged by
    the schema (EVIDENCE_VALIDATION_FAILED: empty).
    """
    published = observation.get("published_result") or {}
    fallback = published.get("safe_fallback") or {}
    if (
        not outcome.complete
        or outcome.validated is None
        or published.get("kind") != "SAFE_FALLBACK"
        or fallback.get("fallback_type") not in _SEMANTIC_FALLBACKS
    ):
        return
    rule = "R6.fallback-verified-sources"
    cited = cited_tool_call_ids(outcome.validated)
    records = {i.get("tool_call_id"): i for i in observation.get("invocations", [])}
    sources = [s for s in fallback.get("verified_sources") or [] if isinstance(s, dict)]
    listed = [s.get("tool_call_id") for s in sources]
    kind = fallback.get("fallback_type")
    found.expect(
        len(listed) == len(set(map(str, listed))),
        f"{kind}: verified sources list a Tool Call ID twice: {listed}",
        rule=rule,
    )
    for source in sources:
        call_id = source.get("tool_call_id")
        row = outcome.invocation(str(call_id))
        record = records.get(call_id) or {}
        if not found.expect(
            call_id in cited,
            f"{kind}: verified source {call_id!r} is not cited by the validated body "
            f"(it cites {cited})",
            rule=rule,
        ):
            continue
        ready = row is None or row.status is None or row.status == "READY"
        found.expect(
            ready and record.get("status") == "READY",
            f"{kind}: verified source {call_id!r} is not a READY invocation (expected "
            f"{None if row is None else row.status}, recorded {record.get('status')})",
            rule=rule,
        )
        canonical_source = {
            "tool_call_id": call_id,
            "tool_name": record.get("tool_name"),
            "query_scope": (record.get("projection") or {}).get("query_scope"),
            "evidence_status": record.get("evidence_status"),
        }
        found.expect(
            source == canonical_source,
            f"{kind}: verified source {source} differs from its canonical invocation "
            f"{canonical_source}",
            rule=rule,
        )
    for call_id in cited:
        row = outcome.invocation(call_id)
        if row is not None and row.status == "READY":
            found.expect(
                call_id in listed,
                f"{kind}: the validated body cites the READY invocation {call_id!r}, but the "
                f"verified sources {listed} leave it out",
                rule=rule,
            )
