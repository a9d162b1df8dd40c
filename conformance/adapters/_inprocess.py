"""The in-process adapter: an IUT written in Python, created by a ``module:factory`` spec."""

from __future__ import annotations

import importlib
import itertools
import json
from typing import Any

from conformance._inert import echo
from conformance.adapters._endpoint import endpoint_session
from conformance.adapters._errors import AdapterError
from conformance.adapters._protocol import check_hello, check_observation, run_message
from conformance.adapters._starved import unstarved

__all__ = ["InProcessAdapter"]


def _load_factory(spec: str) -> Any:  # noqa: ANN401 - any callable
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute:
        reason = f"IUT spec {spec!r} must be 'module:factory' (e.g. 'reference_harness.iut:create')"
        raise AdapterError(reason)
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        reason = f"cannot import IUT module {module_name!r}: {error}"
        raise AdapterError(reason) from error
    factory = getattr(module, attribute, None)
    if not callable(factory):
        reason = f"IUT module {module_name!r} has no callable {attribute!r}"
        raise AdapterError(reason)
    return factory


class InProcessAdapter:
    """Runs fixtures through a Python object with ``hello()``, ``run(fixture)`` and ``close()``.

    ``spec`` is ``"module:factory"``; the factory is called with no arguments, once, on first use.
    Every hello and observation is validated exactly as the stdio adapter validates them.

    Raises:
        AdapterError: (from any method) the spec cannot be loaded, the IUT raised, or it returned
            an invalid or mismatched message.
    """

    def __init__(self, spec: str) -> None:
        """Remember ``spec``; nothing is imported until the first call."""
        self.spec = spec
        self._iut: Any = None
        self._hello: dict[str, Any] | None = None
        self._requests = itertools.count(1)

    def _ensure(self) -> Any:  # noqa: ANN401 - the IUT object
        if self._iut is None:
            factory = _load_factory(self.spec)
            try:
                self._iut = factory()
            except Exception as error:
                reason = f"IUT factory {self.spec!r} raised {type(error).__name__}: {echo(error)}"
                raise AdapterError(reason) from error
        return self._iut

    def hello(self) -> dict[str, Any]:
        """Return the IUT's validated ``hello`` message."""
        if self._hello is None:
            iut = self._ensure()
            try:
                message = iut.hello()
            except Exception as error:
                reason = f"IUT hello() raised {type(error).__name__}: {echo(error)}"
                raise AdapterError(reason) from error
            self._hello = check_hello(message)
        return self._hello

    @property
    def capabilities(self) -> frozenset[str]:
        """The capabilities declared in the IUT's hello."""
        return frozenset(self.hello()["capabilities"])

    def run(self, fixture: dict[str, Any]) -> dict[str, Any]:
        """Run ``fixture`` and return the validated RunObservation.

        An IUT that declared ``MODEL_ENDPOINT`` is called ``run(fixture, model_endpoint=...)``
        with the kit's model endpoint (the run message's ``model_endpoint`` object); the requests
        the endpoint received come back as the observation's ``model_requests``. A Run in which
        a timely scripted answer ended by the IUT's timeout (its clock, not the script, decided
        it) is run again, up to :data:`~conformance.adapters._starved.STARVED_RUNS` Runs.
        """
        return unstarved(lambda: self._run_once(fixture), fixture)

    def _run_once(self, fixture: dict[str, Any]) -> dict[str, Any]:
        self.hello()
        request_id = f"req-{next(self._requests)}"
        with endpoint_session(self.capabilities, fixture) as endpoint:
            message = run_message(request_id, fixture, endpoint.descriptor)
            copied = json.loads(json.dumps(message["fixture"]))
            try:
                if endpoint.descriptor is None:
                    observation = self._iut.run(copied)
                else:
                    observation = self._iut.run(copied, model_endpoint=message["model_endpoint"])
            except Exception as error:
                reason = f"IUT run() raised {type(error).__name__}: {echo(error)}"
                raise AdapterError(reason) from error
            return endpoint.attach(self._checked(request_id, fixture, observation))

    def _checked(
        self, request_id: str, fixture: dict[str, Any], observation: object
    ) -> dict[str, Any]:
        try:
            observation = json.loads(json.dumps(observation, allow_nan=False))
        except (TypeError, ValueError) as error:
            reason = f"IUT run() returned a value that is not JSON: {echo(error)}"
            raise AdapterError(reason) from error
        answer = {"type": "observation", "request_id": request_id, "observation": observation}
        return check_observation(answer, request_id=request_id, fixture_id=fixture["fixture_id"])

    def close(self) -> None:
        """Call the IUT's ``close()`` once; later calls do nothing."""
        iut, self._iut, self._hello = self._iut, None, None
        if iut is not None:
            try:
                iut.close()
            except Exception as error:
                reason = f"IUT close() raised {type(error).__name__}: {echo(error)}"
                raise AdapterError(reason) from error
