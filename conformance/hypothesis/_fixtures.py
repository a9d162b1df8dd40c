"""``scenario_fixtures``: a Hypothesis strategy for any valid, runnable Scenario Fixture.

A fixture drawn here is valid against ``schemas/scenario-fixture.schema.json`` and *runnable*:
every scripted turn and tool response is one a conforming Harness consumes (or the Run is
cancelled, which may leave turns unread), so a faithful Harness never ends in
``SCRIPT_EXHAUSTED``/``SCRIPT_UNCONSUMED``. The draws follow the Harness pipeline, each stage
shaped where free generation is useless and left to hypothesis-jsonschema where it is not:

1. **Router**: one or two answers (intent, raw text such as ``"diagnosis"``, an error with any
   ``http_status``, a call that blocks), as many as the attempt policy consumes; a Router that
   never routes ends the script there.
2. **Agent steps**: 0-6 calls with conforming ids over 1-3 steps, plus presented ids of every
   class of :data:`~conformance.vocabulary.ID_CLASSES` (rejected classes, duplicates, case
   variants, equal arguments under distinct ids, an id presented again after its first call
   failed); every tool response kind (rows, zero rows,
   rows past the projection limits, in-band error, failure, oversize, a backend that blocks past
   ``tool_timeout_ms`` with or without a late answer), invalid arguments, one step written as a
   draft-and-tool-calls message, a step budget that runs out.
3. **Submission** and **structural repair**: a valid draft or answer, one breaking an evidence
   rule, an Analysis kind in the wrong case, an analysis with empty ``tool_call_ids``, any JSON
   value (hypothesis-jsonschema), the other intent's document, raw non-JSON text, an error, a
   call that blocks (a repair that times out), one that ignores cancellation, tool calls in the
   repair (with a decoy draft after it), a Tool Call ID respelled (case, width, padding), one
   keyword of the contract broken (:mod:`conformance.keywordbreaks` on the drawn document), a
   Knowledge Answer citing a lookup that found nothing.
4. **SemanticGuard**: verdicts, invalid verdicts (one keyword broken among them), raw text,
   errors and blocking calls, as many as the attempt policy consumes; SUPPORTED, UNSUPPORTED
   (some or all ids) or unavailable at last.
5. **History, client, limits**: earlier Runs of every intent and state (RUNNING included,
   another session's, ids the new Run presents again), their published results drawing every
   enum value; a client disconnect on any trace event type and occurrence, or while a Router,
   agent, repair or SemanticGuard call is held (:mod:`conformance.hypothesis._kinds`); limits
   at their bounds; perturbations; last, the unbounded integers (limits, disconnect occurrence,
   a count) at their largest valid value, 2**53 - 1 (:mod:`conformance.hypothesis._extremes`).

Validity of a submission is decided with the kit's own oracle
(:func:`conformance.checks.expected_outcome`), so the script holds a repair turn exactly when a
conforming EvidenceGuard rejects the first submission; a submission the oracle cannot decide is
replaced by raw text.
"""

from __future__ import annotations

import copy
import functools
import itertools
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final

from hypothesis import strategies as st

from conformance.builders import (
    DEFAULT_LIMITS,
    DEFAULT_SESSION,
    analysis,
    answer_item,
    blocks_until_cancelled,
    diagnosis_draft,
    draft_and_tool_calls_turn,
    draft_turn,
    error_turn,
    ignores_cancellation,
    intent_turn,
    knowledge_answer,
    knowledge_answer_turn,
    prior_run,
    raw_turn,
    rows,
    scenario_fixture,
    tool_call,
    tool_calls_turn,
    verdict_turn,
)
from conformance.checks import attempt_policy, expected_attempts, expected_outcome
from conformance.checks._outcome_oracle import expected_verdict
from conformance.checks._runtime_oracle import RETRY_ON, review_outcome
from conformance.hypothesis._extremes import EXTREMES, at_extremes
from conformance.hypothesis._ids import REJECTED_ID_CLASSES, conforming_ids, rejected_ids
from conformance.hypothesis._kinds import (
    HELD_PURPOSES,
    RESPELLINGS,
    held_disconnect,
    one_keyword_broken,
    respelled_answer,
    respelled_draft,
)
from conformance.hypothesis._reach8 import (
    MISCOUNTS,
    RUN_ID_SCHEMES,
    gone_before_release,
    miscounted,
    renamed_prior_runs,
)
from conformance.strategies import (
    DIAGNOSIS_TOOLS,
    Evidence,
    ToolPlan,
    arguments,
    broken_drafts,
    fabricated_answers,
    plan_from_steps,
    session_histories,
    valid_answers,
    valid_drafts,
)

if TYPE_CHECKING:
    from collections.abc import Collection, Mapping, Sequence

__all__ = [
    "ALL_CAPABILITIES",
    "CHOICES",
    "scenario_fixtures",
]

Fixture = dict[str, Any]

ALL_CAPABILITIES: Final = frozenset(
    {
        "DIAGNOSIS",
        "KNOWLEDGE_QUERY",
        "PREVIOUS_TURN",
        "CANCELLATION",
        "SEMANTIC_RETRY",
        "ROUTER_RETRY",
        "STRUCTURAL_REPAIR",
    }
)
"""The behaviour capabilities a fixture may need (``MODEL_ENDPOINT`` is a way of running)."""

