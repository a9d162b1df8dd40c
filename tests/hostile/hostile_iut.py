"""A hostile stdio IUT: ``python hostile_iut.py MODE PIDFILE``, one misbehaviour per MODE.

It appends ``<pid>`` of itself and of every process it starts to PIDFILE, so a test can prove
that none is left. Modes that must answer correctly replay observations the test recorded from
the reference Harness (``HOSTILE_REPLAY``), or else play the reference Harness (imported only
then, to keep the others fast). Waiting modes block on a read or on ``signal.pause()``: nothing
here depends on the wall clock except the modes whose behaviour is "write slowly".
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

HELLO = {
    "type": "hello",
    "protocol_version": "2.0",
    "implementation": {"name": "hostile-iut", "version": "0"},
    "capabilities": ["DIAGNOSIS"],
}
MODE = sys.argv[1]
PIDFILE = sys.argv[2]
OUT = sys.stdout.buffer


def note(pid: int) -> None:
    with open(PIDFILE, "a", encoding="ascii") as handle:  # noqa: PTH123 - a tiny script
        handle.write(f"{pid}\n")


def write(data: bytes) -> None:
    OUT.write(data)
    OUT.flush()


def send(message: dict) -> None:
    write(json.dumps(message).encode() + b"\n")


def spawn(*argv: str, **kwargs: object) -> subprocess.Popen[bytes]:
    child = subprocess.Popen(argv, **kwargs)  # noqa: S603 - test double
    note(child.pid)
    return child


def forever() -> None:
    while True:
        signal.pause()


def read_message() -> dict | None:
    line = sys.stdin.buffer.readline()
    return json.loads(line) if line.strip() else None


_IUT = None
_PREVIOUS: dict | None = None
_ANSWERED = 0


REPLAY = os.environ.get("HOSTILE_REPLAY")
"""A JSON file ``{fixture_id: observation}`` recorded by the test from the reference Harness:
answering from it spares this process the Harness's import (the corpus stays fast)."""


MUTANT = os.environ.get("HOSTILE_MUTANT")
"""Answer as this mutant of the reference Harness (``reference_harness.mutants``), not as it."""

SIGNAL_AT = os.environ.get("HOSTILE_SIGNAL_AT", "")
"""Mode ``signal-kit``: ``FIXTURE_ID#N``, the run request on which the IUT signals ``srdh``."""
_REQUESTS: dict[str, int] = {}


def observe(message: dict, *, warm_up: bool = False) -> dict:
    global _IUT  # noqa: PLW0603 - created on first use only
    if REPLAY and not warm_up:
        with open(REPLAY, encoding="utf-8") as handle:  # noqa: PTH123 - a tiny script
            recorded = json.load(handle)[message["fixture"]["fixture_id"]]
        return {"type": "observation", "request_id": message["request_id"], "observation": recorded}
    if REPLAY:
        return {}
    if _IUT is None and MUTANT:
        from reference_harness import mutants  # noqa: PLC0415 - only when asked

        _IUT = mutants.create(MUTANT)
    if _IUT is None:
        from reference_harness.iut import create  # noqa: PLC0415 - only modes that answer

        _IUT = create()
    if warm_up:
        return {}
    observation = _IUT.run(message["fixture"])
    return {"type": "observation", "request_id": message["request_id"], "observation": observation}


def hello_with(**implementation: str) -> None:
    send({**HELLO, "implementation": {**HELLO["implementation"], **implementation}})


# -- misbehaviour before (or instead of) hello ----------------------------------------------------
def before_hello() -> bool:  # noqa: C901, PLR0911, PLR0912, PLR0915 - one branch per mode
    if MODE == "signal-kit":  # the reference Harness's capabilities: every scenario runs
        from reference_harness.iut import CAPABILITIES  # noqa: PLC0415 - this mode only

        send({**HELLO, "capabilities": list(CAPABILITIES)})
        return False
    if MODE == "never-hello":
        sys.stdin.buffer.read()
        forever()
    elif MODE == "escapes-then-exit":
        sys.stderr.buffer.write(b"\x1b]0;OWNED\x07\x1b[2J fatal [/INST] \xff\n")
        sys.stderr.flush()
        sys.exit(2)
    elif MODE == "exit-at-once":
        sys.stderr.write("fatal: no licence\n")
        sys.exit(3)
    elif MODE == "garbage-hello":
        write(b"Starting harness v1.2 ...\n")
        forever()
    elif MODE == "wrong-version":
        send({**HELLO, "protocol_version": "1.0"})
        forever()
    elif MODE == "hello-array":
        write(b"[]\n")
        forever()
    elif MODE == "hello-schema-invalid":
        send({"type": "hello", "protocol_version": "2.0"})
        forever()
    elif MODE == "blank-before-hello":
        while True:
            write(b"\n")
            time.sleep(0.05)
    elif MODE == "deep-hello":
        write(b"[" * 100_000 + b"]" * 100_000 + b"\n")
        forever()
    elif MODE == "bad-utf8-hello":
        write(b'{"type": "hello", "x": "\xff\xfe"}\n')
        forever()
    elif MODE == "surrogate-hello":
        write(
            b'{"type":"hello","protocol_version":"2.0","implementation":{"name":"\\ud800",'
            b'"version":"0"},"capabilities":["DIAGNOSIS"]}\n'
        )
        forever()
    elif MODE == "huge-hello":
        for _ in range(100):
            write(b"x" * (1024 * 1024))
        write(b"\n")
        forever()
    elif MODE == "escape-name":
        hello_with(name="\x1b]0;TITLE\x07evil\x1b[2J", version="\x1b[31m1\x1b[0m")
        return False
    elif MODE == "markup-name":
        hello_with(name="[/INST][bold red]x[/]", version="[link=http://e]1")
        return False
    elif MODE == "junk-after-hello":  # D7
        send(HELLO)
        write(b"INFO listening\n")
        return False
    elif MODE == "second-hello":  # D7
        send(HELLO)
        send(HELLO)
        return False
    elif MODE == "html-name":
        hello_with(name="a`b<img src=x onerror=alert(1)>", version="<script>alert(2)</script>")
        return False
    else:
        send(HELLO)
        return False
    return True


