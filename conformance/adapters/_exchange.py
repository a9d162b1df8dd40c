"""Record the exchange with an IUT as NDJSON, and replay a recording without the IUT.

A recording is a folder:

* ``exchange.ndjson`` — one JSON object per line, in order: ``{"seq": n, "from": "iut",
  "message": <hello>}``, then per Run ``{"seq", "from": "kit", "message": <run>}`` and either
  ``{"seq", "from": "iut", "message": <observation>}`` or, when the IUT failed that Run (hung,
  crashed, broke the protocol), ``{"seq", "from": "kit", "request_id", "failure": "<reason>"}``;
  an observation that breaks its contract (a conformance failure, not a protocol one) is kept in
  that line as ``"answer": <observation message as sent>``, and the replay judges it again.
  Messages are adapter messages (``schemas/adapter-message.schema.json``); request ids are the
  recording's own (``r1``, ``r2`` …). A run stopped by a signal ends with ``{"seq", "from": "kit",
  "interrupted": "SIGTERM"}``: its last request may have no answer. The kit's ``bye`` ends the
  recording (``{"seq", "from": "kit", "message": {"type": "bye"}}``; a recording of an older
  kit may end without it).
* ``run.json`` — what was asked: ``{"kit": {name, version}, "iut", "iut_module", "scenarios",
  "level", "examples", "fixture", "timeout_s", "max_message_bytes"}``, so ``srdh replay`` runs
  the same selection (and its reproduce commands carry the same limits; a recording without the
  last two, from an older kit, replays with the defaults).

:class:`ReplayAdapter` answers each ``run`` with the recorded answer of the identical fixture
(canonical JSON; a fixture run twice gets its answers in recorded order), so the suite re-judges
a recording without the IUT. A recording of an interrupted run is replayed up to the same point:
its first request without an answer raises the recorded interruption (the same partial report).
Both files are checked against their format first (:mod:`conformance.adapters._recording_check`:
JSON Schemas, the adapter-message contract, the order of the records); every problem is one
line naming the file, line and JSON pointer.
Serves issue 13 item 3 (record and replay).
"""

from __future__ import annotations

import json
import signal
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from conformance._inert import shown_path
from conformance.adapters._errors import AdapterError, ObservationContractError
from conformance.adapters._protocol import check_observation
from conformance.adapters._recording_check import (
    MAX_PROBLEMS,
    RecordedLine,
    RecordingError,
    exchange_problems,
    run_options_problems,
)

if TYPE_CHECKING:
    from pathlib import Path

    from conformance.adapters._protocol import Adapter

__all__ = [
    "EXCHANGE_FILE",
    "RUN_FILE",
    "ExchangeRecorder",
    "RecordingError",
    "ReplayAdapter",
    "check_recording",
    "read_run_options",
]

EXCHANGE_FILE = "exchange.ndjson"
"""The NDJSON exchange in a recording folder."""
RUN_FILE = "run.json"
"""The options of the recorded run in a recording folder."""


