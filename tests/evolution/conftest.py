"""A writable copy of the kit's repository, and its ``srdh`` run from that copy.

The spec author's loop edits schemas, the spec and the features, then runs the kit's commands.
The tests do it on a copy (``kit_copy``): the copy's own packages run (``PYTHONPATH`` is the
copy, so ``srdh verify`` sees the copy as the kit's checkout), with the Node tools of this
checkout linked in.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

COPIED = (
    "conformance",
    "contracts",
    "reference_harness",
    "schemas",
    "features",
    "openspec",
    "types",
    "docs",
    "tests",
    "bench",
    "pyproject.toml",
    "package.json",
    "package-lock.json",
    "Makefile",
    "README.md",
    ".gitignore",
)
# Bytecode caches are copied (copytree keeps mtimes, so a cache is used only for the unchanged
# source it was compiled from; an edited module is compiled again): every ``srdh`` process in a
# copy would otherwise compile the kit's modules again (docs/decisions/test-speed.md, Session 5).
_IGNORED = shutil.ignore_patterns(".srdh_cache", ".hypothesis")


def git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run git in ``repo`` with a fixed identity; raise on failure."""
    return subprocess.run(  # noqa: S603 - fixed git arguments in a temporary directory
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],  # noqa: S607
        cwd=repo,
        check=True,
        capture_output=True,
        text=True,
    )


def copy_kit(target: Path) -> Path:
    """Copy the kit's repository to ``target`` (a committed git repository) and return it."""
    target.mkdir()
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=_IGNORED)
        elif source.is_file():
            shutil.copyfile(source, target / name)
    (target / "node_modules").symlink_to(ROOT / "node_modules")
    git(target, "init", "-q", "-b", "main")
    git(target, "add", "-A")
    git(target, "commit", "-q", "-m", "copy of the kit")
    return target


@pytest.fixture
def kit_copy(tmp_path: Path) -> Path:
    """A committed copy of the kit's repository (see :func:`copy_kit`)."""
    return copy_kit(tmp_path / "kit")


def run_in(copy: Path, *argv: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run ``python ARGV…`` in ``copy`` with the copy's packages first on the path."""
    env = {**os.environ, "PYTHONPATH": str(copy), "SRDH_NO_COLOR": "1"}
    env.pop("FORCE_COLOR", None)
    return subprocess.run(  # noqa: S603 - our interpreter, fixed arguments
        [sys.executable, *argv],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def srdh(copy: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run the copy's ``srdh ARGS…`` in ``copy``."""
    return run_in(copy, "-c", "from conformance.cli import main; main()", *args, timeout=timeout)
