"""Traceability of the SRDH conformance kit: every spec Scenario, mirrored, implemented, tested.

:func:`build_matrix` traces requirement -> spec scenario -> Gherkin mirror (file:line) -> step
definitions (pytest-bdd's own matching) -> property test -> last suite result, and reports each
break with a stable code (:data:`ISSUE_CODES`). RFC 2119: a MUST/SHALL scenario that cannot be
tested fails. DESIGN section 9, "Gherkin mirror" and "Levels and reports".
"""

from conformance.traceability._issues import ISSUE_CODES, TraceIssue
from conformance.traceability._matrix import build_matrix, normalized_level
from conformance.traceability._model import (
    Matrix,
    MirrorRef,
    StepBinding,
    TraceRow,
)
from conformance.traceability._report import REPORT_COLUMNS, report_rows

__all__ = [
    "ISSUE_CODES",
    "REPORT_COLUMNS",
    "Matrix",
    "MirrorRef",
    "StepBinding",
    "TraceIssue",
    "TraceRow",
    "build_matrix",
    "normalized_level",
    "report_rows",
]
