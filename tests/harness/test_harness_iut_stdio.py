"""The reference Harness as an IUT: in process (`reference_harness.iut`) and over stdio NDJSON."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest

from contracts import Capability, ContractError, validate_document
from reference_harness.iut import create, create_with_endpoint


def _without_ts(observation):
    text = json.dumps(observation)
    document = json.loads(text)
    for event in document["trace"]:
        event.pop("ts_ms", None)
    for frame in document["client_frames"]:
        if frame["event"] == "run_event":
            frame["data"].pop("ts_ms", None)
    for run in document["runs"]:
        run.pop("created_at_ms")
        run.pop("finished_at_ms")
    return document


def test_hello_is_a_valid_adapter_message():
    """hello: protocol 2.0, the implementation, all seven capabilities; valid against its schema."""
    hello = create().hello()
    assert validate_document(hello, "adapter-message") == []
    assert hello["protocol_version"] == "2.0"
    assert len(hello["capabilities"]) == 7


def test_hello_lists_the_contract_capability_vocabulary_in_order():
    """The capabilities come from adapter-message's Capability vocabulary (read from the schema,
    the generated enum's source): all of it with the model endpoint, in the contract's order."""
    assert create_with_endpoint().hello()["capabilities"] == [c.value for c in Capability]
    assert create().hello()["capabilities"] == [
        c.value for c in Capability if c is not Capability.MODEL_ENDPOINT
    ]


def test_the_same_fixture_twice_gives_the_same_observation(h):
    """Determinism: two runs of one fixture differ at most in volatile times."""
    fixture = h.fixture(prior_runs=[h.prior_run("p1", 1, "SUCCESS")])
    iut = create()
    first, second = iut.run(fixture), iut.run(fixture)
    assert _without_ts(first) == _without_ts(second)
    assert first["run_id"] == second["run_id"]


def test_an_invalid_fixture_is_refused_with_a_pointer(h):
    """A fixture that breaks its contract raises ContractError naming the JSON pointer."""
    fixture = h.fixture(router=[{"kind": "intent", "intent": "PLANNING"}])
    with pytest.raises(ContractError) as caught:
        create().run(fixture)
    assert caught.value.pointer.startswith("/router/0")


def test_an_exhausted_script_is_an_error_of_the_fixture_run(h):
    """An agent call with no turn left: observation.error SCRIPT_EXHAUSTED; Run INTERNAL_ERROR."""
    observation = h.run(h.fixture(agent=[h.tool_calls(h.call())], semantic_guard=[]))
    assert observation["error"]["code"] == "SCRIPT_EXHAUSTED"
    assert "agent" in observation["error"]["message"]
    run = h.final_run(observation)
    assert (run["state"], run["error_code"]) == ("FAILED", "INTERNAL_ERROR")


def test_an_unconsumed_script_is_an_error_of_the_fixture_run(h):
    """Turns nobody asked for: observation.error SCRIPT_UNCONSUMED naming the script."""
    observation = h.run(h.fixture(semantic_guard=[h.supported(), h.supported()]))
    assert observation["error"]["code"] == "SCRIPT_UNCONSUMED"
    assert "semantic_guard: 1" in observation["error"]["message"]
    assert h.final_run(observation)["state"] == "SUCCESS"


def test_run_works_from_inside_an_event_loop(h):
    """iut.run called from a coroutine (a running loop) still runs the fixture."""

    async def inside():
        return create().run(h.fixture())

    observation = asyncio.run(inside())
    assert h.final_run(observation)["state"] == "SUCCESS"


def test_a_closed_iut_refuses_to_run(h):
    """After close(), run raises RuntimeError."""
    iut = create()
    iut.close()
    with pytest.raises(RuntimeError, match="closed"):
        iut.run(h.fixture())


def _stdio(lines: list[str], *options: str) -> tuple[int, list[dict]]:
    completed = subprocess.run(  # noqa: S603 - our interpreter, fixed arguments
        [sys.executable, "-m", "reference_harness.stdio", *options],
        input="".join(line + "\n" for line in lines).encode(),
        capture_output=True,
        timeout=90,
        check=False,
    )
    messages = [json.loads(line) for line in completed.stdout.decode().splitlines()]
    for message in messages:
        assert validate_document(message, "adapter-message") == [], message
    return completed.returncode, messages


def test_stdio_speaks_the_adapter_protocol(h):
    """hello first; run → observation; malformed/invalid lines → error naming the problem; bye."""
    run = json.dumps({"type": "run", "request_id": "r1", "fixture": h.fixture()})
    invalid = json.dumps({"type": "run", "request_id": "r2", "fixture": {"fixture_id": "x"}})
    code, messages = _stdio(
        [run, "{not json", invalid, json.dumps({"type": "bye"}), run],
    )
    assert code == 0
    assert [m["type"] for m in messages] == ["hello", "observation", "error", "error"]
    observation = messages[1]
    assert observation["request_id"] == "r1"
    assert observation["observation"]["runs"][-1]["state"] == "SUCCESS"
    malformed, refused = messages[2], messages[3]
    assert (malformed["request_id"], malformed["code"]) == (None, "MALFORMED_MESSAGE")
    assert malformed["message"].startswith("line 2:")
    assert (refused["request_id"], refused["code"]) == ("r2", "INVALID_MESSAGE")
    assert refused["message"].startswith("line 3: /fixture")


def test_stdio_exits_zero_at_end_of_input():
    """Without bye, end of input ends the session with status 0 after hello."""
    code, messages = _stdio([])
    assert code == 0
    assert [m["type"] for m in messages] == ["hello"]


def test_stdio_declares_the_model_endpoint_unless_scripted(h):
    """By default the entry declares MODEL_ENDPOINT; ``--scripted`` does not, and plays the
    fixture's scripted turns (the observation reports each model call's input)."""
    run = json.dumps({"type": "run", "request_id": "r1", "fixture": h.fixture()})
    _, default = _stdio([])
    code, scripted = _stdio([run], "--scripted")
    assert "MODEL_ENDPOINT" in default[0]["capabilities"]
    assert code == 0
    assert "MODEL_ENDPOINT" not in scripted[0]["capabilities"]
    assert scripted[1]["observation"]["runs"][-1]["state"] == "SUCCESS"
    assert scripted[1]["observation"]["model_calls"]


def test_stdio_refuses_an_unknown_option():
    """An unknown option exits 2 with the usage line."""
    completed = subprocess.run(
        [sys.executable, "-m", "reference_harness.stdio", "--no-such-option"],
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )
    assert completed.returncode == 2
    assert (
        "usage: python -m reference_harness.stdio [--scripted | --mutant NAME]" in completed.stderr
    )


_MODULES_AFTER_SERVING = """
import json, sys
from reference_harness.stdio import main
try:
    main([])
