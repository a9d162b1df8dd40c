"""The fixture vocabulary and a meter of which of its elements a set of Runs reaches.

Every element is read from the contracts where one says it, never from a hand list:

* ``fixture:<name>`` / ``observation:<name>``: every enum value and every branch of a
  discriminated union of the scenario-fixture and run-observation contracts
  (:mod:`conformance.vocabulary._schema_walk`): turn kinds per component (``RouterTurn:``,
  ``AgentTurn:``, ``ReviewTurn:``), tool response kinds (``ToolResponse:``), trace event types,
  codes, states. Reached when a fixture (or an observation) uses it.
* ``disconnect:<event type>``: each ``TraceEventType`` as the client's disconnect point; reached
  when the observed trace holds the scripted occurrence (the disconnect really happened there;
  for the :data:`AFTER_CANCEL` types, which only a cancellation emits, when the Run ends
  uncancelled).
* ``repair:<agent turn kind>``: each ``AgentTurn`` kind as the structural repair answer; reached
  when the Run requested a repair and the fixture's repair turn is of that kind.
* ``limit:<member>=<bound>``: each bound (``minimum``/``maximum``) of the fixture's ``Limits``,
  the largest valid value (the I-JSON bound, 2**53 - 1) of each limit with no ``maximum``
  (docs/decisions/extreme-limits-11.md), and ``limit:max_steps-exhausted`` (the agent script,
  its decoys included, holds more tool steps than ``max_steps``).
* ``history:<intent>/<state>``: each ``Intent`` x ``RunState`` of an earlier Run of the session,
  ``history:unrouted`` (intent null) and ``history:other-session``.
* ``id:<class>``: each Tool Call ID class of :data:`~conformance.vocabulary.ID_CLASSES`.
* ``held:<purpose>``: each ``ModelCallPurpose`` as a call in flight at the client's disconnect
  whose scripted answer is held until the Run is cancelled (``block_until_cancelled``); reached
  when the observed trace shows that attempt open at the disconnect event.
* ``fallback:<intent>/<fallback type>``: each ``Intent`` x ``FallbackType`` a Run ends in
  (observed: ``INTENT_ROUTED`` and ``RUN_FINISHED``).
* ``citation:<kind>``: a Knowledge Answer the agent submits that cites a lookup whose result
  holds no document (``empty-lookup``: NO_EVIDENCE; ``failed-lookup``: it ended in an error),
  or names the lookup Tool Call ID only loosely (``respelled-lookup-id``: equal to the lookup's
  id once letter case, NFKC form and surrounding space are folded); the lookups' outcomes are the
  kit's oracle's (:func:`conformance.checks.expected_outcome`).
* ``keyword:<contract>/<keyword>``: each JSON Schema keyword of a frozen contract a model
  writes (:data:`conformance.keywordbreaks.CONTRACTS`) that a scripted output breaks alone
  (a draft, a Knowledge Answer, a verdict, a tool call's arguments); the keywords are those the
  keyword walk breaks in the contract's base documents.
* ``count:<how>``: a diagnosis tool's ``rows`` result whose ``total_matched`` is below the rows
  it returns (``under-reported``) or above them (``over-reported``).
* ``history:next-seq-run-id``: an earlier Run of the session whose ``run_id`` is the name a
  Harness deriving Run ids from the sequence gives the new Run (``run-<n>``, ``run_<n>`` or
  ``<n>``, ``n`` one past the session's greatest ``seq``).
* ``gate:<public error code>``: the client disconnects on the Run's last model call, a failing
  Router (``ROUTER_UNAVAILABLE``) or Diagnosis Agent (``AGENT_UNAVAILABLE``) call, so that only
  the release gate is left before the public error's release (observed: that
  ``MODEL_CALL_FINISHED`` did not succeed, and the fixture scripts no later model call).

Red team 8's families (``count:``, ``history:next-seq-run-id``, ``gate:``):
docs/decisions/red-team-8.md.

:data:`UNREACHABLE` names the few observation values no fixture can make a conforming Harness
report, each with the reason; they are listed, never counted.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from conformance.vocabulary._id_classes import ID_CLASSES, id_classes_of
from conformance.vocabulary._schema_walk import contract_vocabulary

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

__all__ = [
    "AFTER_CANCEL",
    "UNREACHABLE",
    "Coverage",
    "Element",
    "VocabularyMeter",
    "elements",
    "reached_by",
]

_FIXTURE: Final = "scenario-fixture"
_OBSERVATION: Final = "run-observation"
_KIT_ONLY: Final = (
    "filled in by the kit's model endpoint, never by a Harness; absent from an in-process run"
)
_NOT_CONFORMING: Final = "an IUT reports it only when it disagrees with the fixture"

UNREACHABLE: Final[Mapping[str, str]] = MappingProxyType(
    {
        **{
            f"observation:ObservationError/code={code}": _NOT_CONFORMING
            for code in ("SCRIPT_EXHAUSTED", "SCRIPT_UNCONSUMED", "IUT_ERROR")
        },
        **{
            f"observation:ModelRequest/answer={answer}": _KIT_ONLY
            for answer in ("ANSWERED", "HTTP_ERROR", "CLIENT_CLOSED", "NOT_ANSWERED")
        },
        "observation:CancelCause=RUN_DEADLINE": "no fixture member scripts a Run deadline",
        "observation:CancelCause=OPERATOR": "no fixture member scripts an operator's cancel",
        "observation:PublicErrorCode=INTERNAL_ERROR": (
            "the Harness's own fault (its store refused a result); no fixture scripts one"
        ),
        "observation:ViolationCode=INVOCATION_NOT_READY": (
            "a sequential Harness ends every invocation before the next model call; for a failed"
            " lookup the contract also allows LOOKUP_CALL_COUNT, which the reference reports"
        ),
    }
)
"""Element name -> why no fixture makes a conforming Harness report it (listed, not counted)."""


@dataclass(frozen=True, slots=True)
class Element:
    """One element of the fixture vocabulary.

    Attributes:
        name: ``<family>:<value>`` (see the module docstring).
        family: ``fixture``, ``observation``, ``disconnect``, ``repair``, ``limit``, ``history``,
            ``id``, ``held``, ``fallback``, ``citation`` or ``keyword``.
        unreachable: why no fixture can reach it (``""``: reachable, counted).
    """

    name: str
    family: str
    unreachable: str = ""


@functools.cache
def _enum_values(contract: str, name: str) -> tuple[str, ...]:
    prefix = f"{name}="
    return tuple(
        e.name.removeprefix(prefix)
        for e in contract_vocabulary(contract).elements
        if e.name.startswith(prefix)
    )


@functools.cache
def _limit_bounds() -> tuple[str, ...]:
    from contracts import MAX_SAFE_INTEGER, bundle_schema  # noqa: PLC0415 - loads the schema files

    limits = bundle_schema(_FIXTURE)["$defs"][f"{_FIXTURE}.Limits"]["properties"]
    bounds = [
        f"{member}={schema[key]}"
        for member, schema in limits.items()
        for key in ("minimum", "maximum")
        if key in schema
    ]
    # an integer bounded below only: its largest valid value is the I-JSON bound
    largest = [
        f"{member}={MAX_SAFE_INTEGER}"
        for member, schema in limits.items()
        if schema.get("type") == "integer" and "maximum" not in schema
    ]
    return (*bounds, *largest, "max_steps-exhausted")


def _agent_kinds() -> list[str]:
    return [
        e.name.removeprefix("AgentTurn:")
        for e in contract_vocabulary(_FIXTURE).elements
        if e.name.startswith("AgentTurn:")
    ]


def elements() -> tuple[Element, ...]:
    """Return every element of the fixture vocabulary, in a stable order."""
    found: list[Element] = []
    for family, contract in (("fixture", _FIXTURE), ("observation", _OBSERVATION)):
        for element in contract_vocabulary(contract).elements:
            name = f"{family}:{element.name}"
            found.append(Element(name, family, UNREACHABLE.get(name, "")))
    found.extend(
        Element(f"disconnect:{event}", "disconnect")
        for event in _enum_values(_FIXTURE, "TraceEventType")
    )
    found.extend(Element(f"repair:{kind}", "repair") for kind in _agent_kinds())
    found.extend(Element(f"limit:{bound}", "limit") for bound in _limit_bounds())
    states = _enum_values(_FIXTURE, "RunState")
    found.extend(
        Element(f"history:{intent}/{state}", "history")
        for intent in _enum_values(_FIXTURE, "Intent")
        for state in states
    )
    found.extend(
        Element(f"history:{h}", "history") for h in ("unrouted", "other-session", "next-seq-run-id")
    )
    found.extend(Element(f"id:{name}", "id") for name in ID_CLASSES)
    found.extend(
        Element(f"held:{purpose}", "held")
        for purpose in _enum_values(_OBSERVATION, "ModelCallPurpose")
    )
    found.extend(
        Element(f"fallback:{intent}/{kind}", "fallback")
        for intent in _enum_values(_FIXTURE, "Intent")
        for kind in _enum_values(_FIXTURE, "FallbackType")
    )
    found.extend(Element(f"citation:{kind}", "citation") for kind in CITATION_KINDS)
    found.extend(Element(f"keyword:{name}", "keyword") for name in _contract_keywords())
    found.extend(Element(f"count:{how}", "count") for how in COUNT_KINDS)
    found.extend(Element(f"gate:{code}", "gate") for code in GATE_PURPOSES.values())
    return tuple(found)


COUNT_KINDS: Final = ("under-reported", "over-reported")
"""The ``count:`` elements: how a backend's ``total_matched`` misses its rows (red team 8)."""

