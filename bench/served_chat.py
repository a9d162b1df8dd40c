"""The chat app's Harnesses on scripted ports: shared by the serve soak and the serve-fault tests.

``bench/serve_soak.py`` and ``tests/hostile/test_reliability_serve.py`` serve the same Run through
``reference_harness.sse.create_app`` and read its server-sent events the same way:

* :data:`SERVED_FIXTURE` — one Run: a ``search_logs`` call that finds a row, a Diagnosis Draft
  with one OBSERVATION citing it, a SUPPORTED verdict (the Run ends SUCCESS when its store can be
  written);
* :func:`scripted_harness_factory` — a new Harness per request on that fixture's scripted ports,
  every Harness on one run store and one store thread pool (as ``srdh serve``'s);
* :func:`chat_frames` — the ``(event, data)`` frames of a streamed chat answer.

It lives in ``bench`` (the top layer: it uses both ``conformance.builders`` and
``reference_harness``); tests may import it, ``conformance`` never does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from conformance import builders as fx
from contracts import loads_strict
from reference_harness import Harness, ScriptedPorts

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from concurrent.futures import Executor

    from reference_harness.ports import ToolBackend
    from reference_harness.store import RunStore

__all__ = ["SERVED_FIXTURE", "chat_frames", "scripted_harness_factory"]

SERVED_FIXTURE: Final = fx.diagnosis_fixture(
    "served-chat",
    steps=[[fx.tool_call("call_1")]],
    draft=fx.diagnosis_draft([fx.analysis("a1", "OBSERVATION", ["call_1"])]),
    reviews=[fx.supported_turn()],
    tools={"search_logs": fx.tool_script(fx.rows("checkout error 500"))},
)
"""The served Run's Scenario Fixture (its turns play the models and the tool backend)."""


def _same(tools: ToolBackend) -> ToolBackend:
    return tools


def scripted_harness_factory(
    store: RunStore,
    store_executor: Executor,
    *,
    fixture: dict[str, Any] = SERVED_FIXTURE,
    tools: Callable[[ToolBackend], ToolBackend] = _same,
) -> Callable[[], Harness]:
    """Return a factory of Harnesses on ``fixture``'s scripted ports (fresh ones per call).

    Args:
        store: the run store every Harness writes (the server's).
        store_executor: the thread pool running every Harness's store calls.
        fixture: the Scenario Fixture whose turns play the Router, the Diagnosis Agent, the
            SemanticGuard and the tool backend.
        tools: wraps each Harness's scripted tool backend (e.g. a slower one).
    """

    def factory() -> Harness:
        ports = ScriptedPorts.from_fixture(fixture)
        return Harness(
            store=store,
            router=ports.router,
            agent=ports.agent,
            reviewer=ports.reviewer,
            tools=tools(ports.tools),
            store_executor=store_executor,
        )

    return factory


def chat_frames(lines: Iterable[str]) -> list[tuple[str, Any]]:
    """Return the ``(event, data)`` frames of a chat answer's lines, ``data`` parsed as JSON.

    Each ``data:`` line is one frame, named by the ``event:`` line before it (the chat entry
    writes one line of data per event).

    Raises:
        StrictJSONError: a ``data:`` line is not one JSON text (the error names the frame).
    """
    frames: list[tuple[str, Any]] = []
    event = ""
    for line in lines:
        if line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            frames.append((event, loads_strict(line[5:], source="a chat frame")))
    return frames
