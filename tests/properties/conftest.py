"""Hypothesis profiles and the reference IUT for the property tests.

Profiles (derandomized, no deadline, no example database):

* ``ci`` — 100 examples per spec-scenario property and per invariants run
  (:data:`conformance._examples.CI_EXAMPLES`);
* ``dev`` — 10 examples, for a quick local run: what a plain ``srdh run`` uses
  (:data:`conformance._examples.DEFAULT_EXAMPLES`).

``SRDH_PROPERTY_PROFILE`` picks one; otherwise ``ci`` when the ``CI`` environment variable is set
(as CI services set it) and ``dev`` elsewhere (:data:`tests._profile.PROFILE`, the profile the
whole suite's depth follows). The run store's SQLite files go to a RAM-backed
temporary folder when one exists (``/dev/shm``): still a real SQLite file, without disk syncs.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

from conformance._examples import CI_EXAMPLES, DEFAULT_EXAMPLES
from conformance.adapters import InProcessAdapter
from tests._profile import PROFILE

_COMMON = {
    "derandomize": True,
    "deadline": None,
    "database": None,
    "report_multiple_bugs": False,
    "phases": [Phase.explicit, Phase.generate, Phase.shrink],
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}
settings.register_profile("ci", max_examples=CI_EXAMPLES, **_COMMON)
settings.register_profile("dev", max_examples=DEFAULT_EXAMPLES, **_COMMON)

_RAM = Path("/dev/shm")  # noqa: S108 - RAM-backed; each Run still gets its own SQLite file


@pytest.fixture(scope="session")
def property_config() -> settings:
    """The Hypothesis settings of this run (profile :data:`PROFILE`)."""
    return settings.get_profile(PROFILE)


@pytest.fixture(scope="module")
def reference_iut():
    """The reference Harness through ``InProcessAdapter("reference_harness.iut:create")``.

    While a module uses it, temporary folders go to :data:`_RAM` (restored afterwards).
    """
    previous = tempfile.tempdir
    if _RAM.is_dir() and os.access(_RAM, os.W_OK):
        tempfile.tempdir = str(_RAM)
    adapter = InProcessAdapter("reference_harness.iut:create")
    yield adapter
    adapter.close()
    tempfile.tempdir = previous
