"""The repository's openspec/ tree is canonical, passes the official CLI, and is complete."""

from __future__ import annotations

import re
import shutil
from typing import TYPE_CHECKING

from conformance.gate import unmerged
from conformance.openspec import lint_items, lint_tree, load_tree, parse_delta, parse_spec
from contracts import load_phase_plan

if TYPE_CHECKING:
    from pathlib import Path

ARCHIVE = "openspec/changes/archive/2026-07-21-single-react-design-freeze"
CAPABILITY = "single-react-diagnosis-harness"

# The phase plan as the design freeze fixes it: order, stage, change id, title, public entry.
PHASE_PLAN = [
    (1, "0", "single-react-design-freeze", "Freeze the stage-zero contracts", "LEGACY"),
    (
        2,
        "1",
        "tool-call-identity",
        "Tool Call ID identity and the invocation lifecycle in the Harness",
        "LEGACY",
    ),
    (3, "2", "durable-diagnosis-run", "diagnosis_run store and previous-turn selection", "LEGACY"),
    (
        4,
        "3",
        "harness-retries-and-cancellation",
        "Harness-owned retries and layered cancellation",
        "LEGACY",
    ),
    (
        5,
        "4",
        "internal-react-agent",
        "The single ReAct Diagnosis Agent behind an internal entry",
        "LEGACY",
    ),
    (
        6,
        "5",
        "evidence-and-semantic-guards",
        "EvidenceGuard, SemanticGuard and Safe Fallback",
        "LEGACY",
    ),
    (7, "6A", "knowledge-query-bindings", "KNOWLEDGE_QUERY path with exact RAG bindings", "LEGACY"),
    (
        8,
        "6B",
        "public-chat-cutover",
        "Public chat entry cut over to the single ReAct Harness",
        "SINGLE_REACT",
    ),
    (
        9,
        "7",
        "legacy-path-retirement",
        "Remove the legacy Planner/Executor/Composer path",
        "SINGLE_REACT",
    ),
    (
        10,
        "8",
        "real-model-conformance",
        "Conformance suite against real models in CI (perturbations)",
        "SINGLE_REACT",
    ),
    (11, "9", "production-hardening", "Run-store retention, dashboards and SLOs", "SINGLE_REACT"),
]
_TASK = re.compile(
    r"^- \[(?P<done>[ x])\] 2\.(?P<order>\d+) Stage `(?P<stage>[^`]+)` `(?P<id>[a-z0-9-]+)`: "
    r"(?P<title>.+) \(public entry (?P<entry>LEGACY|SINGLE_REACT)\)\. Reason: (?P<reason>.+)$"
)


def test_official_cli_accepts_the_tree(repo_root: Path, openspec_cli) -> None:
    """``openspec validate --all --strict`` passes on the repository with every item valid."""
    report = openspec_cli(repo_root)
    assert report["exit_code"] == 0
    active = {c.id for c in load_tree(repo_root).changes if not c.archived}
    expected = {("spec", CAPABILITY)} | {("change", change_id) for change_id in active}
    assert {(i["type"], i["id"]) for i in report["items"]} == expected
    assert all(item["valid"] and not item["issues"] for item in report["items"])


def test_archived_delta_validates_as_an_active_change(
    repo_root: Path, tmp_path: Path, openspec_cli
) -> None:
    """In a scratch ``changes/<id>/``, the archived change passes the CLI and the linter."""
    scratch = tmp_path / "scratch"
    shutil.copytree(repo_root / "openspec", scratch / "openspec")
    shutil.rmtree(scratch / "openspec/changes/archive")
    shutil.copytree(repo_root / ARCHIVE, scratch / "openspec/changes/single-react-design-freeze")
    report = openspec_cli(scratch)
    verdicts = {(i["type"], i["id"]): i["valid"] for i in report["items"]}
    assert verdicts == {("change", "single-react-design-freeze"): True, ("spec", CAPABILITY): True}
    assert {(r.kind, r.id): r.valid for r in lint_items(scratch)} == verdicts


def test_kit_linter_finds_nothing(repo_root: Path) -> None:
    """The kit's linter (official and kit rules, strict) reports no issue on the repository."""
    assert lint_tree(repo_root, strict=True) == []


def test_main_spec_holds_the_stage_zero_requirements_or_their_later_changes(
    repo_root: Path,
) -> None:
    """The main spec says what every archived delta says, the last one touching a requirement
    deciding (the gate's merge check); stage 0 added every requirement it has or had."""
    tree = load_tree(repo_root)
    plan = [c.change_id for c in load_phase_plan().changes]
    archived = sorted((c for c in tree.changes if c.archived), key=lambda c: plan.index(c.id))
    assert unmerged(repo_root, [(c.id, c.path) for c in archived]) == {}
    delta = parse_delta(repo_root / f"{ARCHIVE}/specs/{CAPABILITY}/spec.md")
    assert [s.operation for s in delta.sections] == ["ADDED"]
    main = parse_spec(repo_root / f"openspec/specs/{CAPABILITY}/spec.md")
    later = {
        name
        for c in archived[1:]
        for d in c.deltas
        for section in d.sections
        for name in [*(r.name for r in section.requirements), *section.removed]
    }
    stage_zero = {r.name for r in delta.requirements("ADDED")}
    assert {r.name for r in main.requirements} - later <= stage_zero
    assert len(main.purpose) >= 50


def test_tasks_carry_the_phase_plan(repo_root: Path) -> None:
    """tasks.md lists the eleven serial changes with the fixed stages, ids, titles and entries."""
    lines = (repo_root / ARCHIVE / "tasks.md").read_text(encoding="utf-8").splitlines()
    tasks = [m for line in lines if (m := _TASK.match(line))]
    got = [(int(m["order"]), m["stage"], m["id"], m["title"], m["entry"]) for m in tasks]
    plan = [
        (c.order, c.stage.value, c.change_id, c.title, c.public_entry.value)
        for c in load_phase_plan().changes
    ]
    assert plan == PHASE_PLAN  # the data file is the frozen table
    assert got == plan  # and tasks.md says the same as the data file
    assert all(len(m["reason"]) > 20 for m in tasks)
    assert [m["done"] for m in tasks] == ["x"] + [" "] * 10


def test_archive_folder_matches_stage_zero(repo_root: Path) -> None:
    """Stage 0 is archived, dated, with proposal, design, tasks and one delta."""
    tree = load_tree(repo_root)
    (change,) = [c for c in tree.changes if c.id == "single-react-design-freeze"]
    assert (change.id, change.archived, change.archive_date) == (
        "single-react-design-freeze",
        True,
        "2026-07-21",
    )
    assert change.proposal
    assert change.design
    assert change.tasks
    assert [d.capability for d in change.deltas] == [CAPABILITY]
    proposal = change.proposal.read_text(encoding="utf-8")
    for heading in ("## Why", "## What Changes", "## Impact"):
        assert heading in proposal
    design = change.design.read_text(encoding="utf-8")
    assert "## Decisions where the spec is silent" in design
