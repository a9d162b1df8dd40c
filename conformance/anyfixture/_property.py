"""The any-fixture property: every valid Scenario Fixture is judged with every check the kit has.

For each fixture of :func:`conformance.hypothesis.scenario_fixtures` (fitted to the IUT's
capabilities) the IUT runs it twice, and both observations must keep every global invariant
(which include the outcome oracle and the runtime oracle: invocation table, EvidenceGuard
verdicts, release outcome, attempts, disconnects, previous turn, durable rows, frames) and every
model-input rule, and give the same normalized trace. The run starts with
:func:`pinned_any_fixtures` (each run once): with the curated scenarios they reach every element
of the fixture vocabulary (:mod:`conformance.vocabulary`), so that every default run of the suite
reaches every element, and they present the fault kinds the curated scenarios never did; then it
draws random ones. Issue 19 item 2.
"""

from __future__ import annotations

import copy
import functools
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from hypothesis import Phase, find, settings

from conformance.adapters import AdapterError, ObservationContractError
from conformance.anyfixture._engine import capable, drive, observe, property_settings
from conformance.anyfixture._stable import stable_draws
from conformance.checks import (
    Findings,
    check_global_invariants,
    check_model_inputs,
    check_same_normalized_trace,
    fit_to_capabilities,
)
from conformance.hypothesis import ALL_CAPABILITIES, scenario_fixtures

if TYPE_CHECKING:
    from collections.abc import Collection, Mapping

    from conformance.adapters import Adapter
    from conformance.anyfixture._engine import PropertyResult

__all__ = [
    "ANY_FIXTURE",
    "CORPUS",
    "PINS",
    "PINS_FILE",
    "generate_pins",
    "judge_any_fixture",
    "pinned_any_fixtures",
    "run_any_fixture",
]

ANY_FIXTURE: Final = "any-valid-scenario-fixture"
"""The name of the any-fixture property in results."""

ANY_FIXTURE_SCENARIO: Final = "any-valid-scenario-fixture-is-judged-by-every-check"
"""The suite scenario (``@extension``) running the any-fixture property: its failing example's
fixture is judged by every check, which is what ``srdh run --fixture FILE`` does."""

_PINNED: Final = "pinned for"


