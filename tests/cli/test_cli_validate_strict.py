"""`srdh validate` reads strictly: I-JSON refusals, NDJSON records end at LF only, streaming.

Field faults F4-F7 and hostile inputs H13 (a FIFO) and H14 (a large NDJSON file), each as its kind.
"""

from __future__ import annotations

import json
import os
import shutil
import tracemalloc
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.cli import EXIT_FAILED, EXIT_OK, EXIT_SETUP, app
from conformance.cli._validate import iter_documents
from tests._profile import depth

if TYPE_CHECKING:
    from typer.testing import CliRunner

INPUTS = Path(__file__).parents[1] / "field_inputs"

# Characters that str.splitlines() treats as line ends but NDJSON treats as data.
_NOT_RECORD_ENDS = "\u2028\u2029\u0085\x0b\x0c\x1c\x1d\x1e"


def _scope(query: str) -> dict[str, object]:
    return {
        "tool": "search_logs",
        "target": "checkout",
        "time_range": {"start_ms": 1764400000000, "end_ms": 1764400900000},
        "query": query,
    }


def test_f4_a_raw_u2028_inside_a_record_is_data(runner: CliRunner) -> None:
    """F4: one valid document whose query holds a raw U+2028 is one document, valid."""
    path = INPUTS / "ndjson-u2028.query-scope.jsonl"
    assert "\u2028" in path.read_text(encoding="utf-8")
    result = runner.invoke(app, ["validate", "--contract", "query-scope", str(path)])
    assert result.exit_code == EXIT_OK, result.output
    assert "1 document(s), 0 invalid" in result.stdout


@settings(
    max_examples=depth(ci=30, dev=10),  # depth is the profile's: tests/_profile.py
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    queries=st.lists(
        st.text(st.sampled_from([*_NOT_RECORD_ENDS, "a", " ", "\u00e9"]), max_size=12),
        min_size=1,
        max_size=6,
    ),
    crlf=st.booleans(),
    blank_lines=st.integers(0, 2),
)
def test_ndjson_records_end_at_lf_only(
    tmp_path: Path, queries: list[str], *, crlf: bool, blank_lines: int
) -> None:
    """Any record holding unicode line separators is one record, at its own file line."""
    end = "\r\n" if crlf else "\n"
    lines = [json.dumps(_scope(q), ensure_ascii=False) for q in queries]
    text = (end * blank_lines).join(line + end for line in lines)
    path = tmp_path / "records.jsonl"
    path.write_bytes(text.encode("utf-8"))
    docs = list(iter_documents(path))
    assert [d.value["query"] for d in docs] == queries
    assert [d.line for d in docs] == [1 + i * (1 + blank_lines) for i in range(len(queries))]
    assert not any(d.syntax_error for d in docs)


@pytest.mark.parametrize(
    ("name", "contract", "needle"),
    [
        (
            "duplicate-keys.query-scope.json",
            "query-scope",
            ':3: /tool: not I-JSON: duplicate member name "tool"',
        ),
        ("nan.tool-invocation.json", "tool-invocation", ":14: /arguments/limit: not JSON: NaN"),
        (
            "lone-surrogate.diagnosis-draft.json",
            "diagnosis-draft",
            ":13: /analyses/0/statement: not I-JSON: a string holds an unpaired UTF-16 surrogate",
        ),
    ],
    ids=["F5-duplicate-member", "F6-nan", "F7-lone-surrogate"],
)
def test_i_json_violations_are_invalid_documents(
    runner: CliRunner, name: str, contract: str, needle: str
) -> None:
    """F5-F7: refused with file, line and pointer; exit 1."""
    path = INPUTS / name
    result = runner.invoke(app, ["validate", "--contract", contract, str(path)])
    assert result.exit_code == EXIT_FAILED, result.output
    assert f"{path}{needle}" in result.stdout
    assert "1 document(s), 1 invalid" in result.stdout


