"""The spec author's loop on a copy of the kit, with the documented commands only, ends green.

An optional field on a READ contract (``srdh contract check`` says minor, ``srdh contract
update`` records it and regenerates the models and TypeScript types), then a ``$id`` bump of a
referenced contract (``srdh contract bump tool-call-id``): ``srdh verify .`` passes every step.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from tests.evolution.conftest import git, srdh

if TYPE_CHECKING:
    from pathlib import Path


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_optional_field_and_id_bump_then_verify_is_green(kit_copy: Path) -> None:
    """docs/contracts.md "Evolving a contract", step by step, then the main job."""
    path = kit_copy / "schemas" / "phase-plan.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    schema["properties"]["notes"] = {"type": "string", "description": "Free text for the team."}
    path.write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

    check = srdh(kit_copy, "contract", "check")
    assert check.returncode == 1
    assert "phase-plan.schema.json: minor change" in check.stdout
    update = srdh(kit_copy, "contract", "update")
    assert update.returncode == 0, update.stdout + update.stderr
    assert "ran python -m contracts.codegen_typescript" in update.stdout
    assert "notes" in (kit_copy / "types" / "typescript" / "contracts.ts").read_text("utf-8")

    bump = srdh(kit_copy, "contract", "bump", "tool-call-id")
    assert bump.returncode == 0, bump.stdout + bump.stderr
    git(kit_copy, "add", "-A")
    git(kit_copy, "commit", "-q", "-m", "phase-plan notes; tool-call-id v2")

    verify = srdh(kit_copy, "verify", ".", timeout=900)
    assert verify.returncode == 0, verify.stdout[-3000:] + verify.stderr[-2000:]
    assert "verify FAILED" not in verify.stdout
