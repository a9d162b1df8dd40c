"""`srdh spec lint` agrees with the official CLI on archive history (field fault G2).

The official CLI is the referee. Every tree here is made by the official CLI's own
``openspec archive``: a history of changes (a requirement MODIFIED twice, the second adding a
scenario, as the field input; ADDED then REMOVED; MODIFIED then RENAMED; a new capability
ADDED then MODIFIED), archived one after the other. Per tree, the kit's verdicts equal
``openspec validate --all --strict`` (which never re-checks an archive against today's specs)
and, with ``archived_tasks``, ``openspec validate --archived`` (every task done).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from typing import TYPE_CHECKING, Any

import pytest
from filelock import FileLock

from conformance.cli import app
from conformance.openspec import lint_items

from .conftest import CLI, REPO, VALIDATE_ALL, VALIDATE_ARCHIVED, timeless

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = pytest.mark.slow

FIELD = REPO / "tests" / "field_inputs" / "round3" / "openspec-archived-modified-history"

SERVING = """# files Specification

## Purpose

Record what the toy file-serving capability promises so that implementers and reviewers share \
one contract.

## Requirements

### Requirement: File Serving
The system MUST serve static files from the root directory.

#### Scenario: A file is requested

- **WHEN** a client requests an existing file
- **THEN** the file is returned
"""

MODIFIED_1 = """## MODIFIED Requirements

### Requirement: File Serving
The system MUST serve static files from the root directory with a Content-Type header.

#### Scenario: A file is requested

- **WHEN** a client requests an existing file
- **THEN** the file is returned with its Content-Type
"""

MODIFIED_2 = (
    MODIFIED_1
    + """
#### Scenario: A missing file is requested

- **WHEN** a client requests a missing file
- **THEN** a 404 is returned
"""
)

ADDED_CACHING = """## ADDED Requirements

### Requirement: Caching
The system MUST send an ETag with every file it serves.

#### Scenario: A file is served

- **WHEN** a client requests an existing file
- **THEN** the response carries an ETag
"""

REMOVED_CACHING = """## REMOVED Requirements

### Requirement: Caching
**Reason**: ETags moved to the CDN.
**Migration**: none.
"""

RENAMED = """## RENAMED Requirements

- FROM: `### Requirement: File Serving`
- TO: `### Requirement: Static File Serving`
"""

NEW_CAPABILITY = """## ADDED Requirements

### Requirement: Audit Log
The system MUST record every file it serves.

#### Scenario: A file is served

- **WHEN** a client requests an existing file
- **THEN** one audit line is written
"""

MODIFIED_CAPABILITY = """## MODIFIED Requirements

### Requirement: Audit Log
The system MUST record every file it serves, with the client address.

#### Scenario: A file is served

