"""Every command says which kit runs and which spec it judges (issue 13, item 5).

Text output starts with ``kit: srdh-conformance-kit <version> (<package>)`` and a ``spec:`` (or
``schemas:``/``old:``) line; with ``--json`` those lines go to standard error and standard
output stays one JSON document.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conformance.cli import app
from conformance.cli._errors import EXIT_FAILED, EXIT_OK, EXIT_SETUP
from conformance.suite import features_dir
from conformance.verify import kit_sources

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "schemas" / "examples" / "public-error" / "valid" / "internal-error.json"


def _kit() -> str:
    return f"kit: srdh-conformance-kit {kit_sources().version} ({ROOT / 'conformance'})"


def _own_spec() -> str:
    return (
        f"spec: the kit's own (features {features_dir().resolve()}, mirroring {ROOT / 'openspec'})"
    )


@pytest.mark.parametrize(
    ("args", "second"),
    [
        (["spec", "lint", "{repo}"], "spec: {repo}/openspec"),
        # with its contract named: a document naming none is a user mistake, one error line
        (
            ["validate", str(EXAMPLE), "--contract", "public-error"],
            f"schemas: the kit's {ROOT / 'schemas'}",
        ),
        (["diff", str(EXAMPLE.parent), str(EXAMPLE.parent)], f"old: {EXAMPLE.parent}; new: "),
        (["demo", "latest-run-is-a-fallback"], "{own}"),
        (["selftest", "--mutant", "no-such-mutant"], "{own}"),
        (["replay", "{repo}/no-recording"], "{own}"),
    ],
)
def test_cli_text_commands_start_with_kit_and_spec(args, second, spec_repo) -> None:
    """The first two lines of standard output name the kit and what it judges."""
    repo = str(spec_repo.resolve())
    argv = [a.format(repo=repo) for a in args]
    result = CliRunner().invoke(app, argv)
    assert result.exit_code in {EXIT_OK, EXIT_FAILED, EXIT_SETUP}, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == _kit()
    assert lines[1].startswith(second.format(repo=repo, own=_own_spec()))


@pytest.mark.parametrize(
    "args",
    [
        ["spec", "show", "--json", "{repo}"],
        ["trace", "--json", "{repo}"],
        ["diff", "--json", str(EXAMPLE.parent), str(EXAMPLE.parent)],
    ],
)
def test_cli_json_commands_name_the_kit_on_standard_error(args, spec_repo) -> None:
    """With --json, standard output is exactly one JSON document; the lines are on stderr."""
    argv = [a.format(repo=spec_repo) for a in args]
    result = CliRunner().invoke(app, argv)
    assert result.exit_code in {EXIT_OK, EXIT_FAILED}, result.output
    json.loads(result.stdout)
    assert result.stderr.splitlines()[0] == _kit()


def test_cli_trace_names_the_mirror_it_reads(spec_repo) -> None:
    """A spec-only repository is traced with the kit's features, and the output says so."""
    result = CliRunner().invoke(app, ["trace", str(spec_repo)])
    assert result.exit_code == EXIT_OK, result.output
    kit, spec, features = result.stdout.splitlines()[:3]
    assert kit == _kit()
    assert spec == f"spec: {spec_repo.resolve() / 'openspec'}"
    assert features.startswith(f"features: the kit's {features_dir().resolve()}")
    assert "(the repository has no features/)" in features
    assert f"the kit's ({ROOT / 'conformance'})" in features


def test_cli_trace_says_when_the_repository_mirror_differs(spec_repo) -> None:
    """A repository with its own, different features/: traced, and the difference named."""
    shutil.copytree(ROOT / "features", spec_repo / "features")
    (spec_repo / "features" / "99-extra.feature").write_text("Feature: x\n", "utf-8")
    result = CliRunner().invoke(app, ["trace", str(spec_repo)])
    features = result.stdout.splitlines()[2]
    assert features.startswith(f"features: {spec_repo.resolve() / 'features'} (differs from")
    assert "99-extra.feature is only in the repository" in features


def test_cli_gate_names_the_spec(spec_repo) -> None:
    """`srdh gate` prints the kit, the repository and its spec."""
    result = CliRunner().invoke(app, ["gate", "1", "--repo", str(spec_repo)])
    assert result.exit_code == EXIT_OK, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith(_kit())
    assert f"spec: {spec_repo.resolve() / 'openspec'}" in lines[:4]


def test_cli_validate_error_before_any_identity_line(tmp_path) -> None:
    """A user mistake stays one line on stderr: nothing is printed to stdout first."""
    result = CliRunner().invoke(app, ["validate", str(tmp_path / "missing.json")])
    assert result.exit_code == EXIT_SETUP
    assert result.stdout == ""
