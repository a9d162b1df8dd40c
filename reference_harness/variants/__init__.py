"""Latitude variants: conforming copies of the reference Harness, differing where the spec allows.

Every variant is a factory ``reference_harness.variants:<name>`` for the kit's in-process adapter,
built like the mutants (:mod:`reference_harness.mutants`) but the other way round: each differs
from the reference only where the spec is silent or permissive (:data:`VARIANTS` says where), and
the conformance suite must pass every one (``srdh selftest``: a variant the suite fails is a
false kill). A variant patches reference functions only while its own ``run`` executes, under the
mutants' process-wide lock.

Composites (:data:`COMPOSITES`, :mod:`reference_harness.variants._composites`) take several
latitudes at once, like a real independent harness; they are factories here too
(``reference_harness.variants:composite_scripted`` ...), judged by the self-test like variants.
"""

from reference_harness.variants._catalogue import VARIANTS, VariantIUT
from reference_harness.variants._composites import (
    COMPOSITE_MEMBERS,
    COMPOSITES,
    CompositionError,
    compose,
    create,
)

__all__ = [
    "COMPOSITES",
    "COMPOSITE_MEMBERS",
    "VARIANTS",
    "CompositionError",
    "VariantIUT",
    "compose",
    "composite_endpoint",
    "composite_hang_up",
    "composite_never_run",
    "composite_retry_sg_invalid_only",
    "composite_retry_sg_unavailable_only",
    "composite_scripted",
    "composite_stricter",
    "create",
    "developer_role_instructions",
    "failed_lookup_not_ready",
    "failed_repair_submits_nothing",
    "half_timeout_share",
    "hang_up_on_cancel",
    "knowledge_query_selects_previous_turn",
    "lookup_document_ids_sorted",
    "no_optional_retries",
    "no_ts_ms",
    "other_safe_messages",
    "own_prompts",
    "per_store_seq",
    "pretty_snapshot",
    "pretty_tool_messages",
    "random_run_ids",
    "retry_router_invalid_sg_unavailable",
    "retry_router_unavailable_sg_invalid",
    "single_lookup_call_strict",
    "step_accepted_first",
    "step_accepted_first_unrecorded",
    "streams_flipped",
    "tool_work_cancelled_before_interrupt",
    "unknown_verdict_id_unsupported",
    "wall_clock",
]


def no_ts_ms() -> VariantIUT:
    """IUT factory of latitude variant ``no_ts_ms`` (see :data:`VARIANTS`)."""
    return create("no_ts_ms")


def other_safe_messages() -> VariantIUT:
    """IUT factory of latitude variant ``other_safe_messages`` (see :data:`VARIANTS`)."""
    return create("other_safe_messages")


def random_run_ids() -> VariantIUT:
    """IUT factory of latitude variant ``random_run_ids`` (see :data:`VARIANTS`)."""
    return create("random_run_ids")


def wall_clock() -> VariantIUT:
    """IUT factory of latitude variant ``wall_clock`` (see :data:`VARIANTS`)."""
    return create("wall_clock")


def half_timeout_share() -> VariantIUT:
    """IUT factory of latitude variant ``half_timeout_share`` (see :data:`VARIANTS`)."""
    return create("half_timeout_share")


def tool_work_cancelled_before_interrupt() -> VariantIUT:
    """IUT factory of variant ``tool_work_cancelled_before_interrupt`` (see :data:`VARIANTS`)."""
    return create("tool_work_cancelled_before_interrupt")


def own_prompts() -> VariantIUT:
    """IUT factory of latitude variant ``own_prompts`` (see :data:`VARIANTS`)."""
    return create("own_prompts")


def pretty_tool_messages() -> VariantIUT:
    """IUT factory of latitude variant ``pretty_tool_messages`` (see :data:`VARIANTS`)."""
    return create("pretty_tool_messages")


def streams_flipped() -> VariantIUT:
    """IUT factory of latitude variant ``streams_flipped`` (see :data:`VARIANTS`)."""
    return create("streams_flipped")


def pretty_snapshot() -> VariantIUT:
    """IUT factory of latitude variant ``pretty_snapshot`` (see :data:`VARIANTS`)."""
    return create("pretty_snapshot")


