"""The cores this process may use: the self-test's default job count, and the test run's.

Only the standard library is imported: ``tests/conftest.py`` reads the count in pytest's
controller process, which otherwise imports none of the kit (importing the self-test for it cost
about 1.3 CPU s before any test worker started; docs/decisions/test-speed.md, Session 10).
"""

from __future__ import annotations

import os

__all__ = ["default_jobs"]


def default_jobs() -> int:
    """The cores this process may use (``os.sched_getaffinity`` where it exists), at least 1."""
    getter = getattr(os, "sched_getaffinity", None)
    return max(1, len(getter(0)) if getter is not None else (os.cpu_count() or 1))
