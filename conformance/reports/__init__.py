"""Conformance reports: JSON, JUnit XML, Markdown summary and one self-contained HTML file.

Build a :class:`Report` (results keyed by requirement and scenario id, kit and IUT versions,
verify steps, traceability matrix) and call :func:`write_reports`. DESIGN §9 "Levels and reports".
"""

from conformance.reports._diagrams import Diagram, Edge, build_diagrams
from conformance.reports._enums import SchemaEnumError, property_enum
from conformance.reports._html import render_html
from conformance.reports._json import render_json, report_to_dict
from conformance.reports._junit import render_junit
from conformance.reports._markdown import render_markdown
from conformance.reports._model import (
    LEVELS,
    FailedRule,
    Failure,
    LevelCompliance,
    MatrixRow,
    MutantRow,
    PartResult,
    Report,
    RequirementResult,
    ScenarioResult,
    SentenceTrace,
    SpecSentence,
    Status,
    StepResult,
    Versions,
    matrix_from_results,
    normalize_level,
)
from conformance.reports._svg import render_svg
from conformance.reports._writer import (
    FIXTURES_DIR,
    REPORT_FILES,
    ReportDirError,
    ReportDirLock,
    check_report_dir,
    fixture_file_name,
    lock_report_dir,
    write_reports,
)

__all__ = [
    "FIXTURES_DIR",
    "LEVELS",
    "REPORT_FILES",
    "Diagram",
    "Edge",
    "FailedRule",
    "Failure",
    "LevelCompliance",
    "MatrixRow",
    "MutantRow",
    "PartResult",
    "Report",
    "ReportDirError",
    "ReportDirLock",
    "RequirementResult",
    "ScenarioResult",
    "SchemaEnumError",
    "SentenceTrace",
    "SpecSentence",
    "Status",
    "StepResult",
    "Versions",
    "build_diagrams",
    "check_report_dir",
    "fixture_file_name",
    "lock_report_dir",
    "matrix_from_results",
    "normalize_level",
    "property_enum",
    "render_html",
    "render_json",
    "render_junit",
    "render_markdown",
    "render_svg",
    "report_to_dict",
    "write_reports",
]
