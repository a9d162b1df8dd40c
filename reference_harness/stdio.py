"""The stdio NDJSON entry of the reference Harness (contract sheet ``adapter-message``).

Run ``python -m reference_harness.stdio``. It writes ``hello`` first, then answers each ``run``
line with an ``observation`` (or an ``error`` naming the problem: line number, and the JSON
pointer and expectation for a message that breaks its schema), and exits 0 on ``bye`` or end of
input. It declares ``MODEL_ENDPOINT``: a ``run`` carrying ``model_endpoint`` is played by the
kit's model endpoint over HTTP (the Harness's OpenAI-compatible ports), one without it by the
fixture's scripted turns. Blank lines are skipped. Every outgoing message is validated against
its schema before it is written; the kit can trust every line it reads.

Once ``hello`` is out, an IUT declaring ``MODEL_ENDPOINT`` imports the OpenAI SDK and builds its
connection pool in a background thread (:func:`reference_harness.openai._endpoint.warm_up`),
while the kit prepares its first ``run``: the first Run no longer waits for that start-up (about
half a second of CPU), and a process that is only asked for ``hello`` is not slowed down.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
from dataclasses import replace
from typing import IO, TYPE_CHECKING, Any, Final, NoReturn

from contracts import ContractError, StrictJSONError, loads_strict, validate_document
from reference_harness.iut import MODEL_ENDPOINT, FixtureIUT, create, create_with_endpoint

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

__all__ = ["main", "serve"]

_CONTRACT: Final = "adapter-message"
_ID_MAX: Final = 128


def _request_id(message: object) -> str | None:
    """Return the message's ``request_id`` if it is a usable id, else ``None``."""
    if isinstance(message, dict):
        value = message.get("request_id")
        if isinstance(value, str) and 0 < len(value) <= _ID_MAX:
            return value
    return None


def _error(request_id: str | None, code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "request_id": request_id, "code": code, "message": message[:4000]}


def _write(out: IO[str], message: dict[str, Any], *, checked: bool = True) -> None:
    violations = validate_document(message, _CONTRACT) if checked else []
    if violations:
        first = violations[0]
        request_id = message.get("request_id")
        message = _error(
            request_id if isinstance(request_id, str) and violations else None,
            "IUT_ERROR",
            f"outgoing {message.get('type')} broke its schema at {first.pointer or '(root)'}: "
            f"{first.message}",
        )
        if validate_document(message, _CONTRACT):  # the request id itself was the problem
            message["request_id"] = None
    out.write(json.dumps(message, ensure_ascii=True, separators=(",", ":")) + "\n")
    out.flush()


class _Refusal(Exception):  # noqa: N818 - a control-flow value, not an error of this module
    """An input line that gets an ``error`` reply."""

    def __init__(self, reply: dict[str, Any]) -> None:
        super().__init__(reply["code"])
        self.reply = reply


def _parse(number: int, line: bytes) -> dict[str, Any]:
    """Return the valid adapter message on ``line``, or raise :class:`_Refusal`."""
    try:
        message = loads_strict(line, first_line=number)
    except StrictJSONError as error:
        text = f"line {number}: expected one I-JSON object: {error.pointer or '/'}: {error.message}"
        raise _Refusal(_error(None, "MALFORMED_MESSAGE", text)) from None
    request_id = _request_id(message)
    violations = []
    if isinstance(message, dict) and message.get("type") == "run" and "fixture" in message:
        # Name the pointer inside the fixture rather than "none of the message shapes matched".
        violations = [
            replace(v, pointer="/fixture" + v.pointer)
            for v in validate_document(message["fixture"], "scenario-fixture")
        ]
    violations = violations or validate_document(message, _CONTRACT)
    if violations:
        first = violations[0]
        text = f"line {number}: {first.pointer or '(root)'}: {first.message}"
        raise _Refusal(_error(request_id, "INVALID_MESSAGE", text))
    if message["type"] not in {"run", "bye"}:
        text = f"line {number}: /type: expected run or bye from the kit, got {message['type']}"
        raise _Refusal(_error(request_id, "UNEXPECTED_MESSAGE", text))
    return dict(message)