def per_store_seq() -> VariantIUT:
    """IUT factory of latitude variant ``per_store_seq`` (see :data:`VARIANTS`)."""
    return create("per_store_seq")


def single_lookup_call_strict() -> VariantIUT:
    """IUT factory of latitude variant ``single_lookup_call_strict`` (see :data:`VARIANTS`)."""
    return create("single_lookup_call_strict")


def failed_lookup_not_ready() -> VariantIUT:
    """IUT factory of latitude variant ``failed_lookup_not_ready`` (see :data:`VARIANTS`)."""
    return create("failed_lookup_not_ready")


def no_optional_retries() -> VariantIUT:
    """IUT factory of latitude variant ``no_optional_retries`` (see :data:`VARIANTS`)."""
    return create("no_optional_retries")


def failed_repair_submits_nothing() -> VariantIUT:
    """IUT factory of latitude variant ``failed_repair_submits_nothing`` (see :data:`VARIANTS`)."""
    return create("failed_repair_submits_nothing")


def developer_role_instructions() -> VariantIUT:
    """IUT factory of latitude variant ``developer_role_instructions`` (see :data:`VARIANTS`)."""
    return create("developer_role_instructions")


def knowledge_query_selects_previous_turn() -> VariantIUT:
    """IUT factory of variant ``knowledge_query_selects_previous_turn`` (:data:`VARIANTS`)."""
    return create("knowledge_query_selects_previous_turn")


def unknown_verdict_id_unsupported() -> VariantIUT:
    """IUT factory of latitude variant ``unknown_verdict_id_unsupported`` (see :data:`VARIANTS`)."""
    return create("unknown_verdict_id_unsupported")


def hang_up_on_cancel() -> VariantIUT:
    """IUT factory of latitude variant ``hang_up_on_cancel`` (see :data:`VARIANTS`)."""
    return create("hang_up_on_cancel")


def retry_router_unavailable_sg_invalid() -> VariantIUT:
    """IUT factory of latitude variant ``retry_router_unavailable_sg_invalid`` (VARIANTS)."""
    return create("retry_router_unavailable_sg_invalid")


def retry_router_invalid_sg_unavailable() -> VariantIUT:
    """IUT factory of latitude variant ``retry_router_invalid_sg_unavailable`` (VARIANTS)."""
    return create("retry_router_invalid_sg_unavailable")


def composite_scripted() -> VariantIUT:
    """IUT factory of composite variant ``composite_scripted`` (see :data:`COMPOSITES`)."""
    return create("composite_scripted")


def composite_endpoint() -> VariantIUT:
    """IUT factory of composite variant ``composite_endpoint`` (see :data:`COMPOSITES`)."""
    return create("composite_endpoint")


def composite_hang_up() -> VariantIUT:
    """IUT factory of composite variant ``composite_hang_up`` (see :data:`COMPOSITES`)."""
    return create("composite_hang_up")


def composite_never_run() -> VariantIUT:
    """IUT factory of composite variant ``composite_never_run`` (see :data:`COMPOSITES`)."""
    return create("composite_never_run")


def composite_stricter() -> VariantIUT:
    """IUT factory of composite variant ``composite_stricter`` (see :data:`COMPOSITES`)."""
    return create("composite_stricter")


def step_accepted_first() -> VariantIUT:
    """IUT factory of latitude variant ``step_accepted_first`` (see :data:`VARIANTS`)."""
    return create("step_accepted_first")


def step_accepted_first_unrecorded() -> VariantIUT:
    """IUT factory of latitude variant ``step_accepted_first_unrecorded`` (see :data:`VARIANTS`)."""
    return create("step_accepted_first_unrecorded")


def lookup_document_ids_sorted() -> VariantIUT:
    """IUT factory of latitude variant ``lookup_document_ids_sorted`` (see :data:`VARIANTS`)."""
    return create("lookup_document_ids_sorted")


def composite_retry_sg_invalid_only() -> VariantIUT:
    """IUT factory of composite ``composite_retry_sg_invalid_only`` (see :data:`COMPOSITES`)."""
    return create("composite_retry_sg_invalid_only")


def composite_retry_sg_unavailable_only() -> VariantIUT:
    """IUT factory of composite ``composite_retry_sg_unavailable_only`` (:data:`COMPOSITES`)."""
    return create("composite_retry_sg_unavailable_only")
