"""`srdh trace`: the traceability matrix and its drift, on copies of the kit's spec and mirror."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from conformance.cli import EXIT_FAILED, EXIT_OK, EXIT_SETUP, app
from conformance.openspec import load_tree

if TYPE_CHECKING:
    from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "openspec", repo / "openspec")
    shutil.copytree(ROOT / "features", repo / "features")
    return repo


def test_trace_lists_one_row_per_spec_scenario(runner: CliRunner, tmp_path: Path) -> None:
    """Every spec scenario of the copied spec appears as a row; no drift: exit 0."""
    repo = _repo(tmp_path)
    tree = load_tree(repo)
    ids = [s.id for spec in tree.specs.values() for r in spec.requirements for s in r.scenarios]
    result = runner.invoke(app, ["trace", str(repo)])
    assert result.exit_code == EXIT_OK, result.output
    for scenario_id in ids:
        assert f"  {scenario_id}  " in result.stdout
    assert f"{len(ids)} scenario(s), " in result.stdout
    assert "0 untested, 0 drift problem(s)" in result.stdout


def test_a_renamed_mirror_is_drift(runner: CliRunner, tmp_path: Path) -> None:
    """Renaming a feature scenario breaks its mirror: a TRACE_ issue is printed, exit 1."""
    repo = _repo(tmp_path)
    feature = next(iter(sorted((repo / "features").glob("02-*.feature"))))
    text = feature.read_text(encoding="utf-8")
    renamed = text.replace(
        "Scenario: Duplicate Tool Call ID is proposed", "Scenario: Duplicate ids are proposed", 1
    )
    assert renamed != text
    feature.write_text(renamed, encoding="utf-8")
    result = runner.invoke(app, ["trace", str(repo)])
    assert result.exit_code == EXIT_FAILED
    assert "TRACE_" in result.stdout


def test_trace_without_openspec_is_a_setup_error(runner: CliRunner, tmp_path: Path) -> None:
    """A directory without openspec/: exit 2 with one line."""
    result = runner.invoke(app, ["trace", str(tmp_path)])
    assert result.exit_code == EXIT_SETUP
    assert "no openspec/ directory" in result.stderr
