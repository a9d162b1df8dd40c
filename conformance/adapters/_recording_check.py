"""Check a recording folder against its format before anything of it is replayed.

A recording (``srdh run --record DIR``) is two files, each with a JSON Schema 2020-12 beside
this module (``schemas/``; a kit file format, not a contract of the sheet:
``docs/decisions/replay-contract.md``):

* ``run.json`` — ``recording-run.schema.json``, as a whole (every member required, its type,
  no unknown member, the kit that recorded it);
* ``exchange.ndjson`` — each line ``recording-record.schema.json`` (``seq``, ``from``, and a
  message, a failure or an interruption; who sends which message), the message itself the
  adapter-message contract (an observation's RunObservation, a request's ScenarioFixture, their
  invariants included), then the order of the records: numbered 1, 2, 3 ...; the IUT's hello
  first and once; requests ``r1``, ``r2`` ... each answered (an observation or a failure of
  that request id) before the next; nothing but ``bye`` after an interruption; nothing after
  ``bye``; every request answered unless the run was interrupted; every line ends with LF.

Every problem is one line ``FILE:LINE: POINTER: expected ... [rule]`` (FILE as given, LINE
1-based, POINTER RFC 6901, ``/`` for the whole document). The order is checked only when every
line is valid on its own, so one broken line is not also reported as a broken order.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance._inert import shown_path

__all__ = [
    "MAX_PROBLEMS",
    "RECORD_SCHEMA",
    "RUN_SCHEMA",
    "RecordedLine",
    "RecordingError",
    "exchange_problems",
    "run_options_problems",
]

RUN_SCHEMA = Path(__file__).parent / "schemas" / "recording-run.schema.json"
"""The JSON Schema of a recording's ``run.json``."""
RECORD_SCHEMA = Path(__file__).parent / "schemas" / "recording-record.schema.json"
"""The JSON Schema of one line of a recording's ``exchange.ndjson``."""
MAX_PROBLEMS = 20
"""At most this many problems of one recording are reported (then a count of the rest)."""

_SIGNALS = frozenset({"SIGINT", "SIGTERM", "SIGHUP"})


class RecordingError(ValueError):
    """A recording folder cannot be written or read, or breaks its format.

    Attributes:
        problems: one line each, ``FILE:LINE: POINTER: expected ... [rule]`` (at least one;
            ``str()`` is the first).
    """

    def __init__(self, *problems: str) -> None:
        """Keep ``problems`` (one or more lines)."""
        self.problems = problems
        super().__init__(problems[0] if problems else "malformed recording")


@dataclass(frozen=True)
class RecordedLine:
    """One valid line of ``exchange.ndjson``: its 1-based line number and its record."""

    line: int
    record: dict[str, Any]


@functools.cache
def _schema(path: Path) -> dict[str, Any]:
    from contracts import load_json_file  # noqa: PLC0415 - the strict reader, on use

    schema: dict[str, Any] = load_json_file(path)
    return schema


def _problem(where: str, line: int, pointer: str, message: str, rule: str) -> str:
    return f"{where}:{line}: {pointer or '/'}: {message} [{rule}]"


def _located(error: Exception) -> str:
    """A strict reader's error as one problem line (its rule appended when it names one)."""
    rule = getattr(error, "rule", "")
    text = str(error)
    if "expected" not in text:
        text += "; expected strict JSON (RFC 8259, I-JSON), one record per line in NDJSON"
    return f"{text} [{rule}]" if rule else text


