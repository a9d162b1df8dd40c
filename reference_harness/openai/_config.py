"""``OpenAIConfig``: where the OpenAI-compatible endpoint is, read from the environment.

Environment variables (all read by :meth:`OpenAIConfig.from_env`):

``SRDH_OPENAI_BASE_URL`` (required)
    Base URL of an OpenAI-compatible API, including its version path, e.g.
    ``https://api.openai.com/v1`` or ``http://127.0.0.1:8000/v1``.
``SRDH_OPENAI_MODEL`` (required)
    Model name sent with every chat-completions request.
``SRDH_OPENAI_API_KEY`` (required; any non-empty value for endpoints without authentication)
    Bearer token. Never printed: ``repr`` masks it.
``SRDH_OPENAI_TIMEOUT_S`` (optional, default 30)
    Per-call HTTP timeout in seconds (connect, read, write and pool, and the whole stream).
``SRDH_OPENAI_STREAM`` (optional, ``1``/``true`` or ``0``/``false``, default ``0``)
    Ask for streamed answers (server-sent events) instead of one JSON body.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Self

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["DEFAULT_TIMEOUT_S", "ConfigError", "OpenAIConfig"]

DEFAULT_TIMEOUT_S: Final = 30.0
"""Default per-call timeout in seconds when ``SRDH_OPENAI_TIMEOUT_S`` is not set."""

_BASE_URL: Final = "SRDH_OPENAI_BASE_URL"
_MODEL: Final = "SRDH_OPENAI_MODEL"
_API_KEY: Final = "SRDH_OPENAI_API_KEY"
_TIMEOUT: Final = "SRDH_OPENAI_TIMEOUT_S"
_STREAM: Final = "SRDH_OPENAI_STREAM"
_TRUE: Final = frozenset({"1", "true", "yes", "on"})
_FALSE: Final = frozenset({"0", "false", "no", "off", ""})


class ConfigError(ValueError):
    """The endpoint configuration is missing or malformed; the message names the variable."""


@dataclass(frozen=True, slots=True)
class OpenAIConfig:
    """An OpenAI-compatible endpoint.

    Attributes:
        base_url: API base URL including the version path (``…/v1``).
        model: model name sent with every request.
        api_key: bearer token (masked in ``repr``).
        timeout_s: per-call timeout in seconds (> 0); bounds a blocking call (Requirement 8).
        stream: request streamed answers.
    """

    base_url: str
    model: str
    api_key: str = field(repr=False)
    timeout_s: float = DEFAULT_TIMEOUT_S
    stream: bool = False

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Self:
        """Read the ``SRDH_OPENAI_*`` variables (``os.environ`` when ``environ`` is ``None``).

        Raises:
            ConfigError: a required variable is unset or empty, or an optional one is malformed;
                the message names the variable and what was expected.
        """
        env = os.environ if environ is None else environ

        def required(name: str, expected: str) -> str:
            value = env.get(name, "").strip()
            if not value:
                message = f"{name} is not set: expected {expected}"
                raise ConfigError(message)
            return value

        base_url = required(
            _BASE_URL, "the base URL of an OpenAI-compatible API, e.g. http://127.0.0.1:8000/v1"
        )
        if not base_url.startswith(("http://", "https://")):
            message = f"{_BASE_URL}={base_url!r}: expected an http:// or https:// URL"
            raise ConfigError(message)
        model = required(_MODEL, "the model name to send, e.g. gpt-4o-mini")
        api_key = required(_API_KEY, "an API key (any non-empty value if the endpoint needs none)")
        return cls(base_url, model, api_key, _timeout(env.get(_TIMEOUT)), _stream(env.get(_STREAM)))

    def with_timeout(self, timeout_s: float) -> OpenAIConfig:
        """Return a copy with another per-call timeout (e.g. from ``model_call_timeout_ms``)."""
        return OpenAIConfig(self.base_url, self.model, self.api_key, timeout_s, self.stream)


def _timeout(raw: str | None) -> float:
    if raw is None or not raw.strip():
        return DEFAULT_TIMEOUT_S
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value > 0:
        message = f"{_TIMEOUT}={raw!r}: expected a positive number of seconds"
        raise ConfigError(message)
    return value


def _stream(raw: str | None) -> bool:
    value = (raw or "").strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    message = f"{_STREAM}={raw!r}: expected 1/true or 0/false"
    raise ConfigError(message)