_FAST_MS: Final = 300
_ROUTER_KINDS: Final = ("intent", "intent", "intent", "raw", "error", "block")
_ROUTER_RAW: Final = ("diagnosis", "DIAGNOSE", "", "Knowledge_Query", "route it to diagnosis")
_AGENT_RAW: Final = (
    "I cannot produce a draft.",
    "{not json",
    "```json\n{}\n```",
    "",
    "OBSERVATION: checkout is down",
)
_REVIEW_RAW: Final = ("SUPPORTED", "looks fine to me", "{verdict: SUPPORTED}", "")
_INVALID_VERDICTS: Final = (
    {"verdict": "PROBABLY", "reasoning": "looks fine to me"},
    {"verdict": "supported", "unsupported_analysis_ids": []},
    {"verdict": "SUPPORTED", "unsupported_analysis_ids": ["a1"]},
    {"verdict": "UNSUPPORTED", "unsupported_analysis_ids": []},
    {"verdict": "SUPPORTED"},
    ["SUPPORTED"],
)
_SUBMISSIONS: Final = (
    "valid",
    "valid",
    "broken",
    "wrong_case",
    "empty_ids",
    "junk",
    "other_intent",
    "raw",
    "error",
    "block",
    "ignore",
    "respelled",
    "keyword_break",
)
_REPAIRS: Final = (*_SUBMISSIONS, "tool_calls", "mixed")
_REVIEW_WORDS: Final = (
    "supported",
    "unsupported",
    "unknown_id",
    "invalid",
    "raw",
    "error",
    "block",
    "keyword_break",
)
_TOOL_KINDS: Final = (
    "found",
    "found",
    "empty",
    "in_band",
    "raise",
    "long",
    "oversize",
    "block",
    "block_late",
)
_LIMIT_PRESETS: Final[Mapping[str, Mapping[str, int]]] = {
    "default": {},
    "one_step": {"max_steps": 1},
    "projection_zero": {"max_items": 0, "max_item_chars": 0},
    "projection_max": {"max_items": 200, "max_item_chars": 8192},
    "tight": {"max_items": 2, "max_item_chars": 16},
    "tiny_model_timeout": {"model_call_timeout_ms": 1},
    "tiny_tool_timeout": {"tool_timeout_ms": 1},
}
_LIMIT_NAMES: Final = ("default", "default", "default", *tuple(_LIMIT_PRESETS)[1:])
_CONFORMING_ID_CLASSES: Final = (
    "grammar-shortest",
    "grammar-longest",
    "duplicate-in-run",
    "case-variant",
    "equal-arguments",
    "duplicate-of-failed-call",
)
_FAILED_FIRST: Final = ("raise", "block", "invalid_arguments", "in_band", "empty")
"""How the first call of an id presented again ends: TOOL_FAILED, TOOL_TIMEOUT,
INVALID_ARGUMENTS, BACKEND_ERROR (READY/ERROR), NO_EVIDENCE (READY)."""
_DOCUMENTS: Final = ("d1", "d2", "d3", "runbook-7", "kb-42")
_IJSON_MAX: Final = 2**53 - 1
_GREATEST_SEQS: Final = (2**31 - 1, 2**32 - 1, _IJSON_MAX - 1)
"""Greatest earlier ``seq`` values of a session whose successor crosses an integer width: a
signed and an unsigned 32-bit one, and the I-JSON bound (RFC 7493: integers exact up to 2^53-1;
the new Run's ``seq`` is that bound). red team 8, S14."""
_USER_MESSAGES: Final = (
    "Why is checkout failing?",
    "How do I rotate the checkout API key?",
    "",
    "Pourquoi le paiement échoue-t-il ? \N{FIRE}",
)

CHOICES: Final[Mapping[str, str]] = {
    "intent": "DIAGNOSIS or KNOWLEDGE_QUERY (what the Router routes to)",
    "router": f"the Router's answer kinds, in order: each of {sorted(set(_ROUTER_KINDS))}",
    "router_error": "UNAVAILABLE or TIMEOUT, for each Router error answer",
    "http_status": "an http_status of the error turns (429, 500, 502, 503, 504) or None",
    "limits": f"a limits preset: {', '.join(_LIMIT_PRESETS)}",
    "calls": "how many calls with conforming ids the agent makes (0-6)",
    "steps": "over how many agent steps they are spread (1-3, at most one per call)",
    "tool_kinds": f"the backend result kind of each accepted call, from {sorted(set(_TOOL_KINDS))}",
    "id_classes": "the Tool Call ID classes presented besides conforming ids",
    "invalid_arguments": "whether one accepted call has arguments no Harness may execute",
    "mixed_step": "whether one step is a draft-and-tool-calls message",
    "submission": f"the first submission, one of {list(dict.fromkeys(_SUBMISSIONS))}",
    "repair": f"the structural repair answer, one of {list(dict.fromkeys(_REPAIRS))}",
    "agent_error": "UNAVAILABLE or TIMEOUT, for an agent error answer",
    "review_error": "UNAVAILABLE or TIMEOUT, for a SemanticGuard error answer",
    "knowledge_breakage": "how a broken Knowledge Answer breaks (duplicate_item, other_call,"
    " no_items)",
    "review": f"the SemanticGuard's answer words, in order, from {list(_REVIEW_WORDS)}",
    "history": "none, drawn (session_histories) or every (one earlier Run per intent x state)",
    "greatest_seq": f"None or the session's greatest earlier seq, one of {list(_GREATEST_SEQS)}"
    " (the new Run's seq is one more: past 32-bit widths, up to the I-JSON bound)",
    "disconnect": "None or (trace event type, occurrence)",
    "perturbations": "the fixture's perturbations (applied only by a real-model wrapper)",
    "lookups": "how many lookup_documents calls a KNOWLEDGE_QUERY plan starts with (1 or 2)",
    "failed_first": f"how the first call of a duplicate-of-failed-call id ends, one of "
    f"{list(_FAILED_FIRST)}",
    "respelling": f"how a respelled submission spells its Tool Call ID: {list(RESPELLINGS)}",
    "keyword": "the JSON Schema keyword a keyword_break submission, verdict or arguments break"
    " (drawn among those the walk finds when not forced)",
    "held": f"None or the purpose of a held model call the client disconnects during: "
    f"{list(HELD_PURPOSES)}",
    "miscount": f"None or how one diagnosis tool's rows miscount their matches: {list(MISCOUNTS)}",
    "run_id_scheme": f"None or how the session's earlier Runs are named: {list(RUN_ID_SCHEMES)}"
    " (one takes the next seq's name)",
    "gone_before_release": "whether a Run heading for a public error loses its client on its"
    " last MODEL_CALL_FINISHED",
    "extremes": f"None or {list(EXTREMES)}: the unbounded integers (limits, disconnect occurrence,"
    " a rows result's total_matched) at their largest valid value, 2**53 - 1, where the fixture"
    " keeps its meaning",
}
"""The choices :func:`scenario_fixtures` draws, by the key ``force`` pins them with."""


@functools.cache
def _fixture_defs() -> dict[str, Any]:
    """The bundled ``scenario-fixture`` schema's ``$defs``, built once per process (read only)."""
    from contracts import bundle_schema  # noqa: PLC0415 - loads the schema files

    defs: dict[str, Any] = bundle_schema("scenario-fixture")["$defs"]
    return defs


@functools.cache
def _enum(definition: str) -> tuple[Any, ...]:
    return tuple(_fixture_defs()[definition]["enum"])


@functools.cache
def _http_statuses() -> tuple[int, ...]:
    defs = _fixture_defs()
    return tuple(defs["scenario-fixture.RouterErrorTurn"]["properties"]["http_status"]["enum"])


class _Picker:
    """Draws a choice, unless ``force`` pins it."""

    def __init__(self, draw: st.DrawFn, force: Mapping[str, Any]) -> None:
        self.draw = draw
        self.force = force

    def __call__(self, key: str, strategy: st.SearchStrategy[Any]) -> Any:  # noqa: ANN401 - any choice
        if key in self.force:
            return copy.deepcopy(self.force[key])
        return self.draw(strategy)


# ----------------------------------------------------------------------------- model turns


def _error(pick: _Picker, key: str) -> dict[str, object]:
    turn = error_turn(pick(key, st.sampled_from(["UNAVAILABLE", "TIMEOUT"])))
    status = pick("http_status", st.sampled_from((None, None, *_http_statuses())))
    if status is not None:
        turn["http_status"] = status
    return turn


