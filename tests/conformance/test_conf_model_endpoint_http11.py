"""The kit's model endpoint speaks HTTP/1.1 as clients send it (field fault G1, RFC 9112).

A chunked request body (Node fetch with a stream body, Go readers, Java ``ofInputStream``, httpx
iterators), ``Expect: 100-continue``, several requests on one kept-alive connection: each is
served and recorded like a ``Content-Length`` body. A request the endpoint cannot take is
answered with an error status and kept, with what was wrong, in ``refusals()``; the adapters put
it in the observation's error so the report says why.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path

import httpx
import pytest

from conformance.adapters._endpoint import endpoint_session
from conformance.model_endpoint import ModelEndpoint

FIXTURES = Path(__file__).resolve().parents[2] / "conformance" / "fixtures"
FIXTURE = json.loads(
    (FIXTURES / "a-backend-answers-with-an-in-band-error.json").read_text(encoding="utf-8")
)
BODY = json.dumps(
    {"model": "srdh-router", "messages": [{"role": "user", "content": "Why is checkout failing?"}]}
).encode()
HEADERS = {"Content-Type": "application/json", "Authorization": "Bearer srdh-kit"}


def _router_url(endpoint: ModelEndpoint) -> str:
    return endpoint.descriptor()["router"]["base_url"] + "/chat/completions"


def _raw_exchange(endpoint: ModelEndpoint, request: bytes, *, wait_for: bytes = b"") -> bytes:
    """Send ``request`` bytes on one connection; read until ``wait_for`` is seen or EOF."""
    with socket.create_connection(("127.0.0.1", endpoint.port), timeout=10) as sock:
        sock.sendall(request)
        received = b""
        while not wait_for or wait_for not in received:
            data = sock.recv(65536)
            if not data:
                break
            received += data
        return received


def _chunked(body: bytes, *, cut: int = 40) -> bytes:
    pieces = [body[:cut], body[cut:]]
    return b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in pieces) + b"0\r\n\r\n"


def _head(path: str, *fields: str) -> bytes:
    lines = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", *fields, "", ""]
    return "\r\n".join(lines).encode()


@pytest.mark.parametrize(
    "content", [BODY, iter([BODY[:40], BODY[40:]])], ids=["content-length", "chunked-httpx"]
)
def test_g1_a_chunked_request_body_is_served_and_recorded_like_a_content_length_one(content):
    """The field input: httpx with an iterator body sends Transfer-Encoding: chunked."""
    with ModelEndpoint(FIXTURE) as endpoint:
        response = httpx.post(_router_url(endpoint), content=content, headers=HEADERS)
        recorded = endpoint.requests()
        refused = endpoint.refusals()
    assert response.status_code == 200
    assert "choices" in response.json()
    assert [(r["component"], r["answer"]) for r in recorded] == [("ROUTER", "ANSWERED")]
    assert recorded[0]["messages"] == [{"role": "user", "content": "Why is checkout failing?"}]
    assert refused == []


def test_g1_expect_100_continue_gets_continue_before_the_body_is_sent():
    """A client that waits for 100 Continue (curl, Java, .NET for large bodies) gets it first."""
    with ModelEndpoint(FIXTURE) as endpoint:
        path = "/router/v1/chat/completions"
        head = _head(path, f"Content-Length: {len(BODY)}", "Expect: 100-continue")
        with socket.create_connection(("127.0.0.1", endpoint.port), timeout=10) as sock:
            sock.sendall(head)
            interim = sock.recv(65536)
            sock.sendall(BODY)
            final = b""
            while b"choices" not in final:
                final += sock.recv(65536)
        recorded = endpoint.requests()
    assert interim.startswith(b"HTTP/1.1 100 ")
    assert final.startswith(b"HTTP/1.1 200 ")
    assert [r["answer"] for r in recorded] == ["ANSWERED"]


def test_g1_two_requests_on_one_kept_alive_connection_are_both_served():
    """HTTP/1.1 connections persist by default; a client reusing one gets both answers."""
    fixture = {**FIXTURE, "router": FIXTURE["router"] * 2}
    with ModelEndpoint(fixture) as endpoint:
        path = "/router/v1/chat/completions"
        one = _head(path, f"Content-Length: {len(BODY)}") + BODY
        two = _head(path, "Transfer-Encoding: chunked") + _chunked(BODY)
        with socket.create_connection(("127.0.0.1", endpoint.port), timeout=10) as sock:
            answers = []
            for request in (one, two):
                sock.sendall(request)
                received = b""
                while b"choices" not in received or not received.rstrip().endswith(b"}"):
                    received += sock.recv(65536)
                answers.append(received)
        recorded = endpoint.requests()
    assert [a.split(b"\r\n", 1)[0] for a in answers] == [b"HTTP/1.1 200 OK"] * 2
    assert [r["answer"] for r in recorded] == ["ANSWERED", "ANSWERED"]


def test_g1_an_httpx_client_reuses_its_connection_for_several_calls():
    """A pooled client (the openai SDK's httpx) sends three calls; all are answered."""
    fixture = {**FIXTURE, "router": FIXTURE["router"] * 3}
    with ModelEndpoint(fixture) as endpoint, httpx.Client(headers=HEADERS) as client:
        statuses = [client.post(_router_url(endpoint), content=BODY).status_code for _ in range(3)]
        recorded = endpoint.requests()
    assert statuses == [200, 200, 200]
    assert len(recorded) == 3


@pytest.mark.parametrize(
    ("request_bytes", "status", "why"),
    [
        (
            _head("/router/v1/chat/completions", "Transfer-Encoding: chunked") + b"zz\r\nab\r\n",
            400,
            "malformed HTTP/1.1 request",
        ),
        (
            _head("/router/v1/chat/completions", "Content-Length: 9") + b"not json!",
            400,
            "not JSON",
        ),
        (_head("/planner/v1/chat/completions", "Content-Length: 2") + b"{}", 404, "planner"),
        (
            _head("/router/v1/chat/completions", "Content-Length: 99999999999"),
            413,
            "over",
        ),
    ],
    ids=["bad-chunk-size", "not-json", "unknown-path", "too-large"],
)
def test_g1_a_refused_request_is_answered_and_recorded_with_what_was_wrong(
    request_bytes, status, why
):
    """Even a request the endpoint cannot take leaves a record naming the fault."""
    with ModelEndpoint(FIXTURE) as endpoint:
        answer = _raw_exchange(endpoint, request_bytes)
        refused = endpoint.refusals()
        recorded = endpoint.requests()
    assert answer.split(b"\r\n", 1)[0].split(b" ")[1] == str(status).encode()
    assert len(refused) == 1
    assert f"HTTP {status}" in refused[0]
    assert why in refused[0]
    assert recorded == []


def test_g1_the_adapter_puts_a_refusal_in_the_observation_error():
    """The report can say why a Run's model request went nowhere (was: 411, nothing recorded)."""
    with endpoint_session(frozenset({"MODEL_ENDPOINT"}), FIXTURE) as session:
        endpoint = session.endpoint
        assert endpoint is not None
        request = _head("/router/v1/chat/completions", "Content-Length: 9") + b"not json!"
        _raw_exchange(endpoint, request)
        observed = session.attach({"run_id": "r1"})
    assert observed["error"]["code"] == "SCRIPT_UNCONSUMED"
    assert "refused 1 request(s)" in observed["error"]["message"]
    assert "POST /router/v1/chat/completions: HTTP 400" in observed["error"]["message"]


def test_g1_a_stalled_request_is_refused_and_stop_is_not_held_by_idle_connections():
    """An idle kept-alive connection does not hold stop(); nothing is recorded for it."""
    endpoint = ModelEndpoint(FIXTURE).start()
    sock = socket.create_connection(("127.0.0.1", endpoint.port), timeout=10)
    try:
        sock.sendall(_head("/router/v1/chat/completions", f"Content-Length: {len(BODY)}") + BODY)
        received = b""
        while b"choices" not in received:
            received += sock.recv(65536)
        endpoint.stop()  # the connection is idle, kept alive: stop ends it at once
        assert sock.recv(65536) == b""
    finally:
        sock.close()
        endpoint.stop()
    assert [r["answer"] for r in endpoint.requests()] == ["ANSWERED"]


def test_g1_the_reference_scripted_server_takes_a_chunked_body_too():
    """The same kind in the reference's own test server (reference_harness.openai.testing)."""
    from reference_harness.openai.testing import ScriptedOpenAIServer  # noqa: PLC0415

    reply = {"kind": "intent", "intent": "DIAGNOSIS"}
    with ScriptedOpenAIServer(router=[reply, reply]) as server:
        marker = {"role": "system", "content": "[srdh-component: ROUTER]"}
        body = json.dumps({"model": "m", "messages": [marker]}).encode()
        with httpx.Client() as client:
            url = server.base_url + "/chat/completions"
            chunked = client.post(url, content=iter([body[:10], body[10:]]))
            again = client.post(url, content=body)  # it closes each connection: a new one
        errors = server.script_errors()
        count = server.request_count("ROUTER")
    assert (chunked.status_code, again.status_code) == (200, 200)
    assert count == 2
    assert errors == ()
