"""Hypothesis strategies of the SRDH conformance kit: Scenario Fixtures that satisfy a WHEN.

One strategy per spec Scenario (:data:`SCENARIO_STRATEGIES`, keyed by scenario id) for the nine
whose WHEN is a Run, two over the stage-zero contract data (component registry and phase plan
variants, each with whether it keeps the rule), and :func:`any_fixtures`: a mix of all run
strategies with random extra faults, for the global invariants. Built from the same
:mod:`conformance.builders` as the Gherkin Given steps. DESIGN section 9, "Properties".
"""

from conformance.strategies._contracts import (
    ContractVariant,
    phase_plan_variants,
    registry_variants,
)
from conformance.strategies._drafts import (
    BROKEN_DRAFT_CODES,
    broken_drafts,
    fabricated_answers,
    valid_answers,
    valid_drafts,
    wider_scope,
    within_scope,
)
from conformance.strategies._faults import FAULTS, any_fixtures, pinned_fixtures, with_faults
from conformance.strategies._plans import (
    DIAGNOSIS_TOOLS,
    Evidence,
    ToolPlan,
    arguments,
    plan_from_steps,
    tool_call_ids,
    tool_plans,
)
from conformance.strategies._registry import (
    SCENARIO_STRATEGIES,
    StrategyNotRegisteredError,
    strategy_for,
)
from conformance.strategies._scenarios import (
    client_disconnects_fixtures,
    draft_analysis_fixtures,
    duplicate_id_fixtures,
    fabricated_citation_fixtures,
    fails_twice_fixtures,
    invalid_review_fixtures,
    latest_fallback_fixtures,
    no_evidence_cited_fixtures,
    session_histories,
    zero_match_fixtures,
)

__all__ = [
    "BROKEN_DRAFT_CODES",
    "DIAGNOSIS_TOOLS",
    "FAULTS",
    "SCENARIO_STRATEGIES",
    "ContractVariant",
    "Evidence",
    "StrategyNotRegisteredError",
    "ToolPlan",
    "any_fixtures",
    "arguments",
    "broken_drafts",
    "client_disconnects_fixtures",
    "draft_analysis_fixtures",
    "duplicate_id_fixtures",
    "fabricated_answers",
    "fabricated_citation_fixtures",
    "fails_twice_fixtures",
    "invalid_review_fixtures",
    "latest_fallback_fixtures",
    "no_evidence_cited_fixtures",
    "phase_plan_variants",
    "pinned_fixtures",
    "plan_from_steps",
    "registry_variants",
    "session_histories",
    "strategy_for",
    "tool_call_ids",
    "tool_plans",
    "valid_answers",
    "valid_drafts",
    "wider_scope",
    "with_faults",
    "within_scope",
    "zero_match_fixtures",
]
