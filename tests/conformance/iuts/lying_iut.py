"""A misbehaving stdio IUT for adapter tests: ``python lying_iut.py MODE``.

It wraps the reference Harness and breaks the adapter protocol in one way per MODE. It never
sleeps: a "hanging" mode blocks on reading stdin, which the kit keeps open while it waits.
"""

import importlib
import json
import sys

HELLO = {
    "type": "hello",
    "protocol_version": "2.0",
    "implementation": {"name": "lying-iut", "version": "0"},
    "capabilities": ["DIAGNOSIS"],
}
BEFORE_HELLO = {"no-hello-exit", "no-hello-hang", "wrong-version"}


def send(obj) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def before_hello(mode: str) -> int:
    if mode == "no-hello-exit":
        sys.stderr.write("fatal: cannot load configuration\n")
        return 2
    if mode == "wrong-version":
        send({**HELLO, "protocol_version": "1.0"})
    sys.stdin.read()
    return 0


def answer(mode: str, iut, message: dict) -> int | None:
    """Answer one run message the MODE's way; a number means: exit with it."""
    if mode == "crash":
        sys.stderr.write("Traceback: boom in the harness\n")
        return 1
    if mode == "hang":
        sys.stdin.read()
        return 0
    if mode == "invalid-json":
        sys.stdout.write("{not json\n")
        sys.stdout.flush()
        return None
    request_id = message["request_id"]
    if mode == "error":
        send({"type": "error", "request_id": request_id, "code": "BOOM", "message": "no"})
        return None
    observation = iut.run(message["fixture"])
    if mode == "wrong-request":
        request_id = "req-999"
    if mode == "other-fixture":
        observation["fixture_id"] = "someone-else"
    if mode == "schema-invalid":
        del observation["trace"]
    send({"type": "observation", "request_id": request_id, "observation": observation})
    return None


def main(mode: str) -> int:
    if mode in BEFORE_HELLO:
        return before_hello(mode)
    send(HELLO)
    iut = None
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "bye":
            return 3 if mode == "bad-exit" else 0
        # The reference is loaded at the first run, not before reading: a hello-then-bye
        # exchange (test_stdio_bad_exit_after_bye) must not pay its import (4-6 s under load)
        # inside the kit's 5 s grace after bye.
        if iut is None:
            iut = importlib.import_module("reference_harness.iut").create()
        code = answer(mode, iut, message)
        if code is not None:
            return code
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
