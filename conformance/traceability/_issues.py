"""Breaks in the traceability chain: the issue codes and one issue (DESIGN section 9)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["ISSUE_CODES", "TraceIssue"]

ISSUE_CODES: Final = {
    "TRACE_SPEC_MISSING": "the repository has no openspec/specs/*/spec.md with requirements",
    "TRACE_FEATURE_UNREADABLE": "a .feature file cannot be parsed as Gherkin",
    "TRACE_NO_MIRROR": "a spec Scenario has no feature scenario mirroring it",
    "TRACE_RENAMED_MIRROR": "the mirror's name differs from the spec Scenario's name",
    "TRACE_RENAMED_SCENARIO": "a spec Scenario was renamed: an orphan mirror has its When/Then "
    "steps (the message says what to change)",
    "TRACE_REWORDED_MIRROR": "the mirror's When/Then text differs from the spec's WHEN/THEN",
    "TRACE_MISSING_SPEC_TAG": "a mirror lacks the @spec tag",
    "TRACE_WRONG_IDS": "a mirror's @requirement/@scenario tags do not name its spec Scenario",
    "TRACE_DUPLICATE_MIRROR": "two feature scenarios mirror the same spec Scenario",
    "TRACE_UNIMPLEMENTED_STEP": "no pytest-bdd step definition matches a step",
    "TRACE_AMBIGUOUS_STEP": "more than one pytest-bdd step definition matches a step",
    "TRACE_NO_PROPERTY": "a spec Scenario has no property test in the registry",
    "TRACE_MUST_NOT_TESTED": "a MUST/SHALL scenario is not tested (RFC 2119: that fails)",
    "TRACE_SENTENCE_UNTESTED": "a MUST/SHALL sentence of the spec is quoted by no check rule",
    "TRACE_DANGLING_FRAGMENT": "a check rule quotes a fragment found in no sentence of the spec",
    "TRACE_AMBIGUOUS_FRAGMENT": "a check rule quotes a fragment found in several spec sentences",
    "TRACE_MISPLACED_FRAGMENT": "a check rule quotes a sentence of another requirement",
    "TRACE_DUPLICATE_SCENARIO_NAME": "two scenarios of one feature share a name (one is lost)",
}
"""Every issue code :func:`build_matrix` can report, with what it means."""


@dataclass(frozen=True, slots=True)
class TraceIssue:
    """One break in the chain.

    Attributes:
        code: a key of :data:`ISSUE_CODES`.
        message: what is wrong and what was expected.
        location: ``path:line`` of the offending text (spec or feature), relative to the repo.
        scenario_id: the spec scenario concerned, ``""`` when none.
    """

    code: str
    message: str
    location: str
    scenario_id: str = ""

    def __str__(self) -> str:
        """Render as ``location: CODE message``."""
        return f"{self.location}: {self.code} {self.message}"
