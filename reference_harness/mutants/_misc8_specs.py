"""The mutants of the kinds closed by misc8 in docs/decisions/red-team-8.md (S14, S15, S10).

Added to :data:`reference_harness.mutants.MUTANTS` by the catalogue.
"""

from __future__ import annotations

from typing import Final

from reference_harness.mutants._iut import MutantSpec
from reference_harness.mutants._misc8_parts import LowWordSeqStore

__all__ = ["MISC8_SPECS"]

_R7 = "previous-turn-shall-come-from-a-safe-durable-run-result"

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
)
