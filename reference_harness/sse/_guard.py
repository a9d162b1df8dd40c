"""What a chat request must be before a Run starts: from an allowed place, JSON, small, parsable.

A browser page on another site can POST to a server on ``127.0.0.1`` (a "simple" cross-site
request needs no preflight when its content type is ``text/plain``), and a DNS-rebinding page can
even read the answer. The chat entry therefore refuses, before any Run starts:

* a ``Host`` header naming no allowed host (``400``; Starlette's ``TrustedHostMiddleware``) —
  DNS rebinding sends the attacker's host name;
* an ``Origin`` header that is neither the server's own origin nor an allowed one (``403
  {"error": "ORIGIN_NOT_ALLOWED"}``) — cross-site request forgery;
* on the internal entry, a missing or wrong ``Authorization: Bearer <token>`` when the app has a
  token (``401 {"error": "UNAUTHORIZED"}``);
* a content type other than ``application/json`` (``415 {"error": "UNSUPPORTED_MEDIA_TYPE"}``);
* a body longer than the limit (``413 {"error": "BODY_TOO_LARGE", "limit_bytes"}``), refused
  from its ``Content-Length`` before reading, or while reading, never buffered past the limit.

Parse errors (nesting too deep included) are ``422`` (:mod:`._request`), never ``500``.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from starlette.responses import JSONResponse

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = [
    "DEFAULT_ALLOWED_HOSTS",
    "DEFAULT_MAX_BODY_BYTES",
    "BodyRefused",
    "OriginGuard",
    "read_json_body",
    "token_refusal",
]

DEFAULT_MAX_BODY_BYTES: Final = 256 * 1024
"""Largest chat request body, in bytes: 256 KiB. A 16,000-character message fits even when
every character is written as a ``\ud83d\ude00`` escape pair (12 bytes each)."""

DEFAULT_ALLOWED_HOSTS: Final = ("127.0.0.1", "localhost", "::1", "[::1]")
"""Host names accepted in the ``Host`` header by default (loopback only)."""

_JSON: Final = "application/json"


class BodyRefused(Exception):  # noqa: N818 - carries the response, not an error report
    """The request body is refused; :attr:`response` is the answer to send."""

    def __init__(self, response: JSONResponse) -> None:
        """Keep the response."""
        super().__init__(response.status_code)
        self.response = response


async def read_json_body(request: Request, limit: int) -> bytes:
    """Return the body of a JSON request, reading at most ``limit`` bytes of it.

    Raises:
        BodyRefused: not ``application/json`` (415), a bad ``Content-Length`` (400), or longer
            than ``limit`` bytes (413; by its ``Content-Length`` before anything is read, or as
            soon as the bytes read pass the limit).
    """
    media_type = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media_type != _JSON:
        refusal = {"error": "UNSUPPORTED_MEDIA_TYPE", "expected": _JSON}
        raise BodyRefused(JSONResponse(refusal, status_code=415))
    too_large = JSONResponse({"error": "BODY_TOO_LARGE", "limit_bytes": limit}, status_code=413)
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit():
            bad = {"error": "INVALID_REQUEST", "pointer": "", "expected": "a Content-Length"}
            raise BodyRefused(JSONResponse(bad, status_code=400))
        if int(declared) > limit:
            raise BodyRefused(too_large)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise BodyRefused(too_large)
    return bytes(body)


def token_refusal(request: Request, token: str | None) -> JSONResponse | None:
    """The ``401`` answer when ``request`` lacks the internal token, else ``None``.

    ``None`` (go on) when ``token`` is ``None`` or the request carries ``Authorization: Bearer
    <token>`` (compared in constant time).
    """
    if token is None:
        return None
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode()):
        return None
    return JSONResponse(
        {"error": "UNAUTHORIZED"}, status_code=401, headers={"WWW-Authenticate": "Bearer"}
    )


@dataclass(frozen=True)
class OriginGuard:
    """ASGI middleware: refuse an HTTP request whose ``Origin`` is foreign (``403``).

    A request without ``Origin`` (curl, scripts, same-origin GET) passes. An ``Origin`` passes
    when it is the server's own (``http://`` + the request's ``Host``, which the host check has
    already allowed) or one of ``allowed_origins`` (exact ``scheme://host[:port]``).
    """

    app: ASGIApp
    allowed_origins: tuple[str, ...] = ()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer 403 to a foreign origin, pass everything else to :attr:`app`."""
        if scope["type"] == "http":
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            origin = headers.get("origin")
            own = f"http://{headers.get('host', '')}"
            if origin is not None and origin not in {own, *self.allowed_origins}:
                refusal = JSONResponse({"error": "ORIGIN_NOT_ALLOWED"}, status_code=403)
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)