GATE_PURPOSES: Final = MappingProxyType(
    {"ROUTE": "ROUTER_UNAVAILABLE", "AGENT_STEP": "AGENT_UNAVAILABLE"}
)
"""Model call purpose -> the public error its failure, as the Run's last call, is released as."""


CITATION_KINDS: Final = ("empty-lookup", "failed-lookup", "respelled-lookup-id")
"""The ``citation:`` elements: how a submitted Knowledge Answer names its lookup (red team 6)."""


@functools.cache
def _contract_keywords() -> tuple[str, ...]:
    """``<contract>/<keyword>`` for each keyword the walk breaks in a contract's base documents."""
    from conformance.builders import call_arguments  # noqa: PLC0415 - builders import checks
    from conformance.keywordbreaks import (  # noqa: PLC0415 - loads the schemas
        CONTRACTS,
        base_documents,
        keyword_breaks,
    )

    scopes = {
        "call_1": {"tool": "search_logs", **call_arguments()},
        "call_2": {"tool": "query_metrics", **call_arguments()},
    }
    return tuple(
        f"{contract}/{keyword}"
        for contract in CONTRACTS
        for keyword in dict.fromkeys(
            b.keyword for b in keyword_breaks(contract, base_documents(contract, scopes))
        )
    )


AFTER_CANCEL: Final = frozenset(
    {
        "CANCEL_REQUESTED",
        "NEW_WORK_PREVENTED",
        "INTERRUPT_REQUESTED",
        "TOOL_WORK_CANCELLED",
        "LATE_RESULT_DISCARDED",
    }
)
"""Event types a Harness emits only once a cancellation has started: a disconnect on one of
them can never fire (nothing cancels a fixture's Run but the client). Such a disconnect point is
reached when a Run that scripts it ends without any cancellation: the Harness did not invent one."""


