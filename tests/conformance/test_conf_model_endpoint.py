"""The kit-served model endpoint: real HTTP on loopback, real chunk shapes, faults, records."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

import httpx
import openai
import pytest

from conformance import checks
from conformance.adapters import AdapterError, InProcessAdapter, StdioAdapter
from conformance.model_endpoint import COT_CANARY, STARVATION_MARGIN_S, ModelEndpoint

TOOL_TURN = {
    "kind": "tool_calls",
    "tool_calls": [
        {
            "id": "call_1",
            "name": "search_logs",
            "arguments": {"target": "checkout", "query": "level:error timeout upstream"},
        }
    ],
}


FIXTURES = Path(__file__).resolve().parents[2] / "conformance" / "fixtures"


def load_fixture(fixture_id: str) -> dict[str, object]:
    """The committed fixture ``fixture_id``."""
    return json.loads((FIXTURES / f"{fixture_id}.json").read_text(encoding="utf-8"))


def _fixture(**scripts: object) -> dict[str, object]:
    return {"router": [], "agent": [], "semantic_guard": [], "limits": {}, **scripts}


def _post(url: str, body: dict[str, object], timeout: float = 5.0) -> httpx.Response:
    return httpx.post(f"{url}/chat/completions", json=body, timeout=timeout)


def _sse_chunks(text: str) -> list[dict[str, object]]:
    datas = [line[len("data: ") :] for line in text.split("\n") if line.startswith("data: ")]
    assert datas[-1] == "[DONE]"
    return [json.loads(data) for data in datas[:-1]]


def test_endpoint_streams_the_id_in_a_later_chunk_and_splits_the_arguments():
    """A streamed tool call opens without an id, gets it later, and its arguments come in pieces."""
    with ModelEndpoint(_fixture(agent=[TOOL_TURN])) as endpoint:
        url = endpoint.descriptor()["diagnosis_agent"]["base_url"]
        response = _post(url, {"model": "m", "messages": [], "stream": True})
    assert response.headers["content-type"].startswith("text/event-stream")
    chunks = _sse_chunks(response.text)
    deltas = [c["choices"][0]["delta"] for c in chunks if c["choices"]]
    calls = [d["tool_calls"][0] for d in deltas if "tool_calls" in d]
    assert "id" not in calls[0]
    assert calls[0]["function"]["name"] == "search_logs"
    assert [c["id"] for c in calls if "id" in c] == ["call_1"]
    pieces = [c["function"]["arguments"] for c in calls if "function" in c]
    assert len([p for p in pieces if p]) >= 2
    assert json.loads("".join(pieces)) == TOOL_TURN["tool_calls"][0]["arguments"]  # type: ignore[index]
    assert chunks[-1]["choices"] == []  # the usage chunk real servers send last
    assert any(COT_CANARY in str(d.get("reasoning_content", "")) for d in deltas)


def test_endpoint_answers_text_and_a_tool_call_in_one_message():
    """A tool_calls turn with content gives one assistant message holding both."""
    turn = {**TOOL_TURN, "content": "Let me check the logs."}
    with ModelEndpoint(_fixture(agent=[turn])) as endpoint:
        url = endpoint.descriptor()["diagnosis_agent"]["base_url"]
        body = _post(url, {"model": "m", "messages": []}).json()
    message = body["choices"][0]["message"]
    assert message["content"] == "Let me check the logs."
    assert message["tool_calls"][0]["id"] == "call_1"
    assert body["choices"][0]["finish_reason"] == "tool_calls"


@pytest.mark.parametrize("status", [429, 500])
def test_endpoint_answers_the_scripted_http_status(status):
    """An UNAVAILABLE turn naming an HTTP status gets that status with an OpenAI error body."""
    turn = {"kind": "error", "error": "UNAVAILABLE", "http_status": status}
    with ModelEndpoint(_fixture(router=[turn])) as endpoint:
        response = _post(endpoint.descriptor()["router"]["base_url"], {"messages": []})
        recorded = endpoint.requests()
    assert response.status_code == status
    assert "error" in response.json()
    assert [r["answer"] for r in recorded] == ["HTTP_ERROR"]


@pytest.mark.parametrize(
    ("turn", "answer"),
    [
        ({"kind": "error", "error": "UNAVAILABLE", "http_status": 500}, "HTTP_ERROR"),
        (TOOL_TURN, "ANSWERED"),
    ],
)
def test_endpoint_records_the_answer_before_the_client_can_read_it(monkeypatch, turn, answer):
    """While the response is being written, the request already reads as answered: the kit
    reads the requests as soon as the IUT has its answer (under load, a 500 recorded after the
    send was read as NOT_ANSWERED)."""
    from conformance.model_endpoint import _server  # noqa: PLC0415 - the handler under test

    seen: list[list[str]] = []
    send_json = _server._Handler._send_json

    def spying(handler, *args, **kwargs):
        seen.append([r["answer"] for r in handler.endpoint.requests()])
        send_json(handler, *args, **kwargs)

    monkeypatch.setattr(_server._Handler, "_send_json", spying)
    with ModelEndpoint(_fixture(router=[turn])) as endpoint:
        _post(endpoint.descriptor()["router"]["base_url"], {"messages": []})
        recorded = endpoint.requests()
    assert seen == [[answer]]
    assert [r["answer"] for r in recorded] == [answer]


def test_endpoint_holds_a_timeout_turn_until_the_client_gives_up():
    """A TIMEOUT turn is never answered; the client's own HTTP timeout ends it (CLIENT_CLOSED)."""
    turn = {"kind": "error", "error": "TIMEOUT"}
    with ModelEndpoint(_fixture(semantic_guard=[turn])) as endpoint:
        url = endpoint.descriptor()["semantic_guard"]["base_url"]
        with pytest.raises(httpx.ReadTimeout):
            _post(url, {"messages": []}, timeout=0.2)
    assert [r["answer"] for r in endpoint.requests()] == ["CLIENT_CLOSED"]


