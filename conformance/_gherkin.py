"""One parse of a Gherkin text per process, shared by the kit's readers of ``*.feature`` files.

The suite's catalogue (:mod:`conformance.suite._catalogue`) and the traceability matrix
(:mod:`conformance.traceability._features`) both read the Gherkin mirror with
``gherkin-official``'s parser. A fresh ``srdh run`` reads it in both (the catalogue selects the
scenarios, the report's matrix locates them), and the matrix read each file three times: about
0.3 CPU s per process for the kit's ten feature files (docs/decisions/test-speed.md, Session 10).
:func:`parse_gherkin` parses a text once per process; every reader starts from that document.

Only the standard library is imported here; the parser is imported on first use.
"""

from __future__ import annotations

import functools
from typing import Any

__all__ = ["parse_gherkin"]


@functools.lru_cache(maxsize=64)
def parse_gherkin(text: str) -> Any:  # noqa: ANN401 - gherkin-official's document: plain dicts
    """The ``gherkin-official`` document (``GherkinDocument`` as plain dicts) of ``text``.

    Parsed once per text in a process (the cache keys on the whole text, so an edited file is
    parsed again, whatever its size and time stamps). The document is shared: callers only read
    it (a caller that needs to add a member copies the dict first).

    Raises:
        gherkin.errors.CompositeParserException: ``text`` is not valid Gherkin (one error per
            line the parser rejects); a raise is not cached.
    """
    from gherkin.parser import Parser  # noqa: PLC0415 - only readers of feature files parse

    return Parser().parse(text)
