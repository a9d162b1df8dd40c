"""`make test` on a fresh machine (Python, make, npm): a test needing a system package is ONE
skip with the install line outside CI, and fails in CI (field fault G12).

The modules that need a Debian package (a JDK and Jackson, Chromium) run together in a fresh
pytest with a ``PATH`` that finds neither ``javac`` nor ``chromium``: without ``CI`` each is
exactly one skip naming its ``apt-get install`` line and the run passes; with ``CI=true`` or
``CI=1`` (where ``.ci/run`` installs the packages) the run fails, each module's collection error
naming its package. One fresh pytest per ``CI`` value, not per module and value: every start of
pytest costs about a CPU second, and the modules are judged one by one from the same output
(docs/decisions/test-speed.md, Session 6).
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


def _pytest(tmp_path: Path, *, ci: str | None) -> subprocess.CompletedProcess[str]:
    empty = tmp_path / "bin"
    empty.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in {"CI", "PYTEST_XDIST_WORKER"}}
    env["PATH"] = str(empty)  # neither javac, java nor chromium can be found
    if ci is not None:
        env["CI"] = ci
    return subprocess.run(  # noqa: S603 - our interpreter, modules of this repository
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-rs",
            "-p",
            "no:cacheprovider",
            *MODULES,
            COMPANION,
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def test_g12_a_missing_system_package_is_one_skip_with_the_install_line(tmp_path):
    """Outside CI: the run passes, one skip per module, whose reason is its install line."""
    done = _pytest(tmp_path, ci=None)
    assert done.returncode == 0, done.stdout[-3000:]
    assert f"1 passed, {len(MODULES)} skipped" in done.stdout
    assert "failed" not in done.stdout
    assert "error" not in done.stdout.lower()
    skips = [line for line in done.stdout.splitlines() if line.startswith("SKIPPED")]
    for module, install in MODULES.items():
        assert len([line for line in skips if install in line]) == 1, (module, skips)


@pytest.mark.parametrize("ci", ["true", "1"])
def test_g12_in_ci_a_missing_system_package_fails_the_run(ci, tmp_path):
    """CI=true: .ci/run installs the package, so its absence fails instead of skipping."""
    done = _pytest(tmp_path, ci=ci)
    assert done.returncode != 0, done.stdout[-3000:]
    assert "skipped" not in done.stdout
    errors = done.stdout.split(" ERROR collecting ")[1:]  # one section per module, in order
    assert len(errors) == len(MODULES), done.stdout[-3000:]
    for (module, install), section in zip(MODULES.items(), errors, strict=True):
        assert section.startswith(module), section
        assert install in section
        assert "CI is set" in section


def test_ci_run_installs_every_package_the_tests_name():
    """.ci/run installs what the skip reasons name (a JDK, Jackson, Chromium)."""
    script = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    for package in ("default-jdk-headless", "libjackson2-databind-java", "chromium"):
        assert f" {package}" in script, package
