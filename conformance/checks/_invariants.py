"""Global invariants every observed Run must keep, whatever the scenario.

DESIGN sections 1, 4, 5, 6 and 8: every accepted call's invocation, EvidenceGuard verdict and
release outcome is the one the fixture fixes (:mod:`conformance.checks._outcome`); nothing
unvalidated is released; a release is byte-identical
(canonical JSON) to what the agent submitted; a fallback carries no draft text; at most one
structural repair; no more model-call attempts than the retry policy allows; earlier Runs stay
as they were; the observation, its trace events and its run rows are valid contract documents.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from conformance.checks._contract_details import record_contract_details
from conformance.checks._durable import durable_run_findings
from conformance.checks._explained import explained_text
from conformance.checks._frames import left_before, record_client_frames
from conformance.checks._late import late_result_findings
from conformance.checks._oracle import submissions, submitted_documents
from conformance.checks._outcome import record_evidence_outcome
from conformance.checks._outcome_oracle import expected_outcome
from conformance.checks._result import CheckResult, Findings
from conformance.checks._retry import semantic_snapshot_findings
from conformance.checks._runtime import (
    disconnect_findings,
    lenient_verdict_leftovers,
    model_call_findings,
    previous_turn_findings,
)
from conformance.checks._runtime_oracle import (
    OPTIONAL_RETRIES,
    attempt_policy,
    declined_retries,
    disconnect_index,
    fit_to_run,
)
from conformance.checks._schema import contract_problems
from conformance.checks._trace_fields import record_trace_fields
from conformance.checks._view import (
    canonical,
    current_run,
    events,
    in_band_codes,
    validations,
)
from contracts import ToolName

if TYPE_CHECKING:
    from collections.abc import Callable, Collection

__all__ = ["ATTEMPT_POLICY", "check_global_invariants", "check_internal_error_excluded"]

ATTEMPT_POLICY = {"ROUTER": 2, "SEMANTIC_GUARD": 2, "DIAGNOSIS_AGENT": 1}
"""Most attempts of one logical model call, by component (Requirement 9)."""

_MAX_REPAIRS = 1


def check_global_invariants(
    observation: dict[str, Any],
    fixture: dict[str, Any],
    capabilities: Collection[str] | None = None,
) -> CheckResult:
    """Check every global invariant on one observation of ``fixture``; see the module docstring.

    ``fixture`` is the fixture the IUT ran and ``capabilities`` its declared ones (``None``:
    all); they decide the retry policy the attempts are judged by (a Router or SemanticGuard
    retry only when declared; a declared retry the Run did not take after INVALID_SCHEMA or
    UNAVAILABLE is judged by the one-attempt policy, :func:`~conformance.checks.fit_to_run`, and
    the turns scripted for it must be reported left, ``SCRIPT_UNCONSUMED``). Also runs the
    runtime oracle checks: model-call outcomes and what follows them, a disconnect at any event,
    and (when the IUT declares PREVIOUS_TURN) the previous-turn selection.
    """
    found = Findings("global invariants", "R1.released-is-agent-authored")
    ran = fixture
    fixture, capabilities = fit_to_run(observation, ran, capabilities)
    left_for_declined = _turns(ran) > _turns(fixture)
    if (
        "error" in observation
        and not _stricter_branch_leftovers(observation, fixture)
        and not lenient_verdict_leftovers(observation, fixture)
        and not (left_for_declined and _declined_leftovers(observation, fixture))
    ):
        found.add(
            "the IUT reported a fixture run error: "
            + json.dumps(observation["error"], ensure_ascii=False, sort_keys=True),
            rule="R0.valid-observation",
        )
    if left_for_declined and "error" not in observation:
        _declined_turns_unreported(found, observation, _turns(ran) - _turns(fixture), capabilities)
    for line in contract_problems(observation, "run-observation", "RunObservation"):
        found.add(line, rule="R0.valid-observation")
    _store_from_prior_runs(found, observation, fixture)
    _trace_order(found, observation)
    _released_is_validated(found, observation, fixture)
    _fallback_is_clean(found, observation, fixture)
    _internal_errors_excluded(found, observation, fixture)
    _bounded_attempts(found, observation, attempt_policy(capabilities))
    _outcome_agrees(found, observation, fixture)
    _prior_runs_untouched(found, observation, fixture)
    model_call_findings(found, observation, fixture, capabilities)
    disconnect_findings(found, observation, fixture)
    if capabilities is None or "PREVIOUS_TURN" in capabilities:
        previous_turn_findings(found, observation, fixture)
    record_evidence_outcome(found, observation, fixture)
    late_result_findings(found, observation, fixture)
    durable_run_findings(found, observation, fixture, capabilities)
    semantic_snapshot_findings(found, observation)
    record_contract_details(found, observation, fixture, capabilities)
    record_trace_fields(found, observation, fixture)
    record_client_frames(found, observation, fixture)
    return found.result()


def _turns(fixture: dict[str, Any]) -> int:
    """How many turns and tool responses ``fixture`` scripts (decoy agent turns aside)."""
    tools = fixture.get("tools") or {}
    return sum(len(fixture.get(part) or []) for part in ("router", "agent", "semantic_guard")) + (
        sum(len(script.get("responses") or []) for script in tools.values())
    )


def _used_up(observation: dict[str, Any], fixture: dict[str, Any]) -> bool:
    """Whether the Run used up ``fixture``'s scripts.

    Exactly its Router and SemanticGuard turns, at least its agent turns and tool responses.
    """
    started: dict[str, int] = defaultdict(int)
    for event in events(observation, "MODEL_CALL_STARTED"):
        started[str(event["data"].get("component"))] += 1
    executed: dict[str, int] = defaultdict(int)
    for record in observation.get("invocations", []):
        executed[str(record.get("tool_name"))] += 1
    return (
        started["ROUTER"] == len(fixture.get("router", []))
        and started["SEMANTIC_GUARD"] == len(fixture.get("semantic_guard", []))
        and started["DIAGNOSIS_AGENT"] >= len(fixture.get("agent", []))
        and all(
            executed[name] >= len(script.get("responses", []))
            for name, script in fixture.get("tools", {}).items()
        )
    )


def _declined_leftovers(observation: dict[str, Any], judged: dict[str, Any]) -> bool:
    """Whether ``SCRIPT_UNCONSUMED`` only reports the turns scripted for a declined retry.

    ``judged`` is the fixture trimmed to the retries the Run took (:func:`fit_to_run`): the
    Run used it up, so what is left is what the declined retry (and, for the Router, the Run it
    would have routed) would have read (docs/decisions/red-team-8.md, "F1 per-trigger retries").
    """
    error = observation.get("error") or {}
    return error.get("code") == "SCRIPT_UNCONSUMED" and _used_up(observation, judged)


def _declined_turns_unreported(
    found: Findings,
    observation: dict[str, Any],
    left: int,
    taken: frozenset[str] | None,
) -> None:
    """A declined retry leaves ``left`` scripted turns unread: the IUT must say so.

    An IUT that reports none read them all, so an attempt it did not record read the turn the
    retry was scripted with (the retry was taken, hidden): every attempt is recorded
    (Requirement 9, "records both attempts"; contracts.md: a script left unconsumed is
    ``SCRIPT_UNCONSUMED``).
    """
    declined = declined_retries(observation, None)
    named = [
        f"{component} after {declined[capability]}"
        for component, capability in OPTIONAL_RETRIES.items()
        if capability in declined and (taken is None or capability not in taken)
    ]
    found.add(
        f"one attempt recorded for {', '.join(named)} (the declared retry not taken), so "
        f"{left} scripted turn(s) must be left unread, yet the IUT reports no "
        "SCRIPT_UNCONSUMED: an unrecorded attempt read the turn scripted for the retry, or the "
        "turns left went unreported (docs/contracts.md, scenario-fixture)",
        rule="R9.retry-as-declared",
    )


def _stricter_branch_leftovers(observation: dict[str, Any], fixture: dict[str, Any]) -> bool:
    """Whether ``SCRIPT_UNCONSUMED`` only reports the SemanticGuard turns of the branch not taken.

    Where the spec allows the stricter reading of "the single lookup Tool Call" (a Run holding
    two lookup calls), a conforming Harness may reject the Knowledge Answer and fall back with
    EVIDENCE_VALIDATION_FAILED without reviewing it: the SemanticGuard turns the fixture scripts
    for the other reading are then left, and that is no error (implementers guide, "Where two
    answers fit"). True only when the Run ended that way, no SemanticGuard call was made, every
    rejection is one the stricter reading allows, and every other script was used up.
    """
    error = observation.get("error") or {}
    row = current_run(observation) or {}
    if error.get("code") != "SCRIPT_UNCONSUMED" or row.get("fallback_type") != (
        "EVIDENCE_VALIDATION_FAILED"
    ):
        return False
    verdicts = expected_outcome(fixture).verdicts
    if not verdicts or any(v.stricter is None for v in verdicts):
        return False
    started: dict[str, int] = defaultdict(int)
    for event in events(observation, "MODEL_CALL_STARTED"):
        started[str(event["data"].get("component"))] += 1
    used_up = (
        started["SEMANTIC_GUARD"] == 0
        and started["ROUTER"] == len(fixture.get("router", []))
        and started["DIAGNOSIS_AGENT"] >= len(fixture.get("agent", []))
    )
    executed: dict[str, int] = defaultdict(int)
    for record in observation.get("invocations", []):
        executed[str(record.get("tool_name"))] += 1
    tools_used = all(
        executed[name] >= len(script.get("responses", []))
        for name, script in fixture.get("tools", {}).items()
    )
    checked = validations(observation)
    rejected = all(
        checked.get(v.attempt, {}).get("valid") is False
        and v.stricter is not None
        and v.stricter.met_by(checked[v.attempt].get("violations") or [])
        for v in verdicts
        if v.attempt in checked
    )
    return used_up and tools_used and rejected


def _store_from_prior_runs(
    found: Findings, observation: dict[str, Any], fixture: dict[str, Any]
) -> None:
    """Each ``run`` starts from the fixture's ``prior_runs`` alone (implementers guide).

    A row of the session that is neither seeded by the fixture nor the observed Run comes from
    elsewhere, typically a store kept across ``run`` messages: said once, plainly, before the
    failures it causes (previous-turn selection, seq) are listed.
    """
    seeded = {run.get("run_id") for run in fixture.get("prior_runs", [])}
    foreign = [
        str(row.get("run_id"))
        for row in observation.get("runs", [])
        if row.get("run_id") not in seeded and row.get("run_id") != observation.get("run_id")
    ]
    found.expect(
        not foreign,
        f"the session holds {len(foreign)} Run(s) the fixture does not seed "
        f"({', '.join(foreign[:5])}{' ...' if len(foreign) > 5 else ''}): each `run` starts from "  # noqa: PLR2004
        "the fixture's prior_runs alone (docs/implementers.md, 'Each run starts from the "
        "fixture's prior_runs alone'); is your diagnosis_run store kept across run messages?",
        rule="R7.prior-runs-untouched",
    )


def _prior_runs_untouched(
    found: Findings, observation: dict[str, Any], fixture: dict[str, Any]
) -> None:
    rows = {row.get("run_id"): row for row in observation.get("runs", [])}
    session = fixture.get("session_id")
    for prior in fixture.get("prior_runs", []):
        if prior.get("session_id") != session:
            found.expect(
                rows.get(prior["run_id"], prior) == prior,
                f"earlier Run {prior['run_id']!r} of another session changed",
                rule="R7.prior-runs-untouched",
            )
            continue
        found.expect(
            rows.get(prior["run_id"]) == prior,
            f"earlier Run {prior['run_id']!r} changed or vanished (terminal rows are immutable)",
            rule="R7.prior-runs-untouched",
        )
    current = current_run(observation) or {}
    seqs = [
        p["seq"]
        for p in fixture.get("prior_runs", [])
        if p["session_id"] == current.get("session_id")
    ]
    if seqs and current:
        found.expect(
            current.get("seq", 0) > max(seqs),
            f"the Run's seq {current.get('seq')} does not follow the session's {max(seqs)}",
            rule="R7.prior-runs-untouched",
        )


def _trace_order(found: Findings, observation: dict[str, Any]) -> None:
    trace = observation.get("trace", [])
    seqs = [e.get("seq") for e in trace]
    found.expect(
        seqs == list(range(1, len(trace) + 1)),
        f"trace seq is not 1..N: {seqs}",
        rule="R0.valid-observation",
    )
    other = {e.get("run_id") for e in trace} - {observation.get("run_id")}
    found.expect(
        not other,
        f"trace events of other Runs: {sorted(map(str, other))}",
        rule="R0.valid-observation",
    )
    if trace:
        found.expect(
            trace[-1].get("type") == "RUN_FINISHED",
            "the trace does not end RUN_FINISHED",
            rule="R0.valid-observation",
        )


def _released_is_validated(
    found: Findings, observation: dict[str, Any], fixture: dict[str, Any]
) -> None:
    trace = observation.get("trace", [])
    submitted = [canonical(document) for document in submitted_documents(fixture)]
    published = observation.get("published_result") or {}
    for index, event in enumerate(trace):
        if event.get("type") != "RESULT_RELEASED":
            continue
        kind = event["data"].get("kind")
        if kind not in {"DIAGNOSIS_DRAFT", "KNOWLEDGE_ANSWER"}:
            continue
        before = trace[:index]
        valid = [e for e in before if e["type"] == "EVIDENCE_VALIDATION" and e["data"].get("valid")]
        verdicts = [e for e in before if e["type"] == "SEMANTIC_VERDICT"]
        found.expect(valid, f"{kind} released without a valid EVIDENCE_VALIDATION before it")
        supported = verdicts and verdicts[-1]["data"].get("verdict") == "SUPPORTED"
        found.expect(supported, f"{kind} released without a SUPPORTED SEMANTIC_VERDICT before it")
        if supported:
            digest = verdicts[-1]["data"].get("snapshot_digest")
            reviewed = [
                e["data"].get("snapshot_digest")
                for e in before
                if e["type"] == "MODEL_CALL_FINISHED"
                and e["data"].get("component") == "SEMANTIC_GUARD"
                and e["data"].get("outcome") == "VALID"
            ]
            found.expect(
                reviewed and reviewed[-1] == digest,
                "the SUPPORTED verdict's snapshot digest is not the reviewed snapshot's",
            )
        body = published.get("diagnosis_draft", published.get("knowledge_answer"))
        found.expect(
            published.get("kind") == kind and canonical(body) in submitted,
            f"the released {kind} is not canonical-JSON-identical to a submission of the agent",
        )


def _draft_texts(fixture: dict[str, Any]) -> list[str]:
    texts: list[str] = []
    for submission in submissions(fixture):
        document = submission.document
        if not isinstance(document, dict):
            continue
        conclusion = document.get("conclusion")
        if isinstance(conclusion, dict) and isinstance(conclusion.get("summary"), str):
            texts.append(conclusion["summary"])
        for key in ("analyses", "items"):
            for item in document.get(key, []) or []:
                if isinstance(item, dict):
                    texts.extend(
                        v
                        for k, v in item.items()
                        if k in {"statement", "text"} and isinstance(v, str)
                    )
    return [t for t in texts if t.strip()]


def _failure_messages(fixture: dict[str, Any]) -> list[str]:
    return [
        response["message"]
        for script in fixture.get("tools", {}).values()
        for response in [*script.get("responses", []), script.get("default") or {}]
        if response.get("kind") == "failure"
    ]


def _users_words(fixture: dict[str, Any]) -> str:
    """Text the user wrote (this Run's message, earlier Runs' messages): never draft text.

    A draft may restate the user's question, or one word of it; the Run row legitimately holds
    the user's message, so finding such a statement there is no leak (suite-gaps K5).
    """
    messages = [fixture.get("user_message")]
    messages += [run.get("user_message") for run in fixture.get("prior_runs", [])]
    return "\n".join(m for m in messages if isinstance(m, str))


def _fallback_is_clean(
    found: Findings, observation: dict[str, Any], fixture: dict[str, Any]
) -> None:
    published = observation.get("published_result") or {}
    users = _users_words(fixture)
    explained = _Lazy(lambda: explained_text(observation, fixture))  # coincidences: no leak (F1)
    if published.get("kind") not in {"DIAGNOSIS_DRAFT", "KNOWLEDGE_ANSWER"}:
        drafts = _draft_texts(fixture)
        leaked: list[str] = []
        if drafts:
            row = dict(current_run(observation) or {})
            row.pop("user_message", None)  # the user's own words, stored as the contract says
            text = json.dumps(
                [published, row, observation.get("client_frames")], ensure_ascii=False
            )
            leaked = [t for t in drafts if t in text and t not in users and t not in explained()]
        found.expect(
            not leaked,
            f"unreleased draft text reached the fallback, run row or client: {leaked}",
            rule="R6.fallback-fixed-schema",
        )
    messages = [m for m in _failure_messages(fixture) if m.strip()]
    leaked = []
    if messages:
        output = json.dumps(
            [observation.get("client_frames"), observation.get("runs"), observation.get("trace")],
            ensure_ascii=False,
        )
        leaked = [m for m in messages if m in output and m not in users and m not in explained()]
    found.expect(
        not leaked,
        f"internal tool failure text reached the output: {leaked}",
        rule="R6.fallback-fixed-schema",
    )


class _Lazy:
    """A text computed on its first call, then remembered (the leak checks' explained text).

    Most Runs script no draft text that reaches a fallback and no raised or in-band backend
    text, so they never need the explained text (a walk of every record of the observation).
    """

    def __init__(self, compute: Callable[[], str]) -> None:
        self._compute: Callable[[], str] | None = compute
        self._text = ""

    def __call__(self) -> str:
        if self._compute is not None:
            self._text = self._compute()
            self._compute = None
        return self._text


_TOOL_NAMES = tuple(str(name.value) for name in ToolName)
"""The ToolName vocabulary (``query-scope.schema.json``): names any record may carry."""

_PREFIX = 16
"""A longer raised message is also looked for by its first and its last this many characters
(a Harness that keeps a cut copy, or the part after the last colon)."""


def _without_in_band_codes(fixture: dict[str, Any]) -> dict[str, Any]:
    """``fixture`` with the codes its backends answer in band blanked (a copy)."""
    tools = {
        name: {
            key: (
                [_blank_code(r) for r in value]
                if key == "responses"
                else _blank_code(value)
                if key == "default"
                else value
            )
            for key, value in script.items()
        }
        for name, script in fixture.get("tools", {}).items()
    }
    return {**fixture, "tools": tools}


def _blank_code(response: Any) -> Any:  # noqa: ANN401 - a scripted ToolResponse
    if isinstance(response, dict) and response.get("kind") == "in_band_error":
        return {**response, "code": ""}
    return response


def _tool_texts_excluded(  # noqa: PLR0913 - the two kinds of backend text share one search
    found: Findings,
    observation: dict[str, Any],
    texts: list[str],
    *,
    allowed: _Lazy,
    what: str,
    rule: str,
    folded: bool = False,
) -> None:
    """No text of ``texts``, whole, its opening or its end, in any record or output.

    ``folded``: compared case-insensitively (a backend's code is a word a Harness may restate
    in another case, "rate_limited"; a raised message is looked for as raised).
    """
    needles: list[str] = []
    for message in texts:
        needles.append(message)
        if len(message) > _PREFIX:
            needles.extend((message[:_PREFIX], message[-_PREFIX:]))

    def fold(text: str) -> str:
        return text.casefold() if folded else text

    candidates = [n for n in dict.fromkeys(needles) if n.strip() and len(n) >= _PREFIX // 2]
    if not candidates:
        return
    carried = _Lazy(lambda: fold(allowed()))
    # A needle is looked for unless the Run legitimately carries it; that text is needed only
    # for a needle found in a record (the same needles, in the same order, as filtering first).
    places = {
        "invocations": observation.get("invocations"),
        "runs": observation.get("runs"),
        "trace": observation.get("trace"),
        "published_result": observation.get("published_result"),
        "client_frames": observation.get("client_frames"),
    }
    for place, value in places.items():
        text = fold(json.dumps(value, ensure_ascii=False))
        for candidate in candidates:
            needle = fold(candidate)
            found_here = (
                needle in text or fold(json.dumps(needle, ensure_ascii=False)[1:-1]) in text
            )
            if found_here and fold(candidate.strip()) not in carried():
                found.add(
                    f"{what} ({needle[:60]!r}) reached the Run's {place}: an invocation's error "
                    "carries the Harness's own safe message, never the backend's text",
                    rule=rule,
                )
                break


def _internal_errors_excluded(
    found: Findings, observation: dict[str, Any], fixture: dict[str, Any]
) -> None:
    """No raised tool error text, and no error a backend answered in band, in any record."""
    allowed = _Lazy(lambda: _carried_text(observation, fixture))
    _tool_texts_excluded(
        found,
        observation,
        _failure_messages(fixture),
        allowed=allowed,
        what="the text a tool raised",
        rule="R6.internal-error-excluded",
    )
    _tool_texts_excluded(
        found,
        observation,
        in_band_codes(fixture),
        allowed=allowed,
        what="the error a tool backend answered in band",
        rule="R6.in-band-error-excluded",
        folded=True,
    )


def _carried_text(observation: dict[str, Any], fixture: dict[str, Any]) -> str:
    """Text the Run legitimately carries: no leak, even when a backend's text begins with it.

    E.g. "lookup_documents backend exploded": its opening is the tool's name. The tool names,
    whatever the fixture scripts for the model side, and the contracts' vocabulary and the
    observation's ids and numbers ("TOOL_FAILED" raised is the code a conforming Harness
    records: F1, docs/decisions/false-kills-8.md). The backends' in-band codes are the needles'
    own place, not scripted text a Harness may carry.
    """
    scripted = {key: value for key, value in fixture.items() if key != "tools"}
    return "\n".join(
        [
            *_TOOL_NAMES,
            *fixture.get("tools", {}),
            json.dumps(scripted, ensure_ascii=False),
            explained_text(observation, _without_in_band_codes(fixture)),
        ]
    )


def check_internal_error_excluded(
    observation: dict[str, Any], fixture: dict[str, Any]
) -> CheckResult:
    """Check no raised tool text, and no in-band backend error, reaches the Run's records.

    (R6, safe_message; the client's frames are records too.)

    The fixture's raised messages (``failure`` responses, ``R6.internal-error-excluded``) and
    in-band error codes (``in_band_error`` results, ``R6.in-band-error-excluded``), whole, by
    their first and by their last 16 characters, are looked for in the invocations, run rows,
    trace, published result and client frames. A text the Run legitimately carries is not looked
    for: one the fixture scripts for the model side, a tool name, a code of the contracts.
    """
    found = Findings("a raised tool error reaches no record", "R6.internal-error-excluded")
    _internal_errors_excluded(found, observation, fixture)
    return found.result()


def _bounded_attempts(found: Findings, observation: dict[str, Any], policy: dict[str, int]) -> None:
    repairs = events(observation, "STRUCTURAL_REPAIR_REQUESTED")
    found.expect(
        len(repairs) <= _MAX_REPAIRS,
        f"{len(repairs)} structural repairs (at most 1)",
        rule="R6.one-structural-repair",
    )
    submitted = [e["data"].get("attempt") for e in events(observation, "DRAFT_SUBMITTED")]
    found.expect(
        len(submitted) == len(set(submitted)) and set(submitted) <= {1, 2},
        f"DRAFT_SUBMITTED attempts {submitted} (at most attempt 1 and one repair, 2)",
        rule="R6.one-structural-repair",
    )
    for event_type in ("MODEL_CALL_STARTED", "MODEL_CALL_FINISHED"):
        calls: dict[tuple[str, str, int], list[int]] = defaultdict(list)
        for event in events(observation, event_type):
            data = event["data"]
            calls[data.get("component"), data.get("purpose"), data.get("call_index")].append(
                data.get("attempt")
            )
        for (component, purpose, index), attempts in calls.items():
            limit = policy.get(component, 1)
            found.expect(
                attempts == list(range(1, len(attempts) + 1)) and len(attempts) <= limit,
                f"{component} {purpose} call {index}: {event_type} attempts {attempts} "
                f"(policy allows {limit})",
                rule="R9.attempts-bounded",
            )


def _outcome_agrees(found: Findings, observation: dict[str, Any], fixture: dict[str, Any]) -> None:
    row = current_run(observation)
    if not found.expect(
        row is not None, "no diagnosis_run row for the observed Run", rule="R7.durable-run-outcome"
    ):
        return
    assert row is not None  # noqa: S101 - narrowed by the expectation above
    found.expect(
        row.get("state") != "RUNNING",
        "the Run is still RUNNING after it finished",
        rule="R7.durable-run-outcome",
    )
    found.expect(
        row.get("published_result") == observation.get("published_result"),
        "the diagnosis_run published_result differs from the observation's",
        rule="R7.durable-run-outcome",
    )
    finished = events(observation, "RUN_FINISHED")
    if finished:
        found.expect(
            finished[-1]["data"].get("state") == row.get("state"),
            f"RUN_FINISHED says {finished[-1]['data'].get('state')}, the row {row.get('state')}",
            rule="R7.durable-run-outcome",
        )
    results = [
        f.get("data") for f in observation.get("client_frames", []) if f.get("event") == "result"
    ]
    if observation.get("published_result") is None:
        found.expect(
            not results,
            "the client received a result although nothing was published",
            rule="R7.durable-run-outcome",
        )
    elif left_before(observation.get("trace", []), fixture, "RESULT_RELEASED"):
        # the client left on (or before) the RESULT_RELEASED frame: the result frame that
        # follows it never reached it (frames are compared only up to what the client received)
        found.expect(
            not results,
            "the client received a result frame after it disconnected",
            rule="R8.nothing-after-disconnect",
        )
    else:
        # A client that disconnected on an event before the `result` frame (RESULT_RELEASED, the
        # last one sent before it) is gone: it receives nothing more, the row holds the result.
        left = disconnect_index(observation, fixture) is not None and not results
        found.expect(
            left or results == [observation["published_result"]],
            "the client's result frames differ from the published result",
            rule="R7.durable-run-outcome",
        )
