"""``srdh --help`` and ``srdh validate`` import only what they use (their start-up stays short).

A behaviour test, not a timing test: each command runs in a fresh interpreter, which then lists
the modules it imported.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
VALID = min((REPO / "schemas" / "examples" / "tool-invocation" / "valid").glob("*.json"))

_NEVER_AT_START = (
    "pytest",
    "_pytest",
    "hypothesis",
    "sqlalchemy",
    "openai",
    "httpx",
    "uvicorn",
    "starlette",
    "jinja2",
    "markdown_it",
    "gherkin",
    "pytest_bdd",
    "reference_harness",
    "conformance.openspec",
    "conformance.reports",
    "conformance.suite",
    "conformance.selftest",
)
"""Modules no command may need just to start (test frameworks, database, HTTP, reports)."""

_SCRIPT = """
import json, sys
from conformance.cli import main
sys.argv = ["srdh", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
sys.stderr.write("\\nMODULES " + json.dumps(sorted(sys.modules)) + "\\n")
"""


def _modules_after(*args: str) -> set[str]:
    done = subprocess.run(  # noqa: S603 - our interpreter and a fixed script
        [sys.executable, "-c", _SCRIPT, *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
        timeout=120,
    )
    marker = next(line for line in done.stderr.splitlines() if line.startswith("MODULES "))
    return set(json.loads(marker.removeprefix("MODULES ")))


def _loaded(modules: set[str], roots: tuple[str, ...]) -> list[str]:
    return sorted(r for r in roots if any(m == r or m.startswith(f"{r}.") for m in modules))


@pytest.mark.parametrize("args", [("--help",), ("validate", "--help"), ("verify", "--help")])
def test_help_imports_no_heavy_module(args):
    """Help text needs no test framework, database, HTTP stack, report engine or contracts.

    (Typer itself imports Pydantic to render some commands' parameters, so Pydantic is only
    excluded for the top-level help.)
    """
    modules = _modules_after(*args)
    assert "conformance.cli" in modules
    extra = ("rich", "jsonschema", "contracts", *(("pydantic",) if args == ("--help",) else ()))
    assert _loaded(modules, (*_NEVER_AT_START, *extra)) == []


def test_validate_imports_no_model_and_no_explainer_for_a_valid_document():
    """Validating a valid document uses the schemas (jsonschema-rs), not the Pydantic models;
    python-jsonschema, which only explains rejections, is not imported either."""
    modules = _modules_after("validate", "--contract", "tool-invocation", str(VALID))
    assert "contracts" in modules
    assert "jsonschema_rs" in modules
    assert _loaded(modules, (*_NEVER_AT_START, "contracts._generated", "jsonschema")) == []
