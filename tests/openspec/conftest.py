"""Fixtures of the OpenSpec tests: the repository root and the official CLI as a referee."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
CLI = REPO / "node_modules" / ".bin" / "openspec"
VALIDATE_MODULE = REPO / "node_modules" / "@fission-ai" / "openspec" / "dist/commands/validate.js"
BATCH = Path(__file__).with_name("validate_batch.mjs")

VALIDATE_ALL = {"all": True, "strict": True, "json": True, "interactive": False}
"""What commander gives ``ValidateCommand`` for ``--all --strict --json --no-interactive``."""
VALIDATE_ARCHIVED = {"archived": True, "json": True, "interactive": False}
"""What commander gives ``ValidateCommand`` for ``--archived --json --no-interactive``."""

RunCli = Callable[[Path], dict[str, Any]]
RunMany = Callable[[Sequence[Path], dict[str, Any]], list[dict[str, Any]]]


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The root of the kit's repository (holds ``openspec/``)."""
    return REPO


@pytest.fixture(scope="session")
def openspec_cli() -> RunCli:
    """Return a function running ``openspec validate --all --strict --json`` in a folder.

    Fails (never skips) when Node or the CLI is missing: the differential tests have no
    referee without it.
    """
    _require_cli()
    env = {**os.environ, "OPENSPEC_TELEMETRY": "0"}

    def run(folder: Path) -> dict[str, Any]:
        done = subprocess.run(  # noqa: S603  # fixed executable, constant arguments
            [str(CLI), "validate", "--all", "--strict", "--json", "--no-interactive"],
            cwd=folder,
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            check=False,
        )
        try:
            report: dict[str, Any] = json.loads(done.stdout)
        except json.JSONDecodeError:
            pytest.fail(
                f"openspec validate printed no JSON (exit {done.returncode}): {done.stderr[:500]}"
            )
        report["exit_code"] = done.returncode
        return report

    return run


def _require_cli() -> None:
    if shutil.which("node") is None:
        pytest.fail("node is not on PATH: the official OpenSpec CLI (the referee) cannot run")
    if not CLI.exists() or not VALIDATE_MODULE.exists():
        pytest.fail(f"{CLI} is missing: run `npm ci` to install @fission-ai/openspec (the referee)")


@pytest.fixture(scope="session")
def openspec_validate_many() -> RunMany:
    """Return a function running the CLI's ``validate`` in many folders in ONE Node process.

    ``run(folders, options)`` gives, per folder, the report ``openspec validate`` prints as JSON
    with ``options`` (:data:`VALIDATE_ALL`, :data:`VALIDATE_ARCHIVED`), plus ``exit_code``: the
    official ``ValidateCommand`` of node_modules, run by ``validate_batch.mjs`` as the CLI's
    action runs it (one Node start instead of one per folder, about 0.5 CPU s each). The tests
    named ``test_the_batched_*referee*`` check that its reports are the CLI's.
    """
    _require_cli()
    env = {**os.environ, "OPENSPEC_TELEMETRY": "0"}

    def run(folders: Sequence[Path], options: dict[str, Any]) -> list[dict[str, Any]]:
        jobs = [{"cwd": str(folder), "options": options} for folder in folders]
        done = subprocess.run(  # noqa: S603  # fixed executable, constant arguments
            ["node", str(BATCH), str(VALIDATE_MODULE), json.dumps(jobs)],  # noqa: S607
            capture_output=True,
            text=True,
            env=env,
            timeout=60 + 5 * len(jobs),
            check=False,
        )
        if done.returncode != 0:
            pytest.fail(f"validate_batch.mjs failed (exit {done.returncode}): {done.stderr[:500]}")
        reports = []
        for result in json.loads(done.stdout):
            try:
                report: dict[str, Any] = json.loads(result["stdout"])
            except json.JSONDecodeError:
                pytest.fail(f"openspec validate printed no JSON: {result['stdout'][:500]}")
            report["exit_code"] = result["exit_code"]
            reports.append(report)
        return reports

    return run


def timeless(node: Any) -> Any:
    """``node`` (a CLI report) without the ``durationMs`` timings: they differ run to run."""
    if isinstance(node, dict):
        return {k: timeless(v) for k, v in node.items() if k != "durationMs"}
    if isinstance(node, list):
        return [timeless(item) for item in node]
    return node