def _key(fixture: dict[str, Any]) -> str:
    return json.dumps(fixture, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


@dataclass(frozen=True)
class _Broken:
    """A recorded observation message that broke its contract: judged again when replayed."""

    request_id: str
    message: dict[str, Any]


class ExchangeRecorder:
    """Wraps an adapter and appends every message it exchanges to ``exchange.ndjson``.

    The file is written line by line and flushed after each line, so a run cut short still
    leaves a readable (shorter) recording. Other attributes (``warnings``, ``violations``) are
    read through to the wrapped adapter.

    Raises:
        RecordingError: (at construction) the folder cannot be created or written.
    """

    def __init__(self, inner: Adapter, directory: Path, options: dict[str, Any]) -> None:
        """Create ``directory`` and write ``run.json``; open ``exchange.ndjson``."""
        self._inner = inner
        self._seq = 0
        self._requests = 0
        self._hello_written = False
        try:
            directory.mkdir(parents=True, exist_ok=True)
            (directory / RUN_FILE).write_text(json.dumps(options, indent=2) + "\n", "utf-8")
            self._file = (directory / EXCHANGE_FILE).open("w", encoding="utf-8")
        except OSError as exc:
            msg = f"recording folder {shown_path(directory)}: cannot write ({exc.strerror or exc})"
            raise RecordingError(msg) from None

    def __getattr__(self, name: str) -> Any:  # noqa: ANN401 - whatever the wrapped adapter has
        """Read ``warnings``, ``violations`` … through to the wrapped adapter."""
        return getattr(self._inner, name)

    def _write(self, record: dict[str, Any]) -> None:
        self._seq += 1
        line = json.dumps({"seq": self._seq, **record}, ensure_ascii=True)
        self._file.write(line + "\n")
        self._file.flush()

    @property
    def capabilities(self) -> frozenset[str]:
        """The wrapped IUT's capabilities."""
        return self._inner.capabilities

    def hello(self) -> dict[str, Any]:
        """The wrapped IUT's hello (recorded once)."""
        hello = self._inner.hello()
        if not self._hello_written:
            self._hello_written = True
            self._write({"from": "iut", "message": hello})
        return hello

    def run(self, fixture: dict[str, Any]) -> dict[str, Any]:
        """Run ``fixture`` on the wrapped IUT, recording the request and its answer or failure.

        Raises:
            AdapterError: the wrapped adapter's (recorded, then raised again).
        """
        self.hello()
        self._requests += 1
        request_id = f"r{self._requests}"
        self._write({"from": "kit", "message": {"type": "run", "request_id": request_id,
                                                 "fixture": fixture}})  # fmt: skip
        try:
            observation = self._inner.run(fixture)
        except AdapterError as error:
            failure: dict[str, Any] = {"from": "kit", "request_id": request_id}
            failure["failure"] = str(error)
            if isinstance(error, ObservationContractError) and error.answer is not None:
                # judged again on replay, not only its text; under the recording's request id
                failure["answer"] = {**error.answer, "request_id": request_id}
            self._write(failure)
            raise
        message = {"type": "observation", "request_id": request_id, "observation": observation}
        self._write({"from": "iut", "message": message})
        return observation

    def mark_interrupted(self, signal_name: str) -> None:
        """Record that the run was stopped by ``signal_name`` (``SIGTERM``) after what it holds."""
        self._write({"from": "kit", "interrupted": signal_name})

    def close(self) -> None:
        """Close the wrapped IUT; record the kit's ``bye`` (the end) and close the file."""
        try:
            self._inner.close()
        finally:
            try:
                self._write({"from": "kit", "message": {"type": "bye"}})
            finally:
                self._file.close()


def _refuse(problems: list[str]) -> RecordingError:
    shown = problems[:MAX_PROBLEMS]
    if len(problems) > MAX_PROBLEMS:
        shown.append(f"... and {len(problems) - MAX_PROBLEMS} more problems of the recording")
    return RecordingError(*shown)


def read_run_options(directory: Path) -> dict[str, Any]:
    """The ``run.json`` of a recording folder, checked against its schema as a whole.

    Raises:
        RecordingError: missing, unreadable, not strict JSON or not a valid ``run.json`` (every
            problem, one line each: file, line, JSON pointer, what was expected).
    """
    options, problems = run_options_problems(directory / RUN_FILE)
    if problems or options is None:
        raise _refuse(problems)
    return options


def check_recording(directory: Path) -> tuple[dict[str, Any], ReplayAdapter]:
    """Check both files of the recording in ``directory``; its options and a replay adapter.

    Raises:
        RecordingError: every problem of ``run.json`` and ``exchange.ndjson`` (one line each),
            found before anything is replayed.
    """
    options, problems = run_options_problems(directory / RUN_FILE)
    records, more = exchange_problems(directory / EXCHANGE_FILE)
    problems += more
    if problems or options is None:
        raise _refuse(problems)
    return options, ReplayAdapter(directory, records)


class ReplayAdapter:
    """An adapter that answers from a recording instead of an IUT.

    Built from the records :func:`check_recording` checked, or (``records`` omitted) it reads
    and checks ``exchange.ndjson`` itself: every line with the strict reader, against the
    record schema and the adapter-message contract, then the order of the records.

    Raises:
        RecordingError: (at construction, ``records`` omitted) every problem of the exchange,
            one line each naming the file, line and JSON pointer.
    """

    def __init__(self, directory: Path, records: list[RecordedLine] | None = None) -> None:
        """Replay ``records`` (checked), or read and check the recording in ``directory``."""
        if records is None:
            records, problems = exchange_problems(directory / EXCHANGE_FILE)
            if problems:
                raise _refuse(problems)
        self.directory = directory
        self.interrupted: str | None = None
        """The signal that stopped the recorded run (``SIGTERM``), or ``None``."""
        self._hello: dict[str, Any] = records[0].record["message"]
        requests: dict[str, dict[str, Any]] = {}
        self._answers: dict[str, list[dict[str, Any] | str | _Broken]] = {}
        for item in records:
            self._take(item.record, requests)

    def _take(self, record: dict[str, Any], requests: dict[str, dict[str, Any]]) -> None:
        """Keep one checked record: a request's fixture, an answer under its fixture."""
        if "interrupted" in record:
            self.interrupted = record["interrupted"]
            return
        if "failure" in record:
            fixture = requests[record["request_id"]]
            answer = record.get("answer")
            kept = record["failure"] if answer is None else _Broken(record["request_id"], answer)
            self._answers.setdefault(_key(fixture), []).append(kept)
            return
        message = record["message"]
        if message["type"] == "run":
            requests[message["request_id"]] = message["fixture"]
        elif message["type"] == "observation":
            fixture = requests[message["request_id"]]
            self._answers.setdefault(_key(fixture), []).append(message["observation"])

    @property
    def capabilities(self) -> frozenset[str]:
        """The recorded IUT's capabilities (from its hello)."""
        return frozenset(self._hello.get("capabilities", []))

    def hello(self) -> dict[str, Any]:
        """The recorded hello."""
        return self._hello

    def run(self, fixture: dict[str, Any]) -> dict[str, Any]:
        """The recorded answer to this exact fixture (in recorded order when run again).

        Raises:
            AdapterError: the fixture was not recorded (or not as often), or the IUT failed
                that Run when it was recorded (the recorded reason).
            ObservationContractError: the recorded observation breaks its contract (judged
                again with this kit's rules).
            RunInterrupted: the recorded run was interrupted before this fixture's answer.
        """
        answers = self._answers.get(_key(fixture))
        if not answers and self.interrupted is not None:
            from conformance.adapters._process import interrupt  # noqa: PLC0415 - only here

            raise interrupt(getattr(signal, self.interrupted))
        if not answers:
            reason = (
                f"fixture {fixture.get('fixture_id')!r} is not in the recording "
                f"{self.directory} (not recorded, or recorded fewer times)"
            )
            raise AdapterError(reason)
        answer = answers.pop(0)
        if isinstance(answer, _Broken):  # judged again: ObservationContractError, as recorded
            return check_observation(
                answer.message, request_id=answer.request_id, fixture_id=fixture["fixture_id"]
            )
        if isinstance(answer, str):
            reason = f"(recorded) {answer}"
            raise AdapterError(reason)
        return answer

    def close(self) -> None:
        """Nothing to release."""
