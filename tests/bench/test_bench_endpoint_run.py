"""The declared-wait floor and the endpoint-run benchmark's bookkeeping (no timing asserted)."""

import json

from bench import endpoint_run
from bench.declared_wait import declared_wait_s, floor_s, recorded_fixtures


def _fixture(**parts):
    fixture = {
        "router": [{"kind": "intent", "intent": "DIAGNOSIS"}],
        "agent": [{"kind": "draft", "draft": {}}],
        "semantic_guard": [{"kind": "verdict", "verdict": {}}],
        "tools": {"search_logs": {"responses": [{"kind": "rows", "items": []}]}},
        "client": {},
        "limits": {"model_call_timeout_ms": 300, "tool_timeout_ms": 200},
    }
    fixture.update(parts)
    return fixture


def test_a_fixture_without_timeout_turns_declares_no_wait():
    assert declared_wait_s(_fixture(), endpoint=True) == 0.0
    assert declared_wait_s(_fixture(), endpoint=False) == 0.0


def test_an_unanswered_model_turn_is_waited_only_over_the_endpoint():
    fixture = _fixture(router=[{"kind": "error", "error": "TIMEOUT"}, {"kind": "intent"}])
    assert declared_wait_s(fixture, endpoint=True) == 0.3
    assert declared_wait_s(fixture, endpoint=False) == 0.0
    unavailable = _fixture(router=[{"kind": "error", "error": "UNAVAILABLE"}])
    assert declared_wait_s(unavailable, endpoint=True) == 0.0


def test_blocked_model_turns_and_tools_wait_their_timeouts_on_both_paths():
    block = {"kind": "block_until_cancelled", "then": {"kind": "verdict", "verdict": {}}}
    tools = {"search_logs": {"responses": [{"kind": "block_until_cancelled"}, {"kind": "rows"}]}}
    fixture = _fixture(semantic_guard=[block, block], tools=tools)
    for endpoint in (True, False):
        assert declared_wait_s(fixture, endpoint=endpoint) == 0.3 + 0.3 + 0.2


def test_a_client_disconnect_may_end_every_wait_so_it_counts_none():
    fixture = _fixture(
        router=[{"kind": "error", "error": "TIMEOUT"}],
        client={"disconnect_on": {"event_type": "RUN_STARTED", "occurrence": 1}},
    )
    assert declared_wait_s(fixture, endpoint=True) == 0.0


def test_absent_limits_are_the_schema_defaults():
    fixture = _fixture(agent=[{"kind": "error", "error": "TIMEOUT"}])
    del fixture["limits"]
    assert declared_wait_s(fixture, endpoint=True) == 5.0


def test_the_floor_sums_the_fixtures_of_a_recording(tmp_path):
    waiting = _fixture(router=[{"kind": "error", "error": "TIMEOUT"}])
    lines = [
        {"seq": 1, "from": "iut", "message": {"type": "hello"}},
        {"seq": 2, "from": "kit", "message": {"type": "run", "fixture": waiting}},
        {"seq": 3, "from": "iut", "message": {"type": "observation"}},
        {"seq": 4, "from": "kit", "message": {"type": "run", "fixture": _fixture()}},
        {"seq": 5, "from": "kit", "request_id": "r2", "failure": "hung"},
    ]
    (tmp_path / "exchange.ndjson").write_text("".join(json.dumps(x) + "\n" for x in lines))
    fixtures = recorded_fixtures(tmp_path)
    assert fixtures == [waiting, _fixture()]
    assert floor_s(fixtures, endpoint=True) == 0.3
    assert floor_s(fixtures, endpoint=False) == 0.0


def _report(path, examples):
    scenarios = {sid: {"examples": n} for sid, n in examples.items()}
    path.write_text(json.dumps({"requirements": {"r": {"scenarios": scenarios}}}))
    return path


def test_property_examples_are_the_report_s_examples_beyond_the_gherkin_ones(tmp_path):
    both = _report(tmp_path / "both.json", {"a": 11, "b": 3, "c": 14})
    gherkin = _report(tmp_path / "gherkin.json", {"a": 1, "b": 3, "c": 4})
    assert endpoint_run.property_examples(both, gherkin) == {"a": 10, "c": 10}


_FAKE_SRDH = r"""
import json, pathlib, sys
args = sys.argv[1:]
fixture = {"router": [{"kind": "error", "error": "TIMEOUT"}],
           "limits": {"model_call_timeout_ms": 400}}
if "--record" in args:
    folder = pathlib.Path(args[args.index("--record") + 1]); folder.mkdir(parents=True)
    line = {"seq": 2, "from": "kit", "message": {"type": "run", "fixture": fixture}}
    (folder / "exchange.ndjson").write_text(json.dumps(line) + "\n")
if "--report" in args:
    folder = pathlib.Path(args[args.index("--report") + 1]); folder.mkdir(parents=True)
    n = 1 if args[args.index("--examples") + 1 if "--examples" in args else 0] == "0" else 11
    report = {"requirements": {"r": {"scenarios": {"p": {"examples": n}, "g": {"examples": 2}}}}}
    (folder / "report.json").write_text(json.dumps(report))
"""


def test_endpoint_run_pairs_both_runs_and_recomputes_the_floor(monkeypatch):
    """Fresh processes on both sides; the floor comes from the recorded fixtures."""
    monkeypatch.setattr(endpoint_run, "_CLI", _FAKE_SRDH)
    result = endpoint_run.measure(rounds=1)
    assert result.name == "endpoint-run"
    assert len(result.rows) == 2
    assert all(len(row) == len(result.columns) for row in result.rows)
    assert result.data["floor_endpoint_s"] == 0.4
    assert result.data["floor_scripted_s"] == 0.0
    assert result.data["property_examples"] == {"p": 10}
    assert result.verdicts_agree is True
    goals = [t.goal for t in result.targets]
    assert goals[0].startswith("stdio + endpoint <= 1.5x in-process + declared-wait floor")
    assert result.targets[1].met is True
    json.dumps(result.as_dict())