_REPAIR: Final = {
    "tool_calls": "tool_calls",
    "draft": "valid",
    "knowledge_answer": "other_intent",
    "raw": "raw",
    "error": "error",
    "block_until_cancelled": "block",
    "ignore_cancellation": "ignore",
    "draft_and_tool_calls": "mixed",
}
_PRESETS: Final = (
    "one_step",
    "projection_zero",
    "projection_max",
    "tiny_model_timeout",
    "tiny_tool_timeout",
)
_VALID: Final = {"submission": "valid", "review": ["supported"], "router": ["intent"]}
_STATUSES: Final = (429, 500, 502, 503, 504)
_KNOWLEDGE: Final = {
    "intent": "KNOWLEDGE_QUERY",
    "router": ["intent"],
    "submission": "valid",
    "repair": "valid",
    "calls": 1,
    "lookups": 1,
    "mixed_step": False,
    "id_classes": [],
    "tool_kinds": ["found", "found", "found"],
    "review": ["supported"],
}
_TURN_PINS: Final[dict[str, dict[str, Any]]] = {
    **{
        f"router:{kind}": {**_VALID, "router": [kind, "intent"], "calls": 2}
        for kind in ("raw", "block")
    },
    **{
        f"status:{status}": {
            "router": ["error", "intent"],
            "router_error": "UNAVAILABLE",
            "http_status": status,
            "submission": "broken",
            "repair": "error",
            "agent_error": "UNAVAILABLE",
        }
        for status in _STATUSES
    },
    **{
        f"review-status:{status}": {
            "submission": "valid",
            "review": ["error", "supported"],
            "review_error": "UNAVAILABLE",
            "http_status": status,
            "calls": 2,
            "history": "every",
        }
        for status in _STATUSES
    },
    "router:timeout": {**_VALID, "router": ["error"], "router_error": "TIMEOUT"},
    "agent:timeout": {"submission": "error", "agent_error": "TIMEOUT", "calls": 1},
    "review:timeout": {
        "submission": "valid",
        "review": ["error"],
        "review_error": "TIMEOUT",
        "calls": 2,
    },
    **{
        f"submission:{how}": {"intent": "DIAGNOSIS", "submission": how, "repair": "valid"}
        for how in ("broken", "wrong_case", "empty_ids", "junk", "other_intent", "block", "ignore")
    },
    **{
        f"review:{word}": {"submission": "valid", "review": [word, "supported"], "calls": 2}
        for word in ("unsupported", "unknown_id", "invalid", "raw", "block")
    },
    **{
        f"tool:{kind}": {**_VALID, "calls": 3, "tool_kinds": ["found", kind, "empty"]}
        for kind in ("in_band", "raise", "long", "oversize", "block", "block_late")
    },
    "tool:invalid-arguments": {**_VALID, "calls": 3, "invalid_arguments": True},
    "agent:mixed-step": {**_VALID, "calls": 2, "mixed_step": True},
    **{
        f"knowledge:{how}": {
            "intent": "KNOWLEDGE_QUERY",
            "submission": how,
            "repair": "valid",
            "calls": 1,
            "tool_kinds": ["found", "found"],
            "review": ["supported"],
        }
        for how in ("valid", "broken", "wrong_case", "empty_ids", "other_intent")
    },
    **{
        f"knowledge:{breakage}": {
            "intent": "KNOWLEDGE_QUERY",
            "submission": "broken",
            "knowledge_breakage": breakage,
            "repair": "valid",
            "calls": 2,
            "tool_kinds": ["found", "found", "found"],
            "review": ["supported"],
        }
        for breakage in ("duplicate_item", "other_call", "no_items")
    },
    # red team 6's kinds, each in a drawn shape (docs/decisions/open-world-7.md)
    "knowledge:empty-lookup": {**_KNOWLEDGE, "tool_kinds": ["empty", "found", "found"]},
    "knowledge:respelled": {**_KNOWLEDGE, "submission": "respelled", "respelling": "case"},
    "knowledge:semantic-fallback": {**_KNOWLEDGE, "review": ["unsupported"]},
    "held:ROUTE": {**_VALID, "router": ["block", "intent"], "held": "ROUTE"},
    "held:STRUCTURAL_REPAIR": {
        "intent": "DIAGNOSIS",
        "submission": "broken",
        "repair": "block",
        "held": "STRUCTURAL_REPAIR",
    },
    "held:SEMANTIC_REVIEW": {**_VALID, "review": ["block"], "calls": 1, "held": "SEMANTIC_REVIEW"},
    # red team 8's kinds (docs/decisions/red-team-8.md)
    "count:under-reported": {
        **_VALID,
        "calls": 2,
        "tool_kinds": ["found", "found"],
        "mixed_step": False,
        "miscount": "under",
    },
    "history:next-seq-run-id": {**_VALID, "calls": 2, "history": "every", "run_id_scheme": "run-N"},
    "gate:ROUTER_UNAVAILABLE": {
        **_VALID,
        "router": ["error", "error"],
        "router_error": "UNAVAILABLE",
        "http_status": None,
        "disconnect": None,
        "held": None,
        "gone_before_release": True,
    },
    "gate:AGENT_UNAVAILABLE": {
        "intent": "DIAGNOSIS",
        "router": ["intent"],
        "submission": "error",
        "agent_error": "TIMEOUT",
        "http_status": None,
        "calls": 1,
        "disconnect": None,
        "held": None,
        "gone_before_release": True,
    },
    # red team 8, S14: the session's greatest seq at the I-JSON bound less one (past 32 bits)
    "history:greatest-seq": {
        **_VALID,
        "calls": 1,
        "history": "drawn",
        "greatest_seq": 2**53 - 2,
    },
    # session 11: the unbounded limits, a never-firing disconnect's occurrence and a count at
    # 2**53 - 1 (docs/decisions/extreme-limits-11.md)
    "values:largest": {
        **_VALID,
        "limits": "default",
        "calls": 2,
        "tool_kinds": ["found", "found"],
        "mixed_step": False,
        "invalid_arguments": False,
        "disconnect": None,
        "held": None,
        "miscount": None,
        "extremes": "largest",
    },
    "perturbations": {
        **_VALID,
        "perturbations": [
            "DUPLICATE_FIRST_TOOL_CALL_ID",
            "STRIP_DRAFT_BINDINGS",
            "INVALID_FIRST_REVIEW",
            "FABRICATE_DOCUMENT_ID",
            "DISCONNECT_DURING_MODEL_CALL",
        ],
    },
}


