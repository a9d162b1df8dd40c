"""The declared-wait floor: the seconds a run's fixtures make an IUT wait, whatever its speed.

Some Scenario Fixtures exist to test timeouts: a model turn that never answers, a call that blocks
until it is cancelled, a tool that blocks past its timeout. A conforming IUT has to wait those
out, so no amount of speed-up removes them; every other second of a run is work (the kit's and
the IUT's) or waste. :func:`declared_wait_s` reads one fixture's waits from its turn kinds and
``limits`` (contract sheet: ``scenario-fixture``); :func:`floor_s` sums them over the fixtures a
run sent (for ``srdh run`` over stdio: the ``run`` messages of an ``srdh run --record`` folder,
:func:`recorded_fixtures`).

What counts, per fixture, on each path (``endpoint=True``: the model turns are played by the
kit's model endpoint over HTTP; ``False``: by the fixture's scripted ports in process, as
``--iut-module`` and ``--scripted`` play them):

===============================================  ==========================  ==================
turn                                             over the model endpoint     scripted ports
===============================================  ==========================  ==================
model turn ``error: TIMEOUT``                    ``model_call_timeout_ms``   0 (raised at once)
model turn ``block_until_cancelled``             ``model_call_timeout_ms``   the same
tool response ``block_until_cancelled``          ``tool_timeout_ms``         the same
anything else                                    0                           0
===============================================  ==========================  ==================

Over the endpoint nothing answers a ``TIMEOUT`` turn, so the IUT learns of it only when its own
call timeout passes (the reference gives one HTTP request 90 % of ``model_call_timeout_ms``:
it waits a little less than the declared timeout, which this floor counts whole). A blocked call
ends at the call's timeout when nothing cancels the Run. A fixture whose client disconnects
counts 0: the cancellation may end any of its waits at once, or come before them. Limits default
as the schema says (5,000 ms). Every turn of a fixture counts once: a passing Run consumes every
scripted turn (a left-over turn is ``SCRIPT_UNCONSUMED``), and ``decoy_agent_turns`` are never
required, so they count 0.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from contracts import loads_strict

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from pathlib import Path

__all__ = ["declared_wait_s", "floor_s", "recorded_fixtures"]

_DEFAULT_TIMEOUT_MS: Final = 5000
_MODEL_TURNS: Final = ("router", "agent", "semantic_guard")
_BLOCK: Final = "block_until_cancelled"


def _model_turn_wait_ms(turn: Mapping[str, Any], timeout_ms: int, *, endpoint: bool) -> int:
    kind = turn.get("kind")
    if kind == _BLOCK:
        return timeout_ms
    if kind == "error" and turn.get("error") == "TIMEOUT":
        return timeout_ms if endpoint else 0
    return 0


def declared_wait_s(fixture: Mapping[str, Any], *, endpoint: bool) -> float:
    """Return the seconds ``fixture`` makes a conforming IUT wait (see the module docstring).

    Args:
        fixture: a Scenario Fixture (schema-valid; unknown members are ignored).
        endpoint: whether its model turns are served by the kit's model endpoint.
    """
    if (fixture.get("client") or {}).get("disconnect_on"):
        return 0.0
    limits = fixture.get("limits") or {}
    model_ms = int(limits.get("model_call_timeout_ms", _DEFAULT_TIMEOUT_MS))
    tool_ms = int(limits.get("tool_timeout_ms", _DEFAULT_TIMEOUT_MS))
    total_ms = sum(
        _model_turn_wait_ms(turn, model_ms, endpoint=endpoint)
        for key in _MODEL_TURNS
        for turn in fixture.get(key) or ()
        if isinstance(turn, dict)
    )
    for script in (fixture.get("tools") or {}).values():
        responses = script.get("responses") or () if isinstance(script, dict) else ()
        total_ms += sum(
            tool_ms for r in responses if isinstance(r, dict) and r.get("kind") == _BLOCK
        )
    return total_ms / 1000


def floor_s(fixtures: Iterable[Mapping[str, Any]], *, endpoint: bool) -> float:
    """Return the declared-wait floor of a run: the sum of :func:`declared_wait_s` (seconds)."""
    return sum(declared_wait_s(fixture, endpoint=endpoint) for fixture in fixtures)


def recorded_fixtures(folder: Path) -> list[dict[str, Any]]:
    """Return the fixtures of every ``run`` message the kit sent in an ``srdh run --record`` folder.

    Raises:
        OSError: the folder has no readable ``exchange.ndjson``.
        ValueError: a line is not JSON.
    """
    fixtures: list[dict[str, Any]] = []
    with (folder / "exchange.ndjson").open(encoding="utf-8") as lines:
        for line in lines:
            entry = loads_strict(line)
            message = entry.get("message") if entry.get("from") == "kit" else None
            if isinstance(message, dict) and message.get("type") == "run":
                fixture = message.get("fixture")
                if isinstance(fixture, dict):
                    fixtures.append(fixture)
    return fixtures