def _router(pick: _Picker, intent: str, limit: int, *, tiny: bool) -> tuple[list[Any], bool]:
    """The Router script and whether it routes to ``intent`` under an attempt ``limit``."""
    if tiny:  # every call times out at once: the Router blocks, its timeout fires
        return [blocks_until_cancelled(intent_turn(intent))], False
    kinds = pick("router", st.lists(st.sampled_from(_ROUTER_KINDS), min_size=2, max_size=2))
    turns: list[dict[str, object]] = []
    for kind in kinds[:limit]:
        if kind == "intent":
            turns.append(intent_turn(intent))
            return turns, True
        if kind == "raw":
            turns.append(raw_turn(pick.draw(st.sampled_from(_ROUTER_RAW))))
            outcome = "INVALID_SCHEMA"
        elif kind == "error":
            turns.append(_error(pick, "router_error"))
            outcome = str(turns[-1]["error"])
        else:
            then = pick.draw(st.sampled_from([intent_turn(intent), raw_turn("DIAGNOSIS?")]))
            turns.append(blocks_until_cancelled(then))
            outcome = "TIMEOUT"
        if outcome not in RETRY_ON:
            return turns, False
    if len(turns) < limit:  # the forced kinds ran out: the last retry routes
        turns.append(intent_turn(intent))
        return turns, True
    return turns, False


def _review_word_turn(pick: _Picker, word: str, ids: list[str]) -> dict[str, object]:  # noqa: PLR0911 - one turn per word
    if word == "supported":
        return verdict_turn({"verdict": "SUPPORTED", "unsupported_analysis_ids": []})
    if word == "unsupported":
        named = pick.draw(st.lists(st.sampled_from(ids), min_size=1, unique=True))
        return verdict_turn({"verdict": "UNSUPPORTED", "unsupported_analysis_ids": named})
    if word == "unknown_id":
        return verdict_turn({"verdict": "UNSUPPORTED", "unsupported_analysis_ids": ["a404"]})
    if word == "invalid":
        return verdict_turn(copy.deepcopy(pick.draw(st.sampled_from(_INVALID_VERDICTS))))
    if word == "raw":
        return raw_turn(pick.draw(st.sampled_from(_REVIEW_RAW)))
    if word == "error":
        return _error(pick, "review_error")
    if word == "keyword_break":  # one keyword of semantic-verdict broken (red team 6, S11-S16)
        base = pick.draw(
            st.sampled_from(
                [
                    {"verdict": "SUPPORTED", "unsupported_analysis_ids": []},
                    {"verdict": "UNSUPPORTED", "unsupported_analysis_ids": ids[:1]},
                ]
            )
        )
        broken = one_keyword_broken(pick.draw, "semantic-verdict", base, pick.force.get("keyword"))
        return verdict_turn(base if broken is None else broken)
    return blocks_until_cancelled(
        verdict_turn({"verdict": "SUPPORTED", "unsupported_analysis_ids": []})
    )


def _reviews(pick: _Picker, ids: list[str], limit: int) -> list[dict[str, object]]:
    """The SemanticGuard answers the attempt policy consumes (``limit`` attempts at most)."""
    words = pick("review", st.lists(st.sampled_from(_REVIEW_WORDS), min_size=1, max_size=2))
    turns = [_review_word_turn(pick, word, ids) for word in words]
    outcomes = [review_outcome(turn, ids)[0] for turn in turns]
    made = expected_attempts(list(outcomes), limit)
    if made[-1] is None:  # the policy asks again after the drawn answers: the last one supports
        turns.append(verdict_turn({"verdict": "SUPPORTED", "unsupported_analysis_ids": []}))
        made = expected_attempts([review_outcome(t, ids)[0] for t in turns], limit)
    return turns[: len(made)]


# ----------------------------------------------------------------------------- tools


def _inject_ids(
    pick: _Picker, steps: list[list[dict[str, object]]], classes: Sequence[str]
) -> dict[str, str]:
    """Insert calls of the ``classes`` into ``steps`` (at least one step exists).

    Returns the ids presented again whose first call must not find evidence, with how it ends
    (one of :data:`_FAILED_FIRST`: the class ``duplicate-of-failed-call``).
    """
    accepted = [c for step in steps for c in step if isinstance(c.get("id"), str)]
    taken = {str(c["id"]) for c in accepted}
    failing: dict[str, str] = {}
    for id_class in classes:
        where = pick.draw(st.integers(0, len(steps) - 1))
        tool = pick.draw(st.sampled_from(DIAGNOSIS_TOOLS))
        if id_class in REJECTED_ID_CLASSES:
            call = tool_call(pick.draw(rejected_ids(id_class)), tool, pick.draw(arguments()))
        elif id_class in {"duplicate-in-run", "duplicate-of-failed-call"} and accepted:
            source = pick.draw(st.sampled_from(accepted))
            if id_class == "duplicate-of-failed-call":  # red team 6, S1: taken all the same
                failing[str(source["id"])] = pick("failed_first", st.sampled_from(_FAILED_FIRST))
            origin = next(i for i, s in enumerate(steps) if any(c is source for c in s))
            where = pick.draw(st.integers(origin, len(steps) - 1))
            again = {**pick.draw(arguments()), "target": "checkout-again"}
            call = tool_call(source["id"], tool, again)
            low = steps[where].index(source) + 1 if where == origin else 0
            steps[where].insert(pick.draw(st.integers(low, len(steps[where]))), call)
            continue
        elif id_class == "duplicate-of-failed-call":  # no accepted call to present again
            continue
        else:
            value = _conforming_of(pick, id_class, accepted, taken)
            if value is None:
                continue
            taken.add(value)
            twin = accepted[0] if accepted and id_class == "equal-arguments" else None
            call = (
                tool_call(value, str(twin["name"]), copy.deepcopy(twin["arguments"]))  # type: ignore[arg-type]
                if twin is not None
                else tool_call(value, tool, pick.draw(arguments()))
            )
            accepted.append(call)
        steps[where].insert(pick.draw(st.integers(0, len(steps[where]))), call)
    return failing


def _conforming_of(
    pick: _Picker, id_class: str, accepted: list[dict[str, object]], taken: set[str]
) -> str | None:
    if id_class == "grammar-shortest":
        options = [c for c in "abcxyz0123456789" if c not in taken]
    elif id_class == "grammar-longest":
        options = [c * 128 for c in "LMNpq" if c * 128 not in taken]
    elif id_class == "case-variant":
        options = [
            str(c["id"]).swapcase()
            for c in accepted
            if str(c["id"]).swapcase() not in taken and str(c["id"]).swapcase() != c["id"]
        ]
    else:  # equal-arguments: a fresh id
        options = [f"call_same_{n}" for n in range(1, 9) if f"call_same_{n}" not in taken]
    return str(pick.draw(st.sampled_from(options))) if options else None


def _late(kind: str, tool: str) -> dict[str, object]:
    if kind == "block_late":
        return {"kind": "block_until_cancelled", "then": rows(f"{tool} answered after its timeout")}
    return {"kind": "block_until_cancelled"}


