"""The test run's profile, ``ci`` or ``dev``, and the depth of generated exploration it sets.

``SRDH_PROPERTY_PROFILE`` picks the profile; otherwise it is ``ci`` when the ``CI`` environment
variable is set (as CI services set it; ``.ci/run`` also sets ``SRDH_PROPERTY_PROFILE=ci``) and
``dev`` elsewhere (the README's ``make test`` on a developer's machine).

The profile decides DEPTH only: how many examples, seeds or random draws a test generates to
explore its input space. BREADTH (which cases, faults, contracts, scenarios and formats a test
covers) and every claim a test makes are the same under both profiles
(docs/decisions/test-speed.md, Session 10).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Literal

from hypothesis import HealthCheck, settings

if TYPE_CHECKING:
    from collections.abc import Mapping

PROFILES: tuple[Literal["ci"], Literal["dev"]] = ("ci", "dev")


def profile_from(environ: Mapping[str, str]) -> str:
    """The profile named by ``environ``: ``SRDH_PROPERTY_PROFILE`` if set and non-empty, else
    ``"ci"`` when ``CI`` is set and non-empty, else ``"dev"``.

    Raises ``ValueError`` naming the accepted values when ``SRDH_PROPERTY_PROFILE`` is neither
    ``ci`` nor ``dev`` (a typo must not silently run the shallow profile).
    """
    chosen = environ.get("SRDH_PROPERTY_PROFILE") or ("ci" if environ.get("CI") else "dev")
    if chosen not in PROFILES:
        msg = f"SRDH_PROPERTY_PROFILE={chosen!r}: expected one of {', '.join(PROFILES)}"
        raise ValueError(msg)
    return chosen


PROFILE = profile_from(os.environ)
"""This run's profile, ``"ci"`` or ``"dev"`` (:func:`profile_from` of the environment)."""


def depth(ci: int, dev: int, *, profile: str | None = None) -> int:
    """How deep a test's generated exploration goes under ``profile`` (default :data:`PROFILE`).

    Depth is a count of generated inputs: Hypothesis ``max_examples``, seeds, random instances
    per contract, ``--examples N`` of a ``srdh run`` a test starts. ``ci`` is the count the test
    ran before Session 10 (CI keeps exactly today's depth); ``dev`` is a smaller count chosen per
    test so that every assertion of the test (coverage such as "every fault reached", minimum
    counts) still holds and the test can still fail. Returns ``ci`` under ``"ci"`` and ``dev``
    under ``"dev"``.

    Raises ``ValueError`` when ``dev`` is not in ``1..ci`` (dev never explores deeper than CI,
    and never not at all) or ``profile`` is neither ``"ci"`` nor ``"dev"``.
    """
    if not 1 <= dev <= ci:
        msg = f"depth(ci={ci}, dev={dev}): dev must be between 1 and ci"
        raise ValueError(msg)
    chosen = PROFILE if profile is None else profile
    if chosen == "ci":
        return ci
    if chosen == "dev":
        return dev
    msg = f"profile {chosen!r}: expected one of {', '.join(PROFILES)}"
    raise ValueError(msg)


def untimed_settings(ci: int, dev: int) -> settings:
    """Hypothesis settings with :func:`depth` ``(ci, dev)`` examples and no timing checks.

    No deadline and no "input generation is slow" health check: the kit's tests make no timing
    checks, and those two failed runs at load 10-13 on 2 shared cores.
    """
    return settings(
        max_examples=depth(ci=ci, dev=dev),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