# -- misbehaviour on a run --------------------------------------------------------------------
def on_run(message: dict) -> None:  # noqa: C901, PLR0912, PLR0915 - one branch per mode
    request_id = message["request_id"]
    if MODE == "blank-lines":  # H1
        while True:
            write(b"\n")
            time.sleep(0.2)
    elif MODE == "child-holds-stdout":  # H2
        spawn("sleep", "30")
        sys.exit(4)
    elif MODE == "hang":
        forever()
    elif MODE == "no-read-hang":
        os.close(0)
        forever()
    elif MODE == "crash-mid-line":
        write(b'{"type": "observation", "request_id": "')
        sys.stderr.write("Segmentation fault (core dumped)\n")
        os._exit(1)
    elif MODE == "partial-line-hang":
        write(b'{"type": "observation", "request_id": "')
        forever()
    elif MODE == "deep-answer":  # H5
        write(b"[" * 100_000 + b"]" * 100_000 + b"\n")
    elif MODE == "deep-but-parsable":
        write(b'{"type": "observation", "x": ' + b"[" * 500 + b"]" * 500 + b"}\n")
    elif MODE == "huge-line":  # H7
        chunk = b"x" * (1024 * 1024)
        for _ in range(100):
            write(chunk)
        write(b"\n")
        forever()
    elif MODE == "two-observations":  # H8
        answer = observe(message)
        send(answer)
        send(answer)
    elif MODE == "wrong-request-id":
        send({**observe(message), "request_id": "req-999"})
    elif MODE == "old-request-id":
        answer = observe(message)
        answer["request_id"] = "req-0"
        send(answer)
    elif MODE == "other-fixture":
        answer = observe(message)
        answer["observation"]["fixture_id"] = "someone-else"
        send(answer)
    elif MODE == "error-reply":
        send({"type": "error", "request_id": request_id, "code": "E", "message": "no [/INST]"})
    elif MODE == "newline-error":  # one message holding a line feed, a heading and a bidi
        text = "first line\n# heading\u202e second line"
        send({"type": "error", "request_id": request_id, "code": "E", "message": text})
    elif MODE == "schema-invalid":
        send({"type": "observation", "request_id": request_id, "observation": {}})
    elif MODE == "bad-utf8-answer":
        write(b'{"type": "observation", "request_id": "\xc3\x28"}\n')
    elif MODE == "nan-answer":
        write(b'{"type": "observation", "request_id": NaN}\n')
    elif MODE == "stderr-escapes":  # H9
        sys.stderr.buffer.write(b"\x1b[31mERROR \x1b[0m \xff\xfe\x00 tail\n")
        sys.stderr.flush()
        sys.exit(1)
    elif MODE == "markup-error":  # H10
        send(
            {
                "type": "error",
                "request_id": request_id,
                "code": "E[/INST]",
                "message": "[/INST] [bold]x[/bold] \x1b[2J <script>alert(1)</script> `x`",
            }
        )
    elif MODE == "flood-stderr":
        block = b"E" * 65536 + b"\n"
        for _ in range(400):  # 25 MiB
            sys.stderr.buffer.write(block)
        sys.stderr.flush()
        send(observe(message))
    elif MODE == "flood-blank-lines":
        block = b"\n" * 65536
        while True:
            write(block)
    elif MODE == "stdout-log-lines":
        write(b"INFO run started\n")
        send(observe(message))
    elif MODE == "unsolicited-json":
        send({"type": "log", "text": "hi"})
        send(observe(message))
    elif MODE == "close-stdout-hang":
        sys.stdout.close()
        os.close(1)
        forever()
    elif MODE == "setsid-escapee":
        spawn(sys.executable, "-c", "import os, signal; os.setsid(); signal.pause()")
        sys.exit(5)
    elif MODE == "grandchildren-hang":
        script = (
            "import subprocess, sys, signal\n"
            f"c = subprocess.Popen(['sleep', '30'])\n"
            f"open({PIDFILE!r}, 'a').write(f'{{c.pid}}\\n')\n"
            "signal.pause()\n"
        )
        for _ in range(3):
            spawn(sys.executable, "-c", script)
        forever()
    elif MODE == "many-children":
        for _ in range(20):
            spawn("sleep", "30")
        forever()
    elif MODE == "ignore-signals":
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(signum, signal.SIG_IGN)
        forever()
    elif MODE == "exit-after-answer":
        send(observe(message))
        sys.exit(0)
    elif MODE == "hang-on-third":  # D6: answers two runs, then hangs (and says so)
        global _ANSWERED  # noqa: PLW0603 - a count of answers
        _ANSWERED += 1
        if _ANSWERED >= 3:
            with open(PIDFILE + ".hanging", "w") as handle:  # noqa: PTH123 - a tiny script
                handle.write("hanging\n")
            forever()
        send(observe(message))
    elif MODE == "signal-kit":  # Ctrl-C: on request SIGNAL_AT, SIGINT to srdh (its parent)
        fixture_id = message["fixture"]["fixture_id"]
        _REQUESTS[fixture_id] = _REQUESTS.get(fixture_id, 0) + 1
        if f"{fixture_id}#{_REQUESTS[fixture_id]}" == SIGNAL_AT:
            with open(PIDFILE + ".signalled", "w") as handle:  # noqa: PTH123 - a tiny script
                handle.write(f"{request_id}\n")
            os.kill(os.getppid(), signal.SIGINT)
            forever()  # this request is never answered: srdh kills the group
        send(observe(message))
    elif MODE == "double-answer-late":  # D7: the previous answer again, before this one
        global _PREVIOUS  # noqa: PLW0603 - the answer to repeat
        if _PREVIOUS is not None:
            send(_PREVIOUS)
        _PREVIOUS = observe(message)
        send(_PREVIOUS)
    else:
        send(observe(message))


