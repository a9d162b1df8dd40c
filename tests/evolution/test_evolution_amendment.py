"""The spec author's two walks on one copy of the kit, then one green ``srdh verify``.

1. A scenario amendment (docs/adding-a-scenario.md): the change adds "Client disconnects during
   a tool call" to the cancellation requirement; ``srdh scenario new`` writes the mirror, the
   When line and the phase-plan entries; the author's edits complete the Given steps, the Then
   registry entry (a check the kit has), the rule fragment, the fixture strategy and the
   property; the change is archived and committed with the documented command.
2. Then the contract loop (docs/contracts.md "Evolving a contract"): an optional field on a READ
   contract (``srdh contract check`` says minor, ``srdh contract update`` records it and
   regenerates the models and TypeScript types), committed, then a ``$id`` bump of a referenced
   contract (``srdh contract bump tool-call-id``): the ``$id`` and every ``$ref`` to it follow,
   the generated code does not change (the checks of test_evolution_bump.py's
   ``assert_every_reference_bumped``), committed.

``srdh verify .`` then passes every step. One verify judges both walks (it was one verify per
walk, ~33 CPU s each; docs/decisions/test-speed.md, Session 5). The two walks write disjoint
files: the contract loop writes ``schemas/`` (the changed schemas and the freeze lock),
``contracts/_generated/`` and ``types/``, none of which the amendment writes (it writes
``features/``, ``conformance/``, ``contracts/data/phase-plan.json`` and ``openspec/``). The loop
runs after the amendment is committed, so it cannot repair anything the amendment broke, and
the amendment runs before the loop, so it cannot repair anything the loop breaks: a defect of
either walk fails this verify as it failed its own. (The one meeting point is a gain: the plan
entries the amendment wrote are validated against the phase-plan schema the loop evolved.)
"""

from __future__ import annotations

import json
import subprocess
from typing import TYPE_CHECKING

import pytest

from tests.evolution.conftest import git, run_in, srdh
from tests.evolution.test_evolution_bump import assert_every_reference_bumped
from tests.evolution.test_evolution_scenario import NAME, WHEN, _add_change

if TYPE_CHECKING:
    from pathlib import Path

SCENARIO = "client-disconnects-during-a-tool-call"
REQUIREMENT_ID = "cancellation-shall-be-layered-and-observable"
THEN = "the system cancels the Tool work and records an internal cancelled terminal state"
RUNTIME_THEN = (
    "the tool work in flight is cancelled and recorded, and its invocation never becomes READY"
)
GIVEN = """    Given a user asks "Why is checkout failing?"
    And tool calls time out after 300 ms
    And in step 1 the agent calls search_logs with the Tool Call ID "call_1"
    And search_logs blocks until its work is cancelled, then answers a matching line late
    And the client disconnects on the TOOL_CALL_ACCEPTED event number 1
"""

STRATEGY = '''

@st.composite
def tool_disconnect_fixtures(draw: st.DrawFn) -> Fixture:
    """WHEN an SSE client disconnects while a Tool call is in flight (search_logs blocks)."""
    from conformance.fixtures import FixtureBuilder

    builder = FixtureBuilder()
    builder.ask(draw(st.sampled_from(["Why is checkout failing?", "Why is login slow?"])))
    builder.set_limit("tool_timeout_ms", draw(st.sampled_from([300, 600])))
    builder.add_call(1, "search_logs", "call_1")
    builder.tool_answers_after_cancel("search_logs", "search_logs late line")
    builder.disconnect_on("TOOL_CALL_ACCEPTED", 1)
    return builder.build(
        "client-disconnects-during-a-tool-call",
        requirement_id="cancellation-shall-be-layered-and-observable",
        scenario_id="client-disconnects-during-a-tool-call",
    )
'''


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.slow
@pytest.mark.timeout(1500)
def test_a_scenario_amendment_and_a_contract_evolution_end_green_in_verify(kit_copy: Path) -> None:
    """The documented commands and a few edits take a new scenario, an optional field and a
    ``$id`` bump to a green verify."""
    _amend_a_scenario(kit_copy)
    _evolve_contracts(kit_copy)
    verify = srdh(kit_copy, "verify", ".", timeout=1200)
    assert verify.returncode == 0, verify.stdout[-4000:] + verify.stderr[-2000:]
    assert "verify FAILED" not in verify.stdout


