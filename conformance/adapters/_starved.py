"""A Run decided by the machine's load is run again: a timely answer ended by the IUT's timeout.

The kit answers a timely scripted turn at once, but only the IUT's clock says whether it came
within the fixture's timeout: a conforming IUT starved of CPU past ``model_call_timeout_ms``
(300 ms in the retry and fallback scenarios) records ``TIMEOUT`` for it, and its Run follows that
outcome, not the script (:func:`conformance.checks.starved_by_the_clock`). Such a Run says
nothing about the rules, so both adapters run the fixture again, up to :data:`STARVED_RUNS` Runs
in all; the last one is returned whatever it shows (an IUT that times out timely answers every
time is judged on it). ``docs/decisions/races.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["STARVED_RUNS", "unstarved"]

STARVED_RUNS: Final = 3
"""Most Runs of one fixture while each shows a timely answer ended by the IUT's timeout."""


def unstarved(run_once: Callable[[], dict[str, Any]], fixture: dict[str, Any]) -> dict[str, Any]:
    """Return ``run_once()``'s observation, run again while the clock, not the script, decided it.

    At most :data:`STARVED_RUNS` calls; whatever ``run_once`` raises propagates at once.
    """
    from conformance.checks._starved import starved_by_the_clock  # noqa: PLC0415 - loads schemas

    for _ in range(STARVED_RUNS - 1):
        observation = run_once()
        if starved_by_the_clock(observation, fixture) is None:
            return observation
    return run_once()
