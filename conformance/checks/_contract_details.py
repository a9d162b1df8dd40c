"""Checks of what the frozen contracts define where the spec's sentences stop.

The spec says a missing, invalid or duplicate Tool Call ID is rejected, that an analysis needs a
Tool Call ID, that newer Runs are passed over; the stage-zero contracts (the schemas'
descriptions and enums, ``docs/contracts.md``, the design freeze) say what the trace records about
it. Each finding names a rule whose :attr:`~conformance.checks.Rule.contract` quotes the contract
text it rests on:

* ``R2.rejected-presented-id``: TOOL_CALL_REJECTED's ``presented_id`` is the JSON text of the id
  as presented, ``null`` exactly when the id was absent;
* ``R1.validated-body-kind``: DRAFT_SUBMITTED and EVIDENCE_VALIDATION name the kind of body the
  Run's intent fixes;
* ``R4.missing-binding-code`` / ``R5.item-without-references-code``: an analysis without Tool
  Call IDs is reported as ``MISSING_TOOL_CALL_IDS``, a knowledge item without references as
  ``ITEM_WITHOUT_REFERENCES``, at the binding's pointer, when that is what makes the submission
  invalid; and those codes name nothing else (not a limitation's missing field);
* ``R7.skip-report-cap``: when more than 100 newer Runs were passed over, PREVIOUS_TURN_SELECTED
  lists the newest 100 of them, newest first;
* ``R2.invocation-run-id``: every canonical invocation's ``run_id`` is the observed Run's (the
  Run it belongs to, not its session);
* ``R6.repair-sends-violations``: STRUCTURAL_REPAIR_REQUESTED's ``violations`` are the failed
  attempt-1 EVIDENCE_VALIDATION's violations, every one (in any order);
* ``R9.call-index-per-component``: each component numbers its logical model calls 1, 2, …
  in the order they start (MODEL_CALL_STARTED), whatever their purpose: a structural repair is
  the agent's next call, not its call 1;
* ``R9.verdict-after-valid-review``: a SEMANTIC_VERDICT follows a SemanticGuard attempt that
  finished VALID, with no other SemanticGuard attempt finished between them (a review that ended
  UNAVAILABLE, INVALID_SCHEMA, TIMEOUT or CANCELLED gave no verdict);
* ``R2.rejected-tool-name``: TOOL_CALL_REJECTED's ``tool_name`` is the presented call's tool
  name when that is a non-empty string of at most 256 characters (``null`` is left for a call
  that named no tool).

Wired into :func:`~conformance.checks.check_global_invariants`: every Run of every scenario is
judged by them.
"""

from __future__ import annotations

import copy
import json
from typing import TYPE_CHECKING, Any, Final

from conformance.checks._oracle import (
    SKIP_REPORT_LIMIT,
    PresentedCall,
    expected_previous_turn,
    presented_calls,
)
from conformance.checks._outcome_oracle import expected_outcome
from conformance.checks._result import CheckResult, Findings
from conformance.checks._view import canonical, events, validations
from contracts import loads_strict

if TYPE_CHECKING:
    from collections.abc import Collection

__all__ = ["check_contract_details", "expected_binding_violations", "record_contract_details"]

PRESENTED_ID_MAX: Final = 160
"""Longest ``presented_id`` (run-trace-event contract)."""

PRESENTED_TOOL_NAME_MAX: Final = 256
"""Longest ``tool_name`` of a TOOL_CALL_REJECTED event (run-trace-event contract)."""

_BODY_KIND: Final = {"DIAGNOSIS": "DIAGNOSIS_DRAFT", "KNOWLEDGE_QUERY": "KNOWLEDGE_ANSWER"}

# submission kind -> (contract, array, binding property, code, rule)
_BINDINGS: Final = {
    "draft": (
        "diagnosis-draft",
        "analyses",
        "tool_call_ids",
        "MISSING_TOOL_CALL_IDS",
        "R4.missing-binding-code",
    ),
    "knowledge_answer": (
        "knowledge-answer",
        "items",
        "references",
        "ITEM_WITHOUT_REFERENCES",
        "R5.item-without-references-code",
    ),
}