def _amend_a_scenario(kit_copy: Path) -> None:
    """docs/adding-a-scenario.md, step by step, committed (the walk of the module docstring)."""
    _add_change(kit_copy)
    done = srdh(kit_copy, "scenario", "new", SCENARIO, "--stage", "1", "--capability",
                "CANCELLATION")  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    # Given steps: the fixture, from the kit's existing Given vocabulary
    feature = next((kit_copy / "features").glob("08-*.feature"))
    _edit(feature, f'  Scenario: {NAME}\n    Given a user asks "Why is checkout failing?"\n',
          f"  Scenario: {NAME}\n{GIVEN}")  # fmt: skip
    # Then registry: the kit's check of cancelled tool work (the runtime Then registry's)
    then_py = kit_copy / "conformance/bdd/_then.py"
    _edit(
        then_py,
        "from conformance import checks\n",
        "from conformance import checks\n"
        "from conformance.bdd._then_runtime import RUNTIME_THEN_CHECKS\n",
    )
    _edit(
        then_py,
        "THEN_CHECKS: dict[str, _Check] = {\n",
        "THEN_CHECKS: dict[str, _Check] = {\n"
        f"    {THEN!r}: lambda c: RUNTIME_THEN_CHECKS[{RUNTIME_THEN!r}](c),\n",
    )
    # the rule that check reports quotes the new THEN sentence
    _edit(
        kit_copy / "conformance/checks/_rules.py",
        '("cancellable Tool work",),',
        f'("cancellable Tool work", {THEN!r}),',
    )
    # the strategy and the property
    scenarios = kit_copy / "conformance/strategies/_scenarios.py"
    scenarios.write_text(scenarios.read_text("utf-8") + STRATEGY, "utf-8")
    _edit(
        kit_copy / "conformance/strategies/_registry.py",
        "    no_evidence_cited_fixtures,\n",
        "    no_evidence_cited_fixtures,\n    tool_disconnect_fixtures,\n",
    )
    _edit(
        kit_copy / "conformance/strategies/_registry.py",
        '            "semanticguard-returns-an-invalid-schema": invalid_review_fixtures,\n',
        '            "semanticguard-returns-an-invalid-schema": invalid_review_fixtures,\n'
        f'            "{SCENARIO}": tool_disconnect_fixtures,\n',
    )
    _edit(
        kit_copy / "conformance/properties/_registry.py",
        "_ALL: Final = (\n",
        f'_ALL: Final = (\n    _run({SCENARIO!r}, {REQUIREMENT_ID!r}, {THEN!r}, "CANCELLATION"),\n',
    )
    fixtures = run_in(kit_copy, "-m", "conformance.fixtures")
    assert fixtures.returncode == 0, fixtures.stdout + fixtures.stderr
    trace = srdh(kit_copy, "trace", "--preview")
    assert trace.returncode == 0, trace.stdout[-3000:]
    # archive the change with the documented command (docs/adding-a-scenario.md, step 1.4)
    archive = subprocess.run(
        [  # noqa: S607 - bash from PATH, as a spec author runs it
            "bash",
            "-c",
            (
                "OPENSPEC_TELEMETRY=0 node_modules/.bin/openspec archive tool-call-identity "
                "--yes && git add -A openspec && "
                "git -c user.name=t -c user.email=t@example.invalid "
                'commit -q -m "Archive tool-call-identity"'
            ),
        ],
        cwd=kit_copy,
        capture_output=True,
        text=True,
        check=False,
    )
    assert archive.returncode == 0, archive.stdout + archive.stderr
    git(kit_copy, "add", "-A")
    git(kit_copy, "commit", "-q", "-m", "Mirror, checks and property of the new scenario")
    gate = srdh(kit_copy, "gate", "1")
    assert "stage 1: finished" in gate.stdout, gate.stdout
    assert WHEN in (kit_copy / "openspec/specs/single-react-diagnosis-harness/spec.md").read_text()


def _evolve_contracts(kit_copy: Path) -> None:
    """docs/contracts.md "Evolving a contract", step by step, committed."""
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

    git(kit_copy, "add", "-A")
    git(kit_copy, "commit", "-q", "-m", "phase-plan notes")

    bump = srdh(kit_copy, "contract", "bump", "tool-call-id")
    assert bump.returncode == 0, bump.stdout + bump.stderr
    assert_every_reference_bumped(kit_copy)
    git(kit_copy, "add", "-A")
    git(kit_copy, "commit", "-q", "-m", "tool-call-id v2")
