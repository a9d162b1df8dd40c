"""Settings for the whole test run.

``-n auto`` (``make test``) starts two pytest-xdist workers per core this process may use: many
tests wait on the wall clock (scripted timeouts, subprocess IUTs, the model endpoint, ``pip``),
and with one worker per core those waits left the cores idle (a run used 1.24-1.32 cores of 2;
with two workers per core 1.92; docs/decisions/test-speed.md).
"""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path

import pytest

from conformance._cores import default_jobs

WORKERS_PER_CORE = 2
ROOT = Path(__file__).resolve().parents[1]

# Bytecode caches are written during the test run even where the environment says not to
# (PYTHONDONTWRITEBYTECODE, set on some machines): the tests start hundreds of Python processes
# of the kit (``srdh``, stdio IUTs, the self-test's workers, copies of the kit), and without the
# caches every one of them compiled the kit's modules again and re-did pytest's assertion
# rewriting of the suite's modules (about 0.6 CPU s of 2.4 per ``srdh run``;
# docs/decisions/test-speed.md, Session 5). Python writes them atomically, so parallel workers
# are safe; ``__pycache__/`` is ignored by git.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# Hypothesis keeps what it derives from this interpreter (its Unicode tables: which code points
# UTF-8 encodes, 1.3 CPU s to compute) in ``.hypothesis/`` under the current folder, and every
# property of the kit draws text through hypothesis-jsonschema, which asks for that table. A
# process started in a fresh folder (``srdh`` in a temporary folder, the wheel's run in the
# implementer's folder, every process of ``srdh verify`` in a copy of the kit) computed it again.
# All of them use this checkout's ``.hypothesis/`` instead (docs/decisions/test-speed.md,
# Session 7). Nothing else is kept there for them: the kit's properties run with
# ``database=None`` (``conformance.anyfixture._engine.property_settings``).
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(ROOT / ".hypothesis"))


def pytest_xdist_auto_num_workers(config) -> int:  # noqa: ARG001 - pytest-xdist's hook signature
    """The worker count for ``-n auto``: :data:`WORKERS_PER_CORE` per core this process may use
    (the self-test's own count, :func:`conformance._cores.default_jobs`; importing it loads none
    of the kit, so the controller process starts the workers sooner)."""
    return WORKERS_PER_CORE * default_jobs()


@pytest.hookimpl(trylast=True)  # after Hypothesis's own: its initialization is over by then
def pytest_sessionstart(session) -> None:
    """Build Hypothesis's UTF-8 table once, before the workers start (in a fresh checkout each
    worker that needed it first computed it again: 1.3 CPU s each)."""
    if not hasattr(session.config, "workerinput"):
        from hypothesis import strategies as st  # noqa: PLC0415 - only in the controller

        st.characters(codec="utf-8").validate()


def pytest_collection_finish(session) -> None:  # noqa: ARG001 - pytest's hook signature
    """Move what collection built (modules, nodes, schemas) out of the garbage collector's sight.

    Every full collection during the tests, and pytest's own at the end of each process, walked
    the collected suite again: ``gc.freeze`` after one last collection saves about 1.2 CPU s per
    pytest process (docs/decisions/test-speed.md, Session 6). Garbage made by the tests is
    collected as before.
    """
    gc.collect()
    gc.freeze()


def in_ci() -> bool:
    """Whether the run is CI's: the ``CI`` variable set to anything but ``""``, ``0``, ``false``.

    GitHub Actions, GitLab CI and most others set ``CI=true``; ``.ci/run`` installs the system
    packages the tests need before ``make test``.
    """
    return os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}


def require_system_package(what: str, *, present: bool, install: str) -> None:
    """At a test module's top: skip the whole module once when a system package is missing.

    Outside CI a fresh machine with Python, make and npm passes ``make test``: the module is
    reported as ONE skip whose reason is the install line. In CI (:func:`in_ci`), where
    ``.ci/run`` installs the package, a missing one fails the run (a collection error naming
    the package), so CI never passes without running the test.
    """
    if present:
        return
    reason = f"{what}: not installed here ({install})"
    if in_ci():
        pytest.fail(f"{reason} (CI is set: .ci/run installs it)", pytrace=False)
    pytest.skip(reason, allow_module_level=True)