def _disconnects(fixture: Mapping[str, Any], observation: Mapping[str, Any] | None) -> set[str]:
    from conformance.checks import disconnect_index  # noqa: PLC0415 - checks import heavily

    target = (fixture.get("client") or {}).get("disconnect_on")
    if not target or observation is None:
        return set()
    fired = disconnect_index(observation, fixture) is not None
    if target["event_type"] in AFTER_CANCEL:
        trace = observation.get("trace", [])
        fired = not any(e.get("type") == "CANCEL_REQUESTED" for e in trace) and bool(trace)
    return {f"disconnect:{target['event_type']}"} if fired else set()


def _repair(fixture: Mapping[str, Any], observation: Mapping[str, Any] | None) -> set[str]:
    trace = (observation or {}).get("trace", [])
    if not any(e.get("type") == "STRUCTURAL_REPAIR_REQUESTED" for e in trace):
        return set()
    agent = list(fixture.get("agent", []))
    index = next((i for i, t in enumerate(agent) if t.get("kind") != "tool_calls"), None)
    if index is None:
        return set()
    repair = agent[index + 1] if index + 1 < len(agent) else None
    repair = repair or next(iter(fixture.get("decoy_agent_turns", [])), None)
    return {f"repair:{repair['kind']}"} if repair else set()


def _limits(fixture: Mapping[str, Any]) -> set[str]:
    limits = fixture.get("limits", {})
    found = {
        f"limit:{bound}"
        for bound in _limit_bounds()
        if "=" in bound and str(limits.get(bound.split("=")[0])) == bound.split("=")[1]
    }
    steps = 0
    for turn in [*fixture.get("agent", []), *fixture.get("decoy_agent_turns", [])]:
        if turn.get("kind") not in {"tool_calls", "draft_and_tool_calls"}:
            break
        steps += 1
    if steps > limits.get("max_steps", 8):
        found.add("limit:max_steps-exhausted")
    return found


