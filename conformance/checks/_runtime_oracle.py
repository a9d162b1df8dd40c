"""What the retry policy, the timeouts and a disconnect make a conforming Harness do.

Computed from the Scenario Fixture, the IUT's declared capabilities and the rules alone (contract
sheet, DESIGN sections 5-7), never from a Harness's output:

* the attempt policy: Router and SemanticGuard get a second attempt only after INVALID_SCHEMA or
  UNAVAILABLE, and only when the IUT declares ``ROUTER_RETRY`` / ``SEMANTIC_RETRY`` (the spec says
  the Harness *may* retry: Requirement "Retry attempts SHALL be owned by Harness"); every other
  model call gets one attempt;
* :func:`declined_retries` and :func:`fit_to_run`: a declared retry is a *may* per trigger, so a
  Run whose Router or SemanticGuard made one attempt that ended INVALID_SCHEMA or UNAVAILABLE is
  judged by the one-attempt policy for that component (docs/decisions/red-team-8.md, "F1
  per-trigger retries");
* the outcome each scripted model answer gives (:func:`router_outcome`, :func:`agent_outcome`,
  :func:`review_outcome`): a turn that blocks and is never cancelled ends TIMEOUT;
* :func:`expected_attempts`: the attempt outcomes of one logical call under the policy;
* :func:`fit_to_capabilities`: the fixture trimmed to what a Harness without the optional retries
  consumes, so that it is never blamed for turns it is allowed to leave unread;
* :func:`disconnect_index`: where in a trace the scripted client disconnects.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from contracts import capability_vocabulary, json_copy, loads_strict

if TYPE_CHECKING:
    from collections.abc import Collection, Mapping

__all__ = [
    "OPTIONAL_RETRIES",
    "RETRY_ON",
    "agent_outcome",
    "attempt_policy",
    "declined_retries",
    "disconnect_index",
    "expected_attempts",
    "fit_to_capabilities",
    "fit_to_run",
    "is_blocking",
    "names_unreviewed_ids",
    "review_outcome",
    "router_outcome",
]

OPTIONAL_RETRIES: Final[Mapping[str, str]] = {
    "ROUTER": "ROUTER_RETRY",
    "SEMANTIC_GUARD": "SEMANTIC_RETRY",
}
"""The component whose retry the spec allows (RFC 2119 *may*) -> the capability declaring it."""

RETRY_ON: Final = frozenset({"INVALID_SCHEMA", "UNAVAILABLE"})
"""Outcomes after which an allowed second attempt is made (DESIGN section 6)."""

_INTENTS: Final = frozenset({"DIAGNOSIS", "KNOWLEDGE_QUERY"})
_BLOCKING: Final = frozenset({"block_until_cancelled"})


def attempt_policy(capabilities: Collection[str] | None = None) -> dict[str, int]:
    """Return the most attempts per logical call, by component, for an IUT's ``capabilities``.

    ``None`` means every capability (the reference policy: Router 2, SemanticGuard 2, agent 1).
    Without ``ROUTER_RETRY`` / ``SEMANTIC_RETRY`` that component gets exactly one attempt.
    """
    declared = set(OPTIONAL_RETRIES.values()) if capabilities is None else set(capabilities)
    policy = {"DIAGNOSIS_AGENT": 1}
    for component, capability in OPTIONAL_RETRIES.items():
        policy[component] = 2 if capability in declared else 1
    return policy


def is_blocking(turn: Mapping[str, Any]) -> bool:
    """Whether a scripted model turn blocks until the Run is cancelled or the call times out."""
    return turn.get("kind") in _BLOCKING


def router_outcome(turn: Mapping[str, Any]) -> str | None:
    """Return the Attempt Record outcome a Router turn gives, or ``None`` when not judged.

    ``intent`` -> VALID; ``raw`` text that is not an intent name -> INVALID_SCHEMA (a raw intent
    name is not judged: an IUT may accept it); ``error`` -> its error; a blocking turn -> TIMEOUT.
    """
    kind = turn.get("kind")
    if kind == "intent":
        return "VALID"
    if kind == "raw":
        return None if str(turn.get("text", "")).strip() in _INTENTS else "INVALID_SCHEMA"
    if kind == "error":
        return str(turn.get("error"))
    if kind in _BLOCKING:
        return "TIMEOUT"
    return None


def agent_outcome(turn: Mapping[str, Any]) -> str | None:
    """Return the outcome a Diagnosis Agent turn gives, or ``None`` when not judged.

    Tool calls, drafts and answers -> VALID; ``error`` -> its error; a blocking turn -> TIMEOUT;
    ``ignore_cancellation`` -> its answer's outcome. Raw text is not judged (an IUT may record it
    as VALID and let the EvidenceGuard reject it, or as INVALID_SCHEMA).
    """
    kind = turn.get("kind")
    if kind in {"tool_calls", "draft", "knowledge_answer"}:
        return "VALID"
    if kind == "error":
        return str(turn.get("error"))
    if kind in _BLOCKING:
        return "TIMEOUT"
    if kind == "ignore_cancellation":
        return agent_outcome(turn["then"])
    return None


def _verdict_value(turn: Mapping[str, Any]) -> tuple[bool, Any]:
    if turn.get("kind") == "verdict":
        return True, turn.get("verdict")
    try:
        return True, loads_strict(str(turn.get("text", "")))
    except ValueError:
        return False, None


def review_outcome(
    turn: Mapping[str, Any], reviewed_ids: Collection[str] | None
) -> tuple[str, str | None]:
    """Return (outcome, verdict) of a SemanticGuard turn reviewing analyses ``reviewed_ids``.

    A verdict (or raw JSON text) that is a valid SemanticVerdict whose unsupported ids all name
    an analysis (or answer item) of the reviewed snapshot is VALID with its verdict (SUPPORTED or
    UNSUPPORTED); anything else it answers is INVALID_SCHEMA; ``error`` gives its error; a
    blocking turn gives TIMEOUT. ``reviewed_ids`` ``None`` skips the id check.
    """
    from contracts import is_valid_document  # noqa: PLC0415 - contracts loads schemas on import

    kind = turn.get("kind")
    if kind == "error":
        return str(turn.get("error")), None
    if kind in _BLOCKING:
        return "TIMEOUT", None
    parsed, value = _verdict_value(turn)
    if not parsed or not is_valid_document(value, "semantic-verdict"):
        return "INVALID_SCHEMA", None
    named = set(value["unsupported_analysis_ids"])
    if reviewed_ids is not None and not named <= set(reviewed_ids):
        return "INVALID_SCHEMA", None
    return "VALID", str(value["verdict"])


def names_unreviewed_ids(turn: Mapping[str, Any], reviewed_ids: Collection[str] | None) -> bool:
    """Whether a SemanticGuard turn is a valid UNSUPPORTED verdict naming an id not reviewed.

    True when the answer is valid against ``semantic-verdict`` (the frozen schema puts no
    membership constraint on ``unsupported_analysis_ids``), says UNSUPPORTED and names an id
    that is not among ``reviewed_ids`` (``None``: not known, so False). Such an answer has two
    readings (docs/decisions/red-team-6.md, "F4"): :func:`review_outcome` gives the kit's
    (INVALID_SCHEMA, the declared retry follows); a Harness may instead take it as VALID
    UNSUPPORTED (fallback SEMANTIC_UNSUPPORTED). Nothing is released either way.
    """
    from contracts import is_valid_document  # noqa: PLC0415 - contracts loads schemas on import

    if reviewed_ids is None or turn.get("kind") == "error" or turn.get("kind") in _BLOCKING:
        return False
    parsed, value = _verdict_value(turn)
    if not parsed or not is_valid_document(value, "semantic-verdict"):
        return False
    named = set(value["unsupported_analysis_ids"])
    return value["verdict"] == "UNSUPPORTED" and not named <= set(reviewed_ids)


def expected_attempts(outcomes: list[str | None], limit: int) -> list[str | None]:
    """Return the attempt outcomes of one logical call whose answers give ``outcomes``.

    Attempts go on while the previous one ended INVALID_SCHEMA or UNAVAILABLE and fewer than
    ``limit`` were made; a missing scripted answer reads as ``None`` (not judged).
    """
    made: list[str | None] = []
    for index in range(limit):
        outcome = outcomes[index] if index < len(outcomes) else None
        made.append(outcome)
        if outcome not in RETRY_ON:
            break
    return made


def fit_to_capabilities(
    fixture: Mapping[str, Any], capabilities: Collection[str]
) -> dict[str, Any]:
    """Return ``fixture`` trimmed to what a Harness with ``capabilities`` consumes.

    Without ``SEMANTIC_RETRY`` the SemanticGuard script keeps its first turn; without
    ``ROUTER_RETRY`` the Router script keeps its first turn, and when that turn cannot route, the
    agent, SemanticGuard and tool scripts are emptied (the Run fails before them). A fixture that
    needs no trimming is returned as an equal copy.
    """
    fitted = json_copy(dict(fixture))
    declared = set(capabilities)
    if "SEMANTIC_RETRY" not in declared:
        fitted["semantic_guard"] = fitted.get("semantic_guard", [])[:1]
    if "ROUTER_RETRY" not in declared and fitted.get("router"):
        fitted["router"] = fitted["router"][:1]
        if router_outcome(fitted["router"][0]) != "VALID":
            fitted["agent"], fitted["semantic_guard"], fitted["tools"] = [], [], {}
    return fitted


def _component_events(trace: list[Any], event_type: str, component: str) -> list[dict[str, Any]]:
    """The ``data`` of each ``event_type`` event of ``component`` in ``trace`` (malformed: none)."""
    return [
        event["data"]
        for event in trace
        if isinstance(event, dict)
        and event.get("type") == event_type
        and isinstance(event.get("data"), dict)
        and event["data"].get("component") == component
    ]


def declined_retries(
    observation: Mapping[str, Any], capabilities: Collection[str] | None = None
) -> dict[str, str]:
    """Return the declared optional retries this Run did not take: capability -> the outcome.

    ``ROUTER_RETRY`` / ``SEMANTIC_RETRY`` say the Harness *may* retry; the spec names no trigger
    it must retry on ("Harness may execute one second attempt", "any allowed Router or
    SemanticGuard retry"), so a Harness may retry after INVALID_SCHEMA only, after UNAVAILABLE
    only, after both, or after neither. A declared retry counts as declined in a Run that was not
    cancelled when its component made exactly one attempt in the whole Run (call 1, attempt 1,
    started and finished once) and that attempt ended INVALID_SCHEMA or UNAVAILABLE (the
    outcome *recorded*: a wrong one fails ``R9.model-call-outcome`` against the script).
    ``capabilities`` ``None`` means every capability declared. A retry not declared is never in
    the result (the fixture was already fitted to it before the Run).
    """
    trace = observation.get("trace")
    if not isinstance(trace, list) or any(
        isinstance(e, dict) and e.get("type") == "CANCEL_REQUESTED" for e in trace
    ):
        return {}
    declared = set(OPTIONAL_RETRIES.values()) if capabilities is None else set(capabilities)
    declined: dict[str, str] = {}
    for component, capability in OPTIONAL_RETRIES.items():
        if capability not in declared:
            continue
        started = _component_events(trace, "MODEL_CALL_STARTED", component)
        finished = _component_events(trace, "MODEL_CALL_FINISHED", component)
        if len(started) != 1 or len(finished) != 1:
            continue
        only = finished[0]
        if (only.get("call_index"), only.get("attempt")) == (1, 1) and only.get(
            "outcome"
        ) in RETRY_ON:
            declined[capability] = str(only["outcome"])
    return declined


def fit_to_run(
    observation: Mapping[str, Any],
    fixture: Mapping[str, Any],
    capabilities: Collection[str] | None = None,
) -> tuple[dict[str, Any], frozenset[str] | None]:
    """Return (fixture, capabilities) that one Run of ``fixture`` is judged by.

    ``capabilities`` are the IUT's declared ones (``None``: all). Each declared retry this Run
    declined (:func:`declined_retries`) is taken out, and the fixture is trimmed to it
    (:func:`fit_to_capabilities`): the Run is judged like one of a Harness without that retry,
    so it must make exactly that one attempt and end as it gives (SEMANTIC_UNAVAILABLE;
    FAILED ROUTER_UNAVAILABLE). A Run that declined nothing gets ``fixture`` itself and
    ``capabilities`` unchanged.
    """
    declined = declined_retries(observation, capabilities)
    if not declined:
        same = fixture if isinstance(fixture, dict) else dict(fixture)
        return same, None if capabilities is None else frozenset(capabilities)
    declared = set(capability_vocabulary() if capabilities is None else capabilities)
    taken = frozenset(declared - set(declined))
    return fit_to_capabilities(fixture, taken), taken


def disconnect_index(observation: Mapping[str, Any], fixture: Mapping[str, Any]) -> int | None:
    """Return the trace position of the event the scripted client disconnects on, or ``None``.

    The client disconnects on the ``occurrence``-th event of ``client.disconnect_on.event_type``;
    ``None`` when the fixture scripts no disconnect or the trace never reaches that event.
    """
    target = (fixture.get("client") or {}).get("disconnect_on")
    if not target:
        return None
    seen = 0
    for index, event in enumerate(observation.get("trace", [])):
        if event.get("type") == target["event_type"]:
            seen += 1
            if seen == target["occurrence"]:
                return index
    return None
