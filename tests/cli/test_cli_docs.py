"""The CI workflow example and the CLI doc agree with the command line."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from conformance.cli import app
from conformance.schemadiff import RULES

ROOT = Path(__file__).resolve().parents[2]


def test_workflow_example_is_valid_yaml_that_gates_then_verifies() -> None:
    """The GitHub Actions example parses, runs `srdh gate` before `srdh verify --report`."""
    doc = yaml.safe_load((ROOT / "docs" / "ci" / "github-actions-gate.yml").read_text("utf-8"))
    steps = doc["jobs"]["gate"]["steps"]
    runs = [s.get("run", "") for s in steps]
    gate = next(i for i, r in enumerate(runs) if r.startswith("srdh gate "))
    verify = next(i for i, r in enumerate(runs) if r.startswith("srdh verify ") and "--report" in r)
    assert gate < verify
    assert "--base" in runs[gate]  # predecessors judged as merged into the base branch
    diff = next(i for i, r in enumerate(runs) if "srdh diff " in r)
    assert 'srdh-base/schemas" schemas' in runs[diff]  # contract changes against the base branch
    assert any("GITHUB_STEP_SUMMARY" in r for r in runs)


def test_cli_doc_names_every_command_and_every_diff_rule() -> None:
    """docs/cli.md lists each registered command and each schema-diff rule id with its name."""
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    commands = {c.name for c in app.registered_commands} | {"spec"}
    for name in commands:
        assert f"`srdh {name}" in text, name
    for rule in RULES.values():
        assert re.search(rf"\| {rule.rule_id} \| {re.escape(rule.name)}\b", text), rule.label
