"""The stdio adapter: any IUT, in any language, speaking NDJSON adapter messages.

Protocol (``schemas/adapter-message.schema.json``): the IUT writes ``hello`` first; the kit sends
``run``, the IUT answers ``observation`` (or ``error``); ``bye`` ends the session and the IUT
exits 0. Every message both ways is validated against the AdapterMessage contract.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import shlex
from typing import Any

from conformance.adapters._endpoint import endpoint_session
from conformance.adapters._errors import AdapterError
from conformance.adapters._process import ChildProcess, ReadTimeout
from conformance.adapters._protocol import check_hello, check_observation, run_message

__all__ = ["DEFAULT_TIMEOUT_S", "StdioAdapter"]

DEFAULT_TIMEOUT_S = 30.0
"""Default per-message timeout, in seconds."""

_BYE_TIMEOUT_S = 5.0


class StdioAdapter:
    """Runs fixtures through a child process speaking the NDJSON adapter protocol.

    ``command`` is an argv list or a shell-like string (split with :func:`shlex.split`, never run
    through a shell). ``timeout_s`` bounds the wait for each message from the IUT. The IUT is
    started on first use and restarted after a failure, so one broken run does not sink the next.

    Raises:
        AdapterError: (from any method) the IUT cannot start, crashes, hangs past ``timeout_s``,
            sends invalid JSON, a schema-invalid message, another protocol version, a wrong
            ``request_id`` or an observation of another fixture. The message carries the tail of
            the IUT's stderr and the timeout; the IUT's process group is killed first.
    """

    def __init__(
        self,
        command: list[str] | str,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        *,
        env: dict[str, str] | None = None,
    ) -> None:
        """Remember how to start the IUT; nothing runs until the first call."""
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            reason = "the IUT command is empty"
            raise AdapterError(reason)
        self.timeout_s = timeout_s
        self.env = env
        self._child: ChildProcess | None = None
        self._hello: dict[str, Any] | None = None
        self._requests = itertools.count(1)

    # -- process handling -------------------------------------------------------------------------
    def _fail(self, reason: str) -> AdapterError:
        child, self._child = self._child, None
        tail = ""
        if child is not None:
            child.kill()
            tail = child.stderr_tail()
        return AdapterError(reason, stderr_tail=tail, timeout_s=self.timeout_s)

    def _start(self) -> ChildProcess:
        if self._child is None:
            try:
                self._child = ChildProcess(self.argv, env=self.env)
            except OSError as error:
                reason = f"cannot start the IUT {shlex.join(self.argv)!r}: {error}"
                raise AdapterError(reason) from error
            message = self._receive("the hello message")
            try:
                hello = check_hello(message)
            except AdapterError as error:
                raise self._fail(error.reason) from error
            if self._hello is None:
                self._hello = hello
        return self._child

    def _receive(self, expecting: str) -> Any:  # noqa: ANN401 - any JSON value
        child = self._child
        assert child is not None  # noqa: S101 - callers start the child first
        line = b"\n"
        while not line.strip():
            try:
                line = child.receive(self.timeout_s)
            except ReadTimeout:
                reason = f"IUT sent nothing within the timeout while {expecting} was due"
                raise self._fail(reason) from None
            if line == b"":
                code = child.wait(self.timeout_s)
                reason = f"IUT exited (exit code {code}) before sending {expecting}"
                raise self._fail(reason)
        try:
            return json.loads(line)
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            text = line[:200].decode("utf-8", errors="replace").rstrip()
            reason = f"IUT sent invalid JSON instead of {expecting}: {error}: {text!r}"
            raise self._fail(reason) from None

    def _send(self, message: dict[str, Any]) -> None:
        child = self._child
        assert child is not None  # noqa: S101 - callers start the child first
        line = json.dumps(message, ensure_ascii=False, allow_nan=False).encode() + b"\n"
        try:
            child.send(line)
        except OSError as error:
            reason = f"cannot write to the IUT (it may have exited): {error}"
            raise self._fail(reason) from None

    # -- the adapter interface --------------------------------------------------------------------
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

        For an IUT that declared ``MODEL_ENDPOINT`` the kit's model endpoint serves the Run: its
        URLs go in the message, the requests it received come back as ``model_requests``.
        """
        request_id = f"req-{next(self._requests)}"
        self._start()
        with endpoint_session(self.capabilities, fixture) as endpoint:
            message = run_message(request_id, fixture, endpoint.descriptor)
            self._send(message)
            answer = self._receive(f"the observation of {request_id}")
            child = self._child
            assert child is not None  # noqa: S101 - _receive raised otherwise
            try:
                return endpoint.attach(
                    check_observation(
                        answer,
                        request_id=request_id,
                        fixture_id=fixture["fixture_id"],
                        stderr_tail=child.stderr_tail(),
                    )
                )
            except AdapterError as error:
                raise self._fail(error.reason) from error

    def close(self) -> None:
        """Send ``bye`` and wait for the IUT to exit 0; kill it otherwise. Idempotent.

        Raises:
            AdapterError: the IUT did not exit 0 after ``bye``.
        """
        child = self._child
        if child is None:
            return
        with contextlib.suppress(OSError):
            child.send(b'{"type": "bye"}\n')
        code = child.wait(min(self.timeout_s, _BYE_TIMEOUT_S))
        if code is None:
            reason = "IUT did not exit after bye"
            raise self._fail(reason)
        self._child = None
        child.finish()
        if code != 0:
            reason = f"IUT exited with code {code} after bye, expected 0"
            raise AdapterError(reason, stderr_tail=child.stderr_tail())