def _history(fixture: Mapping[str, Any]) -> set[str]:
    found = set()
    own = [
        r for r in fixture.get("prior_runs", []) if r.get("session_id") == fixture.get("session_id")
    ]
    following = 1 + max((int(r.get("seq", 0)) for r in own), default=0)
    if any(
        r.get("run_id") in {f"run-{following}", f"run_{following}", str(following)} for r in own
    ):
        found.add("history:next-seq-run-id")
    for run in fixture.get("prior_runs", []):
        if run.get("session_id") != fixture.get("session_id"):
            found.add("history:other-session")
        elif run.get("intent") is None:
            found.add("history:unrouted")
        else:
            found.add(f"history:{run['intent']}/{run['state']}")
    return found


def _held(fixture: Mapping[str, Any], observation: Mapping[str, Any] | None) -> set[str]:
    from conformance.checks import disconnect_index  # noqa: PLC0415 - checks import heavily
    from conformance.checks._runtime import held_turns  # noqa: PLC0415

    if observation is None or not (fixture.get("client") or {}).get("disconnect_on"):
        return set()
    index = disconnect_index(dict(observation), dict(fixture))
    if index is None:
        return set()
    return {f"held:{key[1]}" for key in held_turns(dict(observation), dict(fixture), index)}


def _counts(fixture: Mapping[str, Any]) -> set[str]:
    found = set()
    for name, script in (fixture.get("tools") or {}).items():
        for response in script.get("responses", []) if name != "lookup_documents" else []:
            reported = response.get("total_matched")
            if response.get("kind") != "rows" or not isinstance(reported, int):
                continue
            returned = len(response.get("items", []))
            if reported < returned:
                found.add("count:under-reported")
            elif reported > returned:
                found.add("count:over-reported")
    return found


def _gate(fixture: Mapping[str, Any], observation: Mapping[str, Any] | None) -> set[str]:
    from conformance.checks import disconnect_index  # noqa: PLC0415 - checks import heavily

    target = (fixture.get("client") or {}).get("disconnect_on") or {}
    if observation is None or target.get("event_type") != "MODEL_CALL_FINISHED":
        return set()
    index = disconnect_index(dict(observation), dict(fixture))
    scripted = sum(len(fixture.get(part, [])) for part in ("router", "agent", "semantic_guard"))
    if index is None or target.get("occurrence") != scripted:
        return set()
    data = observation.get("trace", [])[index].get("data", {})
    code = GATE_PURPOSES.get(str(data.get("purpose")))
    return {f"gate:{code}"} if code and data.get("outcome") != "VALID" else set()


def _fallback(observation: Mapping[str, Any] | None) -> set[str]:
    trace = (observation or {}).get("trace", [])
    intents = [e.get("data", {}).get("intent") for e in trace if e.get("type") == "INTENT_ROUTED"]
    kinds = [
        e.get("data", {}).get("fallback_type") for e in trace if e.get("type") == "RUN_FINISHED"
    ]
    return {f"fallback:{i}/{k}" for i in intents[:1] for k in kinds[:1] if i and k}


def _unwrap(turn: Mapping[str, Any]) -> Mapping[str, Any]:
    while turn.get("kind") in {"block_until_cancelled", "ignore_cancellation"}:
        turn = turn.get("then") or {}
    return turn


def _keywords(fixture: Mapping[str, Any]) -> set[str]:
    from conformance.keywordbreaks import ARGUMENTS, broken_keyword  # noqa: PLC0415 - schemas

    documents: list[tuple[str, Any]] = []
    for scripted in fixture.get("agent", []):
        turn = _unwrap(scripted)
        if turn.get("kind") == "draft":
            documents.append(("diagnosis-draft", turn.get("draft")))
        elif turn.get("kind") == "knowledge_answer":
            documents.append(("knowledge-answer", turn.get("answer")))
        documents.extend(
            (ARGUMENTS, call.get("arguments"))
            for call in turn.get("tool_calls", []) or []
            if isinstance(call, dict) and "arguments" in call
        )
    documents.extend(
        ("semantic-verdict", _unwrap(t).get("verdict"))
        for t in fixture.get("semantic_guard", [])
        if _unwrap(t).get("kind") == "verdict"
    )
    found = set()
    for contract, document in documents:
        keyword = broken_keyword(contract, document)
        if keyword is not None:
            found.add(f"keyword:{contract}/{keyword}")
    return found