except SystemExit:
    pass
sys.stderr.write("\\nMODULES " + json.dumps(sorted(sys.modules)) + "\\n")
"""


def test_stdio_entry_starts_without_modules_it_does_not_use():
    """A behaviour test of start-up, not a timing test: after ``hello`` and end of input, the
    stdio entry has imported no python-jsonschema (jsonschema-rs decides), no adapter message or
    Run Observation models (the Capability vocabulary is read from the schema), and nothing of
    the conformance kit or its test tools."""
    done = subprocess.run(  # noqa: S603 - our interpreter and a fixed script
        [sys.executable, "-c", _MODULES_AFTER_SERVING],
        input=b"",
        capture_output=True,
        timeout=90,
        check=True,
    )
    assert json.loads(done.stdout.decode().splitlines()[0])["type"] == "hello"
    marker = next(line for line in done.stderr.decode().splitlines() if line.startswith("MODULES "))
    modules = set(json.loads(marker.removeprefix("MODULES ")))
    assert "reference_harness._harness" in modules
    unused = (
        "jsonschema",
        "contracts._generated.adapter_message_schema",
        "contracts._generated.run_observation_schema",
        "conformance",
        "hypothesis",
        "pytest",
    )
    assert sorted(m for m in unused if m in modules) == []


_WARMED_UP = """
import io, json, sys, threading
from reference_harness.iut import create, create_with_endpoint
from reference_harness.stdio import serve
factory = create_with_endpoint if sys.argv[1] == "endpoint" else create
serve([], io.StringIO(), factory=factory)
warming = [t for t in threading.enumerate() if t.name == "srdh-warm-up"]
for thread in warming:
    thread.join()
client = sys.modules.get("reference_harness.openai._client")
pooled = bool(client is not None and client._SHARED)
print(json.dumps({"threads": len(warming), "sdk": "openai" in sys.modules, "pool": pooled}))
"""


@pytest.mark.parametrize(
    ("iut", "expected"),
    [
        ("endpoint", {"threads": 1, "sdk": True, "pool": True}),
        ("scripted", {"threads": 0, "sdk": False, "pool": False}),
    ],
)
def test_stdio_entry_warms_the_endpoint_client_up_after_hello_only_for_model_endpoint(
    iut, expected
):
    """Once ``hello`` is out, an IUT declaring MODEL_ENDPOINT imports the OpenAI SDK and builds
    its shared connection pool in one background thread (the first Run needs both); the scripted
    IUT, whose Runs never call the endpoint, does neither."""
    done = subprocess.run(  # noqa: S603 - our interpreter and a fixed script
        [sys.executable, "-c", _WARMED_UP, iut],
        capture_output=True,
        timeout=90,
        check=True,
    )
    assert json.loads(done.stdout.decode().splitlines()[-1]) == expected