def check_contract_details(
    observation: dict[str, Any],
    fixture: dict[str, Any],
    capabilities: Collection[str] | None = None,
) -> CheckResult:
    """Check ``observation`` of ``fixture`` against the contract details listed in the module doc.

    ``capabilities`` are the IUT's declared ones (``None``: all); the skip report is judged only
    when PREVIOUS_TURN is declared.
    """
    found = Findings("contract details", "R2.rejected-presented-id")
    record_contract_details(found, observation, fixture, capabilities)
    return found.result()


def record_contract_details(
    found: Findings,
    observation: dict[str, Any],
    fixture: dict[str, Any],
    capabilities: Collection[str] | None = None,
) -> None:
    """Record into ``found`` every problem :func:`check_contract_details` finds."""
    if not fixture.get("perturbations"):  # a real model does not present the scripted calls
        _presented_ids(found, observation, fixture)
    _invocation_run_ids(found, observation)
    _repair_violations(found, observation)
    _call_indexes(found, observation)
    _verdicts_after_valid_reviews(found, observation)
    _validated_body_kind(found, observation)
    _binding_codes(found, observation, fixture)
    if capabilities is None or "PREVIOUS_TURN" in capabilities:
        _skip_report_cap(found, observation, fixture)


# --------------------------------------------------------------------------- presented id


def _presented_ids(found: Findings, observation: dict[str, Any], fixture: dict[str, Any]) -> None:
    calls: dict[tuple[Any, Any], PresentedCall] = {
        (c.step, c.position): c for c in presented_calls(fixture)
    }
    for event in events(observation, "TOOL_CALL_REJECTED"):
        data = event.get("data") or {}
        call = calls.get((data.get("step"), data.get("position")))
        if call is None:
            continue  # a rejection of no presented call: the identity checks report it
        shown = data.get("presented_id")
        where = f"the rejected action at step {call.step} position {call.position}"
        if isinstance(call.tool, str) and 0 < len(call.tool) <= PRESENTED_TOOL_NAME_MAX:
            found.expect(
                data.get("tool_name") == call.tool,
                f"{where} named tool {call.tool!r}, but tool_name is {data.get('tool_name')!r} "
                "(the presented tool name)",
                rule="R2.rejected-tool-name",
            )
        if not call.present:
            found.expect(
                shown is None,
                f"{where} presented no id, but presented_id is {shown!r} (null if absent)",
                rule="R2.rejected-presented-id",
            )
            continue
        texts = _json_texts(call.value)
        if not isinstance(shown, str):
            found.add(
                f"{where} presented an id, but presented_id is {shown!r}, not its JSON text",
                rule="R2.rejected-presented-id",
            )
            continue
        cut = len(shown) <= PRESENTED_ID_MAX and any(
            len(t) > PRESENTED_ID_MAX and t.startswith(shown) for t in texts
        )
        unknown_cut = min(map(len, texts)) > PRESENTED_ID_MAX  # every encoding must be cut
        found.expect(
            _same_json(shown, call.value) or cut or unknown_cut,
            f"{where} presented {min(texts, key=len)}, but presented_id is {shown!r}, not the "
            "JSON text of the id as presented",
            rule="R2.rejected-presented-id",
        )


def _json_texts(value: object) -> set[str]:
    """The usual JSON texts of ``value``: escaped or raw non-ASCII, compact or spaced."""
    return {
        json.dumps(value, ensure_ascii=ascii_only, separators=separators)
        for ascii_only in (True, False)
        for separators in ((",", ":"), (", ", ": "))
    }


def _same_json(text: str, value: object) -> bool:
    try:
        parsed = loads_strict(text)
    except ValueError:
        return False
    try:
        return canonical(parsed) == canonical(value)
    except (TypeError, ValueError):  # beyond what RFC 8785 encodes (a huge integer)
        return bool(parsed == value) and type(parsed) is type(value)


# --------------------------------------------------------------------------- invocation run id


def _invocation_run_ids(found: Findings, observation: dict[str, Any]) -> None:
    run_id = observation.get("run_id")
    for record in observation.get("invocations", []):
        found.expect(
            record.get("run_id") == run_id,
            f"invocation {record.get('tool_call_id')!r} names run_id {record.get('run_id')!r}, "
            f"not the Run it belongs to ({run_id!r})",
            rule="R2.invocation-run-id",
        )