def _pins() -> dict[str, dict[str, Any]]:
    """Pin name -> the forced choices of one pinned fixture.

    Together the pins reach every reachable element of the vocabulary (the tests prove it): one
    pin per disconnect point and per repair answer kind, one per limit preset, per error status
    and per submission, review and tool result kind, one per group of Tool Call ID classes.
    """
    from conformance.vocabulary import ID_CLASSES  # noqa: PLC0415 - heavy

    pins: dict[str, dict[str, Any]] = {}
    for event in _enum("TraceEventType"):
        recipe: dict[str, Any] = {**_VALID, "calls": 2, "tool_kinds": ["found", "found"]}
        if event == "TOOL_CALL_REJECTED":
            recipe["id_classes"] = ["padded"]
        elif event == "STRUCTURAL_REPAIR_REQUESTED":
            recipe.update(submission="broken", repair="valid")
        elif event == "PREVIOUS_TURN_SELECTED":
            recipe["history"] = "drawn"
        pins[f"disconnect:{event}"] = {**recipe, "disconnect": (event, 1)}
    for kind, how in _REPAIR.items():
        pins[f"repair:{kind}"] = {"intent": "DIAGNOSIS", "submission": "broken", "repair": how}
    classes = list(ID_CLASSES)
    for start in range(0, len(classes), 5):
        group = classes[start : start + 5]
        pins[f"id:{','.join(group)}"] = {**_VALID, "calls": 2, "id_classes": group}
    pins["id:reused-from-prior-run"] = {**_VALID, "calls": 2, "history": "every"}
    # the first call fails TOOL_FAILED: not READY, so taken even by "taken once READY" (S1)
    pins["id:duplicate-of-failed-call"]["failed_first"] = "raise"
    for preset in _PRESETS:
        pins[f"limits:{preset}"] = {**_VALID, "limits": preset, "calls": 3, "steps": 3}
    # red team 8's rewrites come last in the pipeline: a pin of another kind leaves them out,
    # so it is drawn exactly as before they existed
    return {name: {**_LEFT_OUT, **recipe} for name, recipe in (pins | _TURN_PINS).items()}


_LEFT_OUT: Final = {"miscount": None, "run_id_scheme": None, "gone_before_release": False}


@functools.cache
def _enum(name: str) -> tuple[str, ...]:
    from conformance.vocabulary import elements  # noqa: PLC0415 - heavy

    prefix = f"fixture:{name}="
    return tuple(e.name.removeprefix(prefix) for e in elements() if e.name.startswith(prefix))


