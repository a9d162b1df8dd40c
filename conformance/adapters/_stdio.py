"""The stdio adapter: any IUT, in any language, speaking NDJSON adapter messages.

Protocol (``schemas/adapter-message.schema.json``): the IUT writes ``hello`` first; the kit sends
``run``, the IUT answers exactly one ``observation`` (or ``error``); ``bye`` ends the session, the
kit closes the IUT's stdin and the IUT exits 0. Every message both ways is validated against the
AdapterMessage contract.

Supervision (see :mod:`conformance.adapters._process`): each message the kit waits for has one
deadline, ``timeout_s`` after the wait began (for ``hello``: after the IUT process started, which
:meth:`StdioAdapter.start` may do before anything waits), which only a complete message meets
(blank lines and partial output do not extend it); a message longer than ``max_message_bytes``
is refused without being held; the IUT's whole process group is ended after ``bye`` and after
any failure, and the next run starts a fresh process.
"""

from __future__ import annotations

import contextlib
import json
import shlex
import time
from typing import Any, Final

from conformance.adapters._endpoint import endpoint_session
from conformance.adapters._errors import AdapterError, ObservationContractError, ProtocolViolation
from conformance.adapters._process import (
    DEFAULT_MAX_MESSAGE_BYTES,
    ChildProcess,
    MessageTooLarge,
    ReadTimeout,
    interruption,
)
from conformance.adapters._protocol import check_hello, check_observation, run_message
from conformance.adapters._starved import unstarved
from contracts import MAX_DEPTH, StrictJSONError, loads_strict

__all__ = [
    "DEFAULT_MAX_MESSAGE_BYTES",
    "DEFAULT_TIMEOUT_S",
    "MAX_MESSAGE_DEPTH",
    "StdioAdapter",
    "parse_message",
]

DEFAULT_TIMEOUT_S: Final = 30.0
"""Default per-message timeout, in seconds."""

MAX_MESSAGE_DEPTH: Final = MAX_DEPTH
"""Deepest nesting of arrays and objects accepted in an adapter message."""

_BYE_TIMEOUT_S: Final = 5.0
_EXIT_WAIT_S: Final = 1.0
_SHOWN_CHARS: Final = 200
_SHOWN_POINTER_CHARS: Final = 60


class _ParseError(ValueError):
    """An IUT line that is not an acceptable JSON message."""


def parse_message(line: bytes) -> Any:  # noqa: ANN401 - any JSON value
    """Parse one NDJSON line from an IUT: the adapter's single JSON parse.

    The kit's strict reader (:func:`contracts.loads_strict`: RFC 8259 + I-JSON, nesting at most
    :data:`MAX_MESSAGE_DEPTH`) decides.

    Raises:
        ValueError: not UTF-8, not JSON, a duplicate member name, a non-finite or overflowing
            number, nested deeper than :data:`MAX_MESSAGE_DEPTH`, or a lone surrogate.
    """
    try:
        return loads_strict(line, source="the IUT's standard output")
    except StrictJSONError as error:
        pointer = error.pointer or ""
        if len(pointer) > _SHOWN_POINTER_CHARS:
            pointer = pointer[:_SHOWN_POINTER_CHARS] + "…"
        where = f" at {pointer}" if pointer else ""
        reason = f"{error.message}{where}"
        raise _ParseError(reason) from None