- **WHEN** a client requests an existing file
- **THEN** one audit line with the client address is written
"""

Change = tuple[str, dict[str, str], str]
"""(change id, capability -> delta spec text, tasks.md text)."""

DONE = "## 1. Implementation\n\n- [x] 1.1 Do it\n"

HISTORIES: dict[str, list[Change]] = {
    "modified-then-extended": [  # the field input (build.sh)
        ("add-content-type", {"files": MODIFIED_1}, DONE),
        ("add-missing-file", {"files": MODIFIED_2}, DONE),
    ],
    "added-then-removed": [
        ("add-caching", {"files": ADDED_CACHING}, DONE),
        ("drop-caching", {"files": REMOVED_CACHING}, DONE),
    ],
    "modified-then-renamed": [
        ("add-content-type", {"files": MODIFIED_1}, DONE),
        ("rename-serving", {"files": RENAMED}, DONE),
    ],
    "new-capability-then-modified": [
        ("add-audit", {"audit": NEW_CAPABILITY}, DONE),
        ("audit-address", {"audit": MODIFIED_CAPABILITY}, DONE),
    ],
    "archived-with-an-open-task": [
        ("add-content-type", {"files": MODIFIED_1}, DONE + "- [ ] 1.2 Document it\n"),
    ],
}


def _openspec(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 - the official CLI, constant arguments
        [str(CLI), *args],
        cwd=folder,
        capture_output=True,
        text=True,
        env={**os.environ, "OPENSPEC_TELEMETRY": "0"},
        timeout=120,
        check=False,
    )


def _build(root: Path, history: list[Change]) -> Path:
    """The history made by the official CLI: each change written, then ``openspec archive``."""
    (root / "openspec" / "specs" / "files").mkdir(parents=True)
    (root / "openspec" / "specs" / "files" / "spec.md").write_text(SERVING, encoding="utf-8")
    for change_id, deltas, tasks in history:
        folder = root / "openspec" / "changes" / change_id
        for capability, text in deltas.items():
            (folder / "specs" / capability).mkdir(parents=True)
            (folder / "specs" / capability / "spec.md").write_text(text, encoding="utf-8")
        (folder / "proposal.md").write_text(
            f"## Why\n\nThe {change_id} change is needed for the toy server.\n\n"
            f"## What Changes\n\n- {change_id}.\n",
            encoding="utf-8",
        )
        (folder / "tasks.md").write_text(tasks, encoding="utf-8")
        done = _openspec(root, "archive", change_id, "--yes")
        assert done.returncode == 0, done.stdout + done.stderr
        assert not folder.exists(), "openspec archive left the change active"
    return root


def _verdicts(report: dict[str, Any]) -> dict[tuple[str, str], bool]:
    return {(item["type"], item["id"]): item["valid"] for item in report["items"]}


def _run_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary folder every pytest-xdist worker of this test run shares."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="module")
def histories(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each history built once per test run by the official CLI, whichever worker needs it.

    ``make test`` (``--dist worksteal``) hands this module's tests to several workers, and a
    module fixture ran once per worker: every history archived again (a Node process per
    ``openspec archive``, ~0.7 CPU s each). The first worker builds the trees under a file lock
    in the run's common temporary folder and marks them built; the others read the same trees.
    No test writes into them. A failed build leaves no mark, so the next worker builds again.
    """
    if shutil.which("node") is None or not CLI.exists():
        pytest.fail("node and node_modules/.bin/openspec are needed (make setup): the referee")
    shared = _run_root(tmp_path_factory)
    base, built = shared / "openspec-histories", shared / "openspec-histories.built"
    with FileLock(str(shared / "openspec-histories.lock")):
        if not built.exists():
            shutil.rmtree(base, ignore_errors=True)  # a build that failed half-way
            for name, changes in HISTORIES.items():
                _build(base / name, changes)
            built.touch()
    return {name: base / name for name in HISTORIES}


@pytest.fixture(scope="module")
def official(
    histories, openspec_validate_many, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, dict[str, dict[str, Any]]]:
    """``openspec validate --all --strict`` and ``--archived`` (JSON) of each history: "all" and
    "archived" -> history name -> report, from one Node process (``openspec_validate_many``),
    once per test run like the trees they judge (``histories``)."""
    shared = _run_root(tmp_path_factory)
    record = shared / "openspec-histories-official.json"
    with FileLock(str(shared / "openspec-histories.lock")):
        if record.exists():
            reports: dict[str, dict[str, dict[str, Any]]] = json.loads(record.read_text("utf-8"))
            return reports
        names = sorted(histories)
        folders = [histories[n] for n in names]
        reports = {
            key: dict(zip(names, openspec_validate_many(folders, options), strict=True))
            for key, options in (("all", VALIDATE_ALL), ("archived", VALIDATE_ARCHIVED))
        }
        partial = record.with_suffix(".part")
        partial.write_text(json.dumps(reports), encoding="utf-8")
        partial.replace(record)
        return reports


