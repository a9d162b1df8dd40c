"""Draws that depend on the seed alone, not on which modules happen to be loaded.

Hypothesis (6.13x and later) mixes "local constants" into its draws: string and number literals
found in every *local* module (outside the standard library and site-packages) present in
``sys.modules`` when an input is drawn. In a checkout of this kit its own modules are local, and
which of them are loaded differs between ``srdh run`` (the stdio adapter, the model endpoint, the
OpenAI client imported on the first Run that needs them) and ``srdh replay`` (none of them): the
same derandomized property then drew different fixtures, and a replay asked for fixtures the
recording did not hold (found by a red team, session 5). An implementer's own local modules
(an in-process IUT) would change the draws the same way.

:func:`stable_draws` holds that pool empty while the kit draws, so a run's fixtures depend only
on the kit version, the strategy and the example count ("derandomized: the same examples every
run"). It reaches into Hypothesis's provider module (no public setting exists); if a future
Hypothesis moves it, the draws are left as they are and the reproducibility test
(tests/properties/test_prop_stable_draws.py) fails, naming this module.
"""

from __future__ import annotations

import contextlib
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["stable_draws"]

_LOCK = threading.RLock()


@contextlib.contextmanager
def stable_draws() -> Iterator[None]:
    """Within the block, Hypothesis draws no constants from local modules (re-entrant)."""
    try:
        from hypothesis.internal.conjecture import providers  # noqa: PLC0415 - private, guarded
    except ImportError:  # pragma: no cover - a Hypothesis without the provider module
        yield
        return
    getter = getattr(providers, "_get_local_constants", None)
    cache = getattr(getattr(providers, "CONSTANTS_CACHE", None), "cache", None)
    if getter is None or not hasattr(providers, "Constants"):  # pragma: no cover - moved
        yield
        return
    empty = providers.Constants()
    with _LOCK:
        if cache is not None:
            cache.clear()  # allowed constants cached with an earlier pool
        providers._get_local_constants = lambda: empty  # noqa: SLF001
        try:
            yield
        finally:
            providers._get_local_constants = getter  # noqa: SLF001
            if cache is not None:
                cache.clear()
