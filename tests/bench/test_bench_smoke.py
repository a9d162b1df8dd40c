"""Each benchmark runs at tiny sizes and returns a well-formed result; no timing is asserted."""

import gc
import importlib
import json
from collections.abc import Iterator

import pytest

from bench import (
    BENCHMARKS,
    BenchResult,
    evidence_guard,
    harness_overhead,
    run_store,
    startup,
    suite_throughput,
    validation,
    verify_wall,
)
from conformance.fixtures import (
    analysis,
    diagnosis_draft,
    diagnosis_fixture,
    rows,
    supported_turn,
    tool_call,
    tool_script,
)


@pytest.fixture(autouse=True)
def _collections_of_the_benchmark_only() -> Iterator[None]:
    """The heap of the test process is frozen (``gc.freeze``) while a benchmark runs.

    The benchmarks run a full ``gc.collect()`` before every timed action (bench/_stats.py
    ``timed_ns``, harness_overhead per Run), so that no action pays for another's garbage. In a
    pytest worker each collection also walked every object of the test session: 0.1-0.2 CPU s
    each, most of this module's CPU. Frozen objects are the ones that existed before the
    benchmark started, never its garbage, so each collection still frees what the benchmark
    left; no result this module checks depends on it (docs/decisions/test-speed.md, Session 6).
    """
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _assert_well_formed(result: BenchResult, name: str, row_count: int) -> None:
    assert result.name == name
    assert len(result.rows) == row_count
    assert all(len(row) == len(result.columns) for row in result.rows)
    assert result.targets
    assert all(isinstance(target.met, bool) for target in result.targets)
    json.dumps(result.as_dict())  # the JSON report can hold it


def test_every_benchmark_module_names_itself_and_can_run():
    """Each registered module's NAME is its CLI name and it exposes run(quick=...)."""
    for name, module_name in BENCHMARKS.items():
        module = importlib.import_module(module_name)
        assert name == module.NAME
        assert callable(module.run)


def test_harness_overhead_measures_both_loops_on_the_same_script():
    """Tiny run: one row per loop, the Harness compared with both pydantic-ai variants."""
    result = harness_overhead.measure(lengths=(2, 3), rounds=1, warmup=0, steps_per_round=1)
    _assert_well_formed(result, "harness", row_count=6)
    contenders = result.data["contenders"]
    assert set(contenders) == {
        harness_overhead.HARNESS,
        harness_overhead.PAI_ASYNC,
        harness_overhead.PAI_SYNC,
    }
    assert result.data["lengths"] == [2, 3]
    assert all(set(entry["lengths"]) == {"2", "3"} for entry in contenders.values())
    assert result.data["pydantic_ai_slim"]
    assert all(entry["peak_bytes"] > 0 for entry in contenders.values())
    assert len(result.targets) == 2 * 2 + 1  # ratio per baseline and length, then flatness


def test_evidence_guard_covers_every_cell_of_the_grid():
    """A 2x2 grid gives four rows and one flatness target per Run size."""
    result = evidence_guard.measure(analyses=(1, 3), invocations=(2, 4), rounds=1, warmup=0)
    _assert_well_formed(result, "guard", row_count=4)
    cells = {(cell["invocations"], cell["analyses"]) for cell in result.data["cells"]}
    assert cells == {(2, 1), (2, 3), (4, 1), (4, 3)}
    assert all(cell["guard_cited_only_us_per_draft"]["n"] == 1 for cell in result.data["cells"])
    assert len(result.targets) == 2


def test_sized_draft_is_accepted_by_the_guard_and_names_every_analysis():
    """The generated draft has the asked number of analyses, all named by the conclusion."""
    draft = evidence_guard.sized_draft(5, 2)
    ids = [item["analysis_id"] for item in draft["analyses"]]
    assert len(ids) == 5
    assert draft["conclusion"]["analysis_ids"] == ids
    cited = {item["tool_call_ids"][0] for item in draft["analyses"]}
    assert cited == {"call_1", "call_2"}


def test_validation_paths_agree_on_every_example_and_generated_document():
    """All four contract verdicts, and the three schema-only verdicts, agree per document."""
    documents = validation.corpus(generated_per_valid=1)
    found = validation.verdicts(documents)
    for path in (validation.KIT, validation.JSONSCHEMA, validation.RS, validation.PYDANTIC):
        assert found[path] == found[validation.KIT], path
    schema_paths = [f"{p} schema" for p in (validation.RS, validation.PYDANTIC)]
    for path in schema_paths:
        assert found[path] == found[f"{validation.JSONSCHEMA} schema"], path
    assert any(found[validation.KIT])
    assert not all(found[validation.KIT])


