"""A run's drawn fixtures depend on the seed alone, not on which local modules are loaded.

Hypothesis mixes literals of loaded *local* modules into its draws; ``srdh run`` and
``srdh replay`` load different kit modules, so the same derandomized any-fixture property drew
different fixtures and every default-run recording failed its replay (red team, session 5).
``conformance.anyfixture._stable.stable_draws`` holds that pool empty while the kit draws.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from typing import TYPE_CHECKING

from hypothesis import strategies as st

from conformance.anyfixture import property_settings
from conformance.anyfixture._engine import drive
from conformance.hypothesis import scenario_fixtures

if TYPE_CHECKING:
    from pathlib import Path

# Literals a local module could hold that a fixture's strings and integers could take.
LITERALS = [f"call_{i}" for i in range(200)] + [str(10**i) for i in range(12)]


def _draws(count: int) -> list[str]:
    seen: list[str] = []

    def body(fixture: dict[str, object]) -> None:
        text = json.dumps(fixture, sort_keys=True)
        seen.append(hashlib.sha256(text.encode()).hexdigest()[:12])

    result = drive("stable", scenario_fixtures(), body, property_settings(count))
    assert result.outcome == "passed", result.message
    return seen


def _load_local_module(tmp_path: Path) -> None:
    """Import a new local module (outside site-packages and tests/) full of literals."""
    source = tmp_path / "srdh_local_constants.py"
    body = "\n".join(f"C{i} = {value!r}" for i, value in enumerate(LITERALS))
    numbers = "\n".join(f"N{i} = {10**i + 7}" for i in range(15))
    source.write_text(f"{body}\n{numbers}\n", encoding="utf-8")
    spec = importlib.util.spec_from_file_location("srdh_local_constants", source)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["srdh_local_constants"] = module
    spec.loader.exec_module(module)


def test_prop_draws_do_not_change_when_a_local_module_is_loaded(tmp_path):
    before = _draws(40)
    _load_local_module(tmp_path)
    try:
        after = _draws(40)
    finally:
        sys.modules.pop("srdh_local_constants", None)
    assert after == before


def test_prop_drive_still_draws_varied_values():
    """The pool held empty leaves Hypothesis its own variety (a guard against a no-op draw)."""
    values: list[int] = []

    def body(value: int) -> None:
        values.append(value)

    drive("varied", st.integers(0, 10**9), body, property_settings(30))
    assert len(set(values)) > 10
