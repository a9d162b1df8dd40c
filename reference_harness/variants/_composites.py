"""Composite variants: conforming harnesses taking many latitudes at once.

A real independent harness differs from the reference in many ways at once (the Java example in
``examples/java`` does). A composite is such a harness built from the single latitudes of
:data:`~reference_harness.variants.VARIANTS`: every member's patches, classes and port wrappers
together. The self-test judges a composite like a single variant (it must pass everything the
reference passes), so one composite's self-test judges all its members' latitudes in one pass
(``docs/decisions/latitude.md``, "Composites").

:func:`compose` refuses members whose parts collide (two patches of one attribute, two Harness or
store classes, two port wrappers, two retry policies or capability lists, two endpoint clients), so
a composite never silently drops a member's part; the grouping of :data:`COMPOSITES` keeps apart
the latitudes that would mask one another (the decision record says which and why).
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, Any, Final

from reference_harness.mutants._iut import MutantSpec
from reference_harness.variants._catalogue import VARIANTS, VariantIUT

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

__all__ = ["COMPOSITES", "COMPOSITE_MEMBERS", "CompositionError", "compose", "create"]

_SINGLE_PARTS: Final = (
    "harness_class",
    "store_class",
    "agent",
    "reviewer",
    "retry",
    "capabilities",
    "endpoint_client",
)
"""The parts a member sets by replacing the reference's: at most one member may set each."""


class CompositionError(ValueError):
    """Two latitudes of a composite replace the same part of the reference."""


def compose(name: str, members: Sequence[str]) -> MutantSpec:
    """Return the variant ``name`` taking every latitude of ``members`` at once.

    The composite has every member's patches, and each single part (Harness or store class, port
    wrappers, retry policy, capabilities, endpoint client) that a member sets; the reference's
    where none does. Members may share a part only when they set it to the same value (the
    endpoint latitudes all use the reference's own HTTP client).

    Raises:
        KeyError: a member is not a variant of :data:`VARIANTS`.
        CompositionError: fewer than two members, a member named twice, or two members replacing
            the same part (the same ``module.attribute`` patched twice, two Harness classes, ...).
    """
    if len(members) < 2 or len(set(members)) != len(members):  # noqa: PLR2004 - "at once"
        message = f"composite {name}: needs two or more distinct latitudes, got {list(members)}"
        raise CompositionError(message)
    specs = [VARIANTS[member] for member in members]
    defaults = {f.name: f.default for f in fields(MutantSpec) if f.name in _SINGLE_PARTS}
    chosen: dict[str, tuple[str, Any]] = {}
    patched: dict[tuple[str, str], str] = {}
    for spec in specs:
        for part in _SINGLE_PARTS:
            value = getattr(spec, part)
            if value == defaults[part]:
                continue
            if part in chosen and chosen[part][1] != value:  # the same client twice is one
                message = f"composite {name}: {chosen[part][0]} and {spec.name} both set {part}"
                raise CompositionError(message)
            chosen.setdefault(part, (spec.name, value))
        for patch in spec.patches:
            key = (patch.module, patch.attribute)
            if key in patched:
                message = (
                    f"composite {name}: {patched[key]} and {spec.name} both patch "
                    f"{patch.module}.{patch.attribute}"
                )
                raise CompositionError(message)
            patched[key] = spec.name
    rule = "; ".join(f"{spec.name}: {spec.rule}" for spec in specs)
    parts = {part: value for part, (_, value) in chosen.items()}
    return MutantSpec(
        name,
        "",
        f"every latitude of {', '.join(members)} at once ({rule})",
        patches=tuple(patch for spec in specs for patch in spec.patches),
        **parts,
    )


COMPOSITE_MEMBERS: Final[Mapping[str, tuple[str, ...]]] = {
    # in process, scripted ports: the latitudes that change values, wording or records, no retry
    # or lookup-verdict latitude (those change the Run's path: see composite_stricter)
    "composite_scripted": (
        "no_ts_ms",
        "other_safe_messages",
        "random_run_ids",
        "pretty_tool_messages",
        "pretty_snapshot",
        "per_store_seq",
        "failed_lookup_not_ready",
        "failed_repair_submits_nothing",
        "tool_work_cancelled_before_interrupt",
        "knowledge_query_selects_previous_turn",
        "step_accepted_first",
        "lookup_document_ids_sorted",
    ),
    # in process: the step's calls accepted first, those never run unrecorded (one AgentLoop
    # each: apart from step_accepted_first), with the cancellation's other order and the ids and
    # store of composite_scripted (false-kills-8, session 11)
    "composite_never_run": (
        "step_accepted_first_unrecorded",
        "tool_work_cancelled_before_interrupt",
        "random_run_ids",
        "per_store_seq",
    ),
    # over the kit's model endpoint: the wire latitudes that keep the reference's HTTP client
    "composite_endpoint": (
        "own_prompts",
        "streams_flipped",
        "half_timeout_share",
        "wall_clock",
        "developer_role_instructions",
    ),
    # over the kit's model endpoint: the client that hangs up on cancellation, apart from
    # streams_flipped and half_timeout_share (it replaces the agent's and SemanticGuard's client)
    "composite_hang_up": (
        "hang_up_on_cancel",
        "random_run_ids",
        "per_store_seq",
        "other_safe_messages",
    ),
    # in process: the latitudes that change which steps a Run takes for every member (no
    # optional retry; the stricter lookup reading's rejection; an unknown-id verdict's fallback
    # instead of the retry), apart from everything else
    "composite_stricter": (
        "single_lookup_call_strict",
        "no_optional_retries",
        "unknown_verdict_id_unsupported",
    ),
    # in process: the declared retries taken after one trigger only (the SemanticGuard after
    # INVALID_SCHEMA, the Router after UNAVAILABLE; then the other way round), each with the
    # other path-changing latitudes (a retry policy is one part: never two in one composite)
    "composite_retry_sg_invalid_only": (
        "retry_router_unavailable_sg_invalid",
        "single_lookup_call_strict",
        "unknown_verdict_id_unsupported",
    ),
    "composite_retry_sg_unavailable_only": (
        "retry_router_invalid_sg_unavailable",
        "single_lookup_call_strict",
        "unknown_verdict_id_unsupported",
    ),
}
"""Each composite's latitudes, by name (``docs/decisions/latitude.md`` says why so grouped)."""

COMPOSITES: Final[Mapping[str, MutantSpec]] = {
    name: compose(name, members) for name, members in COMPOSITE_MEMBERS.items()
}
"""Every composite variant by name (``reference_harness.variants:<name>``)."""


def create(name: str) -> VariantIUT:
    """Return the IUT of variant ``name``: a single latitude or a composite.

    Raises:
        KeyError: no variant or composite has that name.
    """
    spec = VARIANTS.get(name) or COMPOSITES.get(name)
    if spec is None:
        raise KeyError(name)
    return VariantIUT(spec)
