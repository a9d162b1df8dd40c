"""Shared rules of the adapter protocol (``schemas/adapter-message.schema.json``).

Both adapters validate every message against the AdapterMessage contract and check that an
observation answers the request and fixture it was asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from conformance._inert import echo
from conformance.adapters._errors import AdapterError, ObservationContractError

if TYPE_CHECKING:
    from contracts import ContractViolation

__all__ = [
    "PROTOCOL_VERSION",
    "Adapter",
    "check_hello",
    "check_observation",
    "message_problems",
    "run_message",
]

PROTOCOL_VERSION = "2.0"
"""The adapter protocol version this kit speaks."""

_MAX_PROBLEMS = 5


class Adapter(Protocol):
    """One interface over every way of reaching an implementation under test (IUT)."""

    @property
    def capabilities(self) -> frozenset[str]:
        """The capabilities the IUT declared in its ``hello`` (e.g. ``CANCELLATION``)."""
        ...

    def hello(self) -> dict[str, Any]:
        """Return the IUT's ``hello`` message (starting the IUT if needed)."""
        ...

    def run(self, fixture: dict[str, Any]) -> dict[str, Any]:
        """Run one ScenarioFixture and return its RunObservation."""
        ...

    def close(self) -> None:
        """Release the IUT (``bye`` for stdio); idempotent."""
        ...


def message_problems(message: Any) -> list[str]:  # noqa: ANN401 - any JSON value
    """Return the AdapterMessage contract violations of ``message``, one line each."""
    from contracts import validate_document  # noqa: PLC0415 - contracts loads schemas on import

    problems = [
        f"{v.pointer or '/'}: {v.message}" for v in validate_document(message, "adapter-message")
    ]
    if isinstance(message, dict) and message.get("type") == "observation" and problems:
        inner = message.get("observation")
        detailed = validate_document(inner, "run-observation")
        problems = [f"/observation{v.pointer}: {v.message}" for v in detailed] or problems
    if isinstance(message, dict) and message.get("type") == "run" and problems:
        detailed = validate_document(message.get("fixture"), "scenario-fixture")
        problems = [f"/fixture{v.pointer}: {v.message}" for v in detailed] or problems
    return problems[:_MAX_PROBLEMS]


def _observation_violations(message: dict[str, Any]) -> tuple[ContractViolation, ...]:
    """The RunObservation's violations when the message answers its request with a broken Run.

    That is: the envelope is right (``type``, ``request_id``, ``observation`` and nothing else)
    and the observation is an object; then every violation of its contract, schema or invariant,
    is a conformance failure (``R0.valid-observation``, ``R3.invocation-outcome`` inside an
    invocation record), not a protocol error (implementers guide, "An observation that breaks its
    contract"). Empty when the envelope is broken or the observation is not an object: those stay
    protocol errors.
    """
    from contracts import validate_document  # noqa: PLC0415 - contracts loads schemas on import

    inner = message.get("observation")
    if not isinstance(inner, dict) or not isinstance(message.get("request_id"), str):
        return ()
    if set(message) != {"type", "request_id", "observation"}:
        return ()
    return tuple(validate_document(inner, "run-observation"))


def run_message(
    request_id: str, fixture: dict[str, Any], model_endpoint: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Return the ``run`` message for ``fixture`` (with ``model_endpoint`` when given).

    Raises:
        AdapterError: the fixture is not a valid ScenarioFixture (a kit-side mistake).
    """
    message = {"type": "run", "request_id": request_id, "fixture": fixture}
    if model_endpoint is not None:
        message["model_endpoint"] = model_endpoint
    problems = message_problems(message)
    if problems:
        reason = f"fixture {fixture.get('fixture_id')!r} is not a valid run message: " + "; ".join(
            problems
        )
        raise AdapterError(reason)
    return message


def check_hello(message: Any, *, stderr_tail: str = "") -> dict[str, Any]:  # noqa: ANN401
    """Return a valid ``hello`` message, or raise.

    Raises:
        AdapterError: not a hello, another protocol version, or schema-invalid.
    """
    if not isinstance(message, dict) or message.get("type") != "hello":
        kind = message.get("type") if isinstance(message, dict) else type(message).__name__
        reason = f"IUT must start with a hello message, got {kind!r}"
        raise AdapterError(reason, stderr_tail=stderr_tail)
    version = message.get("protocol_version")
    if version != PROTOCOL_VERSION:
        reason = f"IUT speaks protocol version {version!r}; this kit speaks {PROTOCOL_VERSION!r}"
        raise AdapterError(reason, stderr_tail=stderr_tail)
    problems = message_problems(message)
    if problems:
        reason = "IUT sent a schema-invalid hello: " + "; ".join(problems)
        raise AdapterError(reason, stderr_tail=stderr_tail)
    return message


def check_observation(
    message: Any,  # noqa: ANN401 - any JSON value
    *,
    request_id: str,
    fixture_id: str,
    stderr_tail: str = "",
) -> dict[str, Any]:
    """Return the RunObservation of a valid ``observation`` answering ``request_id``, or raise.

    Raises:
        AdapterError: an ``error`` message, another message type, a schema-invalid message, a
            wrong ``request_id``, or an observation of another fixture.
    """
    if not isinstance(message, dict):
        reason = f"IUT sent a {type(message).__name__}, expected an observation object"
        raise AdapterError(reason, stderr_tail=stderr_tail)
    if message.get("type") == "error":
        # the IUT's text is quoted inert and bounded: a line feed in it cannot end the reason
        code, text = echo(message.get("code"), quote=True), echo(message.get("message"))
        reason = f"IUT reported error {code}: {text}"
        raise AdapterError(reason, stderr_tail=stderr_tail)
    if message.get("type") != "observation":
        reason = f"IUT sent a {message.get('type')!r} message, expected an observation"
        raise AdapterError(reason, stderr_tail=stderr_tail)
    problems = message_problems(message)
    if problems:
        reason = "IUT sent a schema-invalid observation: " + "; ".join(problems)
        inner = message.get("observation")
        answers = (
            message.get("request_id") == request_id
            and isinstance(inner, dict)
            and inner.get("fixture_id") == fixture_id
        )
        broken = _observation_violations(message) if answers else ()
        if broken:
            raise ObservationContractError(reason, broken, stderr_tail=stderr_tail, answer=message)
        raise AdapterError(reason, stderr_tail=stderr_tail)
    if message["request_id"] != request_id:
        reason = f"IUT answered request {message['request_id']!r}, expected {request_id!r}"
        raise AdapterError(reason, stderr_tail=stderr_tail)
    observation: dict[str, Any] = message["observation"]
    if observation.get("fixture_id") != fixture_id:
        reason = (
            f"IUT sent the observation of fixture {observation.get('fixture_id')!r}, "
            f"expected {fixture_id!r}"
        )
        raise AdapterError(reason, stderr_tail=stderr_tail)
    return observation