def _tool_plan(pick: _Picker, *, intent: str) -> tuple[ToolPlan, set[str]]:
    """Draw the agent's steps and their backend results.

    Returns the plan and the ids of the calls whose result blocks (no draft may cite those). A
    KNOWLEDGE_QUERY plan starts with one lookup (maybe a second one, maybe another tool).
    """
    count = pick("calls", st.integers(0, 6))
    ids = pick.draw(st.lists(conforming_ids(), min_size=count, max_size=count, unique=True))
    lookups = 0
    if intent == "KNOWLEDGE_QUERY":
        lookups = pick("lookups", st.sampled_from((1, 1, 1, 1, 1, 2)))
        extra = pick.draw(
            st.lists(conforming_ids(), min_size=lookups, max_size=lookups, unique=True)
        )
        ids = [i for i in extra if i not in ids] + ids
        lookups = min(lookups, len(ids))
    classes = pick(
        "id_classes",
        st.lists(
            st.sampled_from((*REJECTED_ID_CLASSES, *_CONFORMING_ID_CLASSES)),
            max_size=3,
            unique=True,
        ),
    )
    if not ids and not classes:
        return plan_from_steps([], {}), set()
    step_count = min(pick("steps", st.integers(1, 3)), max(1, len(ids)))
    cut_count = min(step_count - 1, max(0, len(ids) - 1))
    cuts = sorted(
        pick.draw(
            st.sets(st.integers(1, max(1, len(ids) - 1)), min_size=cut_count, max_size=cut_count)
        )
    )
    bounds = [0, *[c for c in cuts if c < len(ids)], len(ids)]
    steps: list[list[dict[str, object]]] = []
    for a, b in itertools.pairwise(bounds):
        steps.append(
            [
                tool_call(
                    ids[n],
                    "lookup_documents"
                    if n < lookups
                    else pick.draw(st.sampled_from(DIAGNOSIS_TOOLS)),
                    pick.draw(arguments()),
                )
                for n in range(a, b)
            ]
        )
    steps = [s for s in steps if s] or [[]]
    failing = _inject_ids(pick, steps, classes)
    steps = [s for s in steps if s]
    documents = pick.draw(
        st.lists(st.sampled_from(_DOCUMENTS), min_size=1, max_size=4, unique=True)
    )
    probe = plan_from_steps(steps, {}, documents)
    kinds = pick(
        "tool_kinds",
        st.lists(
            st.sampled_from(_TOOL_KINDS), min_size=len(probe.evidence), max_size=len(probe.evidence)
        ),
    )
    kinds = (list(kinds) + ["found"] * len(probe.evidence))[: len(probe.evidence)]
    victims = _failed_first(failing, probe, kinds)
    base = {
        i: k if k in {"found", "empty", "in_band", "raise", "long"} else "found"
        for i, k in enumerate(kinds)
    }
    plan = plan_from_steps(steps, base, documents)
    tools = copy.deepcopy(plan.tools)
    nth: dict[str, int] = {}
    evidence: list[Evidence] = []
    blocked: set[str] = set()
    for index, item in enumerate(plan.evidence):
        position = nth.get(item.tool, 0)
        nth[item.tool] = position + 1
        kind = kinds[index]
        responses: list[dict[str, object]] = tools[item.tool]["responses"]  # type: ignore[assignment]
        if kind == "oversize":
            size = pick.draw(st.sampled_from([1, 4096, 300_000]))
            responses[position] = {"kind": "oversize", "bytes": size}
            evidence.append(replace(item, status="EVIDENCE_FOUND", document_ids=()))
        elif kind in {"block", "block_late"}:
            responses[position] = _late(kind, item.tool)
            evidence.append(replace(item, status="ERROR", document_ids=()))
            blocked.add(item.call_id)
        else:
            evidence.append(item)
    plan = ToolPlan(plan.steps, tools, tuple(evidence))
    for call_id in victims:
        plan = _invalid_arguments(pick, plan, call_id)
    if pick("invalid_arguments", st.booleans()) and plan.evidence:
        plan = _invalid_arguments(pick, plan)
    return plan, blocked


def _failed_first(failing: Mapping[str, str], probe: ToolPlan, kinds: list[str]) -> list[str]:
    """Set the result kind of each call of ``failing`` in ``kinds``; return the ids refused.

    An id refused INVALID_ARGUMENTS must be the last call of its tool (see
    :func:`_invalid_arguments`); otherwise its call fails (TOOL_FAILED) instead.
    """
    victims = []
    last = {e.tool: e for e in probe.evidence}
    for index, item in enumerate(probe.evidence):
        how = failing.get(item.call_id)
        if how == "invalid_arguments" and last[item.tool] is item:
            victims.append(item.call_id)
        elif how == "invalid_arguments":  # a later call of its tool would be undetermined
            kinds[index] = "raise"
        elif how is not None:
            kinds[index] = how
    return victims


def _invalid_arguments(pick: _Picker, plan: ToolPlan, call_id: str | None = None) -> ToolPlan:
    """Give the last accepted call of one tool (``call_id`` or a drawn one) junk arguments.

    No Harness may execute them: a fixed junk value, or the call's own arguments with one
    keyword of the arguments contract broken (:mod:`conformance.keywordbreaks`, red team 6
    S16). Only the last call of its tool: a later one would take its result or the next one
    (the oracle leaves it open).
    """
    last = {e.tool: e for e in plan.evidence}
    candidates = [e for e in last.values() if call_id is None or e.call_id == call_id]
    if not candidates:
        return plan
    victim = pick.draw(st.sampled_from(sorted(candidates, key=lambda e: e.call_id)))
    junk: object = pick.draw(
        st.sampled_from(
            [
                {},
                {"target": "checkout"},
                {"target": "", "time_range": {"start_ms": 0, "end_ms": 1}, "query": ""},
                {"target": "checkout", "time_range": {"start_ms": 9, "end_ms": 1}, "query": "q"},
                {"target": "x", "time_range": {"start_ms": -1, "end_ms": 1}, "query": "q"},
                None,
            ]
        )
    )
    if junk is None or "keyword" in pick.force:
        from conformance.keywordbreaks import ARGUMENTS  # noqa: PLC0415 - loads the schemas

        junk = one_keyword_broken(
            pick.draw, ARGUMENTS, victim.arguments, pick.force.get("keyword")
        ) or {"target": "checkout"}
    steps = [
        tuple(
            {**c, "arguments": copy.deepcopy(junk)}
            if c.get("id") == victim.call_id
            and c.get("name") == victim.tool
            and c is _first(plan, victim)
            else c
            for c in step
        )
        for step in plan.steps
    ]
    tools = copy.deepcopy(plan.tools)
    responses: list[object] = tools[victim.tool]["responses"]  # type: ignore[assignment]
    responses.pop()  # never executed: its result is never asked for
    evidence = tuple(e for e in plan.evidence if e is not victim)
    return ToolPlan(tuple(steps), tools, evidence)


