"""`make test` on a fresh machine (Python, make, npm): a test needing a system package is ONE
skip with the install line outside CI, and fails in CI (field fault G12).

Each module that needs a Debian package (a JDK and Jackson, Chromium) is run in a fresh pytest
with a ``PATH`` that finds neither ``javac`` nor ``chromium``: without ``CI`` it is exactly one
skip naming the ``apt-get install`` line and the run passes; with ``CI=true`` (where ``.ci/run``
installs the packages) the run fails naming the package.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
COMPANION = "tests/contracts/test_contracts_java_codegen.py"
"""A module needing no system package, run alongside (pytest exits 5 when nothing ran)."""
MODULES = {
    "tests/contracts/test_contracts_java.py": "default-jdk-headless libjackson2-databind-java",
    "tests/cli/test_cli_report_layout.py": "apt-get install -y chromium",
}


def _pytest(module: str, tmp_path: Path, *, ci: str | None) -> subprocess.CompletedProcess[str]:
    empty = tmp_path / "bin"
    empty.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in {"CI", "PYTEST_XDIST_WORKER"}}
    env["PATH"] = str(empty)  # neither javac, java nor chromium can be found
    if ci is not None:
        env["CI"] = ci
    return subprocess.run(  # noqa: S603 - our interpreter, a module of this repository
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", module, COMPANION],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


@pytest.mark.parametrize("module", sorted(MODULES))
def test_g12_a_missing_system_package_is_one_skip_with_the_install_line(module, tmp_path):
    """Outside CI: the run passes, one skip, whose reason is the install line."""
    done = _pytest(module, tmp_path, ci=None)
    assert done.returncode == 0, done.stdout[-3000:]
    assert "1 passed, 1 skipped" in done.stdout
    assert "failed" not in done.stdout
    assert "error" not in done.stdout.lower()
    assert MODULES[module] in done.stdout


@pytest.mark.parametrize("module", sorted(MODULES))
@pytest.mark.parametrize("ci", ["true", "1"])
def test_g12_in_ci_a_missing_system_package_fails_the_run(module, ci, tmp_path):
    """CI=true: .ci/run installs the package, so its absence fails instead of skipping."""
    done = _pytest(module, tmp_path, ci=ci)
    assert done.returncode != 0, done.stdout[-3000:]
    assert "CI is set" in done.stdout
    assert MODULES[module] in done.stdout
    assert "skipped" not in done.stdout


def test_ci_run_installs_every_package_the_tests_name():
    """.ci/run installs what the skip reasons name (a JDK, Jackson, Chromium)."""
    script = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    for package in ("default-jdk-headless", "libjackson2-databind-java", "chromium"):
        assert f" {package}" in script, package
