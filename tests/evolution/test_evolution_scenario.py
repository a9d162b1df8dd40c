"""Adding a scenario: an OpenSpec change, `srdh spec show --preview`, `srdh scenario new`, trace.

On a copy of the kit: a change (not archived) adds "Client disconnects during a tool call" to the
cancellation requirement. The preview lists it; the scaffold writes its Gherkin mirror (WHEN and
THEN verbatim), its When registry line and its phase-plan entries; `srdh trace --preview` then
finds it mirrored, its When bound, and names the Then registry for the THEN still to check.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from conformance.gate import load_phase_plan, plan_coverage
from tests.evolution.conftest import srdh

if TYPE_CHECKING:
    from pathlib import Path

CAPABILITY = "single-react-diagnosis-harness"
REQUIREMENT = "Cancellation SHALL be layered and observable"
NAME = "Client disconnects during a tool call"
WHEN = "the client disconnects while a Tool call is in flight"
THEN = "the system cancels the Tool work and records an internal cancelled terminal state"


def _add_change(copy: Path) -> None:
    spec = (copy / "openspec" / "specs" / CAPABILITY / "spec.md").read_text("utf-8")
    start = spec.index(f"### Requirement: {REQUIREMENT}")
    end = spec.index("### Requirement:", start + 1)
    block = spec[start:end].rstrip("\n")
    change = copy / "openspec" / "changes" / "tool-call-identity"
    (change / "specs" / CAPABILITY).mkdir(parents=True)
    (change / "proposal.md").write_text(
        "# Tool call identity\n\n## Why\nA client can leave while a tool call runs; the spec "
        "says what the Harness does then.\n\n## What Changes\n- A scenario for a client "
        "disconnect during a tool call.\n\n## Impact\n- Cancellation.\n",
        "utf-8",
    )
    (change / "tasks.md").write_text("## 1. Work\n- [ ] 1.1 Mirror and check it\n", "utf-8")
    delta = (
        f"## MODIFIED Requirements\n\n{block}\n\n#### Scenario: {NAME}\n\n"
        f"- **WHEN** {WHEN}\n- **THEN** {THEN}\n"
    )
    (change / "specs" / CAPABILITY / "spec.md").write_text(delta, "utf-8")


def test_a_scenario_of_an_active_change_is_scaffolded(kit_copy: Path) -> None:
    """One command writes the mirror, the When registry line and the plan entries."""
    _add_change(kit_copy)
    lint = srdh(kit_copy, "spec", "lint")
    assert lint.returncode == 0, lint.stdout + lint.stderr
    show = srdh(kit_copy, "spec", "show", "--preview")
    assert "client-disconnects-during-a-tool-call" in show.stdout
    assert "change tool-call-identity" in show.stdout

    done = srdh(
        kit_copy,
        "scenario",
        "new",
        "client-disconnects-during-a-tool-call",
        "--stage",
        "1",
        "--capability",
        "CANCELLATION",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    feature = next((kit_copy / "features").glob("08-*.feature")).read_text("utf-8")
    assert f"  Scenario: {NAME}\n" in feature
    assert f"    When {WHEN}\n    Then {THEN}\n    And every global invariant holds\n" in feature
    assert json.dumps(WHEN) in (kit_copy / "conformance/bdd/_when.py").read_text("utf-8")
    plan = json.loads((kit_copy / "contracts/data/phase-plan.json").read_text("utf-8"))
    gated = [c["stage"] for c in plan["changes"] if NAME in c["gate_scenarios"]]
    assert gated == ["1", "6B", "7", "8", "9"]
    model = load_phase_plan(kit_copy / "contracts/data/phase-plan.json")
    names = [*_main_names(kit_copy), NAME]
    assert plan_coverage(model, names, "plan") == []
    assert "THEN_CHECKS" in done.stdout  # what is left names its registry

    trace = srdh(kit_copy, "trace", "--preview", "--json")
    issues = json.loads(trace.stdout)["issues"]
    mine = [i for i in issues if i.get("scenario_id") == "client-disconnects-during-a-tool-call"]
    codes = {i["code"] for i in mine}
    assert "TRACE_NO_MIRROR" not in codes
    unbound = [i for i in mine if i["code"] == "TRACE_UNIMPLEMENTED_STEP"]
    assert unbound
    assert all("THEN_CHECKS in conformance/bdd/_then.py" in i["message"] for i in unbound)
    again = srdh(
        kit_copy, "scenario", "new", "client-disconnects-during-a-tool-call", "--stage", "1"
    )
    assert again.returncode == 2
    assert "already has a mirror" in again.stderr


def _main_names(copy: Path) -> list[str]:
    from conformance.openspec import load_tree  # noqa: PLC0415 - the copy's spec

    tree = load_tree(copy)
    return [s.name for spec in tree.specs.values() for r in spec.requirements for s in r.scenarios]