def _first(plan: ToolPlan, item: Evidence) -> dict[str, object] | None:
    for step in plan.steps:
        for call in step:
            if call.get("id") == item.call_id:
                return call
    return None


# ----------------------------------------------------------------------------- submissions


def _table(fixture: Fixture) -> dict[str, Any]:
    return {row.tool_call_id: row for row in expected_outcome(fixture).invocations}


def _usable(plan: ToolPlan, blocked: set[str]) -> ToolPlan:
    evidence = tuple(e for e in plan.evidence if e.call_id not in blocked)
    return ToolPlan(plan.steps, plan.tools, evidence)


def _diagnosis_document(pick: _Picker, how: str, plan: ToolPlan) -> object:
    citable = plan.with_status("EVIDENCE_FOUND", "NO_EVIDENCE")
    if how in {"valid", "wrong_case", "empty_ids"} and not citable:
        how = "broken"
    if how == "broken":
        return pick.draw(broken_drafts(plan))[0]
    draft: dict[str, Any] = pick.draw(valid_drafts(plan))
    if how == "wrong_case":  # S20: the kind is one of a fixed set, exactly
        victim = pick.draw(st.integers(0, len(draft["analyses"]) - 1))
        kind = str(draft["analyses"][victim]["kind"])
        draft["analyses"][victim]["kind"] = pick.draw(st.sampled_from([kind.lower(), kind.title()]))
    elif how == "empty_ids":  # S21: every Analysis has at least one Tool Call ID
        draft["analyses"].append(analysis("a_empty", "INFERENCE", []))
    return draft


def _knowledge_document(pick: _Picker, how: str, plan: ToolPlan) -> object:
    lookups = [e for e in plan.evidence if e.tool == "lookup_documents"]
    found = [e for e in lookups if e.status == "EVIDENCE_FOUND" and e.document_ids]
    if how in {"valid", "wrong_case", "empty_ids", "broken"} and found:
        lookup = found[0]
        answer: dict[str, Any] = pick.draw(valid_answers(lookup))
        if how == "valid":
            return answer
        if how == "wrong_case":  # a document id in another case: ids are exact
            return pick.draw(fabricated_answers(lookup))
        if how == "empty_ids":
            answer["items"].append(answer_item("i_empty", lookup.call_id, []))
            return answer
        breakage = pick(
            "knowledge_breakage", st.sampled_from(["duplicate_item", "other_call", "no_items"])
        )
        others = [e for e in plan.evidence if e.call_id != lookup.call_id]
        if breakage == "other_call" and others:
            answer["items"][0]["references"][0]["tool_call_id"] = others[0].call_id
        elif breakage == "no_items":
            answer["items"] = []
        else:
            answer["items"].append({**answer["items"][0]})
        return answer
    # no lookup found documents: an answer citing it anyway (red team 6, S2: an empty or failed
    # lookup result holds no document id, so every reference is fabricated)
    name = pick.draw(st.sampled_from([e.call_id for e in lookups] or ["call_never_presented"]))
    cited = pick.draw(st.lists(st.sampled_from(_DOCUMENTS), min_size=1, max_size=2, unique=True))
    items = [answer_item("i1", name, cited[:1])]
    if len(cited) > 1:
        items.append(answer_item("i2", name, cited[1:]))
    return knowledge_answer(name, items)


def _submission(  # noqa: PLR0911 - one turn per kind
    pick: _Picker, key: str, intent: str, plan: ToolPlan, *, repair: bool
) -> dict[str, object]:
    """The agent turn of a submission (``key`` ``submission``) or a repair answer."""
    how = pick(key, st.sampled_from(_REPAIRS if repair else _SUBMISSIONS))
    own, other = (
        (_diagnosis_document, _knowledge_document)
        if intent == "DIAGNOSIS"
        else (_knowledge_document, _diagnosis_document)
    )
    wrap = draft_turn if intent == "DIAGNOSIS" else knowledge_answer_turn
    if how == "junk":
        from hypothesis_jsonschema import from_schema  # noqa: PLC0415 - only when drawing

        from contracts import json_value_problem  # noqa: PLC0415 - only when drawing

        # any JSON value, but an I-JSON one (RFC 7493; integers RFC 8785 can encode): what a
        # fixture document can carry at all
        anything = from_schema({"maxProperties": 3, "maxItems": 3, "maxLength": 20})
        value = pick.draw(anything.filter(lambda v: json_value_problem(v) is None))
        return wrap(value)
    if how == "other_intent":
        other_wrap = knowledge_answer_turn if intent == "DIAGNOSIS" else draft_turn
        return other_wrap(other(pick, "broken", plan))
    if how == "raw":
        return raw_turn(pick.draw(st.sampled_from(_AGENT_RAW)))
    if how in {"respelled", "keyword_break"}:
        return wrap(_red_team_document(pick, how, intent, plan))
    if how == "error":
        return _error(pick, "agent_error")
    if how == "block":
        return blocks_until_cancelled(wrap(own(pick, "valid", plan)))
    if how == "ignore":
        return ignores_cancellation(
            wrap(own(pick, pick.draw(st.sampled_from(["valid", "broken"])), plan))
        )
    if how == "tool_calls":
        return tool_calls_turn([tool_call("call_in_repair", "search_logs")])
    if how == "mixed":
        return draft_and_tool_calls_turn(
            own(pick, "valid", plan), [tool_call("call_in_repair", "search_logs")]
        )
    return wrap(own(pick, how, plan))


def _red_team_document(pick: _Picker, how: str, intent: str, plan: ToolPlan) -> object:
    """A valid document of ``intent`` with its Tool Call ID respelled or one keyword broken.

    Red team 6: S3 (a lookup id in another spelling; for a draft, a cited id) and S11-S15 (one
    keyword of diagnosis-draft or knowledge-answer broken, walked from the drawn document). A
    plan with nothing to cite gives the broken document of :func:`_diagnosis_document`.
    """
    diagnosis = intent == "DIAGNOSIS"
    valid = (_diagnosis_document if diagnosis else _knowledge_document)(pick, "valid", plan)
    if not isinstance(valid, dict) or not _cites_evidence(valid, plan):
        return valid  # nothing valid to start from: the nearest document
    if how == "respelled":
        spelling = pick("respelling", st.sampled_from(RESPELLINGS))
        if diagnosis:
            return respelled_draft(pick.draw, valid, spelling)
        return respelled_answer(pick.draw, valid, spelling)
    contract = "diagnosis-draft" if diagnosis else "knowledge-answer"
    if diagnosis:  # every optional member present, as keywordbreaks' base documents hold
        valid = _with_scopes(valid, plan)
    broken = one_keyword_broken(pick.draw, contract, valid, pick.force.get("keyword"))
    return valid if broken is None else broken


