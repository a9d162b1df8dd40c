"""pytest plugin of the nested suite session: run the likeliest killers first.

Loaded with ``-p bench.mutation._order`` by :mod:`bench.mutation._kill`. The environment variable
``SRDH_MUTATION_ORDER`` names a JSON file holding a list of pytest node ids (the scenarios that
killed earlier mutants, most frequent first); those items move to the front, the rest keep the
suite's order. A missing or unreadable file leaves the order unchanged.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from contracts import load_json_file

ORDER_ENV = "SRDH_MUTATION_ORDER"
"""Names the JSON file of node ids to run first."""


def _priority() -> dict[str, int]:
    name = os.environ.get(ORDER_ENV)
    if not name:
        return {}
    try:
        ids = load_json_file(Path(name))
    except (OSError, ValueError):
        return {}
    if not isinstance(ids, list):
        return {}
    return {str(nodeid): rank for rank, nodeid in enumerate(ids)}


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move the items named in the order file to the front (stable otherwise)."""
    priority = _priority()
    if priority:
        last = len(priority)
        items.sort(key=lambda item: priority.get(item.nodeid, last))
