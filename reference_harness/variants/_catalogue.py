"""The latitude catalogue: conforming variants of the reference Harness, each one must pass.

A mutant breaks one rule and the suite must fail it; a *variant* differs from the reference only
where the spec is silent or permissive, and the suite must pass it. Each :class:`VariantSpec`
names the latitude it takes (``rule``: the spec sentence, or the contract silence, it rests on).
A variant the suite fails is a *false kill*: a check demanding what no sentence says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from reference_harness._retry import RetryPolicy
from reference_harness.guards._invocations import LOOKUP_TOOL, READY
from reference_harness.guards._violations import Violation, ViolationCode
from reference_harness.mutants._iut import MutantIUT, MutantSpec, Patch
from reference_harness.mutants._redteam_parts import unknown_verdict_ids_accepted
from reference_harness.variants._parts import (
    PerStoreSeqStore,
    RandomIdHarness,
    StepFirstLoop,
    StepFirstUnrecordedLoop,
    WallClockHarness,
    failed_repair_submits_nothing,
    hanging_up_agent,
    hanging_up_reviewer,
    no_discard_after_hang_up,
    other_safe_messages,
    own_prompt,
    pretty_snapshot,
    pretty_tool_messages,
    reordered_cancellation,
    sorted_document_ids,
    stream_flipped,
    timestamp_free_recorder,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = ["VARIANTS", "VariantIUT"]

_KNOWLEDGE_GUARD: Final = "reference_harness.guards._knowledge"
_OWN_CAPABILITIES: Final = (
    "DIAGNOSIS",
    "KNOWLEDGE_QUERY",
    "PREVIOUS_TURN",
    "CANCELLATION",
    "STRUCTURAL_REPAIR",
)


def _retry_only_after(router: str, semantic_guard: str) -> RetryPolicy:
    """Router and SemanticGuard get 2 attempts, each retried after one trigger outcome only."""
    return RetryPolicy(
        retry_on_by_component={
            "ROUTER": frozenset({router}),  # type: ignore[arg-type]  # checked by RetryPolicy
            "SEMANTIC_GUARD": frozenset({semantic_guard}),  # type: ignore[arg-type]
        }
    )


def _endpoint_client(config: Any) -> Any:  # noqa: ANN401 - OpenAIConfig -> ChatClient
    """The reference's own HTTP client: the variant runs on the kit's model endpoint."""
    from reference_harness.openai._client import ChatClient  # noqa: PLC0415 - SDK import

    return ChatClient(config)


def _one_lookup_only(_original: Any) -> Callable[..., Any]:  # noqa: ANN401 - the replaced function
    """``_the_lookup`` reading "the single lookup Tool Call" as: the Run made exactly one lookup."""

    def the_lookup(answer: dict[str, Any], views: Mapping[str, Any]) -> tuple[Any, list[Any]]:
        lookups = [view for view in views.values() if view.tool_name == LOOKUP_TOOL]
        named = views.get(answer["lookup_tool_call_id"])
        if len(lookups) == 1 and named is lookups[0] and named.status == READY:
            return named, []
        kept = named if named is not None and named.status == READY else None
        return kept, [Violation(ViolationCode.LOOKUP_CALL_COUNT, "/lookup_tool_call_id")]

    return the_lookup


def _failed_lookup_not_ready(original: Any) -> Callable[..., Any]:  # noqa: ANN401 - the replaced function
    """``_the_lookup`` reporting a named failed lookup as INVOCATION_NOT_READY (the other code)."""

    def the_lookup(answer: dict[str, Any], views: Mapping[str, Any]) -> tuple[Any, list[Any]]:
        named = views.get(answer["lookup_tool_call_id"])
        if named is not None and named.tool_name == LOOKUP_TOOL and named.status != READY:
            return None, [Violation(ViolationCode.INVOCATION_NOT_READY, "/lookup_tool_call_id")]
        found: tuple[Any, list[Any]] = original(answer, views)
        return found

    return the_lookup


def _share(value: float) -> Callable[[Any], float]:
    return lambda _original: value


def _developer_role(_original: Any) -> Callable[[str], dict[str, object]]:  # noqa: ANN401
    """``_system`` of the OpenAI ports: instructions sent with role ``developer``."""
    return lambda text: {"role": "developer", "content": text}


def _developer_opening(original: Callable[..., Any]) -> Callable[..., Any]:
    """``opening_messages``: the agent conversation's instructions with role ``developer``."""

    def opening(*args: Any, **kwargs: Any) -> list[dict[str, Any]]:  # noqa: ANN401
        messages: list[dict[str, Any]] = original(*args, **kwargs)
        return [{**m, "role": "developer"} if m.get("role") == "system" else m for m in messages]

    return opening


def _step_first_loop(_original: Any) -> type[StepFirstLoop]:  # noqa: ANN401 - the replaced class
    """``AgentLoop``: each step's calls are accepted (or rejected) before the first executes."""
    return StepFirstLoop


def _step_first_unrecorded_loop(_original: Any) -> type[StepFirstUnrecordedLoop]:  # noqa: ANN401 - the replaced class
    """``AgentLoop``: as :func:`_step_first_loop`, the calls never run unrecorded."""
    return StepFirstUnrecordedLoop


