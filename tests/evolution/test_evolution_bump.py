"""``srdh contract bump NAME`` on a copy of the kit: one command, and every reference follows."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from tests.evolution.conftest import git, srdh

if TYPE_CHECKING:
    from pathlib import Path

V1 = "https://srdh.dev/schemas/v1/"
V2 = "https://srdh.dev/schemas/v2/"


def _schema(copy: Path, name: str) -> dict:
    return json.loads((copy / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8"))


def _refs(node: object) -> list[str]:
    if isinstance(node, dict):
        own = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return own + [r for value in node.values() for r in _refs(value)]
    if isinstance(node, list):
        return [r for item in node for r in _refs(item)]
    return []


def test_a_hand_bumped_id_is_a_clear_error_naming_file_and_pointer(kit_copy: Path) -> None:
    """Changing only the $id leaves references dangling: validate names them, no internal error."""
    path = kit_copy / "schemas" / "tool-call-id.schema.json"
    path.write_text(path.read_text(encoding="utf-8").replace(V1, V2), encoding="utf-8")
    examples = sorted((kit_copy / "schemas/examples/tool-invocation/valid").glob("*.json"))
    done = srdh(kit_copy, "validate", "--contract", "tool-invocation", str(examples[0]))
    assert done.returncode == 2, done.stderr
    assert "internal error" not in done.stderr
    assert "schemas/" in done.stderr
    assert "/$ref" in done.stderr  # the JSON pointer of the dangling reference
    assert f"{V1}tool-call-id.schema.json" in done.stderr
    assert "srdh contract bump" in done.stderr


def assert_every_reference_bumped(kit_copy: Path) -> None:
    """After ``srdh contract bump tool-call-id`` (the documented command) on a committed copy:
    its ``$id`` and every ``$ref`` to it name v2, and the generated code is unchanged.

    The walk of test_evolution_amendment.py runs the command and these checks; its ``srdh verify``
    then runs what this module ran after them: ``python -m conformance.evolution --check`` (the
    lock follows: the freeze-lock step), ``python -m contracts.codegen --check`` (the
    codegen-drift step) and every example against the bumped schemas (the schemas + examples
    step). One copy and one bump instead of two (docs/decisions/test-speed.md, Session 7).
    """
    assert _schema(kit_copy, "tool-call-id")["$id"] == f"{V2}tool-call-id.schema.json"
    referrers = [
        name
        for name in ("tool-invocation", "diagnosis-draft", "run-trace-event", "verified-snapshot")
        if any("tool-call-id" in ref for ref in _refs(_schema(kit_copy, name)))
    ]
    assert len(referrers) == 4
    for name in referrers:
        refs = [r for r in _refs(_schema(kit_copy, name)) if "tool-call-id" in r]
        assert refs
        assert all(r.startswith(f"{V2}tool-call-id.schema.json") for r in refs), refs
    changed = git(kit_copy, "status", "--porcelain").stdout
    assert "schemas/tool-call-id.schema.json" in changed
    assert "contracts/_generated" not in changed  # refs name files for the generators
    assert "types/typescript" not in changed


def test_srdh_diff_calls_the_bump_neutral_and_prints_the_action(kit_copy: Path, tmp_path) -> None:
    """After a bump, `srdh diff` against the base passes: SD025 version-bumped, action none."""
    old = tmp_path / "old"
    old.mkdir()
    for path in (kit_copy / "schemas").glob("*.schema.json"):
        (old / path.name).write_bytes(path.read_bytes())
    assert srdh(kit_copy, "contract", "bump", "tool-call-id", "--no-regenerate").returncode == 0
    done = srdh(kit_copy, "diff", str(old), "schemas", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    changes = json.loads(done.stdout)["changes"]
    (bump,) = [c for c in changes if c["contract"] == "tool-call-id"]
    assert (bump["rule_id"], bump["breaking"], bump["action"]) == ("SD025", False, "none")
    assert all(not c["breaking"] for c in changes)
    table = srdh(kit_copy, "diff", str(old), "schemas")
    assert "action" in table.stdout
    assert "version-bumped" in table.stdout


def test_a_breaking_change_bumps_the_contracts_it_breaks_too(kit_copy: Path, tmp_path) -> None:
    """A new property of public-error (EMIT) breaks the EMIT/BOTH contracts embedding it: bumped."""
    path = kit_copy / "schemas" / "public-error.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    schema["properties"]["notes"] = {"type": "string", "description": "Free text."}
    path.write_text(json.dumps(schema, indent=2) + "\n", encoding="utf-8")
    check = srdh(kit_copy, "contract", "check")
    assert check.returncode == 1
    assert "srdh contract bump public-error" in check.stdout
    old = tmp_path / "old"
    git(kit_copy, "worktree", "add", "-q", str(old), "HEAD")
    diff = srdh(kit_copy, "diff", str(old / "schemas"), "schemas")
    assert diff.returncode == 1
    assert "srdh contract bump public-error" in diff.stdout
    done = srdh(kit_copy, "contract", "bump", "public-error", "--no-regenerate")
    assert done.returncode == 0, done.stdout + done.stderr
    bumped = {
        line.split()[1].rstrip(":")
        for line in done.stdout.splitlines()
        if line.startswith("bumped ")
    }
    assert {"public-error", "published-result", "diagnosis-run"} <= bumped
    assert srdh(kit_copy, "contract", "check").returncode == 0
    after = srdh(kit_copy, "diff", str(old / "schemas"), "schemas", "--json")
    assert after.returncode == 1  # the stdio protocol schemas embed it: a protocol version bump
    report = json.loads(after.stdout)
    assert report["needs_bump"] == ["adapter-message", "run-observation"]
    for change in report["changes"]:
        if change["breaking"] and change["contract"] not in report["needs_bump"]:
            assert change["action"] == "none: the $id version is bumped", change
        elif change["breaking"]:
            assert "protocol_version" in change["action"], change
