"""An adapter wrapper that records every fixture it runs and the observation it got back."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from conformance.adapters._protocol import Adapter

__all__ = ["RecordingAdapter"]


class RecordingAdapter:
    """Delegates to ``inner`` and keeps ``(fixture, observation)`` pairs in ``runs``, in order.

    ``srdh demo`` runs one scenario of the suite through it, so the demo shows exactly the
    fixture the suite's Given steps build for that scenario; the benchmarks replay the recorded
    fixtures. Each fixture is copied before it runs, so the record is what the IUT was sent.
    """

    def __init__(self, inner: Adapter) -> None:
        """Wrap ``inner``."""
        self._inner = inner
        self.runs: list[tuple[dict[str, Any], dict[str, Any]]] = []

    @property
    def capabilities(self) -> frozenset[str]:
        """The wrapped IUT's capabilities."""
        return self._inner.capabilities

    def hello(self) -> dict[str, Any]:
        """The wrapped IUT's hello."""
        return self._inner.hello()

    def run(self, fixture: dict[str, Any]) -> dict[str, Any]:
        """Run ``fixture`` on the wrapped IUT and record the pair."""
        sent = copy.deepcopy(fixture)
        observation = self._inner.run(fixture)
        self.runs.append((sent, observation))
        return observation

    @property
    def fixtures(self) -> list[dict[str, Any]]:
        """The fixtures run so far, in order."""
        return [fixture for fixture, _ in self.runs]

    def close(self) -> None:
        """Close the wrapped IUT."""
        self._inner.close()