def test_the_batched_archived_referee_reports_what_the_cli_prints(histories, official) -> None:
    """``--archived`` through the one-process batch is the CLI's report, on the history with an
    open task (``--all`` is checked the same way in test_openspec_differential.py)."""
    name = "archived-with-an-open-task"
    done = _openspec(histories[name], "validate", "--archived", "--json", "--no-interactive")
    batched = {k: v for k, v in official["archived"][name].items() if k != "exit_code"}
    assert timeless(json.loads(done.stdout)) == timeless(batched)
    assert official["archived"][name]["exit_code"] == done.returncode == 1


@pytest.mark.parametrize("name", sorted(HISTORIES))
def test_g2_validate_all_agrees_on_archive_history(name: str, histories, official) -> None:
    """Specs and active changes: the same verdicts; archives: no official rule, as the CLI."""
    root = histories[name]
    cli = _verdicts(official["all"][name])
    reports = lint_items(root, strict=True, kit_rules=False)
    ours = {(r.kind, r.id): r.valid for r in reports if r.kind != "archived-change"}
    assert ours == cli
    archived = [r for r in reports if r.kind == "archived-change"]
    assert len(archived) == len(HISTORIES[name])
    assert all(r.issues == () for r in archived)
    kit = lint_items(root, strict=True)  # and the kit's own KIT_* rules take these trees too
    assert all(r.valid for r in kit) is all(cli.values())
    # a capability the archive created has the CLI's placeholder Purpose: invalid (strict), both
    assert all(cli.values()) is (name != "new-capability-then-modified")


@pytest.mark.parametrize("name", sorted(HISTORIES))
def test_g2_archived_tasks_agrees_with_validate_archived(name: str, histories, official) -> None:
    """``archived_tasks``: the verdict of ``openspec validate --archived`` per archive."""
    root = histories[name]
    cli = {item["id"]: item["valid"] for item in official["archived"][name]["items"]}
    reports = lint_items(root, strict=True, kit_rules=False, archived_tasks=True)
    ours = {r.id: r.valid for r in reports if r.kind == "archived-change"}
    assert ours == cli
    assert all(cli.values()) is (name != "archived-with-an-open-task")


def test_g2_the_field_tree_is_what_the_official_archive_makes(histories) -> None:
    """The field input's tree (build.sh's result) equals the one built here, file for file."""
    built = histories["modified-then-extended"] / "openspec"
    expected = FIELD / "tree" / "openspec"

    def files(root: Path) -> dict[str, str]:
        """Path (an archive's date prefix dropped) -> text, proposals aside (their wording)."""
        found = {}
        for path in sorted(root.rglob("*")):
            if not path.is_file() or path.name == "proposal.md":
                continue
            parts = list(path.relative_to(root).parts)
            if parts[:2] == ["changes", "archive"]:
                parts[2] = parts[2][len("YYYY-MM-DD-") :]
            found["/".join(parts)] = path.read_text(encoding="utf-8")
        return found

    assert files(built) == files(expected)