def _every_intent(_original: Any) -> frozenset[str]:  # noqa: ANN401 - the replaced value
    """``_SELECTING_INTENTS``: a KNOWLEDGE_QUERY Run records a previous-turn selection too."""
    return frozenset({"DIAGNOSIS", "KNOWLEDGE_QUERY"})


class VariantIUT(MutantIUT):
    """A latitude variant behind the adapter protocol, named ``srdh-variant-<name>``."""

    def __init__(self, spec: MutantSpec) -> None:
        """Create the IUT of variant ``spec``."""
        super().__init__(spec)
        self.implementation_name = f"srdh-variant-{spec.name}"


_SPECS: Final = (
    MutantSpec(
        "no_ts_ms",
        "",
        "trace events and run_event frames carry no ts_ms (contract: ts_ms is optional)",
        patches=(Patch("reference_harness._harness", "TraceRecorder", timestamp_free_recorder),),
    ),
    MutantSpec(
        "other_safe_messages",
        "",
        "invocation errors carry other fixed safe_message texts (the contract fixes the code; the "
        "message is the Harness's own text)",
        patches=(Patch("reference_harness._invocations", "SAFE_MESSAGES", other_safe_messages),),
    ),
    MutantSpec(
        "random_run_ids",
        "",
        "each Run is named run-<uuid4> (the contract fixes the id grammar, not its value)",
        harness_class=RandomIdHarness,
    ),
    MutantSpec(
        "wall_clock",
        "",
        "row times and ts_ms come from the wall clock (times are volatile)",
        harness_class=WallClockHarness,
    ),
    MutantSpec(
        "half_timeout_share",
        "",
        "over the kit's model endpoint one HTTP request gets 50 % of model_call_timeout_ms, not "
        "90 % (the spec names the HTTP timeout as a layer, not its share)",
        endpoint_client=_endpoint_client,
        patches=(Patch("reference_harness.iut", "_TIMEOUT_SHARE", _share(0.5)),),
    ),
    MutantSpec(
        "hang_up_on_cancel",
        "",
        "on cancellation the agent's and the SemanticGuard's HTTP calls are hung up at once (the "
        "endpoint records CLIENT_CLOSED): no late result exists, so no LATE_RESULT_DISCARDED "
        "('discards any late model result')",
        endpoint_client=_endpoint_client,
        agent=hanging_up_agent,
        reviewer=hanging_up_reviewer,
        patches=(Patch("reference_harness._harness", "TraceRecorder", no_discard_after_hang_up),),
    ),
    MutantSpec(
        "tool_work_cancelled_before_interrupt",
        "",
        "on cancellation tool work is cancelled (last accepted first) before the agent loop is "
        "interrupted (the spec distinguishes the layers; it does not order these independent ones)",
        patches=(Patch("reference_harness._harness", "RunContext", reordered_cancellation),),
    ),
    MutantSpec(
        "own_prompts",
        "",
        "other system prompts for the Router, the Diagnosis Agent and the SemanticGuard over the "
        "kit's endpoint (no sentence fixes a prompt)",
        endpoint_client=_endpoint_client,
        patches=(
            Patch("reference_harness.openai._ports", "ROUTER_SYSTEM", own_prompt("ROUTER")),
            Patch("reference_harness.openai._ports", "AGENT_SYSTEM", own_prompt("DIAGNOSIS_AGENT")),
            Patch(
                "reference_harness.openai._ports", "REVIEWER_SYSTEM", own_prompt("SEMANTIC_GUARD")
            ),
        ),
    ),
    MutantSpec(
        "pretty_tool_messages",
        "",
        "tool results and the previous turn reach the agent as pretty-printed JSON (the message "
        "wording is the Harness's own)",
        patches=(Patch("reference_harness._conversation", "_json_text", pretty_tool_messages),),
    ),
    MutantSpec(
        "streams_flipped",
        "",
        "over the kit's endpoint the Router asks for a stream and the agent and the SemanticGuard "
        "for one JSON body (the reference does the opposite; either answer shape is a client's "
        "choice)",
        endpoint_client=_endpoint_client,
        patches=(Patch("reference_harness.openai._endpoint", "endpoint_ports", stream_flipped),),
    ),
    MutantSpec(
        "pretty_snapshot",
        "",
        "the SemanticGuard receives the Verified Snapshot as pretty-printed JSON ('the snapshot as "
        "JSON': any JSON text of it)",
        patches=(Patch("reference_harness._model_input", "review_messages", pretty_snapshot),),
    ),
    MutantSpec(
        "per_store_seq",
        "",
        "seq counts over the whole store, not per session: a new Run's seq is greater than every "
        "earlier one of its session, not always one more",
        store_class=PerStoreSeqStore,
    ),
    MutantSpec(
        "single_lookup_call_strict",
        "",
        "'the single lookup Tool Call' read strictly: any Knowledge Answer of a Run that made more "
        "than one lookup call is rejected with LOOKUP_CALL_COUNT",
        patches=(Patch(_KNOWLEDGE_GUARD, "_the_lookup", _one_lookup_only),),
    ),
    MutantSpec(
        "failed_lookup_not_ready",
        "",
        "an answer naming a failed lookup is rejected with INVOCATION_NOT_READY at "
        "/lookup_tool_call_id (the contract lists both codes for it)",
        patches=(Patch(_KNOWLEDGE_GUARD, "_the_lookup", _failed_lookup_not_ready),),
    ),
    MutantSpec(
        "no_optional_retries",
        "",
        "no Router or SemanticGuard retry, SEMANTIC_RETRY and ROUTER_RETRY undeclared ('Harness "
        "may execute one second attempt': a may not taken)",
        retry=RetryPolicy(max_attempts={"ROUTER": 1, "SEMANTIC_GUARD": 1}),
        capabilities=_OWN_CAPABILITIES,
    ),
    MutantSpec(
        "retry_router_unavailable_sg_invalid",
        "",
        "SEMANTIC_RETRY and ROUTER_RETRY declared; the SemanticGuard is retried only after an "
        "invalid structured result (the spec's one named trigger: 'WHEN the first SemanticGuard "
        "attempt returns an invalid structured result THEN Harness may execute one second "
        "attempt'), the Router only after UNAVAILABLE; the other failure falls back at once",
        retry=_retry_only_after("UNAVAILABLE", "INVALID_SCHEMA"),
    ),
    MutantSpec(
        "retry_router_invalid_sg_unavailable",
        "",
        "SEMANTIC_RETRY and ROUTER_RETRY declared; the SemanticGuard is retried only after "
        "UNAVAILABLE, the Router only after INVALID_SCHEMA ('Harness explicitly owns any allowed "
        "Router or SemanticGuard retry': each retry is a may, per trigger)",
        retry=_retry_only_after("INVALID_SCHEMA", "UNAVAILABLE"),
    ),
    MutantSpec(
        "developer_role_instructions",
        "",
        "over the kit's endpoint every component's instructions go with role developer (OpenAI's "
        "name for system instructions; 'an isolated single-turn semantic reviewer' names no "
        "role)",
        endpoint_client=_endpoint_client,
        patches=(
            Patch("reference_harness.openai._ports", "_system", _developer_role),
            Patch("reference_harness._harness", "opening_messages", _developer_opening),
        ),
    ),
    MutantSpec(
        "knowledge_query_selects_previous_turn",
        "",
        "a KNOWLEDGE_QUERY Run records PREVIOUS_TURN_SELECTED by the same rules and gives its "
        "agent no earlier text (the spec excludes Runs from Diagnosis previous-turn selection; it "
        "says nothing of recording one in other Runs)",
        patches=(Patch("reference_harness._harness", "_SELECTING_INTENTS", _every_intent),),
    ),
    MutantSpec(
        "unknown_verdict_id_unsupported",
        "",
        "a SemanticGuard verdict valid against semantic-verdict.schema that names an analysis the "
        "snapshot lacks is taken as UNSUPPORTED (fallback, nothing released), not INVALID_SCHEMA "
        "('an invalid structured result': the frozen schema does not restrict the ids)",
        patches=(
            Patch("reference_harness._release", "parse_verdict", unknown_verdict_ids_accepted),
        ),
    ),
    MutantSpec(
        "step_accepted_first",
        "",
        "each agent step's Tool Call IDs are all judged (TOOL_CALL_ACCEPTED / REJECTED) before "
        "the first accepted call executes; a disconnect is noticed at that execution's wait and "
        "the calls accepted but not run are recorded TOOL_WORK_CANCELLED ('executes the accepted "
        "calls of a step in order' orders the executions; accepting is no wait)",
        patches=(Patch("reference_harness._harness", "AgentLoop", _step_first_loop),),
    ),
    MutantSpec(
        "step_accepted_first_unrecorded",
        "",
        "as step_accepted_first, but the calls accepted and never run get no TOOL_WORK_CANCELLED "
        "(they end ERROR CANCELLED): only the call whose execution's wait noticed the disconnect "
        "had work in flight ('once per cancellable in-flight tool call'; 'calls accepted but "
        "never run end ERROR CANCELLED')",
        patches=(Patch("reference_harness._harness", "AgentLoop", _step_first_unrecorded_loop),),
    ),
    MutantSpec(
        "failed_repair_submits_nothing",
        "",
        "a structural repair answered by tool calls fails without a DRAFT_SUBMITTED or "
        "EVIDENCE_VALIDATION of attempt 2 (the THEN fixes the fallback, not those records)",
        patches=(Patch("reference_harness._release", "_validate", failed_repair_submits_nothing),),
    ),
    MutantSpec(
        "lookup_document_ids_sorted",
        "",
        "a lookup projection lists its document_ids sorted, not in the items' order: 'Document "
        "ids of the items', unique, in no stated order (each item keeps its own row's id)",
        patches=(Patch("reference_harness._tool_execution", "project", sorted_document_ids),),
    ),
)

VARIANTS: Final[Mapping[str, MutantSpec]] = {spec.name: spec for spec in _SPECS}
"""Every latitude variant by name (``reference_harness.variants:<name>``)."""
