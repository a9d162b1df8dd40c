"""Re-running a recorded run's survivors finds the same mutants again after the code moved.

``python -m bench.mutation --survivors-of results.json`` must judge exactly the mutants the
recorded run left alive: these tests enumerate a small module with Cosmic Ray, record one of its
mutants as a survivor, change the module the way a merge does, and check which mutant is found.
"""

import json
import random
from pathlib import Path

import pytest
from cosmic_ray.commands.init import init as cr_init
from cosmic_ray.work_db import WorkDB, use_db

from bench.mutation._cli import main
from bench.mutation._rerun import (
    _diff,
    carried_records,
    change_lines,
    load_survivors,
    match_survivors,
)

_MODULE = """\
def allowed(attempt, bound):
    return attempt < bound


def first(value):
    return value == 1
"""


def _items(package: Path, tmp_path: Path, name: str) -> list:
    with use_db(str(tmp_path / f"{name}.sqlite"), WorkDB.Mode.create) as db:
        cr_init([package / "rule.py"], db, {})
        return list(db.work_items)


def _record(item, package: Path) -> dict:
    (mutation,) = item.mutations
    source = (package / "rule.py").read_text(encoding="utf-8")
    return {
        "module": "rule.py",
        "line": mutation.start_pos[0],
        "operator": mutation.operator_name,
        "occurrence": mutation.occurrence,
        "diff": _diff(item, source, "rule.py"),
        "status": "survived",
    }


@pytest.fixture
def package(tmp_path: Path) -> Path:
    root = tmp_path / "pkg"
    root.mkdir()
    (root / "rule.py").write_text(_MODULE, encoding="utf-8")
    return root


def _lt_to_le(items: list):
    return next(i for i in items if i.mutations[0].operator_name.endswith("_Lt_LtE"))


def test_an_unchanged_module_gives_back_the_same_mutant(package, tmp_path):
    items = _items(package, tmp_path, "before")
    wanted = _lt_to_le(items)

    (match,) = match_survivors([_record(wanted, package)], items, package)

    assert match.how == "same"
    assert match.item is not None
    assert match.item.job_id == wanted.job_id


def test_code_merged_above_moves_lines_but_the_same_change_is_found(package, tmp_path):
    recorded = _record(_lt_to_le(_items(package, tmp_path, "before")), package)
    source = (package / "rule.py").read_text(encoding="utf-8")
    # a merged branch adds a function with its own `<` above the recorded mutant
    merged = "def limit(n, m):\n    return n < m\n\n\n" + source
    (package / "rule.py").write_text(merged, encoding="utf-8")
    items = _items(package, tmp_path, "after")

    (match,) = match_survivors([recorded], items, package)

    assert match.how == "moved"
    assert match.item is not None
    found = match.item.mutations[0]
    assert found.start_pos[0] == recorded["line"] + 4
    assert change_lines(_diff(match.item, merged, "rule.py")) == change_lines(recorded["diff"])


def test_a_rewritten_line_makes_the_survivor_gone(package, tmp_path):
    recorded = _record(_lt_to_le(_items(package, tmp_path, "before")), package)
    source = (package / "rule.py").read_text(encoding="utf-8")
    (package / "rule.py").write_text(source.replace("attempt < bound", "attempt < bound - 0"))
    items = _items(package, tmp_path, "after")

    (match,) = match_survivors([recorded], items, package)

    assert (match.how, match.item) == ("gone", None)


def test_only_survivors_are_read_and_a_partial_run_is_refused(tmp_path):
    record = {"module": "m.py", "operator": "op", "occurrence": 0, "diff": "", "line": 1}
    results = tmp_path / "results.json"
    results.write_text(
        json.dumps(
            {
                "summary": {"killed": 1},
                "mutants": [{**record, "status": "killed"}, {**record, "status": "survived"}],
            }
        ),
        encoding="utf-8",
    )
    survivors, summary = load_survivors(results)
    assert [s["status"] for s in survivors] == ["survived"]
    assert summary == {"killed": 1}
    (carried,) = carried_records(results)
    assert (carried["status"], carried["carried"]) == ("killed", True)

    results.write_text(json.dumps({"partial": True, "mutants": []}), encoding="utf-8")
    with pytest.raises(ValueError, match=r"results\.json: no 'summary'"):
        load_survivors(results)


def test_the_command_line_reports_a_bad_results_file_without_a_traceback(tmp_path, capsys):
    missing = tmp_path / "nowhere.json"

    assert main(["--survivors-of", str(missing), "--out", str(tmp_path / "out")]) == 2
    assert "nowhere.json: cannot read the recorded results" in capsys.readouterr().err


def test_a_larger_seeded_sample_extends_the_smaller_one():
    """``--sample 300 --exclude <the --sample 150 run>`` (same seed) is a disjoint second sample:
    ``random.sample`` draws the larger sample as the smaller one followed by new mutants."""
    eligible = list(range(796))
    small = random.Random(20261130).sample(eligible, 150)  # noqa: S311 - the driver's draw
    large = random.Random(20261130).sample(eligible, 300)  # noqa: S311 - the driver's draw
    assert large[:150] == small
    assert len(set(large[150:]) & set(small)) == 0
