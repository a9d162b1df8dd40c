"""Write all four report files into a directory, all or nothing."""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from conformance.reports._html import render_html
from conformance.reports._json import render_json
from conformance.reports._junit import render_junit
from conformance.reports._markdown import render_markdown

if TYPE_CHECKING:
    from conformance.reports._model import Report

__all__ = [
    "FIXTURES_DIR",
    "REPORT_FILES",
    "ReportDirError",
    "check_report_dir",
    "fixture_file_name",
    "write_reports",
]

REPORT_FILES = ("report.json", "junit.xml", "summary.md", "report.html")
"""File names written into the report directory."""
FIXTURES_DIR = "fixtures"
"""Subfolder of the report directory holding each failing example's Scenario Fixture."""
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def fixture_file_name(example_id: str) -> str:
    """The report-relative path of an example's fixture: ``fixtures/<example id>.json``.

    Characters outside ``[A-Za-z0-9._-]`` become ``-`` (no path separators, no leading dot).
    """
    stem = _UNSAFE_NAME.sub("-", example_id).strip(".-") or "fixture"
    return f"{FIXTURES_DIR}/{stem[:150]}.json"


class ReportDirError(Exception):
    """The report directory cannot be created or written; ``str()`` names it and why."""


def check_report_dir(directory: Path) -> None:
    """Create ``directory`` if needed and prove it is writable, before any work is done.

    Raises:
        ReportDirError: it is a file, cannot be created, or cannot be written.
    """
    if directory.exists() and not directory.is_dir():
        msg = f"report directory {directory} is a file, expected a directory"
        raise ReportDirError(msg)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".srdh-probe-"):
            pass
    except OSError as exc:
        msg = f"report directory {directory} is not writable ({exc.strerror or exc})"
        raise ReportDirError(msg) from None


def write_reports(report: Report, directory: Path, schemas_dir: Path) -> list[Path]:
    """Render and write ``report.json``, ``junit.xml``, ``summary.md`` and ``report.html``.

    Each failure's fixture (``Failure.fixture``) is written to its ``fixture_path`` under
    ``directory`` (``fixtures/<example id>.json``), so the report folder replays every failure.
    Every file is rendered in memory first and written to a temporary name, then renamed, so a
    failure leaves no half-written report. Returns the written paths in :data:`REPORT_FILES` order.

    Raises:
        ReportDirError: the directory cannot be created or written.
    """
    check_report_dir(directory)
    texts = {
        "report.json": render_json(report),
        "junit.xml": render_junit(report),
        "summary.md": render_markdown(report),
        "report.html": render_html(report, schemas_dir),
    }
    for failure in report.failures:
        if failure.fixture is not None and failure.fixture_path:
            # the path is rebuilt from its own name: a report cannot write outside its folder
            name = fixture_file_name(Path(failure.fixture_path).stem)
            texts[name] = json.dumps(failure.fixture, indent=2) + "\n"
    staged: list[tuple[Path, Path]] = []
    mode = _file_mode()
    try:
        if len(texts) > len(REPORT_FILES):
            (directory / FIXTURES_DIR).mkdir(exist_ok=True)
        for name, text in texts.items():
            target = directory / name
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            Path(tmp).chmod(mode)  # mkstemp makes 0600; reports are ordinary files
            staged.append((Path(tmp), target))
        for tmp_path, final in staged:
            tmp_path.replace(final)
    except OSError as exc:
        for tmp_path, _ in staged:
            tmp_path.unlink(missing_ok=True)
        msg = f"report directory {directory}: cannot write ({exc.strerror or exc})"
        raise ReportDirError(msg) from None
    return [directory / name for name in REPORT_FILES]


def _file_mode() -> int:
    """The mode an ordinary new file gets under the process umask (0644 under umask 022)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
