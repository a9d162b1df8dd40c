"""`srdh verify` on another checkout: it says which kit and spec it judges, uses one source for
schemas and features, and refuses a checkout whose copies differ from the installed kit's."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

import conformance.verify
from conformance.cli import app
from conformance.cli._errors import EXIT_OK, EXIT_SETUP
from conformance.verify import (
    MixedSourcesError,
    features_for,
    kit_sources,
    plan_sources,
)
from conformance.verify._kit_steps import traceability
from conformance.verify._outcome import VerifyContext, passed

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def kit():
    """The running kit's sources (an editable checkout in this repository's venv)."""
    return kit_sources()


def _copy_kit_data(kit, repo: Path, *names: str) -> None:
    for name in names:
        shutil.copytree(getattr(kit, name), repo / name)


def test_kit_sources_name_this_checkout(kit) -> None:
    """Run from this checkout, the kit's schemas and features are this checkout's."""
    assert kit.checkout == ROOT
    assert kit.schemas == (ROOT / "schemas").resolve()
    assert kit.features == (ROOT / "features").resolve()
    assert kit.package == ROOT / "conformance"


def test_the_kits_own_checkout_is_one_source(kit) -> None:
    """Verifying the checkout the kit runs from needs no comparison."""
    plan = plan_sources(ROOT, kit)
    assert plan.lines[0].startswith(f"kit: srdh-conformance-kit {kit.version} (checkout {ROOT})")
    assert plan.lines[1] == f"spec: {ROOT / 'openspec'}"


def test_a_spec_only_repository_uses_the_kits_schemas_and_features(kit, spec_repo) -> None:
    """A repository with only openspec/ is judged with the kit's copies, and the plan says so."""
    plan = plan_sources(spec_repo, kit)
    assert f"schemas: the kit's {kit.schemas} (the repository has no schemas/)" in plan.lines
    assert f"features: the kit's {kit.features} (the repository has no features/)" in plan.lines
    assert features_for(spec_repo) == kit.features


def test_identical_copies_are_one_source(kit, spec_repo) -> None:
    """Byte-identical schemas/ and features/ in another checkout are accepted and reported."""
    _copy_kit_data(kit, spec_repo, "schemas", "features")
    (spec_repo / "features" / "__pycache__").mkdir()
    (spec_repo / "features" / "__pycache__" / "x.pyc").write_bytes(b"cache")
    plan = plan_sources(spec_repo, kit)
    assert any(
        line.startswith(f"schemas: {spec_repo.resolve() / 'schemas'} (identical")
        for line in plan.lines
    )
    assert features_for(spec_repo) == spec_repo.resolve() / "features"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ("edit_schema", "schemas/diagnosis-draft.schema.json differs"),
        ("extra_feature", "features/99-extra.feature is only in the repository"),
        ("missing_feature", "is only in the kit"),
    ],
)
def test_a_checkout_whose_copies_differ_is_refused(kit, spec_repo, change, expected) -> None:
    """An edited, added or missing file in the repository's copy: MixedSourcesError naming it."""
    _copy_kit_data(kit, spec_repo, "schemas", "features")
    if change == "edit_schema":
        path = spec_repo / "schemas" / "diagnosis-draft.schema.json"
        path.write_text(path.read_text("utf-8").replace('"title"', '"title" ', 1), "utf-8")
    elif change == "extra_feature":
        (spec_repo / "features" / "99-extra.feature").write_text("Feature: x\n", "utf-8")
    else:
        next((spec_repo / "features").glob("*.feature")).unlink()
    with pytest.raises(MixedSourcesError) as raised:
        plan_sources(spec_repo, kit)
    message = str(raised.value)
    assert expected in message
    assert "\n" not in message
    assert f"pip install -e {spec_repo.resolve()}" in message


def test_an_installed_kit_has_no_checkout_and_compares_every_repository(kit, tmp_path) -> None:
    """A kit installed from a wheel (no checkout) compares even this very repository."""
    wheel_like = replace(kit, checkout=None)
    other = tmp_path / "other-kit"
    shutil.copytree(kit.schemas, other / "schemas")
    shutil.copytree(kit.features, other / "features")
    (other / "features" / "01-new.feature").write_text("Feature: y\n", "utf-8")
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "openspec", repo / "openspec")
    shutil.copytree(other / "features", repo / "features")
    with pytest.raises(MixedSourcesError, match=r"01-new\.feature is only in the repository"):
        plan_sources(repo, wheel_like)
    assert (
        plan_sources(repo, replace(wheel_like, features=other / "features"))
        .lines[0]
        .startswith(f"kit: srdh-conformance-kit {kit.version} (package ")
    )


def test_traceability_of_a_spec_only_repository_reads_the_kits_features(spec_repo) -> None:
    """With no features/ of its own, the repository's spec is traced against the kit's mirror."""
    outcome = traceability(VerifyContext(spec_repo, kit_sources().schemas))
    assert outcome.status.value == "PASSED", outcome.detail


def test_cli_verify_says_which_kit_and_spec_it_judges(
    spec_repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first lines of `srdh verify` name the kit (version, where) and the spec folder."""
    real = conformance.verify.run_verify

    def fake(repo, schemas, *, progress):
        return real(repo, schemas, steps=[("spec lint", lambda _: passed("ok"))], progress=progress)

    monkeypatch.setattr(conformance.verify, "run_verify", fake)
    result = CliRunner().invoke(app, ["verify", str(spec_repo)])
    assert result.exit_code == EXIT_OK, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("kit: srdh-conformance-kit ")
    assert lines[1] == f"spec: {spec_repo.resolve() / 'openspec'}"


def test_cli_verify_refuses_mixed_sources_before_any_step(spec_repo) -> None:
    """A checkout with its own, different features/: one error line, exit 2, no step ran."""
    shutil.copytree(ROOT / "features", spec_repo / "features")
    (spec_repo / "features" / "99-extra.feature").write_text("Feature: x\n", "utf-8")
    result = CliRunner().invoke(app, ["verify", str(spec_repo)])
    assert result.exit_code == EXIT_SETUP
    assert result.stderr.startswith("srdh: error: ")
    assert len(result.stderr.strip().splitlines()) == 1
    assert "would mix two sources" in result.stderr
    assert "spec lint" not in result.stdout


def test_cli_gate_and_run_say_which_kit_judges(spec_repo) -> None:
    """`srdh gate` names the kit and its phase plan; `srdh run` names the kit on its first line."""
    package = ROOT / "conformance"
    gate = CliRunner().invoke(app, ["gate", "1", "--repo", str(spec_repo)])
    assert gate.exit_code == EXIT_OK, gate.output
    first = gate.stdout.splitlines()[0]
    assert first.startswith(f"kit: srdh-conformance-kit {kit_sources().version} ({package})")
    assert "phase-plan.json" in first
    run = CliRunner().invoke(
        app,
        [
            "run",
            "--iut-module",
            "reference_harness.iut:create",
            "--scenario",
            "latest-run-is-a-fallback",
            "--examples",
            "0",
        ],
    )
    assert run.exit_code == EXIT_OK, run.output
    assert run.stdout.splitlines()[0] == (
        f"kit: srdh-conformance-kit {kit_sources().version} ({package})"
    )