def _with_scopes(draft: dict[str, Any], plan: ToolPlan) -> dict[str, Any]:
    """``draft`` with each scope-less analysis given its first cited call's query scope."""
    scopes = {e.call_id: e.scope for e in plan.evidence}
    filled = copy.deepcopy(draft)
    for item in filled["analyses"]:
        cited = [scopes[i] for i in item["tool_call_ids"] if i in scopes]
        if "scope" not in item and cited:
            item["scope"] = copy.deepcopy(cited[0])
    return filled


def _cites_evidence(document: dict[str, Any], plan: ToolPlan) -> bool:
    """Whether ``document`` is the valid one the plan allows (not the nearest broken one)."""
    if "analyses" in document:
        return bool(plan.with_status("EVIDENCE_FOUND", "NO_EVIDENCE"))
    return any(
        e.tool == "lookup_documents" and e.status == "EVIDENCE_FOUND" and e.document_ids
        for e in plan.evidence
    )


def _content(turn: dict[str, Any]) -> tuple[str, object]:
    while turn.get("kind") == "ignore_cancellation":
        turn = turn["then"]
    kind = str(turn.get("kind"))
    if kind == "raw":
        return kind, turn.get("text", "")
    return kind, turn.get("draft", turn.get("answer"))


def _verdict(turn: dict[str, Any], attempt: int, table: dict[str, Any]) -> bool | None:
    """Whether a conforming EvidenceGuard accepts the turn's submission (``None``: unknown)."""
    kind, content = _content(turn)
    if kind in {"error", "block_until_cancelled"}:
        return None
    return expected_verdict(attempt, kind, content, table).valid


def _reviewed_ids(turn: dict[str, Any]) -> list[str]:
    _, document = _content(turn)
    assert isinstance(document, dict)  # noqa: S101 - a valid submission is an object
    if "analyses" in document:
        return [str(a["analysis_id"]) for a in document["analyses"]]
    return [str(i["item_id"]) for i in document["items"]]


def _agent_and_reviews(  # noqa: PLR0913, PLR0917 - the parts of the pipeline it continues
    pick: _Picker,
    intent: str,
    plan: ToolPlan,
    blocked: set[str],
    probe: Fixture,
    policy: Mapping[str, int],
) -> tuple[list[dict[str, object]], list[dict[str, object]], list[dict[str, object]]]:
    """The submission, the repair (when rejected) and the SemanticGuard answers; the decoys."""
    usable = _usable(plan, blocked)
    table = _table(probe)
    agent: list[dict[str, object]] = []
    decoys: list[dict[str, object]] = []
    first = _submission(pick, "submission", intent, usable, repair=False)
    kind = first["kind"]
    if kind in {"error", "block_until_cancelled"}:
        return [first], [], []
    valid = _verdict(first, 1, table)
    if valid is None:
        first, valid = raw_turn("I cannot produce a draft."), False
    agent.append(first)
    validated = first if valid else None
    if not valid:
        repair = _submission(pick, "repair", intent, usable, repair=True)
        if repair["kind"] in {"tool_calls", "draft_and_tool_calls"}:
            agent.append(repair)
            decoys.append(draft_turn({"thoughts": "what a faulty Harness asks for next"}))
            return agent, [], decoys
        if repair["kind"] in {"error", "block_until_cancelled"}:
            agent.append(repair)
            return agent, [], []
        again = _verdict(repair, 2, table)
        if again is None:
            repair, again = raw_turn("Still no draft."), False
        agent.append(repair)
        validated = repair if again else None
    if validated is None:
        return agent, [], decoys
    reviews = _reviews(pick, _reviewed_ids(validated), policy["SEMANTIC_GUARD"])
    return agent, reviews, decoys


# ----------------------------------------------------------------------------- history


def _scope(tool: str) -> dict[str, object]:
    from conformance.builders import call_arguments  # noqa: PLC0415 - small helper

    return {"tool": tool, **call_arguments()}


def _success_draft(kinds: Sequence[str], ids: Sequence[str], confidence: str) -> dict[str, object]:
    tools = _enum("query-scope.ToolName")
    items = [
        analysis(
            f"a{n}",
            kind,
            [ids[n % len(ids)]],
            scope=_scope(tools[n % len(tools)]) if kind == "NEGATIVE_OBSERVATION" else None,
        )
        for n, kind in enumerate(kinds, 1)
    ]
    return diagnosis_draft(items, confidence=confidence)


def _fallback(fallback_type: str, statuses: Sequence[str]) -> dict[str, object]:
    codes = dict(
        zip(_enum("safe-fallback.FallbackType"), _enum("safe-fallback.MessageCode"), strict=True)
    )
    tools = _enum("query-scope.ToolName")
    sources = [
        {
            "tool_call_id": f"prior_source_{n}",
            "tool_name": tools[n % len(tools)],
            "query_scope": _scope(tools[n % len(tools)]),
            "evidence_status": status,
        }
        for n, status in enumerate(statuses)
        if fallback_type != "EVIDENCE_VALIDATION_FAILED"
    ]
    return {
        "fallback_type": fallback_type,
        "message_code": codes[fallback_type],
        "verified_sources": sources,
    }


def _set_result(run: dict[str, Any], published: dict[str, object]) -> None:
    run["published_result"] = published
    if published["kind"] == "SAFE_FALLBACK":
        run["fallback_type"] = published["safe_fallback"]["fallback_type"]  # type: ignore[index]
    if published["kind"] == "PUBLIC_ERROR":
        run["error_code"] = published["public_error"]["error_code"]  # type: ignore[index]


def _published(pick: _Picker, run: dict[str, Any], cited: Sequence[str]) -> None:
    """Redraw an earlier Run's published result from the contract's enum values."""
    state, intent = run["state"], run["intent"]
    ids = list(cited) or ["prior_call"]
    if state == "SUCCESS" and intent == "DIAGNOSIS":
        kinds = pick.draw(
            st.lists(st.sampled_from(_enum("diagnosis-draft.AnalysisKind")), min_size=1, max_size=3)
        )
        confidence = pick.draw(st.sampled_from(_enum("diagnosis-draft.Confidence")))
        draft = _success_draft(kinds, ids, confidence)
        _set_result(run, {"kind": "DIAGNOSIS_DRAFT", "diagnosis_draft": draft})
    elif state == "FALLBACK":
        fallback_type = pick.draw(st.sampled_from(_enum("safe-fallback.FallbackType")))
        statuses = pick.draw(
            st.lists(st.sampled_from(_enum("tool-invocation.EvidenceStatus")), max_size=3)
        )
        _set_result(
            run, {"kind": "SAFE_FALLBACK", "safe_fallback": _fallback(fallback_type, statuses)}
        )
    elif state == "FAILED":
        code = pick.draw(st.sampled_from(_enum("public-error.PublicErrorCode")))
        _set_result(run, {"kind": "PUBLIC_ERROR", "public_error": {"error_code": code}})


