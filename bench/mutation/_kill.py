"""The killer: the conformance suite over stdio against a copy of ``reference_harness``.

``python -m bench.mutation._kill --source DIR [--result FILE] [--scenario ID ...]`` runs
``conformance.suite.run_suite`` with a :class:`~conformance.adapters.StdioAdapter` on
``<python> -P -m reference_harness.stdio`` whose ``PYTHONPATH`` is ``DIR`` (``-P``: the current
directory does not shadow it), and stops at the first failing scenario (pytest ``-x``). Exit status
0: every scenario passed (the mutant survived); 1: a scenario failed or the IUT broke the protocol
(killed); 2: the killer itself could not run (setup error, reported, never counted as a kill by the
driver). ``--result`` receives a JSON object: ``killed`` (bool), ``nodeid`` and ``scenario`` of the
first failing example, ``rules`` (the rule ids its message names), ``message`` (first lines).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path
from typing import Any
from unittest import mock

from conformance.adapters import AdapterError, StdioAdapter
from conformance.suite import _run as suite_run

__all__ = ["KILLER_SETUP_ERROR", "iut_command", "iut_env", "kill", "main"]

KILLER_SETUP_ERROR = 2
"""Exit status when the killer could not run the suite at all."""

_RULE = re.compile(r"\[(R\d+\.[a-z0-9.-]+)\]")
_MESSAGE_CHARS = 600


def iut_command() -> list[str]:
    """Return the stdio IUT argv: this interpreter, ``-P`` (no cwd on ``sys.path``), the module."""
    return [sys.executable, "-P", "-m", "reference_harness.stdio"]


def iut_env(source: Path) -> dict[str, str]:
    """This process's environment with ``PYTHONPATH`` = ``source`` (the mutated copy) only."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(source)
    env.pop("PYTHONSAFEPATH", None)
    return env


def _fail_fast_args() -> list[str]:
    return [*_ORIGINAL_ARGS(), "-x", "-p", "bench.mutation._order"]


_ORIGINAL_ARGS = suite_run.nested_args


def kill(
    source: Path,
    *,
    scenario_ids: list[str] | None = None,
    timeout_s: float = 30.0,
    fail_fast: bool = True,
) -> dict[str, Any]:
    """Run the suite (stop at the first failure) against the ``reference_harness`` under ``source``.

    Args:
        source: a directory holding a ``reference_harness`` package (mutated or not).
        scenario_ids: only these scenarios (``None``: all).
        timeout_s: the adapter's bound on each IUT message (seconds).
        fail_fast: stop at the first failing example (``False``: run all, for the baseline).

    Returns:
        ``{"killed": bool, "nodeid", "scenario", "rules": [...], "message", "failed": [...]}``
        (the first failing example, and every failed scenario id); a protocol failure of the IUT
        at ``hello`` is a kill with ``nodeid`` ``"hello"``.

    Raises:
        conformance.suite.SuiteSetupError: the suite itself could not run.
    """
    adapter = StdioAdapter(iut_command(), timeout_s, env=iut_env(source))
    args = _fail_fast_args if fail_fast else _ORIGINAL_ARGS
    try:
        with mock.patch.object(suite_run, "nested_args", args):
            result = suite_run.run_suite(adapter, scenario_ids=scenario_ids)
    except AdapterError as error:
        return {
            "killed": True,
            "nodeid": "hello",
            "scenario": "hello",
            "rules": [],
            "message": str(error)[:_MESSAGE_CHARS],
            "failed": ["hello"],
        }
    finally:
        adapter.close()
    failed = [s.scenario_id for s in result.scenarios if s.outcome == "failed"]
    for scenario in result.scenarios:
        for example in scenario.examples:
            if example.outcome == "failed":
                return {
                    "killed": True,
                    "nodeid": example.nodeid,
                    "scenario": scenario.scenario_id,
                    "rules": sorted(set(_RULE.findall(example.message or ""))),
                    "message": (example.message or "")[:_MESSAGE_CHARS],
                    "failed": failed,
                }
    return {
        "killed": False,
        "nodeid": None,
        "scenario": None,
        "rules": [],
        "message": "",
        "failed": [],
    }


def main(argv: list[str] | None = None) -> int:
    """Command line of the killer; see the module docstring for the exit statuses."""
    parser = argparse.ArgumentParser(prog="python -m bench.mutation._kill")
    parser.add_argument("--source", type=Path, required=True)
    parser.add_argument("--result", type=Path)
    parser.add_argument("--scenario", action="append", dest="scenarios")
    parser.add_argument("--timeout-s", type=float, default=30.0)
    parser.add_argument("--all", action="store_true", help="do not stop at the first failure")
    args = parser.parse_args(argv)
    try:
        verdict = kill(
            args.source,
            scenario_ids=args.scenarios,
            timeout_s=args.timeout_s,
            fail_fast=not args.all,
        )
    except suite_run.SuiteSetupError as error:
        print(f"killer setup error: {error}", file=sys.stderr)
        return KILLER_SETUP_ERROR
    if args.result is not None:
        args.result.write_text(json.dumps(verdict) + "\n", encoding="utf-8")
    return 1 if verdict["killed"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
