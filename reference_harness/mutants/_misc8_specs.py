"""The mutants of the kinds closed by misc8 in docs/decisions/red-team-8.md (S14, S15, S10).

Added to :data:`reference_harness.mutants.MUTANTS` by the catalogue.
"""

from __future__ import annotations

from typing import Final

from reference_harness.mutants._iut import MutantSpec, Patch
from reference_harness.mutants._misc8_parts import (
    LowWordSeqStore,
    core_arguments_valid,
    silent_discard,
    sources_scope_from_arguments,
)

__all__ = ["MISC8_SPECS"]

_R7 = "previous-turn-shall-come-from-a-safe-durable-run-result"
_R6 = "safe-fallback-shall-use-a-fixed-schema"
_R8 = "cancellation-shall-be-layered-and-observable"
_RELEASE = "reference_harness._release"

MISC8_SPECS: Final = (
    MutantSpec(
        "seq_from_low_word",
        _R7,
        "diagnosis_run seq is an integer >= 1, strictly increasing per session: the next seq is "
        "computed from the low 32 bits of the session's greatest seq, so past 2**32 it falls "
        "below the greatest (an integer-width fault)",
        rule_id="R7.prior-runs-untouched",
        store_class=LowWordSeqStore,
    ),
    MutantSpec(
        "late_result_never_discarded",
        _R8,
        "discards any late model result (observably): a model answer that arrives after the "
        "cancellation is dropped, but LATE_RESULT_DISCARDED is never recorded",
        rule_id="R8.late-result-discarded",
        patches=(Patch("reference_harness._harness", "TraceRecorder", silent_discard),),
    ),
    MutantSpec(
        "sources_scope_from_arguments",
        _R6,
        "Safe fallback SHALL use a fixed schema: a semantic fallback's source carries its call's "
        "arguments as presented as its query scope, so the extra members of a call the Harness "
        "executed (latitude) leak into the fallback",
        rule_id="R6.fallback-fixed-schema",
        patches=(
            Patch("reference_harness._agent_loop", "valid_arguments", core_arguments_valid),
            Patch(_RELEASE, "verified_sources_for", sources_scope_from_arguments),
        ),
        sends_broken_observation=True,
    ),
)
