"""Fixtures of the OpenSpec tests: the repository root and the official CLI as a referee."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
CLI = REPO / "node_modules" / ".bin" / "openspec"

RunCli = Callable[[Path], dict[str, Any]]


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
    if shutil.which("node") is None:
        pytest.fail("node is not on PATH: the official OpenSpec CLI (the referee) cannot run")
    if not CLI.exists():
        pytest.fail(f"{CLI} is missing: run `npm ci` to install @fission-ai/openspec (the referee)")
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