BLOCKED_ROUTER = {
    "kind": "block_until_cancelled",
    "then": {"kind": "intent", "intent": "DIAGNOSIS"},
}


def test_endpoint_answers_a_blocked_turn_late_once_the_iut_sends_a_later_request():
    """A client that stays gets the ``then`` turn when the IUT moves on (its next request), not
    after a timer: with a 60 s model-call timeout the old timer would answer after 3 minutes (and
    this client gives up after 10 s); the later request releases it at once."""
    fixture = _fixture(
        router=[BLOCKED_ROUTER],
        semantic_guard=[{"kind": "raw", "text": "later"}],
        limits={"model_call_timeout_ms": 60_000},
    )
    bodies: list[dict[str, object]] = []
    with ModelEndpoint(fixture) as endpoint:
        urls = endpoint.descriptor()
        held = threading.Thread(
            target=lambda: bodies.append(_post(urls["router"]["base_url"], {}, timeout=10).json())
        )
        held.start()
        while not endpoint.requests():  # the held request has arrived
            threading.Event().wait(0.01)
        assert endpoint.requests()[0]["answer"] == "NOT_ANSWERED"
        _post(urls["semantic_guard"]["base_url"], {"messages": []})
        held.join()
        recorded = [r["answer"] for r in endpoint.requests()]
    assert json.loads(bodies[0]["choices"][0]["message"]["content"]) == {"intent": "DIAGNOSIS"}
    assert recorded == ["ANSWERED", "ANSWERED"]


def test_endpoint_hold_bound_leaves_a_starved_iut_seconds_past_its_timeout():
    """The safety bound of a held request is 3 model-call timeouts plus the starvation margin."""
    fixture = _fixture(router=[BLOCKED_ROUTER], limits={"model_call_timeout_ms": 300})
    assert ModelEndpoint(fixture).max_hold_s == pytest.approx(0.9 + STARVATION_MARGIN_S)
    assert STARVATION_MARGIN_S >= 5


