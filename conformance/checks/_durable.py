"""The ``diagnosis_run`` row as the durable source of intent (Requirement 7).

"The contract SHALL define diagnosis_run as the durable source of intent, release outcome and
safe published result": the stored row of the observed Run, not only its trace, must say what the
Run was and how it was routed. Global invariant ``R7.durable-run-intent``, applied to every Run:

* the row's ``session_id`` and ``user_message`` are the fixture's, its ``seq`` is the one
  ``RUN_STARTED`` announced;
* its ``intent`` is the ``INTENT_ROUTED`` intent, or null when the Run was never routed (the
  contract: "The routed intent; null until routed");
* when the scripted Router answers fix the intent (the first answer the retry policy accepts is an
  ``intent`` turn), the row holds that intent.

The row's ``fallback_type`` and ``error_code`` must agree with the published result
(``R7.durable-run-outcome``: the release outcome).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from conformance.checks._result import CheckResult, Findings
from conformance.checks._runtime_oracle import (
    attempt_policy,
    expected_attempts,
    fit_to_run,
    router_outcome,
)
from conformance.checks._view import canonical, current_run, events

if TYPE_CHECKING:
    from collections.abc import Collection

__all__ = ["check_durable_run", "check_finished_run_unchanged", "durable_run_findings"]

_RULE: Final = "R7.durable-run-intent"
_OUTCOME: Final = "R7.durable-run-outcome"


def routed_intent(fixture: dict[str, Any], capabilities: Collection[str] | None = None) -> Any:  # noqa: ANN401 - an intent name or None
    """Return the intent the scripted Router answers fix under the policy, or ``None``.

    ``None`` when no accepted answer is an ``intent`` turn (the Run fails routing, or a raw
    answer is not judged).
    """
    turns = fixture.get("router", [])
    limit = attempt_policy(capabilities)["ROUTER"]
    made = expected_attempts([router_outcome(t) for t in turns], limit)
    if not made or made[-1] != "VALID":
        return None
    turn = turns[len(made) - 1]
    return turn.get("intent") if turn.get("kind") == "intent" else None


def durable_run_findings(
    found: Findings,
    observation: dict[str, Any],
    fixture: dict[str, Any],
    capabilities: Collection[str] | None = None,
) -> None:
    """Record into ``found`` what :func:`check_durable_run` finds (for the global invariants)."""
    row = current_run(observation)
    if row is None:
        return  # no row at all: R7.durable-run-outcome
    for field in ("session_id", "user_message"):
        found.expect(
            row.get(field) == fixture.get(field),
            f"the diagnosis_run row stores {field} {str(row.get(field))[:80]!r}, the Run's is "
            f"{str(fixture.get(field))[:80]!r}",
            rule=_RULE,
        )
    started = events(observation, "RUN_STARTED")
    if started:
        announced = started[0].get("data", {}).get("run_seq")
        found.expect(
            row.get("seq") == announced,
            f"the diagnosis_run row stores seq {row.get('seq')}, RUN_STARTED announced {announced}",
            rule=_RULE,
        )
    routed = [e.get("data", {}).get("intent") for e in events(observation, "INTENT_ROUTED")]
    stored = row.get("intent")
    if routed:
        found.expect(
            stored == routed[0],
            f"the diagnosis_run row stores intent {stored}, the Run was routed {routed[0]}",
            rule=_RULE,
        )
        decided = routed_intent(fixture, capabilities)
        if decided is not None and not fixture.get("perturbations"):
            found.expect(
                stored == decided,
                f"the diagnosis_run row stores intent {stored}, the Router answered {decided}",
                rule=_RULE,
            )
    else:
        found.expect(
            stored is None,
            f"the diagnosis_run row stores intent {stored}, but the Run was never routed "
            "(no INTENT_ROUTED): the intent is null until routed",
            rule=_RULE,
        )
    published = observation.get("published_result") or {}
    fallback = (published.get("safe_fallback") or {}).get("fallback_type")
    error = (published.get("public_error") or {}).get("error_code")
    found.expect(
        (row.get("fallback_type"), row.get("error_code")) == (fallback, error),
        f"the diagnosis_run row stores fallback_type {row.get('fallback_type')} and error_code "
        f"{row.get('error_code')}, the published result says {fallback} / {error}",
        rule=_OUTCOME,
    )


def check_durable_run(
    observation: dict[str, Any],
    fixture: dict[str, Any],
    capabilities: Collection[str] | None = None,
) -> CheckResult:
    """Check the Run's ``diagnosis_run`` row holds its intent; see the module docstring.

    ``capabilities`` are the IUT's declared ones (``None``: all); a declared Router retry the Run
    declined is judged by the one-attempt policy (:func:`~conformance.checks.fit_to_run`).
    """
    found = Findings("diagnosis_run is the durable source of intent", _RULE)
    durable_run_findings(found, observation, *fit_to_run(observation, fixture, capabilities))
    return found.result()


def check_finished_run_unchanged(
    observation: dict[str, Any], fixture: dict[str, Any]
) -> CheckResult:
    """Check a client that disconnects on RUN_FINISHED changes nothing of the finished Run.

    Terminal states are immutable (contract sheet ``diagnosis-run``: "Terminal states are
    immutable (a store rule)"), and a cancel that arrives after the release changes nothing. The
    fixture's client must disconnect on ``RUN_FINISHED`` (else the WHEN does not hold). Then the
    ``diagnosis_run`` row holds the state ``RUN_FINISHED`` announced and the result the client
    received in its ``result`` frame (``R7.durable-run-outcome``), and nothing follows
    ``RUN_FINISHED`` in the trace: no cancel layer is recorded for a Run that had already
    released (``R8.layered-cancellation``).
    """
    found = Findings("a finished Run stays as it was released", _OUTCOME)
    target = (fixture.get("client") or {}).get("disconnect_on") or {}
    found.expect(
        target.get("event_type") == "RUN_FINISHED",
        f"the fixture's client disconnects on {target.get('event_type')}, not on RUN_FINISHED "
        "(the WHEN would not hold)",
    )
    trace = observation.get("trace", [])
    finished = [i for i, e in enumerate(trace) if e.get("type") == "RUN_FINISHED"]
    if not found.expect(len(finished) == 1, f"{len(finished)} RUN_FINISHED events, expected one"):
        return found.result()
    state = (trace[finished[0]].get("data") or {}).get("state")
    later = [e.get("type") for e in trace[finished[0] + 1 :]]
    found.expect(
        not later,
        f"the trace goes on after RUN_FINISHED ({state}) with {later}: a cancel that arrives "
        "after the release changes nothing, and records no layer",
        rule="R8.layered-cancellation",
    )
    row = current_run(observation) or {}
    found.expect(
        row.get("state") == state,
        f"the diagnosis_run row is {row.get('state')}, but RUN_FINISHED said {state}: the "
        "client left after the Run finished, and terminal states are immutable",
    )
    received = [
        f.get("data") for f in observation.get("client_frames", []) if f.get("event") == "result"
    ]
    stored = row.get("published_result")
    found.expect(
        len(received) == 1 and stored is not None and canonical(stored) == canonical(received[0]),
        "the diagnosis_run row does not hold the published result the client received before it "
        f"left (row: {None if stored is None else stored.get('kind')}, result frames: "
        f"{len(received)})",
    )
    return found.result()