CORPUS: Final = frozenset(
    {
        # elements the curated scenarios of the suite do not reach (a greedy cover of what is
        # left, on the reference: docs/decisions/open-world.md; the vocabulary test proves the
        # default run reaches every element)
        "agent:timeout",
        "perturbations",
        "repair:raw",
        "repair:ignore_cancellation",
        "repair:block_until_cancelled",
        "review:raw",
        "tool:oversize",
        "knowledge:other_call",
        "knowledge:duplicate_item",
        *(f"status:{status}" for status in _STATUSES),
        *(f"review-status:{status}" for status in _STATUSES),
        *(f"limits:{preset}" for preset in _PRESETS),
        "id:control-character,leading-punctuation,unicode-look-alike,case-fold-trap,case-variant",
        "id:array,object,duplicate-in-run,equal-arguments,reused-from-prior-run",
        "id:empty,null,missing,number,boolean",
        *(
            f"disconnect:{event}"
            for event in (
                "TOOL_WORK_CANCELLED",
                "TOOL_CALL_REJECTED",
                "STRUCTURAL_REPAIR_REQUESTED",
                "SEMANTIC_VERDICT",
                "RUN_FINISHED",
                "RESULT_RELEASED",
                "NEW_WORK_PREVENTED",
                "MODEL_CALL_FINISHED",
                "LATE_RESULT_DISCARDED",
                "INVOCATION_STATUS_CHANGED",
                "INTERRUPT_REQUESTED",
                "INTENT_ROUTED",
                "DRAFT_SUBMITTED",
                "CANCEL_REQUESTED",
            )
        ),
        # the kinds of faults the curated scenarios never presented (suite gaps, round 3)
        "submission:wrong_case",
        "submission:empty_ids",
        "submission:junk",
        "submission:other_intent",
        "knowledge:wrong_case",
        "knowledge:empty_ids",
        "id:grammar-shortest,grammar-longest,too-long,padded,whitespace-only",
        "repair:tool_calls",
        "tool:invalid-arguments",
        "agent:mixed-step",
        # red team 6's kinds, in a drawn shape (open-world-7.md): what the rows present, shaped
        # by the strategy
        "id:duplicate-of-failed-call",
        "knowledge:empty-lookup",
        "knowledge:respelled",
        "knowledge:semantic-fallback",
        "held:ROUTE",
        "held:STRUCTURAL_REPAIR",
        "held:SEMANTIC_REVIEW",
        # red team 8's kinds (red-team-8.md)
        "count:under-reported",
        "history:next-seq-run-id",
        "gate:ROUTER_UNAVAILABLE",
        "gate:AGENT_UNAVAILABLE",
        # red team 8's integer-width kind (docs/decisions/red-team-8.md, S14)
        "history:greatest-seq",
        # every unbounded integer at its largest valid value (extreme-limits-11.md); the name
        # sorts last, so the earlier pins keep their seeds
        "values:largest",
    }
)
"""The pins of the committed corpus: with the curated scenarios they reach every element."""

PINS: Final = _pins
"""Returns the pinned recipes: pin name -> the forced choices.

The keys of each recipe are :data:`~conformance.hypothesis.CHOICES`.
"""

_PIN_SETTINGS: Final = settings(
    database=None,
    derandomize=True,
    deadline=None,
    max_examples=1,
    phases=[Phase.generate],
)


PINS_FILE: Final = Path(__file__).with_name("pins.json")
"""The committed corpus of pinned fixtures (:func:`generate_pins`; a test keeps it in sync)."""


def generate_pins() -> list[dict[str, Any]]:
    """Draw one fixture per pin of :data:`CORPUS`, deterministically, for every capability.

    Each is the first fixture :func:`~conformance.hypothesis.scenario_fixtures` draws with the
    pin's choices forced (a seeded Hypothesis ``find``, no shrinking): the same list on every
    machine for one kit version. Slow (a Hypothesis run per pin): the suite reads
    :data:`PINS_FILE` instead; ``python -m conformance.anyfixture.pins`` rewrites it.
    """
    fixtures: list[dict[str, Any]] = []
    recipes = _pins()
    for index, name in enumerate(sorted(CORPUS)):
        force = recipes[name]
        strategy = scenario_fixtures(force=force, fixture_id=f"any-fixture-pin-{index + 1}")
        seeded = random.Random(index)  # noqa: S311 - a reproducible draw, not a secret
        with stable_draws():
            fixture = find(strategy, lambda _: True, settings=_PIN_SETTINGS, random=seeded)
        fixture["description"] = f"{_PINNED} {name}: {fixture.get('description', '')}"
        fixtures.append(fixture)
    return fixtures


@functools.cache
def _corpus() -> tuple[dict[str, Any], ...]:
    from contracts import load_json_file  # noqa: PLC0415 - loads on first use

    loaded: list[dict[str, Any]] = load_json_file(PINS_FILE)
    return tuple(loaded)


def pinned_any_fixtures(capabilities: Collection[str] | None = None) -> list[dict[str, Any]]:
    """The pinned fixtures (:data:`PINS_FILE`) an IUT with ``capabilities`` can run (``None``: all).

    A pin needing a capability the IUT lacks is left out (its optional retries are fitted away
    when it runs, :func:`~conformance.checks.fit_to_capabilities`).
    """
    caps = ALL_CAPABILITIES if capabilities is None else frozenset(capabilities)
    return [copy.deepcopy(f) for f in _corpus() if capable(f, caps)]