def _every_run(ids: Sequence[str]) -> list[dict[str, Any]]:
    """Earlier Runs of every intent x state, unrouted, another session's, every enum value.

    One Run per intent x state (and unrouted ones), one of another session, and one per value of
    every enum an earlier Run's row or published result holds.
    """
    cited = tuple(ids[:2]) or ("prior_call",)
    runs: list[dict[str, Any]] = []

    def add(intent: str | None, state: str, session: str = "session-1") -> dict[str, Any]:
        run = prior_run(len(runs) + 1, intent=intent, state=state, session_id=session, cited=cited)
        if session != "session-1":
            run["run_id"] = f"{session}-run-{run['seq']}"
        runs.append(run)
        return run

    for intent in (*_enum("diagnosis-run.Intent"), None):
        for state in _enum("diagnosis-run.RunState"):
            if intent is not None or state not in {"SUCCESS", "FALLBACK"}:
                add(intent, state)
    add("DIAGNOSIS", "SUCCESS", "session-2")
    kinds = _enum("diagnosis-draft.AnalysisKind")
    for confidence in _enum("diagnosis-draft.Confidence"):
        draft = _success_draft(kinds, cited, confidence)
        _set_result(
            add("DIAGNOSIS", "SUCCESS"), {"kind": "DIAGNOSIS_DRAFT", "diagnosis_draft": draft}
        )
    statuses = _enum("tool-invocation.EvidenceStatus")
    for fallback_type in _enum("safe-fallback.FallbackType"):
        fallback = _fallback(fallback_type, statuses)
        _set_result(
            add("DIAGNOSIS", "FALLBACK"), {"kind": "SAFE_FALLBACK", "safe_fallback": fallback}
        )
    for code in _enum("public-error.PublicErrorCode"):
        _set_result(
            add("DIAGNOSIS", "FAILED"),
            {"kind": "PUBLIC_ERROR", "public_error": {"error_code": code}},
        )
    return runs


def _history(pick: _Picker, ids: Sequence[str]) -> list[dict[str, Any]]:
    how = pick("history", st.sampled_from(["none", "drawn", "drawn", "every"]))
    if how == "none":
        return []
    if how == "every":
        return _every_run(ids)
    runs: list[dict[str, Any]] = pick.draw(session_histories(ids=tuple(ids)))
    for run in runs:
        _published(pick, run, list(ids[:2]))
    greatest = pick("greatest_seq", st.sampled_from((None, None, *_GREATEST_SEQS)))
    if greatest is not None and all(run["session_id"] != DEFAULT_SESSION for run in runs):
        run = prior_run(1, cited=tuple(ids[:2]) or ("prior_call",))  # a session to number
        _published(pick, run, list(ids[:2]))
        runs.insert(0, run)
    return _widened(runs, greatest)


def _widened(runs: list[dict[str, Any]], greatest: int | None) -> list[dict[str, Any]]:
    """``runs`` with the session's ``seq`` values moved up so that the greatest is ``greatest``.

    Gaps and order are kept (``None``: unchanged). Only the session's Runs move (another
    session's stay low, so every ``seq`` stays unique and within the I-JSON bound). The new Run's
    ``seq`` is ``greatest + 1``: a Harness computing it in a narrower integer wraps (diagnosis-run
    ``seq``: an integer >= 1, strictly increasing per session).
    """
    mine = [run for run in runs if run["session_id"] == DEFAULT_SESSION]
    if greatest is None or not mine:
        return runs
    offset = greatest - max(int(run["seq"]) for run in mine)
    for run in mine:
        run["seq"] = int(run["seq"]) + offset
    return sorted(runs, key=lambda run: int(run["seq"]))


# ----------------------------------------------------------------------------- the fixture


def _timeouts(fixture: Fixture, preset: str, held: int | None = None) -> None:
    """Short timeouts wherever a call is meant to time out (the bound itself for ``tiny_*``).

    With a disconnect on the start of held model call number ``held``, only the model calls
    before it count: the held call must keep the default timeout, so that a Harness which waits
    it out instead of interrupting it fails (a short timeout is accepted in place of the
    interruption, ``conformance.checks._late.SURE_WAIT_MS``); a call after it is cancelled.
    """
    ordered = [*fixture["router"], *fixture["agent"], *fixture["semantic_guard"]]
    text = repr(ordered if held is None else ordered[: held - 1])
    blocks_model = "block_until_cancelled" in text or "'TIMEOUT'" in text
    blocks_tool = "block_until_cancelled" in repr(fixture["tools"])
    limits = fixture["limits"]
    if blocks_model and preset != "tiny_model_timeout":
        limits["model_call_timeout_ms"] = _FAST_MS
    if blocks_tool and preset != "tiny_tool_timeout":
        limits["tool_timeout_ms"] = _FAST_MS