def _answer(iut: FixtureIUT, number: int, line: bytes) -> dict[str, Any] | None:
    """Return the reply to one input line, or ``None`` for ``bye``."""
    try:
        message = _parse(number, line)
    except _Refusal as refusal:
        return refusal.reply
    if message["type"] == "bye":
        return None
    request_id = message["request_id"]
    try:
        observation = iut.run(message["fixture"], message.get("model_endpoint"))
    except ContractError as error:
        return _error(request_id, "INVALID_FIXTURE", f"line {number}: {error}")
    except Exception as error:  # noqa: BLE001 - reported as a code, never as a traceback
        text = f"line {number}: the reference Harness failed ({type(error).__name__})"
        return _error(request_id, "IUT_ERROR", text)
    return {"type": "observation", "request_id": request_id, "observation": observation}


def serve(
    lines: Iterable[bytes],
    out: IO[str],
    *,
    factory: Callable[[], FixtureIUT] = create_with_endpoint,
) -> int:
    """Speak the adapter protocol over ``lines`` (input, with or without newlines) and ``out``.

    ``factory`` makes the IUT (default: the reference Harness; ``main`` passes a mutant's for
    ``--mutant NAME``). Returns the exit status: 0 on ``bye`` or end of input.
    """
    iut = factory()
    try:
        hello = iut.hello()
        _write(out, hello)
        if MODEL_ENDPOINT in hello["capabilities"]:
            _warm_up_in_background()
        for number, raw in enumerate(lines, start=1):
            line = raw.strip()
            if not line:
                continue
            reply = _answer(iut, number, line)
            if reply is None:
                return 0
            unchecked = reply["type"] == "observation" and not iut.checks_own_observation
            _write(out, reply, checked=not unchecked)
        return 0
    finally:
        iut.close()


def _warm_up_in_background() -> None:
    """Start :func:`reference_harness.openai._endpoint.warm_up` in a daemon thread.

    Whatever it does is done again, as before, by the first Run that needs it (Python's import
    lock makes that Run wait for an import already under way, never run it twice); a failure
    here is left for that Run to meet and report. The process ends without waiting for it.
    """

    def warm_up() -> None:
        with contextlib.suppress(Exception):
            from reference_harness.openai._endpoint import warm_up  # noqa: PLC0415 - SDK import

            warm_up()

    threading.Thread(target=warm_up, name="srdh-warm-up", daemon=True).start()


def _factory(argv: list[str]) -> Callable[[], FixtureIUT]:
    """Return the IUT factory ``argv`` names: none, ``--scripted`` or ``--mutant NAME``.

    None: the reference Harness declaring ``MODEL_ENDPOINT`` (its model calls go to the kit's
    endpoint over HTTP). ``--scripted``: the reference Harness without it, the fixture's scripted
    turns playing the models as in process (the adapter benchmark compares like with like).
    ``--mutant NAME``: a mutant (the kit's self-test).
    """
    if not argv:
        return create_with_endpoint
    if argv == ["--scripted"]:
        return create
    if len(argv) == 2 and argv[0] == "--mutant":  # noqa: PLR2004 - option and value
        from reference_harness import mutants  # noqa: PLC0415 - only for the self-test

        name = argv[1]
        if name in mutants.MUTANTS:
            return lambda: mutants.create(name)
        known = ", ".join(sorted(mutants.MUTANTS))
        sys.stderr.write(f"unknown mutant {name!r}; known: {known}\n")
        raise SystemExit(2)
    sys.stderr.write("usage: python -m reference_harness.stdio [--scripted | --mutant NAME]\n")
    raise SystemExit(2)


def main(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m reference_harness.stdio [--scripted | --mutant NAME]``."""
    factory = _factory(sys.argv[1:] if argv is None else argv)
    raise SystemExit(serve(sys.stdin.buffer, sys.stdout, factory=factory))


def _run_as_script() -> NoReturn:
    """``python -m reference_harness.stdio``: :func:`main`, then end without interpreter teardown.

    Once :func:`serve` returns the exchange is over: every reply is written and flushed and the
    IUT is closed. Tearing the interpreter down (finalizing every imported module and object)
    would cost about a quarter of this process's start-up CPU, paid again for every IUT process
    the kit starts and closes (three per ``srdh run``), and changes nothing anyone can see. The
    exit code is :func:`main`'s.
    """
    try:
        main()
    except SystemExit as stop:
        code = stop.code
    else:  # pragma: no cover - main always raises SystemExit
        code = 0
    if isinstance(code, str):  # pragma: no cover - main passes ints; SystemExit("text") prints it
        sys.stderr.write(code + "\n")
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code if isinstance(code, int) else (0 if code is None else 1))


if __name__ == "__main__":
    _run_as_script()
