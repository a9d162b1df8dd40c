"""The ``python -m bench`` command line and the suite wall-time report, with canned results."""

import json

import pytest

from bench import BenchResult, Target, main, suite_wall
from bench import _cli as cli
from bench._capture import SuiteCapture


def _canned(name: str, *, agree: bool | None = True) -> BenchResult:
    return BenchResult(
        name=name,
        title=f"canned {name}",
        columns=["a", "b"],
        rows=[["1", "2"]],
        data={"value": 1},
        targets=[Target(goal="g", measured="m", met=True, margin="x")],
        verdicts_agree=agree,
    )


@pytest.fixture
def canned_runs(monkeypatch):
    """Replace every benchmark by a canned result; records the names asked for."""
    asked: list[tuple[str, bool]] = []

    def fake(name: str, *, quick: bool) -> BenchResult:
        asked.append((name, quick))
        return _canned(name)

    monkeypatch.setattr(cli, "run_benchmark", fake)
    return asked


def test_only_runs_the_named_benchmarks_and_writes_the_json(canned_runs, tmp_path):
    """--only picks benchmarks in the order given; the JSON holds machine, results and load."""
    out = tmp_path / "nested" / "results.json"
    code = main(["--quick", "--only", "store", "--only", "guard", "--json", str(out)])
    assert code == 0
    assert canned_runs == [("store", True), ("guard", True)]
    report = json.loads(out.read_text(encoding="utf-8"))
    assert [entry["name"] for entry in report["benchmarks"]] == ["store", "guard"]
    assert report["quick"] is True
    assert report["machine"]["cpus"] >= 1
    assert report["machine"]["python"]
    assert len(report["load_average_end"]) == 3
    assert report["errors"] == {}


def test_an_unknown_benchmark_name_is_a_usage_error(capsys):
    """--only with an unknown name exits 2 and lists the valid choices."""
    with pytest.raises(SystemExit) as exit_info:
        main(["--only", "nope"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'nope'" in capsys.readouterr().err


def test_differing_verdicts_make_the_run_fail(monkeypatch, tmp_path):
    """A benchmark whose verdicts differ makes the command exit 1 (the JSON is still written)."""
    monkeypatch.setattr(cli, "run_benchmark", lambda name, **_: _canned(name, agree=False))
    out = tmp_path / "results.json"
    assert main(["--only", "validation", "--json", str(out)]) == 1
    assert json.loads(out.read_text(encoding="utf-8"))["benchmarks"][0]["verdicts_agree"] is False


def test_a_crashing_benchmark_is_reported_and_the_others_still_run(monkeypatch, tmp_path):
    """One benchmark raising is recorded under errors, exit code 1, later ones still run."""

    def fake(name: str, **_: bool) -> BenchResult:
        if name == "store":
            message = "disk full"
            raise OSError(message)
        return _canned(name)

    monkeypatch.setattr(cli, "run_benchmark", fake)
    out = tmp_path / "results.json"
    assert main(["--only", "store", "--only", "guard", "--json", str(out)]) == 1
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["errors"] == {"store": "OSError: disk full"}
    assert [entry["name"] for entry in report["benchmarks"]] == ["guard"]


@pytest.mark.usefixtures("canned_runs")
def test_an_unwritable_json_path_is_one_clear_error(tmp_path, capsys):
    """A --json path under a regular file fails with exit 1 and names the path."""
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    out = blocker / "results.json"
    assert main(["--only", "store", "--json", str(out)]) == 1
    assert "cannot write" in capsys.readouterr().out


@pytest.mark.parametrize(("wall_s", "met"), [(59.0, True), (61.0, False)])
def test_suite_wall_judges_the_60_second_target(monkeypatch, wall_s, met):
    """The suite wall-time target is met below 60 s and missed above it."""
    capture = SuiteCapture(
        wall_s=wall_s, cpu_s=10.0, scenarios={"passed": 3}, fixtures=({},), exit_code=0
    )
    monkeypatch.setattr(suite_wall, "capture_suite", lambda: capture)
    result = suite_wall.measure()
    assert result.targets[0].met is met
    assert result.data["wall_s"] == wall_s
    assert result.verdicts_agree is True
