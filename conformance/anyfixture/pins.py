"""``python -m conformance.anyfixture.pins``: rewrite the any-fixture property's pinned corpus.

Run it after changing :mod:`conformance.hypothesis` or the pins
(``conformance.anyfixture._property``): ``tests/properties/test_prop_any_fixture.py`` fails while
the committed file and the strategy disagree.
"""

from __future__ import annotations

import json

from conformance.anyfixture._property import PINS_FILE, generate_pins

__all__ = ["main"]


def main() -> None:
    """Write :data:`~conformance.anyfixture.PINS_FILE` from the strategy."""
    text = json.dumps(generate_pins(), indent=1, ensure_ascii=True, sort_keys=True)
    PINS_FILE.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {PINS_FILE}")  # noqa: T201 - a command's one line of output


if __name__ == "__main__":
    main()
