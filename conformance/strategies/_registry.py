"""Spec scenario id -> the strategy of fixtures satisfying its WHEN (run scenarios only)."""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from conformance.strategies._scenarios import (
    client_disconnects_fixtures,
    draft_analysis_fixtures,
    duplicate_id_fixtures,
    fabricated_citation_fixtures,
    fails_twice_fixtures,
    invalid_review_fixtures,
    latest_fallback_fixtures,
    no_evidence_cited_fixtures,
    zero_match_fixtures,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from hypothesis import strategies as st

__all__ = ["SCENARIO_STRATEGIES", "StrategyNotRegisteredError", "strategy_for"]

SCENARIO_STRATEGIES: Final[Mapping[str, Callable[[], st.SearchStrategy[dict[str, Any]]]]] = (
    MappingProxyType(
        {
            "duplicate-tool-call-id-is-proposed": duplicate_id_fixtures,
            "successful-query-returns-no-evidence": zero_match_fixtures,
            "no-evidence-result-is-cited": no_evidence_cited_fixtures,
            "draft-contains-an-analysis-item": draft_analysis_fixtures,
            "knowledge-answer-cites-an-unknown-document": fabricated_citation_fixtures,
            "evidence-validation-fails-twice": fails_twice_fixtures,
            "latest-run-is-a-fallback": latest_fallback_fixtures,
            "client-disconnects-during-a-model-call": client_disconnects_fixtures,
            "semanticguard-returns-an-invalid-schema": invalid_review_fixtures,
        }
    )
)
"""The nine spec scenarios whose WHEN is a Run, each with its fixture strategy."""


class StrategyNotRegisteredError(LookupError):
    """A spec scenario has no fixture strategy; ``str()`` names it and the files to edit."""


def strategy_for(scenario_id: str) -> Callable[[], st.SearchStrategy[dict[str, Any]]]:
    """Return the fixture strategy of spec scenario ``scenario_id``.

    Raises:
        StrategyNotRegisteredError: no strategy is keyed by ``scenario_id`` (names the files).
    """
    try:
        return SCENARIO_STRATEGIES[scenario_id]
    except KeyError:
        msg = (
            f"no fixture strategy for spec scenario {scenario_id!r}: write a strategy of "
            "fixtures satisfying its WHEN in conformance/strategies/_scenarios.py and key it by "
            f"{scenario_id!r} in SCENARIO_STRATEGIES (conformance/strategies/_registry.py); "
            f"known: {', '.join(sorted(SCENARIO_STRATEGIES))}"
        )
        raise StrategyNotRegisteredError(msg) from None
