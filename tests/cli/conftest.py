"""Shared fixtures of the CLI tests: a runner and small repositories."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conformance.cli import EXIT_FAILED, app

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def runner() -> CliRunner:
    """A Typer CliRunner (stdout and stderr kept apart)."""
    return CliRunner()


def _git(repo: Path, *args: str) -> None:
    subprocess.run(  # noqa: S603 - fixed git arguments in a temporary directory
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],  # noqa: S607
        cwd=repo,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def spec_repo(tmp_path: Path) -> Path:
    """A committed git repository holding a copy of the kit's openspec/ (stage 0 archived)."""
    repo = tmp_path / "repo"
    repo.mkdir()
    shutil.copytree(ROOT / "openspec", repo / "openspec")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "stage 0")
    return repo


@pytest.fixture(scope="module")
def report_html(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real report of a failing run: failures, drill-down, the full matrix and diagrams."""
    directory = tmp_path_factory.mktemp("layout") / "report"
    result = CliRunner().invoke(
        app,
        [
            "run",
            "--iut-module",
            "reference_harness.mutants:duplicate_overwrites_invocation",
            "--scenario",
            "duplicate-tool-call-id-is-proposed",
            "--examples",
            "0",
            "--report",
            str(directory),
        ],
    )
    assert result.exit_code == EXIT_FAILED, result.output
    return directory / "report.html"


@pytest.fixture(autouse=True)
def _plain_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests see a non-terminal unless they force one: no inherited FORCE_COLOR/TTY settings."""
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLUMNS"):
        monkeypatch.delenv(name, raising=False)


BROKEN_IUT = '''
"""A broken IUT: the reference harness, minus every TOOL_CALL_REJECTED trace event."""

from reference_harness.iut import create as _create


class _Broken:
    def __init__(self):
        self._inner = _create()

    def hello(self):
        return self._inner.hello()

    def run(self, fixture):
        observation = self._inner.run(fixture)
        kept = [e for e in observation["trace"] if e["type"] != "TOOL_CALL_REJECTED"]
        for seq, event in enumerate(kept, start=1):
            event["seq"] = seq
        observation["trace"] = kept
        observation["client_frames"] = [
            f for f in observation["client_frames"]
            if f["event"] != "run_event" or f["data"]["type"] != "TOOL_CALL_REJECTED"
        ]
        return observation

    def close(self):
        self._inner.close()


def create():
    return _Broken()
'''


@pytest.fixture
def broken_iut(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """``MODULE:FACTORY`` of a broken IUT: the reference one minus its TOOL_CALL_REJECTED events."""
    folder = tmp_path / "broken_iut"
    folder.mkdir()
    (folder / "srdh_broken_iut.py").write_text(BROKEN_IUT, encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder))
    return "srdh_broken_iut:create"
