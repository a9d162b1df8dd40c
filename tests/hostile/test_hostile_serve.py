"""``srdh serve``'s chat entry against hostile clients (H15, H16) over a real socket.

No Run may start, and nothing may be buffered past the body limit, for a request that is too
large, too deep, not JSON, from a foreign host or origin, or without the internal token.
"""

from __future__ import annotations

import json
import select
import shutil
import socket
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

import reference_harness.sse
from conformance.cli import app
from reference_harness.sse import (
    DEFAULT_ALLOWED_HOSTS,
    DEFAULT_MAX_BODY_BYTES,
    INTERNAL_CHAT_PATH,
    PUBLIC_CHAT_PATH,
    LoopbackServer,
    create_app,
)

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "t0ken-for-tests"  # noqa: S105 - a test token
WAIT_S = 30.0
BODY = {"session_id": "s-1", "message": "hi"}


class _Harness:
    """A Harness double that ends every Run at once (the guard is the subject here)."""

    async def run(self, session_id: str, user_message: str, *, sink: Any, cancel: Any) -> None:  # noqa: ARG002
        sink({"event": "end", "data": {"state": "SUCCESS"}})


@pytest.fixture
def server():
    """A loopback server with an internal token; ``server.made`` counts Harnesses built."""
    made: list[_Harness] = []

    def factory() -> _Harness:
        made.append(_Harness())
        return made[-1]

    app = create_app(
        harness_factory=factory,
        public_entry="SINGLE_REACT",
        internal_token=TOKEN,
        allowed_origins=("https://ops.example",),
    )
    with LoopbackServer(app) as running:
        running.made = made  # type: ignore[attr-defined]
        yield running


def _authorized(**headers: str) -> dict[str, str]:
    return {"authorization": f"Bearer {TOKEN}", **headers}


def _raw_request(server, head: str, body_chunks: int = 0) -> tuple[bytes, int]:
    """Send ``head`` then up to ``body_chunks`` chunks of 1 MiB until the server answers.

    Returns the first bytes of the answer and how many body bytes were sent before it came.
    """
    host, port = server.base_url.removeprefix("http://").split(":")
    sent = 0
    with socket.create_connection((host, int(port)), timeout=WAIT_S) as sock:
        sock.sendall(head.encode("latin-1"))
        chunk = b"x" * (1024 * 1024)
        framed = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
        for _ in range(body_chunks):
            readable, _, _ = select.select([sock], [], [], 0)
            if readable:
                break
            try:
                sock.sendall(framed)
            except OSError:  # the server answered and closed the connection
                break
            sent += len(chunk)
        answer = b""
        while b"\r\n\r\n" not in answer or not _complete(answer):
            data = sock.recv(4096)
            if not data:
                break
            answer += data
    return answer, sent


def _complete(answer: bytes) -> bool:
    head, _, body = answer.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(body) >= int(value)
    return True


def test_h15_a_declared_200_mb_body_is_413_before_any_byte_is_read(server):
    """H15: ``Content-Length: 200 MB``: 413 at once, without sending the body."""
    head = (
        f"POST {PUBLIC_CHAT_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: application/json\r\nContent-Length: 209715200\r\n\r\n"
    )
    answer, _ = _raw_request(server, head)
    assert answer.startswith(b"HTTP/1.1 413")
    assert b'"BODY_TOO_LARGE"' in answer
    assert server.made == []


