"""Mutants of the faults a second red team (faulty copies of ``examples/java``) kept conformant.

Each is the smallest wrong Harness of one kind, named by the sentence it breaks, with the rule id
(:mod:`conformance.checks` registry) whose failure must kill it. Added to
:data:`reference_harness.mutants.MUTANTS` by the catalogue.
"""

from __future__ import annotations

from typing import Final

from reference_harness.mutants._iut import MutantSpec, Patch
from reference_harness.mutants._redteam2_parts import (
    case_folded_analysis_ids,
    draft_scoped_sources,
    extra_verdict_members_ignored,
)

__all__ = ["REDTEAM2_SPECS"]

_R1 = "design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning"
_R6 = "safe-fallback-shall-use-a-fixed-schema"
_R9 = "retry-attempts-shall-be-owned-by-harness"

REDTEAM2_SPECS: Final = (
    MutantSpec(
        "analysis_ids_case_folded",
        _R1,
        "every Analysis has a unique analysis ID: IDs that differ only in case (a1, A1) are "
        "rejected as DUPLICATE_ANALYSIS_ID",
        rule_id="R1.evidence-guard-verdict",
        patches=(Patch("reference_harness._release", "check_draft", case_folded_analysis_ids),),
    ),
    MutantSpec(
        "fallback_source_scope_from_draft",
        _R6,
        "SHALL exclude unvalidated Draft content: a semantic fallback's verified source carries "
        "the scope a NEGATIVE_OBSERVATION narrowed, not its invocation's query scope",
        rule_id="R6.fallback-verified-sources",
        patches=(
            Patch("reference_harness._release", "verified_sources_for", draft_scoped_sources),
        ),
    ),
    MutantSpec(
        "extra_verdict_members_accepted",
        _R9,
        "the first SemanticGuard attempt returns an invalid structured result: a verdict with a "
        "member its schema does not define is taken as SUPPORTED, with no second attempt",
        rule_id="R9.semantic-retry-same-snapshot",
        patches=(
            Patch("reference_harness._release", "parse_verdict", extra_verdict_members_ignored),
        ),
    ),
)
"""The red-team mutants, in requirement order of the fault they carry."""
