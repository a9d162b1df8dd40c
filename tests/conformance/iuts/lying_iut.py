"""A misbehaving stdio IUT for adapter tests: ``python lying_iut.py MODE``.

It wraps the reference Harness and breaks the adapter protocol in one way per MODE. It never
sleeps: a "hanging" mode blocks on reading stdin, which the kit never closes while waiting.
"""

import json
import sys

from reference_harness.iut import create

HELLO = {
    "type": "hello",
    "protocol_version": "1.0",
    "implementation": {"name": "lying-iut", "version": "0"},
    "capabilities": ["DIAGNOSIS"],
}


def send(obj) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main(mode: str) -> int:
    if mode == "no-hello-exit":
        sys.stderr.write("fatal: cannot load configuration\n")
        return 2
    if mode == "no-hello-hang":
        sys.stdin.read()
        return 0
    if mode == "wrong-version":
        send({**HELLO, "protocol_version": "2.0"})
        sys.stdin.read()
        return 0
    send(HELLO)
    iut = create()
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "bye":
            return 3 if mode == "bad-exit" else 0
        fixture = message["fixture"]
        if mode == "crash":
            sys.stderr.write("Traceback: boom in the harness\n")
            return 1
        if mode == "hang":
            sys.stdin.read()
            return 0
        if mode == "invalid-json":
            sys.stdout.write("{not json\n")
            sys.stdout.flush()
            continue
        if mode == "error":
            send({"type": "error", "request_id": message["request_id"], "code": "BOOM", "message": "no"})
            continue
        observation = iut.run(fixture)
        request_id = message["request_id"]
        if mode == "wrong-request":
            request_id = "req-999"
        if mode == "other-fixture":
            observation["fixture_id"] = "someone-else"
        if mode == "schema-invalid":
            del observation["trace"]
        send({"type": "observation", "request_id": request_id, "observation": observation})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
