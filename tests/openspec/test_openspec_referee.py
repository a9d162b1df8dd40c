"""Without Node the differential tests fail loudly instead of skipping."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def test_missing_node_fails_the_differential_test(repo_root: Path, tmp_path: Path) -> None:
    """With no ``node`` on PATH, a differential test fails and says why; nothing is skipped."""
    target = f"{HERE / 'test_openspec_differential.py'}::test_official_verdicts_match_cli"
    env = {**os.environ, "PATH": str(tmp_path)}
    done = subprocess.run(  # noqa: S603  # the interpreter running this test, constant arguments
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            f"{target}[valid-main-spec]",
        ],
        cwd=repo_root,
        capture_output=True,
        text=True,
        env=env,
        timeout=100,
        check=False,
    )
    assert done.returncode == 1, done.stdout[-2000:]
    assert "node is not on PATH" in done.stdout
    assert "1 error" in done.stdout  # the referee fixture fails, so pytest reports an error
    assert "skipped" not in done.stdout
