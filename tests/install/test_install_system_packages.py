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

import ast
import functools
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


def _needs_a_package(tree: ast.Module) -> bool:
    """Whether a module calls ``require_system_package`` at its top level."""
    return any(
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
        and node.value.func.id == "require_system_package"
        for node in tree.body
    )


def _imported_modules(path: Path, tree: ast.Module) -> set[str]:
    """The repository paths (``tests/.../x.py``) of the modules ``path`` imports from."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            package = path.parent.relative_to(REPO).parts  # ("tests", "cli") for tests/cli/x.py
            base = package[: len(package) - node.level + 1]
            parts = [*base, *node.module.split(".")] if node.module else list(base)
        else:
            parts = (node.module or "").split(".")
        names = [[*parts, alias.name] for alias in node.names] + [parts]
        found.update("/".join(name) + ".py" for name in names)
    return found


@functools.cache
def _test_modules() -> dict[str, ast.Module]:
    """Every Python module under tests/, parsed, by repository path."""
    return {
        path.relative_to(REPO).as_posix(): ast.parse(path.read_text("utf-8"), str(path))
        for path in sorted((REPO / "tests").rglob("*.py"))
    }


def test_the_modules_run_without_packages_are_every_module_needing_one():
    """Every module that calls ``require_system_package`` is in the run below (and no other)."""
    needing = {name for name, tree in _test_modules().items() if _needs_a_package(tree)}
    assert needing == set(MODULES)


def test_no_module_imports_from_a_module_needing_a_package():
    """A module that imports names from one needing a package would not be collected without
    that package (the import meets the skip), so its own tests would error on a fresh machine:
    shared parts live in a module of their own, or the importer needs the package too."""
    modules = _test_modules()
    needing = {name for name, tree in modules.items() if _needs_a_package(tree)}
    importers = {
        name: sorted(_imported_modules(REPO / name, tree) & needing)
        for name, tree in modules.items()
        if name not in needing
    }
    assert {name: found for name, found in importers.items() if found} == {}


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
