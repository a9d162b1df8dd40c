"""The freeze lock judged by the schema differ: minor vs breaking, per contract direction."""

from __future__ import annotations

import json
import shutil
from typing import TYPE_CHECKING

import pytest

import contracts
from conformance.evolution import ContractState, EvolutionError, judge, update_lock
from contracts import freeze

if TYPE_CHECKING:
    from pathlib import Path


def _copy(tmp_path: Path) -> tuple[Path, Path]:
    folder = tmp_path / "schemas"
    folder.mkdir()
    for path in contracts.schema_dir().glob("*.schema.json"):
        shutil.copyfile(path, folder / path.name)
    lock = folder / "freeze.lock.json"
    shutil.copyfile(contracts.schema_dir() / "freeze.lock.json", lock)
    return folder, lock


def _edit(folder: Path, name: str, change) -> dict:
    path = folder / f"{name}.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    change(schema)
    path.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    return schema


def _state(folder: Path, lock: Path, name: str) -> ContractState:
    verdicts = judge(folder, lock).verdicts
    (verdict,) = [
        v for v in verdicts if v.contract == name and v.state is not ContractState.RETIRED
    ]
    return verdict.state


def _add_optional(schema: dict) -> None:
    schema["properties"]["notes"] = {"type": "string"}


def test_committed_schemas_are_all_unchanged() -> None:
    """The kit's own schemas match its lock: nothing waits (verify's freeze-lock step)."""
    judgement = judge()
    assert judgement.ok
    assert {v.state for v in judgement.verdicts} == {ContractState.UNCHANGED}


def test_optional_field_on_a_read_contract_is_a_minor_change(tmp_path: Path) -> None:
    """Loosening what the Harness READS breaks no producer: minor, recorded by update."""
    folder, lock = _copy(tmp_path)
    schema = _edit(folder, "phase-plan", _add_optional)
    judgement = judge(folder, lock)
    (verdict,) = [v for v in judgement.verdicts if v.contract == "phase-plan"]
    assert verdict.state is ContractState.MINOR
    assert not judgement.ok
    assert [c.rule.rule_id for c in verdict.changes] == ["SD010"]
    assert verdict.action == "srdh contract update"
    update_lock(folder, lock)
    assert judge(folder, lock).ok
    assert freeze.read_lock(lock).minor == {schema["$id"]: 1}


def test_optional_field_on_an_emit_contract_needs_a_bump(tmp_path: Path) -> None:
    """Loosening what the Harness EMITS breaks consumers: update refuses, naming the bump."""
    folder, lock = _copy(tmp_path)
    _edit(folder, "public-error", _add_optional)
    assert _state(folder, lock, "public-error") is ContractState.BREAKING
    before = lock.read_bytes()
    with pytest.raises(EvolutionError, match="srdh contract bump public-error"):
        update_lock(folder, lock)
    assert lock.read_bytes() == before


def test_a_change_breaks_the_contracts_that_reference_it_in_their_direction(
    tmp_path: Path,
) -> None:
    """Tightening query-scope (EMIT) is compatible for it, but not for diagnosis-draft (BOTH).

    diagnosis-draft's own file did not change: the change reaches it through ``$ref``.
    """
    folder, lock = _copy(tmp_path)
    _edit(folder, "query-scope", lambda s: s["properties"]["target"].update(maxLength=128))
    assert _state(folder, lock, "query-scope") is ContractState.MINOR
    assert _state(folder, lock, "bounded-projection") is ContractState.UNCHANGED
    assert _state(folder, lock, "diagnosis-draft") is ContractState.BREAKING


def test_a_bumped_contract_passes_and_is_frozen_by_update(tmp_path: Path) -> None:
    """A breaking change under the next $id version is what the bump is for."""
    folder, lock = _copy(tmp_path)

    def bump(schema: dict) -> None:
        schema["$id"] = schema["$id"].replace("/v1/", "/v2/")
        schema["properties"]["notes"] = {"type": "string"}

    schema = _edit(folder, "phase-plan", bump)
    assert _state(folder, lock, "phase-plan") is ContractState.BUMPED
    assert judge(folder, lock).ok
    update_lock(folder, lock)
    frozen = freeze.read_lock(lock)
    assert schema["$id"] in frozen.validation
    assert schema["$id"].replace("/v2/", "/v1/") not in frozen.validation


def test_bumping_a_referenced_contract_by_hand_leaves_its_referrers_breaking(
    tmp_path: Path,
) -> None:
    """A new public-error reaches every contract that embeds it, each in its direction.

    The EMIT/BOTH referrers need a bump of their own (``srdh contract bump`` cascades); the
    protocol schemas are versioned by the stdio protocol and wait for ``update``.
    """
    folder, lock = _copy(tmp_path)

    def bump(schema: dict) -> None:
        schema["$id"] = schema["$id"].replace("/v1/", "/v2/")
        schema["properties"]["notes"] = {"type": "string"}

    _edit(folder, "public-error", bump)
    assert _state(folder, lock, "public-error") is ContractState.BUMPED
    assert _state(folder, lock, "published-result") is ContractState.BREAKING
    assert _state(folder, lock, "diagnosis-run") is ContractState.BREAKING
    assert _state(folder, lock, "run-observation") is ContractState.PROTOCOL
    assert not judge(folder, lock).ok


def test_an_unrecorded_lock_change_without_a_frozen_copy_counts_as_breaking(
    tmp_path: Path,
) -> None:
    """A lock written before frozen copies existed cannot classify: the change is breaking."""
    folder, lock = _copy(tmp_path)
    document = json.loads(lock.read_text(encoding="utf-8"))
    del document["frozen"]
    lock.write_text(json.dumps(document), encoding="utf-8")
    _edit(folder, "phase-plan", _add_optional)
    assert _state(folder, lock, "phase-plan") is ContractState.BREAKING


def test_unresolvable_refs_are_named_by_file_and_pointer(tmp_path: Path) -> None:
    """A $id changed by hand leaves references dangling: each is named (verify's schema step)."""
    folder, _ = _copy(tmp_path)
    _edit(folder, "tool-call-id", lambda s: s.update({"$id": s["$id"].replace("/v1/", "/v2/")}))
    problems = contracts.unresolved_refs(folder)
    assert problems
    assert {p.file.rsplit("/", 1)[-1] for p in problems} >= {"tool-invocation.schema.json"}
    assert all(p.pointer.endswith("/$ref") for p in problems)
    assert all(p.resolved.endswith("/v1/tool-call-id.schema.json") for p in problems)
    assert "no schema of the set has this $id" in str(problems[0])
    assert contracts.unresolved_refs(contracts.schema_dir()) == []