def test_h15_a_streamed_200_mb_body_is_refused_while_reading(server):
    """H15: a chunked 200 MB body: 413 after little more than the limit was sent."""
    head = (
        f"POST {PUBLIC_CHAT_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    answer, sent = _raw_request(server, head, body_chunks=200)
    assert answer.startswith(b"HTTP/1.1 413")
    assert sent <= 16 * 1024 * 1024  # the limit, plus what socket buffers hold
    assert server.made == []


def test_h15_a_body_nested_100000_deep_is_a_422(server):
    """H15: ``{"message": [[[…]]]}`` 100,000 deep: 422 INVALID_REQUEST, never a 500."""
    body = b'{"session_id": "s", "message": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    assert len(body) < DEFAULT_MAX_BODY_BYTES
    with httpx.Client(base_url=server.base_url, timeout=WAIT_S) as client:
        response = client.post(
            PUBLIC_CHAT_PATH, content=body, headers={"content-type": "application/json"}
        )
    assert response.status_code == 422
    assert response.json()["error"] == "INVALID_REQUEST"
    assert server.made == []


@pytest.mark.parametrize(
    ("path", "headers", "status", "error"),
    [
        (
            INTERNAL_CHAT_PATH,
            _authorized(**{"content-type": "text/plain", "origin": "http://evil.example"}),
            403,
            "ORIGIN_NOT_ALLOWED",
        ),
        (
            PUBLIC_CHAT_PATH,
            {"content-type": "application/json", "origin": "http://evil.example"},
            403,
            "ORIGIN_NOT_ALLOWED",
        ),
        (PUBLIC_CHAT_PATH, {"content-type": "text/plain"}, 415, "UNSUPPORTED_MEDIA_TYPE"),
        (PUBLIC_CHAT_PATH, {}, 415, "UNSUPPORTED_MEDIA_TYPE"),
        (INTERNAL_CHAT_PATH, {"content-type": "application/json"}, 401, "UNAUTHORIZED"),
        (
            INTERNAL_CHAT_PATH,
            {"content-type": "application/json", "authorization": "Bearer wrong"},
            401,
            "UNAUTHORIZED",
        ),
    ],
    ids=[
        "internal-text-plain-from-evil",
        "public-json-from-evil",
        "text-plain",
        "no-content-type",
        "internal-no-token",
        "internal-wrong-token",
    ],
)
def test_h16_foreign_or_unauthorized_posts_start_no_run(server, path, headers, status, error):
    """H16: a cross-site page, a non-JSON body or a missing token is refused; no Run starts."""
    with httpx.Client(base_url=server.base_url, timeout=WAIT_S) as client:
        response = client.post(path, content=json.dumps(BODY), headers=headers)
    assert response.status_code == status
    assert response.json()["error"] == error
    assert server.made == []


def test_h16_a_rebound_host_name_is_refused(server):
    """H16: DNS rebinding (``Host: evil.example``) is refused before routing."""
    with httpx.Client(base_url=server.base_url, timeout=WAIT_S) as client:
        response = client.post(
            PUBLIC_CHAT_PATH, json=BODY, headers={"host": "evil.example", **_authorized()}
        )
        trace = client.get(
            "/internal/v1/runs/x/trace", headers={"host": "evil.example", **_authorized()}
        )
    assert response.status_code == 400
    assert trace.status_code == 400
    assert server.made == []


def test_the_trace_route_needs_the_token_too(server):
    """The internal trace route answers 401 without the token, 404 (unknown Run) with it."""
    with httpx.Client(base_url=server.base_url, timeout=WAIT_S) as client:
        refused = client.get("/internal/v1/runs/nope/trace")
        allowed = client.get("/internal/v1/runs/nope/trace", headers=_authorized())
    assert refused.status_code == 401
    assert allowed.status_code == 404


@pytest.mark.parametrize(
    ("path", "headers"),
    [
        (PUBLIC_CHAT_PATH, {}),
        (PUBLIC_CHAT_PATH, {"origin": "https://ops.example"}),
        (INTERNAL_CHAT_PATH, _authorized()),
        (INTERNAL_CHAT_PATH, _authorized(origin="http://{own}")),
    ],
    ids=["no-origin", "allowed-origin", "internal-token", "own-origin"],
)
def test_allowed_requests_start_a_run(server, path, headers):
    """JSON from loopback, an allowed or the server's own origin (and the token) runs."""
    own = server.base_url.removeprefix("http://")
    headers = {k: v.format(own=own) for k, v in headers.items()}
    with httpx.Client(base_url=server.base_url, timeout=WAIT_S) as client:
        response = client.post(path, json=BODY, headers=headers)
    assert response.status_code == 200, response.text
    assert "event: end" in response.text
    assert len(server.made) == 1


def _git(repo, *args: str) -> None:
    subprocess.run(  # noqa: S603 - fixed git arguments in a temporary directory
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],  # noqa: S607
        cwd=repo,
        check=True,
        capture_output=True,
    )


@pytest.mark.parametrize("from_env", [False, True], ids=["generated", "from-env"])
def test_srdh_serve_always_protects_the_internal_entry(tmp_path, monkeypatch, from_env):
    """``srdh serve`` passes a token (``$SRDH_SERVE_TOKEN`` or a printed fresh one), the
    loopback names plus ``--host`` and ``--allow-host``, and ``--allow-origin``."""
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "openspec", repo / "openspec")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "stage 0")
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(reference_harness.sse, "serve", lambda *_, **kwargs: calls.append(kwargs))
    for name, value in {"BASE_URL": "http://127.0.0.1:9/v1", "MODEL": "m", "API_KEY": "k"}.items():
        monkeypatch.setenv(f"SRDH_OPENAI_{name}", value)
    if from_env:
        monkeypatch.setenv("SRDH_SERVE_TOKEN", "from-the-environment")
    else:
        monkeypatch.delenv("SRDH_SERVE_TOKEN", raising=False)
    args = ["serve", "--repo", str(repo), "--host", "10.0.0.5", "--allow-host", "ops.local"]
    result = CliRunner().invoke(app, [*args, "--allow-origin", "https://ops.example"])
    assert result.exit_code == 0, result.output
    (kwargs,) = calls
    token = kwargs["internal_token"]
    if from_env:
        assert token == "from-the-environment"  # noqa: S105 - the test's own value
        assert "from-the-environment" not in result.stderr
    else:
        assert len(token) >= 32  # a real secret, not a placeholder
        assert f"internal entry token {token}" in result.stderr
    assert set(kwargs["allowed_hosts"]) == {*DEFAULT_ALLOWED_HOSTS, "10.0.0.5", "ops.local"}
    assert kwargs["allowed_origins"] == ("https://ops.example",)