class StdioAdapter:
    """Runs fixtures through a child process speaking the NDJSON adapter protocol.

    ``command`` is an argv list or a shell-like string (split with :func:`shlex.split`, never run
    through a shell). ``timeout_s`` bounds the wait for each message from the IUT, and each write
    to it. ``max_message_bytes`` bounds one message (an NDJSON line) from the IUT. The IUT is
    started on first use and restarted after a failure, so one broken run does not sink the next.

    Attributes:
        violations: protocol errors noticed after the answer they concern was accepted (an
            unsolicited or second message), each blamed on the request it followed.
        warnings: how the IUT ended when that did not fail a run (it ignored ``bye``, or exited
            with a non-zero code after it).

    Raises:
        AdapterError: (at construction) the command is empty or cannot be split like a shell
            line (an unbalanced quote); (from ``hello``/``run``) the IUT cannot start, crashes,
            hangs past ``timeout_s``, sends invalid JSON, a message that is too large or too deep, a
            schema-invalid message, another protocol version, a wrong ``request_id`` or an
            observation of another fixture. The message carries the tail of the IUT's stderr
            and the timeout; the IUT's process group is killed first.
    """

    def __init__(
        self,
        command: list[str] | str,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        *,
        env: dict[str, str] | None = None,
        max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
    ) -> None:
        """Remember how to start the IUT; nothing runs until the first call."""
        try:
            self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        except ValueError as error:  # an unbalanced quote or a trailing backslash
            reason = f"the IUT command {command!r} cannot be split like a shell line: {error}"
            raise AdapterError(reason) from None
        if not self.argv:
            reason = "the IUT command is empty"
            raise AdapterError(reason)
        self.timeout_s = timeout_s
        self.max_message_bytes = max_message_bytes
        self.env = env
        self.violations: list[ProtocolViolation] = []
        self.warnings: list[str] = []
        self._child: ChildProcess | None = None
        self._hello: dict[str, Any] | None = None
        self._requests = 0
        self._hello_due: float | None = None
        """When the current child was started, while its ``hello`` is still to be read."""
        self._answered: ProtocolViolation | None = None
        """The last request the current child answered (a template for a late violation)."""
        self._answered_ids: dict[str, ProtocolViolation] = {}
        """Every request the current child answered, by request id (to spot a second answer)."""

    # -- process handling -------------------------------------------------------------------------
    def _fail(self, reason: str, request_id: str | None = None) -> AdapterError:
        child, self._child = self._child, None
        self._hello_due = None
        self._answered = None
        self._answered_ids = {}
        tail = ""
        if child is not None:
            child.kill()
            tail = child.stderr_tail()
        return AdapterError(
            reason, stderr_tail=tail, timeout_s=self.timeout_s, request_id=request_id
        )

    def _spawn(self) -> None:
        """Start the IUT process (its ``hello`` is read by :meth:`_start`)."""
        try:
            self._child = ChildProcess(
                self.argv, env=self.env, max_message_bytes=self.max_message_bytes
            )
        except OSError as error:
            reason = f"cannot start the IUT {shlex.join(self.argv)!r}: {error}"
            raise AdapterError(reason) from error
        self._hello_due = time.monotonic()

    def _start(self) -> ChildProcess:
        if self._child is None:
            self._spawn()
        started = self._hello_due
        if started is not None:
            self._hello_due = None
            message = self._receive("the hello message", deadline=started + self.timeout_s)
            try:
                hello = check_hello(message)
            except AdapterError as error:
                raise self._fail(error.reason) from error
            if self._hello is None:
                self._hello = hello
        assert self._child is not None  # noqa: S101 - spawned above, or _receive raised
        return self._child

    def _receive(
        self, expecting: str, request_id: str | None = None, *, deadline: float | None = None
    ) -> Any:  # noqa: ANN401 - any JSON value
        child = self._child
        assert child is not None  # noqa: S101 - callers start the child first
        if deadline is None:
            deadline = time.monotonic() + self.timeout_s
        try:
            line = child.receive(deadline)
        except ReadTimeout:
            reason = f"IUT sent no complete message within the timeout while {expecting} was due"
            raise self._fail(reason, request_id) from None
        except MessageTooLarge as error:
            reason = (
                f"IUT message too large while {expecting} was due: more than "
                f"{error.limit} bytes in one line (max_message_bytes)"
            )
            raise self._fail(reason, request_id) from None
        if line == b"":
            code = child.wait(_EXIT_WAIT_S)
            if code is None:
                reason = f"IUT closed its stdout before sending {expecting}"
            else:
                reason = f"IUT exited (exit code {code}) before sending {expecting}"
            raise self._fail(reason, request_id)
        try:
            return parse_message(line)
        except (ValueError, RecursionError) as error:
            text = line[:_SHOWN_CHARS].decode("utf-8", errors="replace").rstrip()
            reason = f"IUT sent invalid JSON instead of {expecting}: {error}: {text!r}"
            raise self._fail(reason, request_id) from None

    def _send(self, message: dict[str, Any], request_id: str | None = None) -> None:
        child = self._child
        assert child is not None  # noqa: S101 - callers start the child first
        line = json.dumps(message, ensure_ascii=False, allow_nan=False).encode() + b"\n"
        try:
            child.send(line, time.monotonic() + self.timeout_s)
        except ReadTimeout:
            reason = f"IUT did not read its input within the timeout ({message['type']} message)"
            raise self._fail(reason, request_id) from None
        except OSError as error:
            reason = f"cannot write to the IUT (it may have exited): {error}"
            raise self._fail(reason, request_id) from None

    def _blame_unsolicited(
        self, lines: list[bytes], upcoming: ProtocolViolation | None = None
    ) -> bool:
        """Record unsolicited ``lines`` against the last answered request; True if any.

        Before any answer (output after ``hello``: junk, a second ``hello``) they are blamed on
        ``upcoming``, the request about to be sent, whose scenario then fails; without one
        (the IUT is closing) on nothing but a warning.
        """
        answered = self._answered
        if not lines:
            return False
        first = lines[0][:_SHOWN_CHARS].decode("utf-8", errors="replace")
        if answered is None:
            if upcoming is None:
                self.warnings.append(
                    f"IUT sent {len(lines)} unsolicited message(s) after its hello and before "
                    f"any request: {first!r}"
                )
                return True
            reason = (
                f"IUT sent {len(lines)} unsolicited message(s) after its hello, before "
                f"{upcoming.request_id}: {first!r}"
            )
            self.violations.append(
                ProtocolViolation(
                    upcoming.request_id, upcoming.fixture_id, upcoming.scenario_id, reason
                )
            )
            return True
        reason = (
            f"IUT sent {len(lines)} unsolicited message(s) after answering "
            f"{answered.request_id}: {first!r}"
        )
        self.violations.append(
            ProtocolViolation(
                answered.request_id, answered.fixture_id, answered.scenario_id, reason
            )
        )
        return True

    def _check_between_runs(self, upcoming: ProtocolViolation) -> None:
        """Before a new request: blame output nobody asked for; replace an IUT that left.

        Output since the last answer is a violation of that answer's request (output after
        ``hello`` and before any request, of ``upcoming``), and the IUT is restarted (its
        stream is out of step). An IUT that exited without ``bye`` is restarted too, with a
        warning, so the next request is not blamed for it.
        """
        if self._hello_due is not None:
            self._start()  # started ahead (start()): its hello is not output nobody asked for
        child = self._child
        if child is None:
            return
        unsolicited = self._blame_unsolicited(child.pending_lines(), upcoming)
        code = child.exit_code
        if not unsolicited and code is None:
            return
        child.kill()
        if not unsolicited:
            unsolicited = self._blame_unsolicited(child.leftover_lines())
        if code is not None:
            after = self._answered.request_id if self._answered else "its hello"
            self.warnings.append(
                f"IUT exited (exit code {code}) after answering {after}, before bye; "
                "a fresh process was started"
            )
        self._child, self._answered, self._answered_ids = None, None, {}

    def _repeated_answer(self, answer: Any) -> bool:  # noqa: ANN401 - any JSON value
        """True (and a violation recorded) if ``answer`` answers a request already answered.

        A second ``observation`` or ``error`` for an earlier request that arrives while a later
        request's answer is due is blamed on the earlier request, not on the later one.
        """
        if not isinstance(answer, dict) or answer.get("type") not in {"observation", "error"}:
            return False
        earlier = self._answered_ids.get(str(answer.get("request_id")))
        if earlier is None:
            return False
        reason = f"IUT answered {earlier.request_id} a second time (a second {answer['type']})"
        self.violations.append(
            ProtocolViolation(earlier.request_id, earlier.fixture_id, earlier.scenario_id, reason)
        )
        return True

    # -- the adapter interface --------------------------------------------------------------------
    def start(self) -> None:
        """Start the IUT process now, if none runs, without waiting for its ``hello``.

        The caller can do its own work while the IUT starts; the next :meth:`hello` or
        :meth:`run` reads the ``hello``, which must still come within ``timeout_s`` of the
        start. ``srdh run`` starts the IUT before it loads the suite.

        Raises:
            AdapterError: the program cannot be started.
        """
        if self._child is None:
            self._spawn()

    def hello(self) -> dict[str, Any]:
        """Return the IUT's validated ``hello`` (starting the IUT if needed)."""
        self._start()
        assert self._hello is not None  # noqa: S101 - set by _start
        return self._hello

    @property
    def capabilities(self) -> frozenset[str]:
        """The capabilities declared in the IUT's hello."""
        return frozenset(self.hello()["capabilities"])

    def run(self, fixture: dict[str, Any]) -> dict[str, Any]:
        """Send ``fixture`` in a ``run`` message and return the validated RunObservation.

        Output the IUT wrote since its last answer is a :class:`ProtocolViolation` of that
        answer's request; the IUT is then restarted, since its stream is out of step.

        For an IUT that declared ``MODEL_ENDPOINT`` the kit's model endpoint serves the Run: its
        URLs go in the message, the requests it received come back as ``model_requests``. A Run
        in which a timely scripted answer ended by the IUT's timeout (its clock, not the script,
        decided it) is run again, up to :data:`~conformance.adapters._starved.STARVED_RUNS` Runs.
        """
        return unstarved(lambda: self._run_once(fixture), fixture)

    def _run_once(self, fixture: dict[str, Any]) -> dict[str, Any]:
        self._requests += 1
        request_id = f"req-{self._requests}"
        self._check_between_runs(self._answer_of(request_id, fixture))
        self._start()
        with endpoint_session(self.capabilities, fixture) as endpoint:
            message = run_message(request_id, fixture, endpoint.descriptor)
            self._send(message, request_id)
            answer = self._receive(f"the observation of {request_id}", request_id)
            while self._repeated_answer(answer):
                answer = self._receive(f"the observation of {request_id}", request_id)
            child = self._child
            assert child is not None  # noqa: S101 - _receive raised otherwise
            try:
                observation = endpoint.attach(
                    check_observation(
                        answer,
                        request_id=request_id,
                        fixture_id=fixture["fixture_id"],
                        stderr_tail=child.stderr_tail(),
                    )
                )
            except ObservationContractError:
                # a well-formed answer reporting a broken Run: the stream is in step, keep the IUT
                self._answered = self._answer_of(request_id, fixture)
                self._answered_ids[request_id] = self._answered
                raise
            except AdapterError as error:
                raise self._fail(error.reason, request_id) from error
            except RecursionError:
                reason = f"IUT sent an observation of {request_id} too deep to validate"
                raise self._fail(reason, request_id) from None
        self._answered = self._answer_of(request_id, fixture)
        self._answered_ids[request_id] = self._answered
        return observation

    @staticmethod
    def _answer_of(request_id: str, fixture: dict[str, Any]) -> ProtocolViolation:
        """What unsolicited output after the answer to ``request_id`` is blamed on."""
        scenario = fixture.get("scenario_id")
        return ProtocolViolation(
            request_id, fixture["fixture_id"], scenario if isinstance(scenario, str) else None, ""
        )

    def close(self) -> None:
        """Send ``bye``, close the IUT's stdin and end its process group. Idempotent.

        Never raises for how the IUT ends, so that finished results are kept: an IUT that does
        not exit within ``min(timeout_s, 5)`` seconds is killed, and that or a non-zero exit code
        is added to :attr:`warnings` (not when ``srdh`` was interrupted, see
        :func:`supervise_signals`: the kit then killed the group itself). Output after its last
        answer is added to :attr:`violations`.
        """
        child, self._child = self._child, None
        hello_due, self._hello_due = self._hello_due is not None, None
        if child is None:
            return
        grace = min(self.timeout_s, _BYE_TIMEOUT_S)
        # An IUT that stopped reading or already exited: its exit code below tells.
        with contextlib.suppress(ReadTimeout, OSError):
            child.send(b'{"type":"bye"}\n', time.monotonic() + grace)
        child.close_stdin()
        code = child.wait(grace)
        child.kill()
        leftover = child.leftover_lines()
        self._blame_unsolicited(leftover[1:] if hello_due else leftover)  # an unread hello
        self._answered, self._answered_ids = None, {}
        if interruption() is not None:
            return  # srdh was stopped and killed the group itself: how the IUT ended says nothing
        if code is None:
            self.warnings.append(
                f"IUT did not exit within {grace:g} s after bye and the end of its input; "
                "its process group was killed"
            )
        elif code != 0:
            tail = child.stderr_tail().splitlines()[-1:] if child.stderr_tail() else []
            said = f" (stderr: {tail[0]})" if tail else ""
            self.warnings.append(f"IUT exited with code {code} after bye, expected 0{said}")
