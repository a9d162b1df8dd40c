"""The profile decides the depth of the tests' generated exploration; CI runs the ``ci`` depth.

``tests/_profile.py``: ``depth(ci, dev)`` is ``ci`` under the ``ci`` profile (today's counts)
and ``dev`` under ``dev``; the profile comes from ``SRDH_PROPERTY_PROFILE``, else ``CI``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests._profile import depth, profile_from

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("environ", "profile"),
    [
        ({}, "dev"),
        ({"CI": "true"}, "ci"),
        ({"SRDH_PROPERTY_PROFILE": "ci"}, "ci"),
        ({"CI": "true", "SRDH_PROPERTY_PROFILE": "dev"}, "dev"),
        ({"CI": "", "SRDH_PROPERTY_PROFILE": ""}, "dev"),
    ],
)
def test_the_profile_follows_the_environment(environ, profile):
    """``SRDH_PROPERTY_PROFILE`` wins; otherwise a set ``CI`` means ``ci``; else ``dev``."""
    assert profile_from(environ) == profile


def test_depth_is_the_ci_count_under_ci_and_the_dev_count_under_dev():
    assert depth(ci=1000, dev=100, profile="ci") == 1000
    assert depth(ci=1000, dev=100, profile="dev") == 100


@pytest.mark.parametrize(("ci", "dev"), [(10, 11), (10, 0)])
def test_dev_is_never_deeper_than_ci_nor_empty(ci, dev):
    with pytest.raises(ValueError, match="dev must be between 1 and ci"):
        depth(ci=ci, dev=dev)


def test_an_unknown_profile_name_is_refused():
    with pytest.raises(ValueError, match="expected one of ci, dev"):
        profile_from({"SRDH_PROPERTY_PROFILE": "fast"})


def test_a_ci_process_runs_todays_depth():
    """A process started as ``.ci/run`` starts ``make test`` (``SRDH_PROPERTY_PROFILE=ci``) gets
    the ``ci`` count; one with neither variable set gets the ``dev`` count."""
    script = (ROOT / ".ci" / "run").read_text().splitlines()
    exports = [line.split("#")[0].split() for line in script]
    assert ["export", "SRDH_PROPERTY_PROFILE=ci"] in exports
    code = "from tests._profile import PROFILE, depth; print(PROFILE, depth(ci=1000, dev=100))"
    base = {k: v for k, v in os.environ.items() if k not in {"CI", "SRDH_PROPERTY_PROFILE"}}
    seen = {}
    for name, extra in [("ci", {"SRDH_PROPERTY_PROFILE": "ci"}), ("dev", {})]:
        done = subprocess.run(  # noqa: S603 - fixed argv
            [sys.executable, "-c", code],
            cwd=ROOT,
            env={**base, **extra},
            capture_output=True,
            text=True,
            check=True,
        )
        seen[name] = done.stdout.split()
    assert seen == {"ci": ["ci", "1000"], "dev": ["dev", "100"]}
