"""Then steps: each calls the shared checks of :mod:`conformance.checks` and requires them."""

from __future__ import annotations

from collections.abc import Callable

from pytest_bdd import parsers, then

from conformance import checks
from conformance.bdd._context import ScenarioContext
from conformance.checks import CheckResult

__all__ = ["THEN_CHECKS"]

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
        checks.check_rejected_twice_fallback(c.observation)
    ),
    "it is not used as Diagnosis previous turn and selection continues to the latest eligible "
    "DIAGNOSIS + SUCCESS Run": lambda c: checks.check_previous_turn(c.observation, c.ran_fixture),
    "the system prevents later Draft release, requests interruption, records an internal "
    "cancelled terminal state and discards any late model result": lambda c: (
        checks.check_layered_cancellation(c.observation)
    ),
    "Harness may execute one second attempt with the same verified snapshot and records both "
    "attempts": lambda c: checks.check_semantic_retry(c.observation, second_outcome="VALID"),
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
    "every global invariant holds": lambda c: _both(
        *(checks.check_global_invariants(o, c.ran_fixture) for o in c.observations)
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
    "the agent is called for exactly one draft and one structural repair, and the Run falls back "
    "with EVIDENCE_VALIDATION_FAILED and no verified sources": lambda c: _both(
        checks.check_one_repair_only(c.observation, c.ran_fixture),
        checks.check_rejected_twice_fallback(c.observation),
    ),
    "no previous turn is selected and every earlier Run is skipped with its reason": lambda c: (
        checks.check_previous_turn(c.observation, c.ran_fixture)
    ),
    "the Run is CANCELLED and nothing is released": lambda c: (
        checks.check_cancelled_nothing_released(c.observation)
    ),
    "the Harness makes exactly two SemanticGuard attempts on the same snapshot and the Run falls "
    "back with SEMANTIC_UNAVAILABLE": lambda c: checks.check_semantic_retry(
        c.observation, second_outcome="INVALID_SCHEMA"
    ),
    "the Harness records two Router attempts, INVALID_SCHEMA then VALID, and the Run goes on to "
    "SUCCESS": lambda c: _both(
        checks.check_attempt_outcomes(c.observation, "ROUTER", ["INVALID_SCHEMA", "VALID"]),
        checks.check_released_is_submitted(c.observation, c.ran_fixture),
    ),
    "the Harness records two Router attempts, both UNAVAILABLE, and the Run fails with "
    "ROUTER_UNAVAILABLE": lambda c: _both(
        checks.check_attempt_outcomes(c.observation, "ROUTER", ["UNAVAILABLE", "UNAVAILABLE"]),
        checks.check_failed_run(c.observation, "ROUTER_UNAVAILABLE"),
    ),
    "the Harness records one Diagnosis Agent attempt, UNAVAILABLE, and the Run fails with "
    "AGENT_UNAVAILABLE": lambda c: _both(
        checks.check_attempt_outcomes(c.observation, "DIAGNOSIS_AGENT", ["UNAVAILABLE"]),
        checks.check_failed_run(c.observation, "AGENT_UNAVAILABLE"),
    ),
}
"""Then sentence -> the check it runs (spec THEN sentences verbatim, then extensions)."""


def _make_step(check: _Check) -> Callable[[ScenarioContext], None]:
    def step(srdh_context: ScenarioContext) -> None:
        check(srdh_context).require()

    return step


for _sentence, _check in THEN_CHECKS.items():
    then(_sentence)(_make_step(_check))


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
    first = checks.Findings("the first action's rejection", "R2.tool-call-identity")
    first.expect(
        found == [reason], f"the first action was rejected as {found}, expected [{reason!r}]"
    )
    first.result().require()
    checks.check_tool_call_identity(srdh_context.observation, srdh_context.ran_fixture).require()


@then(
    parsers.re(
        r'the invocation "(?P<tool_call_id>[^"]+)" is READY with evidence status ERROR '
        r"and the error code BACKEND_ERROR"
    )
)
def _in_band(srdh_context: ScenarioContext, tool_call_id: str) -> None:
    checks.check_in_band_error(srdh_context.observation, tool_call_id).require()


@then(
    parsers.re(
        r"EvidenceGuard rejects the first (?:draft|answer) with (?P<code>\w+) "
        r"and releases the repaired (?:draft|answer)"
    )
)
def _rejected_then_released(srdh_context: ScenarioContext, code: str) -> None:
    checks.check_rejected_then_released(
        srdh_context.observation, srdh_context.ran_fixture, code
    ).require()


@then(
    parsers.re(
        r"EvidenceGuard rejects both (?:drafts|answers) with (?P<code>\w+) and the Run falls back "
        r"with EVIDENCE_VALIDATION_FAILED and no verified sources"
    )
)
def _rejected_twice(srdh_context: ScenarioContext, code: str) -> None:
    checks.check_rejected_twice_fallback(srdh_context.observation, code).require()


@then(
    parsers.re(
        r"the Run falls back with (?P<fallback_type>\w+), listing only verified sources "
        r"and no draft text"
    )
)
def _falls_back(srdh_context: ScenarioContext, fallback_type: str) -> None:
    checks.check_fallback(srdh_context.observation, fallback_type).require()