@pytest.mark.parametrize(
    ("member", "rule"),
    [
        ('"query": "a", "query": "b"', "json-duplicate-member"),
        ('"query": Infinity', "json-syntax"),
        ('"query": "\\udfff"', "json-lone-surrogate"),
        ('"query": 1e999', "json-number-overflow"),
    ],
)
def test_i_json_violations_in_an_ndjson_record_name_its_line(
    runner: CliRunner, tmp_path: Path, member: str, rule: str
) -> None:
    """The same kinds inside the third record of an NDJSON file: that line, exit 1."""
    good = json.dumps(_scope("ok"))
    bad = good.replace('"query": "ok"', member)
    assert bad != good
    path = tmp_path / "mixed.ndjson"
    path.write_text(f"{good}\n{good}\n{bad}\n{good}\n", encoding="utf-8")
    result = runner.invoke(app, ["validate", "--contract", "query-scope", str(path)])
    assert result.exit_code == EXIT_FAILED
    assert f"{path}:3: /query: not " in result.stdout
    assert f"[{rule}]" in result.stdout
    assert "4 document(s), 1 invalid" in result.stdout


def test_schema_violations_of_a_pretty_printed_file_name_their_own_line(
    runner: CliRunner, tmp_path: Path
) -> None:
    """A violation deep in a pretty-printed document is reported at the line of its value."""
    doc = _scope("x")
    doc["time_range"] = {"start_ms": 1, "end_ms": "late"}
    path = tmp_path / "pretty.json"
    text = json.dumps(doc, indent=2)
    path.write_text(text, encoding="utf-8")
    line = 1 + next(i for i, row in enumerate(text.splitlines()) if '"late"' in row)
    result = runner.invoke(app, ["validate", "--contract", "query-scope", str(path)])
    assert result.exit_code == EXIT_FAILED
    assert f"{path}:{line}: /time_range/end_ms: expected type integer" in result.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs only")
def test_h13_a_fifo_is_not_a_regular_file(runner: CliRunner, tmp_path: Path) -> None:
    """H13: a FIFO is refused before it is opened (it would block): exit 2, no hang."""
    fifo = tmp_path / "f.json"
    os.mkfifo(fifo)
    result = runner.invoke(app, ["validate", str(fifo), "--contract", "public-error"])
    assert result.exit_code == EXIT_SETUP
    assert f"{fifo}: not a regular file" in result.stderr


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="needs a character device")
def test_a_device_is_not_a_regular_file(runner: CliRunner) -> None:
    """A character device (endless or empty input) is refused the same way."""
    result = runner.invoke(app, ["validate", "/dev/null", "--contract", "public-error"])
    assert result.exit_code == EXIT_SETUP
    assert "not a regular file" in result.stderr


def _peak_bytes(path: Path) -> int:
    tracemalloc.start()
    try:
        for doc in iter_documents(path):
            assert doc.value is not None
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_h14_ndjson_is_streamed_in_memory_bounded_by_the_largest_record(tmp_path: Path) -> None:
    """H14: reading an NDJSON file holds one record at a time, whatever the file's size."""
    line = (json.dumps(_scope("level:error\u2028status:503"), ensure_ascii=False) + "\n").encode()
    small, large = tmp_path / "small.jsonl", tmp_path / "large.jsonl"
    small.write_bytes(line * 2_000)
    with large.open("wb") as out:
        for _ in range(10):
            out.write(line * 2_000)
    big_record = tmp_path / "big-record.jsonl"
    shutil.copy(small, big_record)
    with big_record.open("ab") as out:
        out.write((json.dumps(_scope("q" * 200_000)) + "\n").encode())
    assert large.stat().st_size > 3_000_000
    assert _peak_bytes(large) < 200_000  # the file is 15x larger than that
    assert _peak_bytes(large) < 2 * _peak_bytes(small) + 50_000
    assert _peak_bytes(big_record) > 200_000  # the largest record is what costs memory


def test_a_json_file_holding_records_is_read_as_ndjson(runner: CliRunner, tmp_path: Path) -> None:
    """A .json file that is not one value but whose LF-ended records all are: NDJSON, by line."""
    path = tmp_path / "records.json"
    good = json.dumps(_scope("a\u2028b"), ensure_ascii=False)
    bad = json.dumps({**_scope("x"), "tool": "drop_tables"})
    path.write_text(f"{good}\n\n{good}\n{bad}\n", encoding="utf-8")
    result = runner.invoke(app, ["validate", "--contract", "query-scope", str(path)])
    assert result.exit_code == EXIT_FAILED
    assert f"{path}:4: /tool: expected one of" in result.stdout
    assert "3 document(s), 1 invalid" in result.stdout
