"""The mutants of red team 8's kinds (docs/decisions/red-team-8.md).

Added to :data:`reference_harness.mutants.MUTANTS` by the catalogue.
"""

from __future__ import annotations

from typing import Final

from reference_harness.mutants._iut import MutantSpec, Patch
from reference_harness.mutants._reach8_parts import (
    PublicErrorPastGateHarness,
    SeqNamedRunsHarness,
    backend_count_trusted,
)

__all__ = ["REACH8_SPECS"]

_R3 = "invocation-status-and-evidence-status-shall-be-independent"
_R7 = "previous-turn-shall-come-from-a-safe-durable-run-result"
_R8 = "cancellation-shall-be-layered-and-observable"

REACH8_SPECS: Final = (
    MutantSpec(
        "total_matched_trusts_backend",
        _R3,
        "bounded projection: total_matched is the backend's reported count even when it is "
        "smaller than the rows the projection keeps (total_matched >= len(items) broken)",
        rule_id="R3.invocation-outcome",
        patches=(Patch("reference_harness._tool_execution", "project", backend_count_trusted),),
        sends_broken_observation=True,
    ),
    MutantSpec(
        "run_id_from_seq",
        _R7,
        "diagnosis_run as the durable record: the new Run is named run-<seq> without looking at "
        "the stored ids, so an earlier Run holding that id keeps the Run from being recorded",
        rule_id="R7.durable-run-outcome",
        harness_class=SeqNamedRunsHarness,
    ),
    MutantSpec(
        "public_error_skips_release_gate",
        _R8,
        "a client that disconnects before the release gets nothing released: a public error "
        "passes the release gate at once, so a client gone after the failing call is never "
        "noticed and the Run is released FAILED instead of ending CANCELLED",
        rule_id="R8.disconnect-noticed",
        harness_class=PublicErrorPastGateHarness,
    ),
)
"""The mutants, in docs/decisions/red-team-8.md's order."""
