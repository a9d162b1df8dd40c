"""The self-test runs many Harness Runs: their SQLite files go to RAM when it is available."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

_RAM = Path("/dev/shm")  # noqa: S108 - RAM-backed; each Run still gets its own mkdtemp folder


@pytest.fixture(autouse=True, scope="module")
def _ram_tempdir():
    previous = tempfile.tempdir
    if _RAM.is_dir() and os.access(_RAM, os.W_OK):
        tempfile.tempdir = str(_RAM)
    yield
    tempfile.tempdir = previous
