"""Settings for the whole test run.

``-n auto`` (``make test``) starts two pytest-xdist workers per core this process may use: many
tests wait on the wall clock (scripted timeouts, subprocess IUTs, the model endpoint, ``pip``),
and with one worker per core those waits left the cores idle (a run used 1.24-1.32 cores of 2;
with two workers per core 1.92; docs/decisions/test-speed.md).
"""

from __future__ import annotations

from conformance.selftest._execute import default_jobs

WORKERS_PER_CORE = 2


def pytest_xdist_auto_num_workers(config) -> int:  # noqa: ARG001 - pytest-xdist's hook signature
    """The worker count for ``-n auto``: :data:`WORKERS_PER_CORE` per core this process may use
    (the self-test's own count, :func:`conformance.selftest._execute.default_jobs`)."""
    return WORKERS_PER_CORE * default_jobs()
