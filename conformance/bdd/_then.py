"""Then steps: each calls the shared checks of :mod:`conformance.checks` and requires them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from pytest_bdd import parsers, then

from conformance import checks
from conformance.bdd import _optional
from conformance.bdd._context import ScenarioContext
from conformance.checks import CheckResult, Findings

if TYPE_CHECKING:
    import pytest

__all__ = ["OPTIONAL_PROPERTY", "THEN_CHECKS", "ThenRegistryError", "then_check"]

_Check = Callable[[ScenarioContext], CheckResult]


def _both(*results: CheckResult) -> CheckResult:
    failed = [r for r in results if not r.passed]
    if failed:
        rules = tuple(dict.fromkeys(rule for r in failed for rule in r.rules))
        return CheckResult(passed=False, message="\n".join(r.message for r in failed), rules=rules)
    return CheckResult(passed=True, message="; ".join(r.message for r in results))


THEN_CHECKS: dict[str, _Check] = {
    # -- the spec's THEN sentences, verbatim ------------------------------------------------------
    "no Harness contract assigns Planner, Executor, Composer, workflow routing, or diagnosis "
    "reasoning responsibilities to Harness": lambda c: checks.check_harness_ownership(
        c.contracts["component-registry"]
    ),
    "the contract classifies the second action as an error and prohibits overwriting the first "
    "canonical invocation": lambda c: checks.check_tool_call_identity(c.observation, c.ran_fixture),
    "invocation status is READY and evidence status is NO_EVIDENCE": lambda c: (
        checks.check_no_evidence_invocation(c.observation, c.ran_fixture)
    ),
    "the Analysis kind MUST be NEGATIVE_OBSERVATION and MUST remain bounded to the Tool query "
    "scope": lambda c: checks.check_no_evidence_citations(c.observation, c.ran_fixture),
    "every Analysis has a unique analysis ID, a fixed Analysis kind and at least one Tool "
    "Call ID": lambda c: checks.check_analysis_structure(c.observation, c.ran_fixture),
    "later Harness validation rejects the answer instead of publishing the fabricated citation": (
        lambda c: checks.check_fabricated_citation_rejected(c.observation, c.ran_fixture)
    ),
    "the fallback type is EVIDENCE_VALIDATION_FAILED and verified sources are empty": lambda c: (
        checks.check_rejected_twice_fallback(c.observation, fixture=c.ran_fixture)
    ),
    "it is not used as Diagnosis previous turn and selection continues to the latest eligible "
    "DIAGNOSIS + SUCCESS Run": lambda c: checks.check_previous_turn(c.observation, c.ran_fixture),
    "the system prevents later Draft release, requests interruption, records an internal "
    "cancelled terminal state and discards any late model result": lambda c: (
        checks.check_layered_cancellation(c.observation, c.ran_fixture)
    ),
    "Harness may execute one second attempt with the same verified snapshot and records both "
    "attempts": lambda c: _optional.semantic_retry(c, second_outcome="VALID"),
    "the public Chat entry remains on the old path and stage 6B cutover is prohibited": lambda c: (
        checks.check_serial_cutover(c.contracts["phase-plan"])
    ),
    # -- extension scenarios ----------------------------------------------------------------------
    "the released Diagnosis Draft is canonical-JSON-identical to the draft the agent submitted": (
        lambda c: checks.check_released_is_submitted(c.observation, c.ran_fixture)
    ),
    "both Runs have the same normalized trace": lambda c: checks.check_same_normalized_trace(
        c.observations[0], c.observations[-1]
    ),
    "no model call receives text of an earlier Run other than the selected previous turn": (
        lambda c: checks.check_model_inputs(c.observation, c.ran_fixture)
    ),
    "no model call receives a backend row beyond the bounded projection": lambda c: (
        checks.check_model_inputs(c.observation, c.ran_fixture)
    ),
    "the SemanticGuard reviews a Verified Snapshot holding the projection of every READY "
    "invocation the draft cites": lambda c: checks.check_model_inputs(c.observation, c.ran_fixture),
    "the trace records it as the frozen contracts define": lambda c: checks.check_contract_details(
        c.observation, c.ran_fixture, c.capabilities
    ),
    "every global invariant holds": lambda c: _both(
        *(checks.check_global_invariants(o, *c.as_declared) for o in c.observations),
        *(checks.check_model_inputs(o, c.ran_fixture) for o in c.observations),
    ),
    "the second action is rejected as DUPLICATE_ID and the first invocation's arguments, status "
    "and projection are unchanged": lambda c: checks.check_tool_call_identity(
        c.observation, c.ran_fixture
    ),
    "the step-3 action is rejected as DUPLICATE_ID and the step-1 invocation and its evidence are "
    "unchanged": lambda c: checks.check_tool_call_identity(c.observation, c.ran_fixture),
    "both actions are rejected as MISSING_ID, neither as a duplicate of the other": lambda c: (
        checks.check_tool_call_identity(c.observation, c.ran_fixture)
    ),
    # -- evidence extension scenarios (outcome oracle) ------------------------------------------
    "both actions are accepted as distinct invocations, each with its own result": lambda c: (
        checks.check_tool_call_identity(c.observation, c.ran_fixture)
    ),
    "the action is accepted and executed, because duplicates are judged within one Run": (
        lambda c: checks.check_tool_call_identity(c.observation, c.ran_fixture)
    ),
    "every action is accepted and executed under the Tool Call ID it presented": lambda c: (
        checks.check_tool_call_identity(c.observation, c.ran_fixture)
    ),
    "EvidenceGuard rejects both drafts for citing ERROR evidence and the Run falls back with "
    "EVIDENCE_VALIDATION_FAILED and no verified sources": lambda c: _both(
        checks.check_rejected_twice_fallback(c.observation, fixture=c.ran_fixture),
        checks.check_evidence_outcome(c.observation, c.ran_fixture),
    ),
    "the agent is called for exactly one draft and one structural repair, and the Run falls back "
    "with EVIDENCE_VALIDATION_FAILED and no verified sources": lambda c: _both(
        checks.check_one_repair_only(c.observation, c.ran_fixture),
        checks.check_rejected_twice_fallback(c.observation, fixture=c.ran_fixture),
    ),
    "no previous turn is selected and every earlier Run is skipped with its reason": lambda c: (
        checks.check_previous_turn(c.observation, c.ran_fixture)
    ),
    "the finished Run stays as it was released: its row, its trace and its published result": (
        lambda c: checks.check_finished_run_unchanged(c.observation, c.ran_fixture)
    ),
    "the Harness takes no tool call of a step beyond the step budget": lambda c: (
        checks.check_step_budget(c.observation, c.ran_fixture)
    ),
    "the Run's diagnosis_run row holds the user's message as it was asked": lambda c: (
        checks.check_durable_run(c.observation, c.ran_fixture, c.capabilities)
    ),
    "the Run is CANCELLED and nothing is released": lambda c: (
        checks.check_cancelled_nothing_released(c.observation)
    ),
    "the Harness may make its second SemanticGuard attempt on the same verified snapshot after "
    "UNAVAILABLE too, and records both attempts": lambda c: _optional.semantic_retry(
        c, second_outcome="VALID", first_outcome="UNAVAILABLE"
    ),
    "the raised text reaches no invocation, run row, trace event, published result or client "
    "frame": lambda c: _both(
        checks.check_internal_error_excluded(c.observation, c.ran_fixture),
        checks.check_invocation_ends(
            c.observation,
            c.ran_fixture,
            "call_2",
            status="ERROR",
            evidence_status="ERROR",
            code="TOOL_FAILED",
        ),
    ),
    "the Harness makes exactly two SemanticGuard attempts on the same snapshot and the Run falls "
    "back with SEMANTIC_UNAVAILABLE": lambda c: _optional.semantic_retry(
        c, second_outcome="INVALID_SCHEMA"
    ),
    "the Harness records two Router attempts, INVALID_SCHEMA then VALID, and the Run goes on to "
    "SUCCESS": lambda c: _optional.router_retry(c, ["INVALID_SCHEMA", "VALID"], then_success=True),
    "the Harness records two Router attempts, both UNAVAILABLE, and the Run fails with "
    "ROUTER_UNAVAILABLE": lambda c: _optional.router_retry(
        c, ["UNAVAILABLE", "UNAVAILABLE"], then_success=False
    ),
    "the Harness records one Diagnosis Agent attempt, UNAVAILABLE, and the Run fails with "
    "AGENT_UNAVAILABLE": lambda c: _both(
        checks.check_attempt_outcomes(c.observation, "DIAGNOSIS_AGENT", ["UNAVAILABLE"]),
        checks.check_model_calls(c.observation, c.ran_fixture, c.capabilities),
        checks.check_failed_run(c.observation, "AGENT_UNAVAILABLE"),
    ),
}


class ThenRegistryError(LookupError):
    """A property (or contract mutant) names a Then sentence :data:`THEN_CHECKS` does not hold."""


def then_check(sentence: str) -> _Check:
    """Return the Then check of ``sentence`` (a spec THEN sentence, verbatim).

    Raises:
        ThenRegistryError: no entry in :data:`THEN_CHECKS` for ``sentence``; the message names the
            registry to add it to (a spec author's slip when adding a scenario, not a kit fault).
    """
    try:
        return THEN_CHECKS[sentence]
    except KeyError:
        message = (
            f"no Then check for {sentence!r}: add an entry to THEN_CHECKS in "
            "conformance/bdd/_then.py (docs/adding-a-scenario.md)"
        )
        raise ThenRegistryError(message) from None


"""Then sentence -> the check it runs (spec THEN sentences verbatim, then extensions)."""


OPTIONAL_PROPERTY = "srdh_optional"
"""The pytest ``user_properties`` name under which a Then step reports optional behaviour."""


def _require(context: ScenarioContext, result: CheckResult) -> None:
    """Require ``result``; a failure also names every global invariant the Run broke.

    A failing Then step ends its scenario before "every global invariant holds" runs: adding
    the invariants' findings here keeps every broken rule id in the failure message.
    """
    if not result.passed and context.observations and context.fixture is not None:
        fixture = context.ran_fixture
        result = _both(
            result,
            *(
                checks.check_global_invariants(o, *context.as_declared)
                for o in context.observations
            ),
            *(checks.check_model_inputs(o, fixture) for o in context.observations),
        )
    result.require()


_INVARIANTS = "every global invariant holds"


def _make_step(
    check: _Check, *, invariants: bool
) -> Callable[[pytest.FixtureRequest, ScenarioContext], None]:
    def step(request: pytest.FixtureRequest, srdh_context: ScenarioContext) -> None:
        result = check(srdh_context)
        notes = [*srdh_context.optional, *_optional.declined_notes(srdh_context)]
        for note in dict.fromkeys(notes):
            if (OPTIONAL_PROPERTY, note) not in request.node.user_properties:
                request.node.user_properties.append((OPTIONAL_PROPERTY, note))
        if invariants:
            _require(srdh_context, result)
        else:
            result.require()

    return step


for _sentence, _check in THEN_CHECKS.items():
    then(_sentence)(_make_step(_check, invariants=_sentence != _INVARIANTS))


@then(
    parsers.re(
        r"the first action is rejected as (?P<reason>\w+), is never executed, and the Run goes on"
    )
)
def _first_rejected(srdh_context: ScenarioContext, reason: str) -> None:
    rejected = [
        e["data"]
        for e in srdh_context.observation["trace"]
        if e["type"] == "TOOL_CALL_REJECTED"
        and (e["data"]["step"], e["data"]["position"]) == (1, 0)
    ]
    found = [r["reason"] for r in rejected]
    first = checks.Findings("the first action is rejected", "R2.tool-call-identity")
    first.expect(
        found == [reason], f"the first action was rejected as {found}, expected [{reason!r}]"
    )
    identity = checks.check_tool_call_identity(srdh_context.observation, srdh_context.ran_fixture)
    _require(srdh_context, _both(first.result(), identity))


@then(
    parsers.re(
        r'the invocation "(?P<tool_call_id>[^"]+)" is READY with evidence status ERROR '
        r"and the error code BACKEND_ERROR"
    )
)
def _in_band(srdh_context: ScenarioContext, tool_call_id: str) -> None:
    _require(srdh_context, checks.check_in_band_error(srdh_context.observation, tool_call_id))


@then(
    parsers.re(
        r"EvidenceGuard rejects the first (?:draft|answer) with (?P<code>\w+) "
        r"and releases the repaired (?:draft|answer)"
    )
)
def _rejected_then_released(srdh_context: ScenarioContext, code: str) -> None:
    result = checks.check_rejected_then_released(
        srdh_context.observation, srdh_context.ran_fixture, code
    )
    _require(srdh_context, result)


@then(
    parsers.re(
        r"EvidenceGuard rejects both (?:drafts|answers)(?: with (?P<code>\w+))? and the Run falls "
        r"back with EVIDENCE_VALIDATION_FAILED and no verified sources"
    )
)
def _rejected_twice(srdh_context: ScenarioContext, code: str | None) -> None:
    result = checks.check_rejected_twice_fallback(
        srdh_context.observation, code, fixture=srdh_context.ran_fixture
    )
    _require(srdh_context, result)


@then(
    parsers.re(
        r"the Run falls back with (?P<fallback_type>\w+), listing only verified sources "
        r"and no draft text"
    )
)
def _falls_back(srdh_context: ScenarioContext, fallback_type: str) -> None:
    _require(srdh_context, checks.check_fallback(srdh_context.observation, fallback_type))


@then(
    parsers.re(
        r'the invocation "(?P<tool_call_id>[^"]+)" ends (?P<status>\w+) with evidence status '
        r"(?P<evidence>\w+) and the error code (?P<code>\w+)"
    )
)
def _ends(
    srdh_context: ScenarioContext, tool_call_id: str, status: str, evidence: str, code: str
) -> None:
    result = checks.check_invocation_ends(
        srdh_context.observation,
        srdh_context.ran_fixture,
        tool_call_id,
        status=status,
        evidence_status=evidence,
        code=code,
    )
    _require(srdh_context, result)


@then(
    parsers.re(
        r'the invocation "(?P<tool_call_id>[^"]+)" is never executed and ends ERROR with '
        r"evidence status ERROR and the error code INVALID_ARGUMENTS"
    )
)
def _arguments_refused(srdh_context: ScenarioContext, tool_call_id: str) -> None:
    result = checks.check_arguments_refused(
        srdh_context.observation, srdh_context.ran_fixture, tool_call_id
    )
    _require(srdh_context, result)


@then(parsers.re(r'the invocation "(?P<tool_call_id>[^"]+)" records its arguments as presented'))
def _arguments_as_presented(srdh_context: ScenarioContext, tool_call_id: str) -> None:
    result = checks.check_arguments_as_presented(
        srdh_context.observation, srdh_context.ran_fixture, tool_call_id
    )
    _require(srdh_context, result)


@then(
    parsers.re(
        r'the projection of "(?P<tool_call_id>[^"]+)" keeps at most (?P<items>\d+) items of at '
        r"most (?P<chars>\d+) characters, with the backend's total_matched, and is marked "
        r"truncated"
    )
)
def _bounded(srdh_context: ScenarioContext, tool_call_id: str, items: str, chars: str) -> None:
    limits = srdh_context.ran_fixture.get("limits", {})
    wrong = Findings("the step's limits are the fixture's", "R4.bounded-projection")
    wrong.expect(
        (limits.get("max_items"), limits.get("max_item_chars")) == (int(items), int(chars)),
        f"the fixture's limits are {limits}, the step says {items} items of {chars} characters",
    )
    result = checks.check_bounded_projection(
        srdh_context.observation, srdh_context.ran_fixture, tool_call_id
    )
    _require(srdh_context, _both(wrong.result(), result))


@then(
    parsers.re(
        r"EvidenceGuard rejects the first (?:draft|answer) with (?P<code>\w+) at "
        r'"(?P<pointer>[^"]*)" and releases the repaired (?:draft|answer)'
    )
)
def _rejected_at(srdh_context: ScenarioContext, code: str, pointer: str) -> None:
    result = checks.check_rejected_at(
        srdh_context.observation, srdh_context.ran_fixture, code, pointer
    )
    _require(srdh_context, result)


@then(
    parsers.re(
        r"EvidenceGuard rejects the first (?:draft|answer) with (?P<first>\w+) or (?P<second>\w+) "
        r'at "(?P<pointer>[^"]*)"$'
    )
)
def _rejected_with_either(
    srdh_context: ScenarioContext, first: str, second: str, pointer: str
) -> None:
    result = checks.check_first_rejected_with(
        srdh_context.observation, srdh_context.ran_fixture, (first, second), pointer
    )
    _require(srdh_context, result)


@then(
    parsers.re(
        r'the repair fails without executing "(?P<tool_call_id>[^"]+)" and the Run falls back '
        r"with EVIDENCE_VALIDATION_FAILED and no verified sources"
    )
)
def _failed_repair(srdh_context: ScenarioContext, tool_call_id: str) -> None:
    result = checks.check_failed_repair(
        srdh_context.observation, srdh_context.ran_fixture, tool_call_id
    )
    _require(srdh_context, result)


@then(
    parsers.re(
        r'the projection of "(?P<tool_call_id>[^"]+)" keeps every row whole and is not marked '
        r"truncated"
    )
)
def _projection_whole(srdh_context: ScenarioContext, tool_call_id: str) -> None:
    result = checks.check_projection_whole(
        srdh_context.observation, srdh_context.ran_fixture, tool_call_id
    )
    _require(srdh_context, result)