def run_options_problems(path: Path) -> tuple[dict[str, Any] | None, list[str]]:
    """Read ``run.json`` at ``path`` strictly and check it against its schema.

    Returns the options (``None`` when unreadable) and the problems (empty when valid); a
    problem is at the line of the value at fault (line 1 for the whole document).
    """
    from contracts import (  # noqa: PLC0415 - the strict reader and validator, on use
        ContractError,
        line_of_pointer,
        loads_strict,
        schema_violations,
    )

    where = shown_path(path)
    if not path.is_file():  # a FIFO or device could block: only a regular file is read
        expected = "expected a recording folder written by srdh run --record"
        return None, [f"{where}: no such regular file; {expected}"]
    try:
        data = path.read_bytes()
    except OSError as exc:
        return None, [f"{where}: cannot read ({exc.strerror or exc})"]
    try:
        options = loads_strict(data, source=str(path))
    except ContractError as error:
        return None, [_located(error)]
    text = data.decode("utf-8")  # the strict reader accepted it: UTF-8
    problems = [
        _problem(where, line_of_pointer(text, v.pointer) or 1, v.pointer, v.message, v.rule)
        for v in schema_violations(_schema(RUN_SCHEMA), options)
    ]
    return (options if isinstance(options, dict) else None), problems


def _message_problems(message: dict[str, Any]) -> list[tuple[str, str, str]]:
    """``(pointer, message, rule)`` of the adapter message, pointers from the record's root."""
    from contracts import validate_document  # noqa: PLC0415 - contracts loads schemas on use

    found = [("/message", v) for v in validate_document(message, "adapter-message")]
    inner = {"observation": "run-observation", "run": "scenario-fixture"}
    kind = message.get("type")
    if found and kind in inner:  # the message's own contract explains what is wrong within
        member = "observation" if kind == "observation" else "fixture"
        detailed = validate_document(message.get(member), inner[str(kind)])
        found = [(f"/message/{member}", v) for v in detailed] or found
    return [(prefix + v.pointer, v.message, v.rule) for prefix, v in found]


def _line_problems(record: Any, where: str, line: int) -> list[str]:  # noqa: ANN401 - any JSON
    from contracts import schema_violations  # noqa: PLC0415 - the kit's validator, on use

    found = [
        (v.pointer, v.message, v.rule) for v in schema_violations(_schema(RECORD_SCHEMA), record)
    ]
    if not found and "message" in record:
        found = _message_problems(record["message"])
    answer = record.get("answer") if not found else None
    if isinstance(answer, dict) and answer["request_id"] != record["request_id"]:
        expected = f"expected {json.dumps(record['request_id'])} (the failure's request_id)"
        found.append(("/answer/request_id", expected, "recording-answer-id"))
    return [_problem(where, line, *item) for item in found]