# --------------------------------------------------------------------------- repair, call index


def _repair_violations(found: Findings, observation: dict[str, Any]) -> None:
    failed = [
        v for v in events(observation, "EVIDENCE_VALIDATION") if v["data"].get("attempt") == 1
    ]
    if len(failed) != 1 or failed[0]["data"].get("valid"):
        return  # no failed first validation (or several: R6.one-structural-repair's)
    expected = sorted(canonical(v) for v in failed[0]["data"].get("violations", []))
    for event in events(observation, "STRUCTURAL_REPAIR_REQUESTED"):
        sent = event["data"].get("violations", [])
        found.expect(
            sorted(canonical(v) for v in sent) == expected,
            f"STRUCTURAL_REPAIR_REQUESTED (event {event.get('seq')}) holds {len(sent)} "
            f"violation(s), not the {len(expected)} of the failed attempt-1 EVIDENCE_VALIDATION",
            rule="R6.repair-sends-violations",
        )


def _call_indexes(found: Findings, observation: dict[str, Any]) -> None:
    seen: dict[Any, list[tuple[Any, Any]]] = {}
    for event in events(observation, "MODEL_CALL_STARTED"):
        data = event["data"]
        calls = seen.setdefault(data.get("component"), [])
        call = (data.get("purpose"), data.get("call_index"))
        if call not in calls:  # a retry is another attempt of the same logical call
            calls.append(call)
    for component, calls in seen.items():
        indexes = [index for _, index in calls]
        found.expect(
            indexes == list(range(1, len(indexes) + 1)),
            f"{component} numbers its logical model calls {indexes} in the order they start, "
            "not 1..n (the n-th logical call of that component in the Run)",
            rule="R9.call-index-per-component",
        )


def _verdicts_after_valid_reviews(found: Findings, observation: dict[str, Any]) -> None:
    last_review: str | None = None
    for event in observation.get("trace", []):
        data = event.get("data") or {}
        if event.get("type") == "MODEL_CALL_FINISHED" and data.get("component") == "SEMANTIC_GUARD":
            last_review = str(data.get("outcome"))
        elif event.get("type") == "SEMANTIC_VERDICT":
            found.expect(
                last_review == "VALID",
                f"SEMANTIC_VERDICT (event {event.get('seq')}) follows a SemanticGuard attempt "
                f"that finished {last_review} (no verdict without a valid review)",
                rule="R9.verdict-after-valid-review",
            )
            last_review = None


# --------------------------------------------------------------------------- body kind


def _validated_body_kind(found: Findings, observation: dict[str, Any]) -> None:
    routed = [e.get("data", {}).get("intent") for e in events(observation, "INTENT_ROUTED")]
    if len(routed) != 1 or routed[0] not in _BODY_KIND:
        return
    wanted = _BODY_KIND[routed[0]]
    for event in events(observation, "DRAFT_SUBMITTED") + events(
        observation, "EVIDENCE_VALIDATION"
    ):
        data = event.get("data") or {}
        found.expect(
            data.get("result_kind") == wanted,
            f"{event.get('type')} attempt {data.get('attempt')} names result_kind "
            f"{data.get('result_kind')}, but a {routed[0]} Run submits a {wanted}",
            rule="R1.validated-body-kind",
        )


# --------------------------------------------------------------------------- binding codes


def expected_binding_violations(kind: str, document: object) -> list[tuple[str, tuple[str, ...]]]:
    """Return the (code, allowed pointers) a guard must report for ``document``'s missing bindings.

    ``kind`` is ``draft`` or ``knowledge_answer``. Each analysis whose ``tool_call_ids`` (each
    item whose ``references``) is empty or absent gives ``MISSING_TOOL_CALL_IDS``
    (``ITEM_WITHOUT_REFERENCES``) at ``/analyses/<i>/tool_call_ids`` (or ``/analyses/<i>``).
    Only when the missing bindings are all that is wrong: giving each one a binding must make
    the document a valid contract document; otherwise ``[]`` (another error may hide them).
    """
    if kind not in _BINDINGS or not isinstance(document, dict):
        return []
    contract, array, binding, code, _ = _BINDINGS[kind]
    missing = sorted(_unbound_entries(kind, document))
    if not missing:
        return []
    filled = copy.deepcopy(document)
    placeholder: object = "x"
    if kind == "knowledge_answer":
        placeholder = {"tool_call_id": document.get("lookup_tool_call_id"), "document_id": "d"}
    for index in missing:
        filled[array][index][binding] = [placeholder]
    from contracts import is_valid_document  # noqa: PLC0415 - contracts loads schemas on import

    if not is_valid_document(filled, contract):
        return []
    return [(code, (f"/{array}/{index}/{binding}", f"/{array}/{index}")) for index in missing]