def _blame_earlier_run_ids(
    adapter: Adapter, fixture: Mapping[str, Any], error: AdapterError
) -> None:
    """Fail by rule when the IUT could not run ``fixture`` only for its earlier Runs' ids.

    The same fixture with the session's earlier Runs renamed (``kit-earlier-run-<n>``, a name
    no Harness derives for its own Run) is run once: if that Run succeeds, the IUT's failure
    came from an earlier Run's id (typically the new Run named ``run-<seq>`` over an earlier
    Run's row): ``R7.durable-run-outcome`` (one diagnosis_run row per Run; red team 8, S7). A
    Harness that fails both ways is left to the original error.

    Raises:
        AssertionError: the failure came from the earlier Runs' ids (names the rule).
    """
    session = fixture.get("session_id")
    renamed = copy.deepcopy(dict(fixture))
    own = [run for run in renamed.get("prior_runs", []) if run.get("session_id") == session]
    if not own:
        return
    ids = {}
    for number, run in enumerate(own, 1):
        ids[run["run_id"]] = f"kit-earlier-run-{number}"
        run["run_id"] = ids[run["run_id"]]
    try:
        observe(adapter, renamed, 1)
    except AdapterError:
        return
    found = Findings("one diagnosis_run row per Run", "R7.durable-run-outcome")
    shown = ", ".join(repr(i) for i in list(ids)[:3]) + (" ..." if len(ids) > 3 else "")  # noqa: PLR2004
    found.add(
        f"the IUT could not run the fixture ({error.reason}), but ran it once the session's "
        f"{len(ids)} earlier Run(s) ({shown}) were renamed kit-earlier-run-1 ... : a new Run "
        "must not take an earlier Run's id (each Run is its own durable diagnosis_run row, "
        "whatever ids the earlier Runs have)"
    )
    found.result().require()


def judge_any_fixture(
    adapter: Adapter, fixture: Mapping[str, Any], times: int = 2
) -> tuple[list[dict[str, Any]], list[Any]]:
    """Run ``fixture`` ``times`` times through ``adapter``; return the observations and results.

    Every observation is judged by the global invariants and the model-input rules; with two
    Runs, their normalized traces must also be the same.

    Raises:
        AssertionError: an observation broke its RunObservation contract (names its rule).
        AdapterError: any other protocol failure of the IUT.
    """
    fitted = fit_to_capabilities(fixture, adapter.capabilities)
    try:
        observations = observe(adapter, fitted, times)
    except ObservationContractError:
        raise
    except AdapterError as error:
        _blame_earlier_run_ids(adapter, fitted, error)
        raise
    capabilities = adapter.capabilities
    results = [
        result
        for observation in observations
        for result in (
            check_global_invariants(observation, fitted, capabilities),
            check_model_inputs(observation, fitted),
        )
    ]
    if len(observations) > 1:
        results.append(check_same_normalized_trace(observations[0], observations[1]))
    return observations, results


def run_any_fixture(
    adapter: Adapter, *, config: settings | None = None, pinned: bool = True
) -> PropertyResult:
    """Run the any-fixture property through ``adapter``; see the module docstring.

    ``config`` defaults to :func:`~conformance.properties.property_settings`; ``pinned`` starts
    with :func:`pinned_any_fixtures` (explicit examples, not counted in ``max_examples``).
    """
    capabilities = adapter.capabilities

    def body(fixture: dict[str, Any]) -> None:
        # a pinned fixture runs once (it is there to reach its element), a drawn one twice
        pin = str(fixture.get("description", "")).startswith(_PINNED)
        _, results = judge_any_fixture(adapter, fixture, 1 if pin else 2)
        for result in results:
            result.require()

    strategy = scenario_fixtures(capabilities=capabilities & ALL_CAPABILITIES)
    explicit = pinned_any_fixtures(capabilities & ALL_CAPABILITIES) if pinned else []
    return drive(ANY_FIXTURE, strategy, body, config or property_settings(), explicit)