class _Order:
    """The order of a recording's records (see the module docstring), one record at a time."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.problems: list[str] = []
        self.hello_seen = False
        self.requests = 0
        self.pending: tuple[str, int] | None = None  # request id and its line
        self.interrupted = False
        self.bye = False

    def _fail(self, line: int, pointer: str, message: str, rule: str) -> None:
        self.problems.append(_problem(self.where, line, pointer, message, rule))

    def take(self, number: int, item: RecordedLine) -> None:
        """Check the ``number``-th record (1-based), read at ``item.line``."""
        record, line = item.record, item.line
        if record["seq"] != number:
            self._fail(
                line, "/seq", f"expected {number} (records are numbered in order)", "recording-seq"
            )
        if self.bye:
            self._fail(
                line,
                "/",
                "expected nothing after bye (the end of the recorded run)",
                "recording-after-bye",
            )
            return
        kind = record["message"]["type"] if "message" in record else None
        if number == 1 and kind != "hello":
            self._fail(
                line,
                "/message/type" if kind else "/",
                "expected the IUT's hello first",
                "recording-hello",
            )
        elif kind == "hello" and self.hello_seen:
            self._fail(line, "/message/type", "expected one hello, at the start", "recording-hello")
        self.hello_seen = self.hello_seen or kind == "hello"
        if kind == "run":
            self._request(record["message"]["request_id"], line)
        elif kind == "observation" or "failure" in record:
            self._reply(record, line)
        elif "interrupted" in record:
            if self.interrupted:
                self._fail(
                    line, "/interrupted", "expected one interruption", "recording-interrupted"
                )
            self.interrupted = True
        elif kind == "bye":
            self._end(line)
            self.bye = True

    def finish(self) -> None:
        """The end of the file: the last request must have been answered, unless interrupted."""
        if self.pending is not None and not self.interrupted:
            request_id, at = self.pending
            self._fail(
                at,
                "/message",
                f"expected a reply to request {json.dumps(request_id)} (the recording "
                "ends without one and was not interrupted)",
                "recording-missing-reply",
            )

    def _request(self, request_id: str, line: int) -> None:
        if self.interrupted:
            self._fail(
                line, "/message", "expected no request after the interruption", "recording-order"
            )
        self._end(line)
        self.requests += 1
        wanted = f"r{self.requests}"
        if request_id != wanted:
            self._fail(
                line,
                "/message/request_id",
                f"expected {json.dumps(wanted)} (requests are r1, r2 ... in order)",
                "recording-request-id",
            )
        self.pending = (request_id, line)

    def _reply(self, record: dict[str, Any], line: int) -> None:
        replied = record["message"]["request_id"] if "message" in record else record["request_id"]
        pointer = "/message/request_id" if "message" in record else "/request_id"
        if self.pending is None:
            self._fail(
                line,
                pointer,
                f"expected a reply to a request before it; no request is waiting for "
                f"{json.dumps(replied)} (a reply before its request, or a second reply)",
                "recording-order",
            )
            return
        if replied != self.pending[0]:
            self._fail(
                line,
                pointer,
                f"expected {json.dumps(self.pending[0])} (the request of line {self.pending[1]})",
                "recording-request-id",
            )
        self.pending = None

    def _end(self, line: int) -> None:
        """A request (or bye) at ``line``: the request before it must have been answered."""
        if self.pending is not None and not self.interrupted:
            request_id, at = self.pending
            self._fail(
                at,
                "/message",
                f"expected a reply to request {json.dumps(request_id)} before line "
                f"{line} (an observation or a failure)",
                "recording-missing-reply",
            )
            self.pending = None


def _lines(data: bytes, where: str, source: str) -> tuple[list[RecordedLine], list[str]]:
    """Every line of ``data`` read strictly and checked on its own (format, message)."""
    from contracts import ContractError, loads_strict  # noqa: PLC0415 - strict reader

    lines = data.split(b"\n")
    problems: list[str] = []
    records: list[RecordedLine] = []
    for number, raw in enumerate(lines, start=1):
        if number == len(lines) and not raw:
            break  # the LF that ends the last record
        if not raw.strip():
            problems.append(
                _problem(
                    where,
                    number,
                    "/",
                    "expected a record, not a blank line",
                    "recording-blank-line",
                )
            )
            continue
        try:
            record = loads_strict(raw, source=source, first_line=number)
        except ContractError as error:
            problems.append(_located(error))
            continue
        found = _line_problems(record, where, number)
        problems.extend(found)
        if not found:
            records.append(RecordedLine(number, record))
        if number == len(lines):  # complete JSON, but the file does not end with LF
            problems.append(
                _problem(
                    where,
                    number,
                    "/",
                    "expected a line ending with LF (the recording was cut short)",
                    "recording-truncated",
                )
            )
    return records, problems


def exchange_problems(path: Path) -> tuple[list[RecordedLine], list[str]]:
    """Read ``exchange.ndjson`` at ``path`` strictly and check every line, then the order.

    Returns the records (with their line numbers) and the problems (empty when valid).
    """
    where = shown_path(path)
    if not path.is_file():  # a FIFO or device could block: only a regular file is read
        return [], [f"{where}: no such regular file; expected a recording of srdh run --record"]
    try:
        data = path.read_bytes()
    except OSError as exc:
        return [], [f"{where}: cannot read ({exc.strerror or exc})"]
    records, problems = _lines(data, where, str(path))
    if not problems and not records:
        problems.append(f"{where}: the recording holds no hello message (an empty exchange)")
    if not problems:
        order = _Order(where)
        for number, item in enumerate(records, start=1):
            order.take(number, item)
        order.finish()
        problems = order.problems
    return records, problems