def test_g2_srdh_spec_lint_passes_archive_history_on_a_kit_copy(tmp_path: Path) -> None:
    """The field input's kit-copy case: two archives MODIFY one requirement of the kit's spec,
    the later one adding a scenario; srdh spec lint says valid (was OPENSPEC_SCENARIO_LOSS)."""
    from typer.testing import CliRunner  # noqa: PLC0415

    shutil.copytree(REPO / "openspec", tmp_path / "openspec")
    for folder in sorted((FIELD / "kit-copy-archive").iterdir()):
        shutil.copytree(folder, tmp_path / "openspec" / "changes" / "archive" / folder.name)
    result = CliRunner().invoke(app, ["spec", "lint", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "OPENSPEC_SCENARIO_LOSS" not in result.output
    assert "0 invalid" in result.output


def test_no_kit_rule_wears_an_official_code() -> None:
    """Every OPENSPEC_* code the linter emits is one the official CLI's rules give; the kit's
    own rules are KIT_*. The official messages are found in the CLI's own sources."""
    sources = "\n".join(
        p.read_text(encoding="utf-8") for p in (REPO / "conformance" / "openspec").glob("*.py")
    )
    import re  # noqa: PLC0415

    codes = set(re.findall(r'"(OPENSPEC_[A-Z_]+|KIT_[A-Z_]+)"', sources))
    official = {c for c in codes if c.startswith("OPENSPEC_")}
    # each official code with a phrase of the CLI's own message (node_modules/@fission-ai)
    phrases = {
        "OPENSPEC_ARCHIVED_TASKS_INCOMPLETE": "incomplete task",
        "OPENSPEC_ARCHIVED_TASKS_UNREADABLE": "could not read task file",
        "OPENSPEC_DELTA_AT_SPECS_ROOT": "Delta spec found at specs/spec.md",
        "OPENSPEC_DELTA_HEADER_IN_SPEC": "Main spec contains delta header",
        "OPENSPEC_DUPLICATE_RENAME": "RENAMED",
        "OPENSPEC_DUPLICATE_REQUIREMENT": "Duplicate requirement",
        "OPENSPEC_DUPLICATE_TASK_ID": "is duplicated; it was first declared",
        "OPENSPEC_EMPTY_DELTA_SECTIONS": "Delta sections",
        "OPENSPEC_NO_BODY": "must contain",
        "OPENSPEC_NO_DELTAS": "must have at least one delta",
        "OPENSPEC_NO_DELTA_SECTIONS": "No delta sections found",
        "OPENSPEC_NO_PURPOSE": "Purpose",
        "OPENSPEC_NO_REQUIREMENTS": "at least one requirement",
        "OPENSPEC_NO_REQUIREMENTS_SECTION": "Requirements",
        "OPENSPEC_NO_SCENARIO": "must include at least one scenario",
        "OPENSPEC_NO_SHALL_OR_MUST": "SHALL or MUST",
        "OPENSPEC_ORPHAN_REQUIREMENT": "Requirement",
        "OPENSPEC_PURPOSE_PLACEHOLDER": "Update Purpose after archive",
        "OPENSPEC_PURPOSE_TOO_SHORT": "Purpose section is too brief",
        "OPENSPEC_REQUIREMENT_OUTSIDE_SECTION": "appears outside the main ## Requirements",
        "OPENSPEC_SCENARIO_LOSS": "omits scenario(s) the current spec still has",
        "OPENSPEC_SECTION_CONFLICT": "present in both",
        "OPENSPEC_TASKS_WITHOUT_CHECKBOX": "no line in its tracked task files is a checkbox",
        "OPENSPEC_TASK_GROUP_MISMATCH": "but its leading number points to group",
        "OPENSPEC_TELEMETRY": "OPENSPEC_TELEMETRY",
        "OPENSPEC_UNPAIRED_RENAME": "FROM",
        "OPENSPEC_UNREAD_DELTA_FILE": "this file is ignored when the change is applied",
    }
    assert official <= set(phrases), sorted(official - set(phrases))
    cli = "\n".join(
        p.read_text(encoding="utf-8")
        for p in (REPO / "node_modules" / "@fission-ai" / "openspec" / "dist").rglob("*.js")
    )
    missing = {code: phrase for code, phrase in phrases.items() if phrase not in cli}
    assert missing == {}


def test_srdh_spec_lint_archived_tasks_flag_applies_validate_archived(histories) -> None:
    """``srdh spec lint --archived-tasks`` fails an archive with an open task; without, not."""
    from typer.testing import CliRunner  # noqa: PLC0415

    root = histories["archived-with-an-open-task"]
    plain = CliRunner().invoke(app, ["spec", "lint", str(root)])
    flagged = CliRunner().invoke(app, ["spec", "lint", "--archived-tasks", str(root)])
    assert plain.exit_code == 0, plain.output
    assert flagged.exit_code == 1, flagged.output
    assert "OPENSPEC_ARCHIVED_TASKS_INCOMPLETE 1 incomplete task (1/2 completed)" in flagged.output
