"""The mutation driver's wiring: its targets exist, and its killer kills a broken rule.

The mutation run itself (``python -m bench.mutation``) takes tens of minutes and is not part of
``make test``; these tests make sure it cannot pass silently: the configured modules and rule
functions exist, and the killer (the conformance suite over stdio against a copy of
``reference_harness``) fails a copy whose Tool Call ID rule is broken, and passes the same scenario
on an unbroken copy, so the IUT really imports the copy it is given.
"""

import ast
import shutil

import pytest

from bench.mutation._config import TARGETS, package_root
from bench.mutation._driver import _bare_star, select_targets
from bench.mutation._kill import kill

DUPLICATE_SCENARIO = "duplicate-tool-call-id-is-proposed"
_RULE_LINE = "    if presented in accepted:\n"


def test_every_target_module_and_rule_function_exists():
    for target in TARGETS:
        path = package_root() / target.path
        assert path.is_file(), f"{target.path} is not a module of reference_harness"
        defined = {
            node.name
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        }
        missing = set(target.functions) - defined
        assert not missing, f"{target.path} defines no {sorted(missing)}"


def test_an_unknown_module_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown module\(s\) nowhere\.py; known: guards/_body"):
        select_targets(("nowhere.py",))


@pytest.fixture
def copy_root(tmp_path):
    shutil.copytree(
        package_root(),
        tmp_path / "reference_harness",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    return tmp_path


@pytest.mark.slow
def test_the_killer_kills_a_copy_that_accepts_duplicate_tool_call_ids(copy_root):
    ids = copy_root / "reference_harness" / "_ids.py"
    source = ids.read_text(encoding="utf-8")
    assert source.count(_RULE_LINE) == 1, "the duplicate-id rule line moved; update this test"
    ids.write_text(source.replace(_RULE_LINE, "    if False:\n"), encoding="utf-8")

    verdict = kill(copy_root, scenario_ids=[DUPLICATE_SCENARIO], timeout_s=30.0)

    assert verdict["killed"], verdict
    assert verdict["scenario"] == DUPLICATE_SCENARIO
    assert any(rule.startswith("R2.") for rule in verdict["rules"]), verdict


@pytest.mark.slow
def test_the_killer_passes_the_unbroken_copy(copy_root):
    verdict = kill(copy_root, scenario_ids=[DUPLICATE_SCENARIO], timeout_s=30.0)

    assert not verdict["killed"], verdict


def test_the_bare_star_of_a_signature_is_not_taken_for_an_operator():
    lines = ["def f(a, *, b):", "    return a * b", "def g(*)"]
    assert _bare_star(lines, (1, 9))
    assert not _bare_star(lines, (2, 13))
    assert _bare_star(lines, (3, 6))
    assert not _bare_star(lines, (9, 0))