@st.composite
def scenario_fixtures(  # noqa: PLR0915 - one pipeline, stage by stage
    draw: st.DrawFn,
    *,
    capabilities: Collection[str] | None = None,
    disconnects: bool = True,
    force: Mapping[str, Any] | None = None,
    fixture_id: str = "any-fixture",
) -> Fixture:
    """Draw any valid, runnable Scenario Fixture (see the module docstring).

    Args:
        draw: Hypothesis's draw function (given by ``st.composite``; callers omit it).
        capabilities: the IUT's declared capabilities; ``None`` means all of them. A fixture
            never needs one the IUT lacks (no KNOWLEDGE_QUERY intent without it, no history
            without PREVIOUS_TURN, no disconnect or cancellation turn without CANCELLATION, no
            rejected first submission without STRUCTURAL_REPAIR) and its Router and SemanticGuard
            scripts follow the retry policy the IUT declares.
        disconnects: whether a client disconnect may be scripted at all.
        force: pins some choices, by the keys of :data:`CHOICES` (e.g.
            ``{"submission": "raw", "disconnect": ("SEMANTIC_VERDICT", 1)}``); the others are
            drawn. A forced choice the rest of the fixture cannot honour (a valid draft with no
            evidence to cite) falls back to the nearest one that can.
        fixture_id: the drawn fixture's ``fixture_id``.

    Returns:
        A ScenarioFixture document whose ``description`` lists the main choices.
    """
    pinned = dict(force or {})
    caps = ALL_CAPABILITIES if capabilities is None else frozenset(capabilities)
    pick = _Picker(draw, pinned)
    policy = attempt_policy(caps)
    intents = ["DIAGNOSIS", *(["KNOWLEDGE_QUERY"] if "KNOWLEDGE_QUERY" in caps else [])]
    intent = pick("intent", st.sampled_from(intents))
    preset = pick("limits", st.sampled_from(_LIMIT_NAMES))
    limits = {**DEFAULT_LIMITS, **_LIMIT_PRESETS[preset]}
    router, routed = _router(pick, intent, policy["ROUTER"], tiny=preset == "tiny_model_timeout")
    agent: list[dict[str, object]] = []
    reviews: list[dict[str, object]] = []
    decoys: list[dict[str, object]] = []
    tools: dict[str, Any] = {}
    ids: list[str] = []
    if routed:
        plan, blocked = _tool_plan(pick, intent=intent)
        if preset == "tiny_tool_timeout":
            plan, blocked = _all_blocking(plan)
        ids = [e.call_id for e in plan.evidence]
        steps = [list(step) for step in plan.steps]
        if steps and pick("mixed_step", st.booleans()):
            where = pick.draw(st.integers(0, len(steps) - 1))
            agent_steps: list[dict[str, object]] = [tool_calls_turn(s) for s in steps]
            agent_steps[where] = draft_and_tool_calls_turn(
                {"thoughts": "calling tools"}, steps[where]
            )
        else:
            agent_steps = [tool_calls_turn(s) for s in steps]
        tools = plan.tools
        if len(agent_steps) == limits["max_steps"]:
            # exactly at the budget, two readings fit and the oracle knows one: the agent asked
            # once more for its submission (docs/contracts.md, "then calls the agent again") or
            # the budget spent on the last tool step (the Java example). Not drawn: the budget
            # is one more (docs/decisions/open-world-7.md)
            limits["max_steps"] += 1
        if len(agent_steps) > limits["max_steps"]:  # the budget runs out: no submission
            kept = limits["max_steps"]
            executed = plan_from_steps(steps[:kept], {}, ())
            agent = agent_steps[:kept]
            # the step past the budget: a Harness may ask for it (and take none of its calls)
            # or stop without asking, so it is a decoy, never reported unconsumed
            decoys = [agent_steps[kept]]
            tools = _trim_tools(plan, executed)
        else:
            probe = scenario_fixture(
                fixture_id,
                router=[intent_turn(intent)],
                agent=[tool_calls_turn(s) for s in steps],  # a mixed step is a tool step
                tools=tools,
                limits=limits,
            )
            submitted, reviews, decoys = _agent_and_reviews(
                pick, intent, plan, blocked, probe, policy
            )
            if "STRUCTURAL_REPAIR" not in caps and len(submitted) > 1:
                submitted = submitted[:1]
                submitted[0] = error_turn("UNAVAILABLE")
                reviews, decoys = [], []
            agent = [*agent_steps, *submitted]
    prior = _history(pick, ids) if "PREVIOUS_TURN" in caps else []
    fixture = scenario_fixture(
        fixture_id,
        router=router,
        agent=agent,
        semantic_guard=reviews,
        tools=tools,
        prior_runs=prior,
        user_message=pick.draw(st.sampled_from(_USER_MESSAGES)),
        limits=limits,
        description=f"intent {intent}, limits {preset}",
    )
    if decoys:
        fixture["decoy_agent_turns"] = decoys
    cancellation = "CANCELLATION" in caps
    if not cancellation:
        _no_cancellation_turns(fixture)
    # A 1 ms model-call timeout with a disconnect: either order of the late answer and the end of
    # the Harness's wait is accepted (conformance.checks._late.SURE_WAIT_MS; races.md)
    held = _client(pick, fixture) if disconnects and cancellation else None
    if pick.draw(st.integers(0, 9)) == 0 or "perturbations" in pinned:
        fixture["perturbations"] = pick(
            "perturbations",
            st.lists(
                st.sampled_from(_enum("scenario-fixture.Perturbation")), max_size=2, unique=True
            ),
        )
    # red team 8's kinds, drawn last so that every draw before them stays as it was
    _red_team_8(pick, fixture, routed, may_disconnect=disconnects and cancellation and not held)
    _timeouts(fixture, preset, held)
    # the largest valid values, drawn last too (docs/decisions/extreme-limits-11.md)
    events = _enum("scenario-fixture.TraceEventType") if disconnects and cancellation else []
    at_extremes(pick, pick.draw, fixture, events=events)
    return fixture


def _red_team_8(pick: _Picker, fixture: Fixture, routed: bool, *, may_disconnect: bool) -> None:  # noqa: FBT001 - a fact
    """Red team 8's kinds (:mod:`conformance.hypothesis._reach8`), rewriting ``fixture``."""
    miscounted(pick, pick.draw, fixture)
    renamed_prior_runs(pick, pick.draw, fixture)
    if may_disconnect:
        gone_before_release(pick, fixture, routed)


def _client(pick: _Picker, fixture: Fixture) -> int | None:
    """Draw the client's disconnect point: any event type, or while a held call is in flight.

    Returns the number of the held model call the client disconnects during (``None``: none).
    """
    events = _enum("scenario-fixture.TraceEventType")
    where = pick(
        "disconnect",
        st.one_of(
            st.none(),
            st.tuples(st.sampled_from(events), st.sampled_from([1, 1, 1, 2, 3])),
        ),
    )
    if where is not None:
        event, occurrence = where
        fixture["client"] = {"disconnect_on": {"event_type": event, "occurrence": occurrence}}
    # red team 6, S4-S7: the disconnect while a call whose answer is held is in flight
    purpose = pick("held", st.sampled_from((None, None, None, *HELD_PURPOSES)))
    held = None if purpose is None else held_disconnect(fixture, purpose)
    if held is None:
        return None
    fixture["client"] = held
    return int(held["disconnect_on"]["occurrence"])  # type: ignore[index]


def _all_blocking(plan: ToolPlan) -> tuple[ToolPlan, set[str]]:
    """Every executed call's backend blocks (with a tool timeout of 1 ms, each one times out)."""
    tools: dict[str, dict[str, object]] = {
        name: {"responses": [{"kind": "block_until_cancelled"} for _ in _responses(script)]}
        for name, script in plan.tools.items()
    }
    evidence = tuple(replace(e, status="ERROR", document_ids=()) for e in plan.evidence)
    return ToolPlan(plan.steps, tools, evidence), {e.call_id for e in evidence}


def _responses(script: Mapping[str, object]) -> list[object]:
    responses = script.get("responses")
    return list(responses) if isinstance(responses, list) else []


def _trim_tools(plan: ToolPlan, executed: ToolPlan) -> dict[str, Any]:
    """The tool scripts of ``plan`` cut to the executions of ``executed`` (a spent step budget)."""
    counts: dict[str, int] = {}
    for item in executed.evidence:
        counts[item.tool] = counts.get(item.tool, 0) + 1
    trimmed: dict[str, Any] = {}
    for name, script in plan.tools.items():
        responses = _responses(script)[: counts.get(name, 0)]
        if responses or "default" in script:
            trimmed[name] = {**copy.deepcopy(script), "responses": copy.deepcopy(responses)}
    return trimmed


def _no_cancellation_turns(fixture: Fixture) -> None:
    """Without CANCELLATION: a call that times out instead of one that blocks; no ignoring turn.

    Both give the same attempt outcome (TIMEOUT; the ignoring turn's own answer), so the script
    is consumed the same way.
    """
    for part in ("router", "agent", "semantic_guard"):
        turns = []
        for scripted in fixture[part]:
            turn = scripted
            while turn.get("kind") == "ignore_cancellation":
                turn = turn["then"]
            blocks = turn.get("kind") == "block_until_cancelled"
            turns.append(error_turn("TIMEOUT") if blocks else turn)
        fixture[part] = turns