def test_validation_verdicts_follow_the_example_folders():
    """Valid and guard-layer examples are contract-valid; schema/invariant examples are not."""
    documents = validation.corpus(generated_per_valid=0)
    found = validation.verdicts(documents)
    expected = [doc.origin in {"example:valid", "example:invalid:guard"} for doc in documents]
    assert found[validation.KIT] == expected
    assert {doc.origin for doc in documents} >= {
        "example:valid",
        "example:invalid:schema",
        "example:invalid:invariant",
    }


def test_validation_measure_reports_four_paths_on_a_small_corpus():
    """On a few small contracts the measurement gives four rows and an agreement flag."""
    small = {"tool-call-id", "query-scope", "semantic-verdict"}
    documents = [doc for doc in validation.corpus(generated_per_valid=1) if doc.contract in small]
    result = validation.measure(documents, rounds=1, warmup=0)
    _assert_well_formed(result, "validation", row_count=4)
    assert result.verdicts_agree is True
    assert result.data["documents"] == len(documents)


def test_corpus_generation_is_deterministic():
    """The same seed gives the same generated documents; another seed gives other ones."""

    def generated(seed: int) -> list[str]:
        documents = validation.corpus(generated_per_valid=2, seed=seed)
        valid = sum(doc.origin == "example:valid" for doc in documents)
        texts = [doc.text for doc in documents if doc.origin == "generated"]
        assert len(texts) == 2 * valid > 0
        return texts

    assert generated(7) == generated(7)
    assert generated(7) != generated(8)


@pytest.fixture
def small_fixture():
    """One DIAGNOSIS fixture: a tool step, a draft citing it, a SUPPORTED review."""
    return diagnosis_fixture(
        "bench-smoke",
        steps=[[tool_call("call_1")]],
        draft=diagnosis_draft([analysis("a1", "OBSERVATION", ["call_1"])]),
        reviews=[supported_turn()],
        tools={"search_logs": tool_script(rows("checkout 503"))},
    )


def test_suite_throughput_runs_the_same_fixture_in_process_and_over_stdio(small_fixture):
    """Both adapters run the fixture and observe the same normalized trace and result."""
    result = suite_throughput.measure([small_fixture], rounds=1)
    _assert_well_formed(result, "suite", row_count=2)
    assert result.verdicts_agree is True
    assert result.data["fixtures"] == 1
    memory = result.data["memory"]
    assert memory["largest_observation_bytes"] > 0
    assert memory["peak_largest_run_bytes"] > 0
    assert memory["peak_pass_bytes"] > 0
    assert result.data["stdio_with_startup_over_inprocess"] > 0
    assert len(result.targets) == 2  # same observations, and the stdio cost ratio


def test_startup_times_the_bare_interpreter_help_and_validate():
    """Three commands in fresh processes, one row each, a 0.3 s target for the two srdh ones."""
    result = startup.measure(rounds=1, warmup=0)
    _assert_well_formed(result, "startup", row_count=3)
    assert [t.goal.split(" <=")[0] for t in result.targets] == [
        "srdh --help",
        "srdh validate (1 valid document)",
    ]


def test_verify_wall_pairs_verify_with_the_suite_and_reads_the_steps(monkeypatch):
    """Both commands run in fresh processes; the ratio is paired; verify's step table is read."""
    table = "step  status  detail  seconds\nspec lint  PASSED  2 item(s)  0.01\n"
    script = f"import sys; print({table!r} if 'verify' in sys.argv else 'run')"
    monkeypatch.setattr(verify_wall, "_CLI", script)
    result = verify_wall.measure(rounds=1, warmup=0)
    _assert_well_formed(result, "verify", row_count=3)
    assert result.data["last_verify_steps_s"] == {"spec lint": 0.01}
    assert result.verdicts_agree is True
    assert len(result.targets) == 2


def test_run_store_selects_the_same_previous_turn_at_every_size():
    """Small stores: the selection finds the anchor Run and inserts get consecutive seqs."""
    result = run_store.measure((300, 600), rounds=1, selections=1, pairs=1)
    _assert_well_formed(result, "store", row_count=2)
    assert set(result.data) == {"300", "600"}
    assert len(result.targets) == 2


def test_bulk_loaded_store_answers_with_the_anchor_and_the_ineligible_tail(tmp_path):
    """The Run just before the 150 ineligible ones is the previous turn; 100 listed, 50 counted."""
    count = 400
    store = run_store.build_store(tmp_path / "runs.sqlite3", count)
    try:
        selection = store.select_previous_turn(run_store.SESSION, count + 1)
        assert selection.selected is not None
        assert selection.selected.run_id == f"run-{count - run_store.INELIGIBLE_TAIL}"
        assert len(selection.skipped) == 100
        assert selection.skipped_omitted == 50
        assert len(store.list_session(run_store.SESSION)) == count
    finally:
        store.close()