DAEMON = """
import os, signal, sys, time
if os.fork():
    sys.exit(0)
os.setsid()
if os.fork():
    sys.exit(0)
null = os.open(os.devnull, os.O_RDWR)
for fd in (0, 1, 2):
    os.dup2(null, fd)
with open(sys.argv[1], "a") as handle:
    handle.write(f"{os.getpid()}\\n")
time.sleep(30)
"""
"""A classic daemon: double fork, new session, /dev/null for its streams (D8)."""


def on_bye() -> None:
    if MODE == "daemon-on-bye":  # D8
        subprocess.run([sys.executable, "-c", DAEMON, PIDFILE], check=True)  # noqa: S603
        deadline = time.monotonic() + 10
        while len(open(PIDFILE).read().split()) < 2 and time.monotonic() < deadline:  # noqa: PTH123, SIM115
            time.sleep(0.01)
        sys.exit(0)
    if MODE == "child-after-bye":  # H3
        spawn("sleep", "30", stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        sys.exit(0)
    if MODE == "ignore-bye":  # H6: goes on reading until end of input
        return
    if MODE == "ignore-bye-and-eof":  # H6: never exits
        forever()
    if MODE == "bad-exit-after-bye":
        sys.exit(7)
    if MODE == "output-after-bye":
        send({"type": "log", "text": "bye!"})
    sys.exit(0)


ANSWERING = {
    "hang-on-third",
    "signal-kit",
    "daemon-on-bye",
    "double-answer-late",
    "junk-after-hello",
    "second-hello",
    "two-observations",
    "wrong-request-id",
    "old-request-id",
    "other-fixture",
    "flood-stderr",
    "stdout-log-lines",
    "unsolicited-json",
    "exit-after-answer",
    "child-after-bye",
    "ignore-bye",
    "ignore-bye-and-eof",
    "bad-exit-after-bye",
    "output-after-bye",
    "escape-name",
    "markup-name",
    "html-name",
    "answer",
}


def main() -> None:
    note(os.getpid())
    if MODE in ANSWERING:  # import the reference Harness before hello: runs answer at once
        observe({"request_id": "warm-up", "fixture": None}, warm_up=True)
    if before_hello():
        return
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            if MODE == "ignore-bye-and-eof":
                forever()
            sys.exit(0)
        if not line.strip():
            continue
        message = json.loads(line)
        if message["type"] == "bye":
            on_bye()
        elif message["type"] == "run":
            on_run(message)


if __name__ == "__main__":
    main()
