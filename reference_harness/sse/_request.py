"""The chat request body, ``{session_id, message}``, and its one clear error on bad input."""

from __future__ import annotations

from typing import Annotated, Final

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from contracts import StrictJSONError, loads_strict

__all__ = ["ChatRequest", "ChatRequestError", "parse_chat_request"]

_ID_PATTERN: Final = r"^[A-Za-z0-9][A-Za-z0-9._:-]*$"
_OBJECT: Final = 'a JSON object {"session_id": …, "message": …}'


class ChatRequest(BaseModel):
    """``POST /v1/chat`` body.

    Attributes:
        session_id: the session (contract identifier grammar, 1..128 chars).
        message: the user message (0..16000 chars, as ``diagnosis_run.user_message``).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    session_id: Annotated[str, Field(min_length=1, max_length=128, pattern=_ID_PATTERN)]
    """Session id, ``^[A-Za-z0-9][A-Za-z0-9._:-]*$``."""
    message: Annotated[str, Field(max_length=16000)]
    """The user's chat message."""


class ChatRequestError(ValueError):
    """The body is not a valid chat request: ``pointer`` (RFC 6901) and ``expected`` say why."""

    def __init__(self, pointer: str, expected: str) -> None:
        """Record where the body is wrong and what was expected there."""
        super().__init__(f"{pointer or '/'}: expected {expected}")
        self.pointer = pointer
        self.expected = expected

    def as_json(self) -> dict[str, object]:
        """The 422 response body: ``{"error": "INVALID_REQUEST", "pointer", "expected"}``."""
        return {"error": "INVALID_REQUEST", "pointer": self.pointer, "expected": self.expected}


def parse_chat_request(raw: bytes) -> ChatRequest:
    """Parse and validate a request body.

    Raises:
        ChatRequestError: not JSON or not I-JSON (the kit's strict reader,
            :func:`contracts.loads_strict`: not UTF-8, malformed, a duplicate member, nested
            deeper than its limit, a lone surrogate), not an object, an unknown/missing field or a
            bad value; the first problem only, with its JSON pointer.
    """
    try:
        document = loads_strict(raw, source="the request body")
    except StrictJSONError as error:
        problem = ChatRequestError(error.pointer or "", _OBJECT)
        raise problem from None
    try:
        return ChatRequest.model_validate(document)
    except ValidationError as error:
        first = error.errors()[0]
        pointer = "".join(f"/{part}" for part in first["loc"])
        raise ChatRequestError(pointer, _expected(first["type"], first["msg"])) from None


def _expected(kind: str, message: str) -> str:
    if kind == "model_type":
        return _OBJECT
    if kind == "missing":
        return "this field (required)"
    if kind == "extra_forbidden":
        return "no such field (only session_id and message)"
    return message[0].lower() + message[1:] if message else kind