def test_endpoint_holds_a_blocked_turn_until_the_client_gives_up():
    """A block_until_cancelled turn is not answered before the client's own timeout ends the call.

    The client gives up after model_call_timeout_ms, as a Harness does; an endpoint answering
    earlier (the Harness's timeout never firing) fails here.
    """
    fixture = _fixture(router=[BLOCKED_ROUTER], limits={"model_call_timeout_ms": 500})
    with ModelEndpoint(fixture) as endpoint:
        with pytest.raises(httpx.ReadTimeout):
            _post(endpoint.descriptor()["router"]["base_url"], {"messages": []}, timeout=0.5)
        while endpoint.requests()[0]["answer"] == "NOT_ANSWERED":  # the hold sees the hang-up
            threading.Event().wait(0.01)
    assert [r["answer"] for r in endpoint.requests()] == ["CLIENT_CLOSED"]


def test_endpoint_never_releases_a_timeout_turn_for_a_later_request():
    """An ``error: TIMEOUT`` turn is never answered: a later request does not release it."""
    fixture = _fixture(
        router=[{"kind": "error", "error": "TIMEOUT"}],
        semantic_guard=[{"kind": "raw", "text": "later"}],
        limits={"model_call_timeout_ms": 60_000},
    )
    failures: list[BaseException] = []

    def held() -> None:
        try:
            _post(endpoint.descriptor()["router"]["base_url"], {}, timeout=1.0)
        except httpx.ReadTimeout as error:
            failures.append(error)

    with ModelEndpoint(fixture) as endpoint:
        thread = threading.Thread(target=held)
        thread.start()
        while not endpoint.requests():
            threading.Event().wait(0.01)
        _post(endpoint.descriptor()["semantic_guard"]["base_url"], {"messages": []})
        thread.join()
        while endpoint.requests()[0]["answer"] == "NOT_ANSWERED":  # the hold sees the hang-up
            threading.Event().wait(0.01)
    assert len(failures) == 1
    assert [r["answer"] for r in endpoint.requests()] == ["CLIENT_CLOSED", "ANSWERED"]


class _CountingSocket:
    """A socket proxy recording every ``sendall`` (the endpoint's writes)."""

    def __init__(self, sock: object, writes: list[bytes]) -> None:
        self._sock = sock
        self._writes = writes

    def sendall(self, data: bytes) -> None:
        self._writes.append(bytes(data))
        self._sock.sendall(data)  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> object:
        return getattr(self._sock, name)