def _unbound_entries(kind: str, document: object, *, loose: bool = False) -> set[int]:
    """Indexes of the analyses (items) of ``document`` whose binding is empty or absent.

    ``loose``: also those whose binding is not a list at all (``"tool_call_ids": "call_1"``
    names no Tool Call ID list either; the code may be used for it, it is not required).
    """
    if kind not in _BINDINGS or not isinstance(document, dict):
        return set()
    _, array, binding, _, _ = _BINDINGS[kind]
    entries = document.get(array)
    if not isinstance(entries, list):
        return set()
    return {
        index
        for index, entry in enumerate(entries)
        if isinstance(entry, dict)
        and (entry.get(binding, []) == [] or (loose and not isinstance(entry[binding], list)))
    }


def _binding_codes(found: Findings, observation: dict[str, Any], fixture: dict[str, Any]) -> None:
    checked = validations(observation)
    for verdict in expected_outcome(fixture).verdicts:
        observed = checked.get(verdict.attempt)
        if observed is None or verdict.kind not in _BINDINGS:
            continue
        _, array, binding, code, rule = _BINDINGS[verdict.kind]
        reported = [(v.get("code"), v.get("pointer")) for v in observed.get("violations") or []]
        unbound = _unbound_entries(verdict.kind, verdict.document, loose=True)
        allowed = {f"/{array}/{i}" for i in unbound} | {f"/{array}/{i}/{binding}" for i in unbound}
        misused = sorted(str(p) for c, p in reported if c == code and p not in allowed)
        found.expect(
            not misused or not isinstance(verdict.document, dict),
            f"submission {verdict.attempt}: {code} reported at {misused}, where no "
            f"{'analysis' if array == 'analyses' else 'item'} lacks its {binding} (the code "
            "names that and nothing else)",
            rule=rule,
        )
        if verdict.valid is not False or observed.get("valid") is not False:
            continue  # a passed invalid submission is the structure checks' finding
        for wanted, pointers in expected_binding_violations(verdict.kind, verdict.document):
            found.expect(
                any((wanted, p) in reported for p in pointers),
                f"submission {verdict.attempt} lacks a binding at {pointers[0]}, but "
                f"EVIDENCE_VALIDATION reported {sorted(map(str, reported))}, not {wanted} there",
                rule=rule,
            )


# --------------------------------------------------------------------------- skip report


def _skip_report_cap(found: Findings, observation: dict[str, Any], fixture: dict[str, Any]) -> None:
    _, passed_over = expected_previous_turn(fixture, limit=None)
    if len(passed_over) <= SKIP_REPORT_LIMIT:
        return
    chosen = events(observation, "PREVIOUS_TURN_SELECTED")
    if len(chosen) != 1:
        return  # the previous-turn checks report a missing or repeated event
    listed = [str(s.get("run_id")) for s in (chosen[0].get("data") or {}).get("skipped", [])]
    newest = [s["run_id"] for s in passed_over[:SKIP_REPORT_LIMIT]]
    found.expect(
        listed == newest,
        f"{len(passed_over)} newer Runs were passed over; PREVIOUS_TURN_SELECTED lists "
        f"{len(listed)} of them, expected the newest {SKIP_REPORT_LIMIT}, newest first "
        f"({newest[0]} … {newest[-1]})"
        + (
            f", and lists {len(set(listed) - set(newest))} others"
            if set(listed) - set(newest)
            else ""
        ),
        rule="R7.skip-report-cap",
    )
