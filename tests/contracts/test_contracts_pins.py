"""The hypothesis pin (< 6.170.10) and how to tell when it can go.

hypothesis-jsonschema 0.23.1 fails with hypothesis >= 6.170.10 (``'many' object has no attribute
'more'`` while generating objects; FIELD-NOTES). pyproject pins ``hypothesis<6.170.10``.

To re-check after a new hypothesis-jsonschema release: install it with the newest hypothesis in a
scratch venv and run ``pytest tests/contracts/test_contracts_pins.py -k generates``; if it passes
there, raise the bound in pyproject and in PIN_BOUND below.
"""

from __future__ import annotations

from importlib.metadata import version

from hypothesis import given, settings
from hypothesis_jsonschema import from_schema

PIN_BOUND = (6, 170, 10)
BROKEN_WITH = ("hypothesis-jsonschema", "0.23.1")


def _parse(text):
    return tuple(int(part) for part in text.split(".")[:3])


def test_contracts_installed_hypothesis_is_below_the_pin():
    """The installed hypothesis respects the pin while hypothesis-jsonschema is still 0.23.1."""
    installed = _parse(version("hypothesis"))
    if version(BROKEN_WITH[0]) == BROKEN_WITH[1]:
        assert installed < PIN_BOUND, (
            f"hypothesis {version('hypothesis')} with {BROKEN_WITH[0]} {BROKEN_WITH[1]}: "
            "the known break; keep hypothesis<6.170.10"
        )


def test_contracts_hypothesis_jsonschema_generates_objects():
    """hypothesis-jsonschema can generate a closed object with required properties.

    This is the operation that breaks on hypothesis >= 6.170.10; when it passes on a newer
    hypothesis, the pin can go.
    """
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "string"},
            "b": {"type": "array", "items": {"type": "integer"}},
        },
        "required": ["a", "b"],
        "additionalProperties": False,
    }
    seen = []

    @settings(max_examples=5, derandomize=True, database=None)
    @given(from_schema(schema))
    def collect(doc):
        seen.append(doc)

    collect()
    assert seen
    assert all(set(doc) == {"a", "b"} for doc in seen)
