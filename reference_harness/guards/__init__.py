"""Deterministic guards of the reference Harness: EvidenceGuard, verified snapshot, verdicts.

Public surface:

- `check_draft` / `check_knowledge_answer`: EvidenceGuard (DESIGN section 4); each returns a
  `GuardVerdict` whose `violations` are `Violation(code, pointer)` values, never an exception.
- `build_snapshot`: the `VerifiedSnapshot` SemanticGuard reviews, with its RFC 8785 digest.
- `parse_verdict`: SemanticGuard's answer as a `SemanticVerdict`, or None (INVALID_SCHEMA).
- `safe_fallback` / `verified_sources_for`: the fixed Safe Fallback catalogue.
- `repair_request`: the codes and pointers the single structural repair call carries.
- `canonical_release`: canonical JSON bytes proving a release is byte-identical to a submission.
"""

from ._body import canonical_release
from ._draft import check_draft
from ._fallback import FALLBACK_CATALOGUE, safe_fallback, verified_sources_for
from ._knowledge import check_knowledge_answer
from ._repair import repair_request
from ._snapshot import build_snapshot
from ._verdict import parse_verdict
from ._violations import MAX_VIOLATIONS, GuardVerdict, Violation, ViolationCode

__all__ = [
    "FALLBACK_CATALOGUE",
    "MAX_VIOLATIONS",
    "GuardVerdict",
    "Violation",
    "ViolationCode",
    "build_snapshot",
    "canonical_release",
    "check_draft",
    "check_knowledge_answer",
    "parse_verdict",
    "repair_request",
    "safe_fallback",
    "verified_sources_for",
]
