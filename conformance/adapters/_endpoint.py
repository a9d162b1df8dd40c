"""Running one fixture over the kit's model endpoint, for an IUT that declared MODEL_ENDPOINT.

:func:`endpoint_session` starts a :class:`~conformance.model_endpoint.ModelEndpoint` for the Run
(or nothing, for an IUT without the capability); the adapter puts
:attr:`EndpointSession.descriptor` into the ``run`` message and passes the IUT's observation
through :meth:`EndpointSession.attach`, which adds the requests the endpoint received
(``model_requests``) and the endpoint's script errors. The endpoint is stopped when the block
ends, whatever happened.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from conformance.adapters._errors import AdapterError

if TYPE_CHECKING:
    from collections.abc import Iterator

    from conformance.model_endpoint import ModelEndpoint

__all__ = ["MODEL_ENDPOINT", "EndpointSession", "endpoint_session"]

MODEL_ENDPOINT: Final = "MODEL_ENDPOINT"
"""The capability: the IUT takes the kit's model endpoint from the ``run`` message."""

_MESSAGE_MAX: Final = 4000


@dataclass(frozen=True, slots=True)
class EndpointSession:
    """The model endpoint of one Run, or none (``endpoint`` is ``None``).

    ``started`` is the kit's clock (``time.monotonic()``) when the session began, just before the
    run message goes out: :meth:`attach` measures the Run's ``elapsed_ms`` from it.
    """

    endpoint: ModelEndpoint | None
    started: float = field(default_factory=time.monotonic)

    @property
    def descriptor(self) -> dict[str, Any] | None:
        """The run message's ``model_endpoint`` object, or ``None`` without an endpoint."""
        return None if self.endpoint is None else self.endpoint.descriptor()

    def attach(self, observation: dict[str, Any]) -> dict[str, Any]:
        """Add ``elapsed_ms`` and the endpoint's ``model_requests`` (and script errors).

        ``elapsed_ms``: the kit's clock from :attr:`started` to now (every IUT, endpoint or not).

        A script the IUT's requests exhausted is ``SCRIPT_EXHAUSTED``, turns left over are
        ``SCRIPT_UNCONSUMED`` (unless the IUT already reported an error, or the observed Run
        ended ``CANCELLED``: a cancellation stops the Run wherever it happens, so its later
        turns are never asked for, as for the in-fixture scripted ports; contracts.md). A request
        the endpoint refused (malformed HTTP, a body that is not a JSON object, another path)
        comes first: the error names each refusal and what was wrong with it
        (``SCRIPT_UNCONSUMED`` when turns are left, else ``IUT_ERROR``).

        Raises:
            AdapterError: the IUT's observation carries ``model_requests`` or ``elapsed_ms`` (the
                kit's own fields).
        """
        for own in ("model_requests", "elapsed_ms"):
            if own in observation:
                reason = f"the IUT's observation carries {own}, which only the kit fills"
                raise AdapterError(reason)
        elapsed = {"elapsed_ms": max(0, int((time.monotonic() - self.started) * 1000))}
        if self.endpoint is None:
            return {**observation, **elapsed}
        observed = dict(observation) | elapsed
        observed["model_requests"] = self.endpoint.requests()
        exhausted, left = self.endpoint.script_problems()
        left = {c: n for c, n in left.items() if not _timed_out_unsent(observed, str(c), n)}
        refused = self.endpoint.refusals()
        if "error" not in observed and refused:
            detail = "; ".join(refused)
            message = f"the model endpoint refused {len(refused)} request(s): {detail}"
            code = "SCRIPT_UNCONSUMED" if left else "IUT_ERROR"
            observed["error"] = {"code": code, "message": message[:_MESSAGE_MAX]}
        elif "error" not in observed and exhausted:
            observed["error"] = {"code": "SCRIPT_EXHAUSTED", "message": exhausted[0][:_MESSAGE_MAX]}
        elif "error" not in observed and left and not _cancelled_run(observed):
            detail = ", ".join(f"{component}: {n} turn(s) left" for component, n in left.items())
            message = f"model endpoint script not consumed: {detail}"
            observed["error"] = {"code": "SCRIPT_UNCONSUMED", "message": message[:_MESSAGE_MAX]}
        return observed


def _timed_out_unsent(observation: dict[str, Any], component: str, left: int) -> bool:
    """Whether ``left`` turns of ``component`` were asked for by attempts that timed out unsent.

    A model-call timeout can end an attempt before its HTTP request reaches the endpoint (1 ms,
    the contract's lower bound): each such attempt is recorded ``TIMEOUT`` and sends nothing, so
    its turn stays unread though the Harness did ask for it ("your HTTP timeout must end the
    call", contracts.md).
    """
    trace = observation.get("trace")
    requests = observation.get("model_requests") or []
    if not isinstance(trace, list):
        return False
    finished = [
        (e.get("data") or {}).get("outcome")
        for e in trace
        if isinstance(e, dict)
        and e.get("type") == "MODEL_CALL_FINISHED"
        and (e.get("data") or {}).get("component") == component
    ]
    sent = sum(1 for r in requests if isinstance(r, dict) and r.get("component") == component)
    return len(finished) - sent >= left and finished.count("TIMEOUT") >= left


def _cancelled_run(observation: dict[str, Any]) -> bool:
    """Whether the observed Run (its ``runs`` row of ``run_id``) ended ``CANCELLED``."""
    runs = observation.get("runs")
    return isinstance(runs, list) and any(
        isinstance(row, dict)
        and row.get("run_id") == observation.get("run_id")
        and row.get("state") == "CANCELLED"
        for row in runs
    )


@contextlib.contextmanager
def endpoint_session(
    capabilities: frozenset[str], fixture: dict[str, Any]
) -> Iterator[EndpointSession]:
    """Yield the Run's endpoint session: a started endpoint iff ``MODEL_ENDPOINT`` is declared."""
    if MODEL_ENDPOINT not in capabilities:
        yield EndpointSession(None)
        return
    from conformance.model_endpoint import ModelEndpoint  # noqa: PLC0415 - only for endpoint IUTs

    with ModelEndpoint(fixture) as endpoint:
        yield EndpointSession(endpoint)