@pytest.mark.parametrize("stream", [True, False])
def test_endpoint_sends_a_timely_answer_in_one_write(monkeypatch, stream):
    """Head, every SSE event and the end go out in one write: a kit thread descheduled between
    writes cannot make a timely answer reach the IUT past its read timeout (the streamed path
    wrote each event on its own)."""
    from conformance.model_endpoint import _server  # noqa: PLC0415 - the handler under test

    writes: list[bytes] = []
    connection = _server.Http11Connection

    def counting(sock: object, *args: object, **kwargs: object) -> object:
        return connection(_CountingSocket(sock, writes), *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(_server, "Http11Connection", counting)
    with ModelEndpoint(_fixture(agent=[TOOL_TURN])) as endpoint:
        url = endpoint.descriptor()["diagnosis_agent"]["base_url"]
        response = _post(url, {"messages": [], "stream": stream})
    assert response.status_code == 200
    assert len(writes) == 1
    assert writes[0].startswith(b"HTTP/1.1 200")
    assert (b"data: [DONE]" in writes[0]) is stream


def test_endpoint_answers_a_draft_and_tool_calls_turn_with_both_in_one_message():
    """draft_and_tool_calls: the draft's JSON text as content and the tool calls, in one message."""
    draft = {"analysis_kind": "DIAGNOSIS", "summary": "s"}
    turn = {"kind": "draft_and_tool_calls", "draft": draft, "tool_calls": TOOL_TURN["tool_calls"]}
    with ModelEndpoint(_fixture(agent=[turn])) as endpoint:
        url = endpoint.descriptor()["diagnosis_agent"]["base_url"]
        body = _post(url, {"model": "m", "messages": []}).json()
    message = body["choices"][0]["message"]
    assert json.loads(message["content"]) == draft
    assert [c["id"] for c in message["tool_calls"]] == ["call_1"]
    assert body["choices"][0]["finish_reason"] == "tool_calls"


def test_endpoint_answers_decoy_agent_turns_after_the_agent_turns_and_never_reports_them():
    """decoy_agent_turns answer in order once ``agent`` is used up; left-over decoys are fine."""
    decoys = [{"kind": "raw", "text": "decoy 1"}, {"kind": "raw", "text": "decoy 2"}]
    decoys.append({"kind": "raw", "text": "decoy 3"})
    fixture = _fixture(agent=[{"kind": "raw", "text": "agent"}], decoy_agent_turns=decoys)
    with ModelEndpoint(fixture) as endpoint:
        url = endpoint.descriptor()["diagnosis_agent"]["base_url"]
        texts = [_post(url, {"messages": []}).json() for _ in range(3)]
        problems = endpoint.script_problems()
    contents = [body["choices"][0]["message"]["content"] for body in texts]
    assert contents == ["agent", "decoy 1", "decoy 2"]
    assert problems == ([], {})


def test_endpoint_counts_every_http_request_of_a_retrying_sdk():
    """An SDK left at max_retries=2 shows as three recorded requests for one call."""
    failing = {"kind": "error", "error": "UNAVAILABLE"}
    with ModelEndpoint(_fixture(router=[failing, failing, failing])) as endpoint:
        described = endpoint.descriptor()["router"]
        client = openai.OpenAI(base_url=described["base_url"], api_key="k", max_retries=2)
        with pytest.raises(openai.InternalServerError):
            client.chat.completions.create(model=described["model"], messages=[])
        client.close()
        problems = endpoint.script_problems()
    assert [r["component"] for r in endpoint.requests()] == ["ROUTER"] * 3
    assert problems == ([], {})


def test_endpoint_routes_by_path_and_reports_an_exhausted_script():
    """Another path is 404 and not recorded; a request past the script gets 500 and is reported."""
    with ModelEndpoint(_fixture()) as endpoint:
        base = endpoint.descriptor()["router"]["base_url"]
        unknown = _post(base.replace("/router/", "/planner/"), {"messages": []})
        exhausted = _post(base, {"messages": [{"role": "user", "content": "hi"}], "tools": []})
        recorded = endpoint.requests()
        problems = endpoint.script_problems()
    assert unknown.status_code == 404
    assert exhausted.status_code == 500
    assert [(r["component"], r["messages"]) for r in recorded] == [
        ("ROUTER", [{"role": "user", "content": "hi"}])
    ]
    assert problems[0] == ["ROUTER: request 1 has no scripted turn"]


def test_endpoint_records_chain_of_thought_fields_of_a_message():
    """Keys beyond role/content/tool_calls/tool_call_id/name are kept in other_fields."""
    message = {"role": "assistant", "content": None, "reasoning_content": "because"}
    with ModelEndpoint(_fixture(router=[{"kind": "intent", "intent": "DIAGNOSIS"}])) as endpoint:
        _post(endpoint.descriptor()["router"]["base_url"], {"messages": [message]})
    recorded = endpoint.requests()[0]["messages"]
    assert recorded == [
        {"role": "assistant", "content": None, "other_fields": {"reasoning_content": "because"}}
    ]


def test_endpoint_stop_ends_a_held_request_and_joins_its_thread():
    """stop() ends a request held forever (NOT_ANSWERED) and leaves no handler thread behind."""
    before = threading.active_count()
    endpoint = ModelEndpoint(_fixture(router=[{"kind": "error", "error": "TIMEOUT"}])).start()
    url = endpoint.descriptor()["router"]["base_url"]
    outcome: list[object] = []

    def call() -> None:
        try:
            outcome.append(_post(url, {"messages": []}, timeout=30.0))
        except httpx.HTTPError as error:
            outcome.append(error)

    caller = threading.Thread(target=call)
    caller.start()
    while not endpoint.requests():  # the request arrives within milliseconds
        caller.join(0.01)
    endpoint.stop()
    caller.join(10.0)
    assert not caller.is_alive()
    assert isinstance(outcome[0], httpx.HTTPError)
    assert [r["answer"] for r in endpoint.requests()] == ["NOT_ANSWERED"]
    assert threading.active_count() == before


def test_inprocess_adapter_runs_a_model_endpoint_iut_over_http():
    """An IUT declaring MODEL_ENDPOINT gets the URLs; the kit adds what it received."""
    fixture = load_fixture("semanticguard-returns-an-invalid-schema")
    adapter = InProcessAdapter("reference_harness.iut:create_with_endpoint")
    try:
        assert "MODEL_ENDPOINT" in adapter.capabilities
        observation = adapter.run(fixture)
    finally:
        adapter.close()
    components = [r["component"] for r in observation["model_requests"]]
    assert components == ["ROUTER", "DIAGNOSIS_AGENT", "DIAGNOSIS_AGENT"] + ["SEMANTIC_GUARD"] * 2
    assert "error" not in observation


class _ForgingIUT:
    """Declares MODEL_ENDPOINT and fills the kit's own model_requests field."""

    def __init__(self) -> None:
        from reference_harness.iut import create_with_endpoint  # noqa: PLC0415

        self._inner = create_with_endpoint()

    def hello(self) -> dict[str, object]:
        return self._inner.hello()

    def run(self, fixture: dict[str, object], model_endpoint: dict[str, object]) -> object:
        observation = self._inner.run(fixture, model_endpoint)
        observation["model_requests"] = []
        return observation

    def close(self) -> None:
        self._inner.close()


def forging_iut() -> _ForgingIUT:
    """Factory of :class:`_ForgingIUT` for the in-process adapter."""
    return _ForgingIUT()


def test_inprocess_adapter_refuses_an_observation_that_fills_model_requests():
    """model_requests is the kit's record; an IUT sending it is refused."""
    adapter = InProcessAdapter(f"{__name__}:forging_iut")
    try:
        with pytest.raises(AdapterError, match="only the kit fills"):
            adapter.run(load_fixture("semanticguard-returns-an-invalid-schema"))
    finally:
        adapter.close()


class _ClockForgingIUT(_ForgingIUT):
    """Fills the kit's own elapsed_ms field instead (a Run that claims to have been quick)."""

    def run(self, fixture: dict[str, object], model_endpoint: dict[str, object]) -> object:
        observation = self._inner.run(fixture, model_endpoint)
        observation["elapsed_ms"] = 1
        return observation


def clock_forging_iut() -> _ClockForgingIUT:
    """Factory of :class:`_ClockForgingIUT` for the in-process adapter."""
    return _ClockForgingIUT()


def test_inprocess_adapter_refuses_an_observation_that_fills_elapsed_ms():
    """elapsed_ms is the kit's clock; an IUT sending it is refused."""
    adapter = InProcessAdapter(f"{__name__}:clock_forging_iut")
    try:
        with pytest.raises(AdapterError, match="elapsed_ms, which only the kit fills"):
            adapter.run(load_fixture("semanticguard-returns-an-invalid-schema"))
    finally:
        adapter.close()


def test_the_kit_times_the_run_and_each_request_on_its_own_clock():
    """Every observation gets elapsed_ms, every endpoint request held_ms, both on the kit's clock:
    a request held until the IUT hung up lasted no longer than the Run that held it."""
    adapter = InProcessAdapter("reference_harness.iut:create_with_endpoint")
    try:
        observation = adapter.run(load_fixture("client-disconnects-during-a-model-call"))
    finally:
        adapter.close()
    requests = observation["model_requests"]
    assert isinstance(observation["elapsed_ms"], int)
    assert requests
    assert all(0 <= r["held_ms"] <= observation["elapsed_ms"] for r in requests), requests


def test_stdio_reference_runs_over_the_kit_endpoint():
    """The reference stdio entry declares MODEL_ENDPOINT; the kit, not the IUT, records inputs."""
    adapter = StdioAdapter([sys.executable, "-m", "reference_harness.stdio"], timeout_s=30.0)
    try:
        assert "MODEL_ENDPOINT" in adapter.capabilities
        observation = adapter.run(
            load_fixture("only-the-selected-previous-turn-reaches-the-diagnosis-agent")
        )
    finally:
        adapter.close()
    assert "model_calls" not in observation
    review = [r for r in observation["model_requests"] if r["component"] == "SEMANTIC_GUARD"]
    assert [(r["tools"], r["stream"], r["answer"]) for r in review] == [([], True, "ANSWERED")]
    checks.check_model_inputs(observation, load_fixture(observation["fixture_id"])).require()


@pytest.mark.parametrize(
    ("state", "expected"), [("CANCELLED", None), ("PUBLISHED", "SCRIPT_UNCONSUMED")]
)
def test_endpoint_session_excuses_unconsumed_turns_only_for_a_cancelled_run(state, expected):
    """Turns left after a Run that ended CANCELLED are no error; after any other end they are."""
    from conformance.adapters._endpoint import endpoint_session  # noqa: PLC0415

    fixture = _fixture(router=[{"kind": "intent", "intent": "DIAGNOSIS"}])
    observation = {"run_id": "r1", "runs": [{"run_id": "r1", "state": state}]}
    with endpoint_session(frozenset({"MODEL_ENDPOINT"}), fixture) as session:
        observed = session.attach(observation)
    assert observed.get("error", {}).get("code") == expected
    assert observed["model_requests"] == []


def _unclocked(requests: object) -> list[dict[str, object]]:
    """The model requests as the IUT sent them: every field but the kit's ``held_ms``."""
    assert isinstance(requests, list)
    return [{k: v for k, v in request.items() if k != "held_ms"} for request in requests]


def test_a_runs_model_requests_share_one_connection_and_a_stopped_endpoints_is_dropped(
    monkeypatch,
):
    """The reference's Router, Diagnosis Agent and SemanticGuard clients share the process's
    connection pool: one Run's five requests come on one keep-alive connection. The next Run, on
    a new endpoint, gets the same answers although the pool still held the stopped endpoint's
    connection (closed by the endpoint, dropped by the pool)."""
    from conformance.model_endpoint import _server  # noqa: PLC0415 - the server's accept hook

    accepted: list[int] = []
    real = _server._Server.process_request

    def counting(self, request, client_address):
        accepted.append(id(self))
        return real(self, request, client_address)

    monkeypatch.setattr(_server._Server, "process_request", counting)
    fixture = load_fixture("semanticguard-returns-an-invalid-schema")
    adapter = InProcessAdapter("reference_harness.iut:create_with_endpoint")
    try:
        first, second = adapter.run(fixture), adapter.run(fixture)
    finally:
        adapter.close()
    assert len(first["model_requests"]) == 5
    # ``held_ms`` is the kit's clock (arrival to end), not part of the request: under load one
    # Run's held a few ms longer than the other's.
    assert _unclocked(second["model_requests"]) == _unclocked(first["model_requests"])
    assert len(accepted) == 2
    assert len(set(accepted)) == 2  # one connection per Run, each to its own endpoint
