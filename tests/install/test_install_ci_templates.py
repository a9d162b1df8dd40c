"""The GitHub Actions templates of docs/ci/: valid workflows, linted, no expressions in scripts."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(BIN)) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is a dev dependency of the kit (pyproject [dev]); install it")
    return found


def test_there_is_a_template_for_implementers_and_one_for_spec_repositories(ci) -> None:
    """docs/ci/ holds the implementer template and the spec-repository (phase gate) template."""
    names = {path.name for path in ci.workflows}
    assert {"github-actions-implementer.yml", "github-actions-gate.yml"} <= names


def test_every_template_is_a_valid_github_workflow(ci) -> None:
    """check-jsonschema validates each template against SchemaStore's github-workflow schema."""
    done = subprocess.run(  # noqa: S603 - fixed argv, files of this repository
        [
            _tool("check-jsonschema"),
            "--builtin-schema",
            "vendor.github-workflows",
            *map(str, ci.workflows),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_schema_check_rejects_a_broken_workflow(tmp_path) -> None:
    """The schema check can fail: a job without ``runs-on`` and a step with a typo is refused."""
    broken = tmp_path / "broken.yml"
    broken.write_text(
        "name: x\non: push\njobs:\n  a:\n    steps:\n      - rnu: echo hi\n", encoding="utf-8"
    )
    done = subprocess.run(  # noqa: S603 - fixed argv on a temporary file
        [_tool("check-jsonschema"), "--builtin-schema", "vendor.github-workflows", str(broken)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode != 0


def test_zizmor_finds_nothing_in_the_templates(ci) -> None:
    """zizmor (offline audits, docs/ci/zizmor.yml) reports no finding on any template."""
    done = subprocess.run(  # noqa: S603 - fixed argv, files of this repository
        [
            _tool("zizmor"),
            "--offline",
            "--no-progress",
            "--config",
            str(ci.zizmor_config),
            *map(str, ci.workflows),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_template_puts_an_expression_in_a_run_script(ci) -> None:
    """No ``${{ }}`` inside a ``run:`` script: values reach scripts through ``env:`` only."""
    for path in ci.workflows:
        workflow = ci.load_workflow(path)
        assert ci.run_scripts(workflow), f"{path.name} has no run: step"
        assert ci.expressions_in_run(workflow) == [], path.name


def test_the_expression_rule_finds_an_expression_in_a_run_script(ci) -> None:
    """The rule's reader finds an expression in a one-line and in a block ``run:`` script."""
    workflow = {
        "jobs": {
            "a": {
                "steps": [
                    {"name": "safe", "env": {"S": "${{ inputs.stage }}"}, "run": 'echo "$S"'},
                    {"name": "inline", "run": "srdh gate ${{ inputs.stage }}"},
                    {"name": "block", "run": "set -eu\necho '${{github.event.issue.title}}'\n"},
                ]
            }
        }
    }
    assert ci.expressions_in_run(workflow) == ["a/inline", "a/block"]


def test_implementer_template_installs_the_kit_runs_the_suite_and_uploads_reports(ci) -> None:
    """The implementer template installs the kit, runs ``srdh run --iut``, uploads every report."""
    workflow = ci.load_workflow(ci.ci_dir / "github-actions-implementer.yml")
    steps = workflow["jobs"]["conformance"]["steps"]
    runs = [step.get("run", "") for step in steps]
    install = next(i for i, r in enumerate(runs) if "pip install" in r and "$SRDH_KIT" in r)
    suite = next(i for i, r in enumerate(runs) if r.startswith('srdh run --iut "$SRDH_IUT"'))
    assert install < suite
    assert "--report" in runs[suite]
    upload = next(i for i, s in enumerate(steps) if s.get("uses", "").startswith("actions/upload"))
    assert upload > suite
    assert steps[upload]["if"] == "always()"
    summary = next(i for i, r in enumerate(runs) if "GITHUB_STEP_SUMMARY" in r)
    assert steps[summary]["if"] == "always()"
    assert {"SRDH_KIT", "SRDH_IUT", "BUILD_COMMAND"} <= set(workflow["env"])
    assert workflow["permissions"] == {"contents": "read"}
