"""An IUT factory that ends its process when called inside a spawned self-test worker."""

from __future__ import annotations

import multiprocessing
import os

from reference_harness.iut import ReferenceIUT
from reference_harness.iut import create as create_reference


def create() -> ReferenceIUT:
    """The reference IUT in the main process; in a worker process, exit at once (status 3)."""
    if multiprocessing.parent_process() is not None:
        os._exit(3)
    return create_reference()
