"""The freeze lock catches a frozen schema changed under the same $id; codegen has no drift."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

import contracts
from contracts import codegen, freeze
from contracts._annotations import strip_annotations

TARGET = "safe-fallback"


def _copy_schemas(tmp_path):
    folder = tmp_path / "schemas"
    folder.mkdir()
    for path in contracts.schema_dir().glob("*.schema.json"):
        shutil.copyfile(path, folder / path.name)
    lock = tmp_path / "freeze.lock.json"
    shutil.copyfile(contracts.schema_dir() / "freeze.lock.json", lock)
    return folder, lock


def _edit(folder, mutate):
    path = folder / f"{TARGET}.schema.json"
    schema = json.loads(path.read_text())
    mutate(schema)
    path.write_text(json.dumps(schema))
    return schema


def test_contracts_committed_lock_matches_the_schemas():
    """The committed schemas are exactly the frozen ones."""
    report = freeze.check()
    assert report.ok, (report.changed, report.annotated)
    assert report.unfrozen == []
    assert report.retired == []


def _run_freeze(folder, lock, action):
    command = [sys.executable, "-m", "contracts.freeze", action]
    command += ["--schemas", str(folder), "--lock", str(lock)]
    return subprocess.run(command, capture_output=True, text=True, check=False)  # noqa: S603 - fixed argv


@pytest.mark.parametrize(
    ("keyword", "value"),
    [("enum", ["EVIDENCE_VALIDATION_FAILED"]), ("type", "integer"), ("description", None)],
)
def test_contracts_changed_validation_with_same_id_fails_and_update_refuses(
    tmp_path, keyword, value
):
    """What a frozen schema validates changed under its $id: --check fails, --update refuses.

    The rows change ``enum`` or ``type`` of a definition, or (``None``) drop a required property.
    """
    folder, lock = _copy_schemas(tmp_path)

    def mutate(schema):
        if value is None:
            schema["required"] = schema["required"][1:]
        else:
            schema["$defs"]["FallbackType"][keyword] = value

    schema = _edit(folder, mutate)
    report = freeze.check(folder, lock)
    assert report.changed == [schema["$id"]]
    assert not report.ok
    done = _run_freeze(folder, lock, "--check")
    assert done.returncode == 1
    assert schema["$id"] in done.stderr
    assert "Traceback" not in done.stderr
    before = lock.read_bytes()
    refused = _run_freeze(folder, lock, "--update")
    assert refused.returncode == 1
    assert schema["$id"] in refused.stderr
    assert "srdh contract bump NAME" in refused.stderr
    assert "Traceback" not in refused.stderr
    assert lock.read_bytes() == before  # nothing written


@pytest.mark.parametrize("keyword", ["title", "description", "examples", "$comment"])
def test_contracts_annotation_change_is_reported_and_recorded_by_update(tmp_path, keyword):
    """A new or reworded annotation under a frozen $id: --check names it, --update records it."""
    folder, lock = _copy_schemas(tmp_path)
    schema = _edit(folder, lambda s: s["properties"]["fallback_type"].update({keyword: ["x"]}))
    report = freeze.check(folder, lock)
    assert report.changed == []
    assert report.annotated == [schema["$id"]]
    done = _run_freeze(folder, lock, "--check")
    assert done.returncode == 1
    assert "annotations changed" in done.stderr
    assert schema["$id"] in done.stderr
    recorded = _run_freeze(folder, lock, "--update")
    assert recorded.returncode == 0, recorded.stderr
    assert freeze.check(folder, lock).ok


def test_contracts_a_property_named_like_an_annotation_is_validation(tmp_path):
    """Only keywords in schema positions are annotations: a property named title is data."""
    folder, lock = _copy_schemas(tmp_path)

    def add_property(schema):
        schema["properties"]["title"] = {"type": "string"}

    schema = _edit(folder, add_property)
    assert freeze.check(folder, lock).changed == [schema["$id"]]
    stripped = strip_annotations(
        {"title": "T", "properties": {"title": {"title": "x", "enum": ["title"]}}}
    )
    assert stripped == {"properties": {"title": {"enum": ["title"]}}}


def test_contracts_reformatting_a_schema_is_not_a_change(tmp_path):
    """Key order and whitespace do not count: the digest is over RFC 8785 canonical JSON."""
    folder, lock = _copy_schemas(tmp_path)
    path = folder / f"{TARGET}.schema.json"
    schema = json.loads(path.read_text())
    path.write_text(json.dumps(dict(reversed(list(schema.items()))), indent=7))
    assert freeze.check(folder, lock).ok


def test_contracts_bumped_id_passes_and_update_freezes_it(tmp_path):
    """A changed schema whose $id version was bumped passes; --update then freezes the new id."""
    folder, lock = _copy_schemas(tmp_path)
    old_id = json.loads((folder / f"{TARGET}.schema.json").read_text())["$id"]

    def bump(schema):
        schema["$id"] = schema["$id"].replace("/v1/", "/v2/")
        schema["properties"]["fallback_type"]["description"] = "changed"

    schema = _edit(folder, bump)
    report = freeze.check(folder, lock)
    assert report.ok
    assert report.unfrozen == [schema["$id"]]
    assert report.retired == [old_id]
    freeze.update(folder, lock)
    assert freeze.check(folder, lock).unfrozen == []


def test_contracts_codegen_check_reports_no_drift():
    """Regenerating the models from the schemas reproduces the committed files exactly."""
    done = subprocess.run(
        [sys.executable, "-m", "contracts.codegen", "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "FutureWarning" not in done.stderr


def test_contracts_codegen_check_names_a_drifted_file(monkeypatch, tmp_path, capsys):
    """A hand-edited generated file is named by --check, which exits 1 without a traceback.

    One regeneration: ``--check`` prints one ``drifted:`` line per name :func:`codegen.check`
    returns (the test ran ``check()`` and then ``--check`` again).
    """
    fake = tmp_path / "_generated"
    shutil.copytree(codegen.GENERATED, fake)
    (fake / "public_error_schema.py").write_text("# edited by hand\n")
    monkeypatch.setattr(codegen, "GENERATED", fake)
    assert codegen.main(["--check"]) == 1
    err = capsys.readouterr().err
    drifted = [line for line in err.splitlines() if line.startswith("drifted: ")]
    assert drifted == [
        "drifted: contracts/_generated/public_error_schema.py (run: python -m contracts.codegen)"
    ], err
    assert "Traceback" not in err


def test_contracts_protocol_schema_is_locked_by_protocol_version(tmp_path):
    """A kit protocol schema changed under the same hello protocol_version fails; a bump passes."""
    folder, lock = _copy_schemas(tmp_path)
    fixture = folder / "scenario-fixture.schema.json"
    schema = json.loads(fixture.read_text())
    schema["required"] = [*schema["required"], "x_new"]
    fixture.write_text(json.dumps(schema))
    version = freeze.protocol_version(folder)
    report = freeze.check(folder, lock)
    assert report.changed == [f"{schema['$id']}#protocol-{version}"]
    message = folder / "adapter-message.schema.json"
    hello = json.loads(message.read_text())
    hello["$defs"]["HelloMessage"]["properties"]["protocol_version"]["const"] = "9.9"
    message.write_text(json.dumps(hello))
    report = freeze.check(folder, lock)
    assert report.ok
    assert len(report.unfrozen) == len(freeze.PROTOCOL_SCHEMAS)
    assert all(key.endswith("#protocol-9.9") for key in report.unfrozen)


def test_contracts_update_records_a_protocol_schema_change_under_its_version(tmp_path):
    """A protocol schema is locked by protocol version; --update records it (not yet released)."""
    folder, lock = _copy_schemas(tmp_path)
    fixture = folder / "scenario-fixture.schema.json"
    schema = json.loads(fixture.read_text())
    schema["required"] = [*schema["required"], "x_new"]
    fixture.write_text(json.dumps(schema))
    assert not freeze.check(folder, lock).ok
    freeze.update(folder, lock)
    assert freeze.check(folder, lock).ok
