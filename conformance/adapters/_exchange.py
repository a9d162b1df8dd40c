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
  "interrupted": "SIGTERM"}``: its last request may have no answer.
* ``run.json`` — what was asked: ``{"kit": {name, version}, "iut_args", "scenarios", "level",
  "examples", "fixture"}``, so ``srdh replay`` runs the same selection.

:class:`ReplayAdapter` answers each ``run`` with the recorded answer of the identical fixture
(canonical JSON; a fixture run twice gets its answers in recorded order), so the suite re-judges
a recording without the IUT. A recording of an interrupted run is replayed up to the same point:
its first request without an answer raises the recorded interruption (the same partial report).
Serves issue 13 item 3 (record and replay).
"""

from __future__ import annotations

import json
import signal
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from conformance._inert import shown_path
from conformance.adapters._errors import AdapterError, ObservationContractError
from conformance.adapters._protocol import check_observation, message_problems

if TYPE_CHECKING:
    from pathlib import Path

    from conformance.adapters._protocol import Adapter

__all__ = [
    "EXCHANGE_FILE",
    "RUN_FILE",
    "ExchangeRecorder",
    "RecordingError",
    "ReplayAdapter",
    "read_run_options",
]

EXCHANGE_FILE = "exchange.ndjson"
"""The NDJSON exchange in a recording folder."""
RUN_FILE = "run.json"
"""The options of the recorded run in a recording folder."""


class RecordingError(ValueError):
    """A recording folder cannot be written or read; the message names the file, line, problem."""


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
        """Close the wrapped IUT and the recording file."""
        try:
            self._inner.close()
        finally:
            self._file.close()


def read_run_options(directory: Path) -> dict[str, Any]:
    """The ``run.json`` of a recording folder.

    Raises:
        RecordingError: missing, unreadable or not a JSON object.
    """
    from contracts import ContractError, load_json_file  # noqa: PLC0415 - strict reader

    path = directory / RUN_FILE
    if not path.is_file():
        msg = (
            f"{shown_path(path)}: no such file; expected a recording folder written by "
            "srdh run --record"
        )
        raise RecordingError(msg)
    try:
        options = load_json_file(path)
    except ContractError as error:
        raise RecordingError(str(error)) from None
    if not isinstance(options, dict):
        msg = f"{shown_path(path)}: expected a JSON object"
        raise RecordingError(msg)
    return options


class ReplayAdapter:
    """An adapter that answers from a recording instead of an IUT.

    Every line of ``exchange.ndjson`` is read with the strict reader and every message is
    validated against the adapter-message contract before anything is replayed.

    Raises:
        RecordingError: (at construction) a missing file, a malformed line, an invalid message,
            a recording without hello, or an answer to an unknown request (file and line named).
    """

    def __init__(self, directory: Path) -> None:
        """Read and check the recording in ``directory``."""
        from contracts import ContractError, loads_strict  # noqa: PLC0415 - strict reader

        path = directory / EXCHANGE_FILE
        if not path.is_file():  # a FIFO or device could block: only a regular file is read
            msg = (
                f"{shown_path(path)}: no such regular file; expected a recording of "
                "srdh run --record"
            )
            raise RecordingError(msg)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            msg = f"{shown_path(path)}: cannot read ({exc.strerror or exc})"
            raise RecordingError(msg) from None
        except UnicodeDecodeError:
            msg = f"{shown_path(path)}: not UTF-8"
            raise RecordingError(msg) from None
        self.directory = directory
        self.interrupted: str | None = None
        """The signal that stopped the recorded run (``SIGTERM``), or ``None``."""
        self._hello: dict[str, Any] | None = None
        requests: dict[str, dict[str, Any]] = {}
        self._answers: dict[str, list[dict[str, Any] | str | _Broken]] = {}
        for number, line in enumerate(text.split("\n"), start=1):
            if not line.strip():
                continue
            try:
                record = loads_strict(line, source=str(path), first_line=number)
            except ContractError as error:
                raise RecordingError(str(error)) from None
            self._take(record, requests, f"{shown_path(path)}:{number}")
        if self._hello is None:
            msg = f"{shown_path(path)}: the recording holds no hello message"
            raise RecordingError(msg)

    def _take(self, record: Any, requests: dict[str, dict[str, Any]], where: str) -> None:  # noqa: ANN401, C901 - one branch per record kind
        if not isinstance(record, dict):
            msg = f"{where}: expected an object with seq, from and message or failure"
            raise RecordingError(msg)
        if "interrupted" in record:
            name = record["interrupted"]
            if name not in {"SIGINT", "SIGTERM", "SIGHUP"}:
                msg = f"{where}: interrupted must name SIGINT, SIGTERM or SIGHUP"
                raise RecordingError(msg)
            self.interrupted = name
            return
        if "failure" in record:
            fixture = requests.get(str(record.get("request_id")))
            if fixture is None or not isinstance(record["failure"], str):
                msg = f"{where}: a failure must name a recorded request_id and be a string"
                raise RecordingError(msg)
            answer = record.get("answer")
            if answer is not None and not isinstance(answer, dict):
                msg = f"{where}: a failure's answer must be the observation message (an object)"
                raise RecordingError(msg)
            kept: str | _Broken = record["failure"]
            if answer is not None:
                kept = _Broken(str(record["request_id"]), answer)
            self._answers.setdefault(_key(fixture), []).append(kept)
            return
        message = record.get("message")
        problems = message_problems(message)
        if problems or not isinstance(message, dict):
            msg = f"{where}: not a valid adapter message: {'; '.join(problems)}"
            raise RecordingError(msg)
        kind = message["type"]
        if kind == "hello":
            self._hello = message
        elif kind == "run":
            requests[message["request_id"]] = message["fixture"]
        elif kind == "observation":
            fixture = requests.get(message["request_id"])
            if fixture is None:
                msg = f"{where}: observation of unknown request {message['request_id']!r}"
                raise RecordingError(msg)
            self._answers.setdefault(_key(fixture), []).append(message["observation"])

    @property
    def capabilities(self) -> frozenset[str]:
        """The recorded IUT's capabilities (from its hello)."""
        assert self._hello is not None  # noqa: S101 - checked at construction
        return frozenset(self._hello.get("capabilities", []))

    def hello(self) -> dict[str, Any]:
        """The recorded hello."""
        assert self._hello is not None  # noqa: S101 - checked at construction
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