def _citations(fixture: Mapping[str, Any]) -> set[str]:
    import unicodedata  # noqa: PLC0415 - small helper

    from conformance.checks import expected_outcome  # noqa: PLC0415 - checks import heavily

    answers = [
        turn["answer"]
        for turn in map(_unwrap, fixture.get("agent", []))
        if turn.get("kind") == "knowledge_answer" and isinstance(turn.get("answer"), dict)
    ]
    if not answers or "tools" not in fixture:
        return set()
    lookups = {
        row.tool_call_id: row
        for row in expected_outcome(dict(fixture)).invocations
        if row.call.tool == "lookup_documents"
    }

    def loose(value: object) -> str:
        return unicodedata.normalize("NFKC", str(value)).strip().casefold()

    found = set()
    for answer in answers:
        references = [
            r
            for item in answer.get("items", []) or []
            if isinstance(item, dict)
            for r in item.get("references", []) or []
            if isinstance(r, dict)
        ]
        named = [answer.get("lookup_tool_call_id"), *(r.get("tool_call_id") for r in references)]
        for value in named:
            if not isinstance(value, str) or value in lookups:
                continue
            if any(loose(value) == loose(lookup) for lookup in lookups):
                found.add("citation:respelled-lookup-id")
        row = lookups.get(str(answer.get("lookup_tool_call_id")))
        if row is None or not references:
            continue
        if row.evidence_status == "NO_EVIDENCE":
            found.add("citation:empty-lookup")
        elif row.status == "ERROR" or row.evidence_status == "ERROR":
            found.add("citation:failed-lookup")
    return found


def reached_by(
    fixture: Mapping[str, Any], observation: Mapping[str, Any] | None = None
) -> set[str]:
    """Return the names of the elements one Run reaches (``observation`` may be unknown)."""
    found = {f"fixture:{n}" for n in contract_vocabulary(_FIXTURE).used_by(fixture)}
    if observation is not None:
        found |= {
            f"observation:{n}" for n in contract_vocabulary(_OBSERVATION).used_by(observation)
        }
    found |= _disconnects(fixture, observation) | _repair(fixture, observation)
    found |= _limits(fixture) | _history(fixture)
    found |= {f"id:{name}" for name in id_classes_of(fixture)}
    found |= _held(fixture, observation) | _fallback(observation)
    found |= _keywords(fixture) | _citations(fixture)
    found |= _counts(fixture) | _gate(fixture, observation)
    return found


@dataclass(frozen=True)
class Coverage:
    """Which elements were reached.

    Attributes:
        elements: every element (:func:`elements`).
        reached: the names of the reached elements.
        runs: how many Runs were measured.
    """

    elements: tuple[Element, ...]
    reached: frozenset[str]
    runs: int

    @property
    def counted(self) -> tuple[Element, ...]:
        """The reachable elements (those :data:`UNREACHABLE` does not name)."""
        return tuple(e for e in self.elements if not e.unreachable)

    @property
    def missing(self) -> tuple[Element, ...]:
        """The reachable elements no measured Run reached."""
        return tuple(e for e in self.counted if e.name not in self.reached)

    @property
    def percent(self) -> float:
        """Reached reachable elements, in percent of all reachable ones."""
        counted = self.counted
        return 100.0 * (len(counted) - len(self.missing)) / len(counted) if counted else 100.0

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready summary: per family, and the missing and unreachable names."""
        families: dict[str, dict[str, int]] = {}
        for element in self.counted:
            row = families.setdefault(element.family, {"elements": 0, "reached": 0})
            row["elements"] += 1
            row["reached"] += element.name in self.reached
        return {
            "runs": self.runs,
            "percent": round(self.percent, 2),
            "families": families,
            "missing": [e.name for e in self.missing],
            "unreachable": {e.name: e.unreachable for e in self.elements if e.unreachable},
        }


@dataclass
class VocabularyMeter:
    """Collects the elements reached by the Runs it is shown (:meth:`add`)."""

    reached: set[str] = field(default_factory=set)
    runs: int = 0

    def add(self, fixture: Mapping[str, Any], observation: Mapping[str, Any] | None = None) -> None:
        """Count one Run of ``fixture`` (and what it was observed to do)."""
        self.reached |= reached_by(fixture, observation)
        self.runs += 1

    def add_all(self, runs: Iterable[tuple[Mapping[str, Any], Mapping[str, Any] | None]]) -> None:
        """Count every ``(fixture, observation)`` pair of ``runs``."""
        for fixture, observation in runs:
            self.add(fixture, observation)

    def coverage(self) -> Coverage:
        """Return the :class:`Coverage` of what was added so far."""
        return Coverage(elements(), frozenset(self.reached), self.runs)
