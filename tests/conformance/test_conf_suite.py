"""``run_suite``: the Gherkin suite run programmatically, results keyed by requirement/scenario."""

import json
import shutil
import sys
from pathlib import Path

import pytest

from conformance.adapters import InProcessAdapter, StdioAdapter
from conformance.openspec import load_tree
from conformance.suite import (
    CatalogueError,
    SuiteSetupError,
    features_dir,
    load_catalogue,
    run_suite,
)

IUTS = Path(__file__).resolve().parent / "iuts"
REPO = Path(__file__).resolve().parents[2]
DUPLICATE = "duplicate-tool-call-id-is-proposed"
TOOL_ID_REQUIREMENT = "tool-invocation-identity-shall-use-the-framework-tool-call-id"
CANCELLATION = [
    "client-disconnects-during-a-model-call",
    "the-model-adapter-swallows-the-first-cancellation",
]


@pytest.fixture
def adapter_for(monkeypatch):
    monkeypatch.syspath_prepend(str(IUTS))
    made = []

    def make(spec: str) -> InProcessAdapter:
        made.append(InProcessAdapter(spec))
        return made[-1]

    yield make
    for adapter in made:
        adapter.close()


def test_catalogue_lists_every_scenario_once():
    """Every scenario has a unique id, a requirement id and the requirement's RFC 2119 level."""
    catalogue = load_catalogue()
    ids = [entry.scenario_id for entry in catalogue]
    assert len(ids) == len(set(ids))
    assert {entry.level for entry in catalogue} == {"SHALL"}
    spec = load_tree(REPO).specs["single-react-diagnosis-harness"]
    spec_ids = {s.id for r in spec.requirements for s in r.scenarios}
    assert {e.scenario_id for e in catalogue if e.kind == "spec"} == spec_ids


def test_unknown_scenario_id_is_a_setup_error(adapter_for):
    """An unknown scenario id stops the run before anything executes, naming the id."""
    with pytest.raises(SuiteSetupError, match=r"unknown scenario id.*no-such-scenario"):
        run_suite(adapter_for("reference_harness.iut:create"), scenario_ids=["no-such-scenario"])


def test_a_mistyped_scenario_id_gets_a_suggestion(adapter_for):
    """A typo names the closest known id; an id like no other gets no suggestion."""
    with pytest.raises(SuiteSetupError) as caught:
        run_suite(
            adapter_for("reference_harness.iut:create"),
            scenario_ids=["duplicate-tool-call-id-is-propsed", "no-such-scenario"],
        )
    message = str(caught.value)
    # The closest known id comes first (more may follow: at most three, by difflib's ratio).
    assert (
        "'duplicate-tool-call-id-is-propsed' (did you mean 'duplicate-tool-call-id-is-proposed'"
        in message
    )
    assert "'no-such-scenario' (no close match)" in message
    assert "'no-such-scenario' (did you mean" not in message


def test_unknown_level_is_a_setup_error(adapter_for):
    """A level outside RFC 2119 is refused."""
    with pytest.raises(SuiteSetupError, match="unknown level 'OFTEN'"):
        run_suite(adapter_for("reference_harness.iut:create"), level="OFTEN")


def test_selected_scenarios_pass_and_are_reported(adapter_for, tmp_path):
    """A selection runs only those scenarios (outline rows included) and writes the JSON report."""
    report = tmp_path / "suite.json"
    selected = [DUPLICATE, "a-missing-or-invalid-tool-call-id-is-rejected-and-never-executed"]
    result = run_suite(
        adapter_for("reference_harness.iut:create"), scenario_ids=selected, report=report
    )
    assert list(result.requirements) == [TOOL_ID_REQUIREMENT]
    requirement = result.requirements[TOOL_ID_REQUIREMENT]
    assert requirement.level == "SHALL"
    assert sorted(requirement.scenarios) == sorted(selected)
    assert result.scenario(DUPLICATE).outcome == "passed"
    outline = result.scenario(selected[1])
    assert len(outline.examples) == 10  # six field-case rows, padded, look-alike, numeric, long
    assert outline.outcome == "passed"
    written = json.loads(report.read_text(encoding="utf-8"))
    assert written["requirements"][TOOL_ID_REQUIREMENT]["scenarios"][DUPLICATE]["outcome"] == (
        "passed"
    )


def test_broken_iut_fails_with_the_check_message(adapter_for):
    """An IUT that overwrites the first invocation fails the scenario with the check's message."""
    result = run_suite(adapter_for("broken_factories:overwrite"), scenario_ids=[DUPLICATE])
    scenario = result.scenario(DUPLICATE)
    assert scenario.outcome == "failed"
    assert not result.passed
    assert any("first canonical invocation was overwritten" in m for m in scenario.messages)


def test_missing_capability_is_a_reported_skip(adapter_for):
    """Scenarios needing a capability the IUT does not declare are skipped, saying which."""
    result = run_suite(adapter_for("broken_factories:no_cancellation"), scenario_ids=CANCELLATION)
    for scenario_id in CANCELLATION:
        scenario = result.scenario(scenario_id)
        assert scenario.outcome == "skipped"
        assert scenario.messages == ["IUT lacks capability CANCELLATION (declared in its hello)"]


@pytest.mark.parametrize(
    ("mode", "timeout_s", "reason"),
    [
        ("crash", 60.0, "IUT exited (exit code 1)"),
        ("hang", 1.0, "sent no complete message within the timeout"),
    ],
)
def test_broken_stdio_iut_fails_scenarios_without_stopping_the_suite(mode, timeout_s, reason):
    """A crashing or hanging IUT fails its scenarios with the adapter's reason; the rest runs."""
    adapter = StdioAdapter([sys.executable, str(IUTS / "lying_iut.py"), mode], timeout_s)
    try:
        result = run_suite(adapter, scenario_ids=[DUPLICATE, "contract-ownership-is-inspected"])
    finally:
        adapter.close()
    failed = result.scenario(DUPLICATE)
    assert failed.outcome == "failed"
    assert any(reason in message for message in failed.messages)
    assert not any("AdapterError" in message for message in failed.messages)  # no Python names
    assert result.scenario("contract-ownership-is-inspected").outcome == "passed"


def test_catalogue_refuses_two_scenarios_of_one_name(tmp_path):
    """F12: a feature with two scenarios of one name is a CatalogueError naming both lines."""
    folder = tmp_path / "features"
    shutil.copytree(features_dir(), folder)
    appended = (
        Path(__file__).resolve().parents[1]
        / "traceability"
        / "inputs"
        / "appended-scenario.feature.txt"
    )
    feature = next(folder.glob("02-*.feature"))
    feature.write_text(
        feature.read_text(encoding="utf-8") + appended.read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    lines = [
        n
        for n, line in enumerate(feature.read_text(encoding="utf-8").splitlines(), start=1)
        if line.strip() == "Scenario: Two calls in one step share a Tool Call ID"
    ]
    assert len(lines) == 2
    with pytest.raises(CatalogueError) as caught:
        load_catalogue(folder)
    assert f"{feature}:{lines[1]}" in str(caught.value)
    assert f"line {lines[0]}" in str(caught.value)
