"""``srdh``'s own process freezes what its imports built; a command run inside another program
(a ``CliRunner``) leaves that program's garbage collector alone (conformance/cli/_heap.py)."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from conformance.cli import app

ROOT = Path(__file__).resolve().parents[2]


def test_a_run_inside_another_program_freezes_nothing():
    """``srdh run`` through ``CliRunner`` (no ``main``): the caller's permanent generation is the
    same size after the run."""
    before = gc.get_freeze_count()
    result = CliRunner().invoke(
        app,
        [
            "run",
            "--iut-module",
            "reference_harness.iut:create",
            "--scenario",
            "duplicate-tool-call-id-is-proposed",
            "--examples",
            "0",
        ],
    )
    assert result.exit_code == 0, result.output
    assert gc.get_freeze_count() <= before  # objects frozen earlier may have been freed


def test_only_srdhs_own_process_freezes_and_only_once():
    """Unmarked: nothing frozen; marked by ``own_heap`` (what ``main`` does): the first call
    freezes the live objects, a second call freezes nothing more."""
    script = (
        "import gc\n"
        "from conformance.cli import _heap\n"
        "_heap.freeze_imports(); print(gc.get_freeze_count())\n"
        "_heap.own_heap(); _heap.freeze_imports(); first = gc.get_freeze_count()\n"
        "kept = [[] for _ in range(1000)]\n"
        "_heap.freeze_imports(); print(first, gc.get_freeze_count() - first)\n"
    )
    shown = subprocess.run(  # noqa: S603 - this interpreter, a fixed script
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    assert shown[0] == "0"
    assert int(shown[1]) > 10_000  # the imports' objects
    assert shown[2] == "0"
