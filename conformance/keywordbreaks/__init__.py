"""Near-valid documents that break exactly one keyword of a frozen JSON Schema.

:func:`keyword_breaks` walks a valid base document beside its contract's schema and, for every
constraining keyword the walk reaches (``type``, ``required``, ``additionalProperties``,
``minLength``/``maxLength``, ``pattern``, ``enum``/``const``, ``minimum``/``maximum``,
``minItems``/``maxItems``, ``uniqueItems``, ``if``/``then``), returns a copy of the base changed
in one value so that the contract's validator reports that keyword and no other. The Gherkin
outlines "A model's output breaks one keyword of its contract" (features/) present one row per
break; ``tests/conformance/test_conf_keyword_breaks.py`` regenerates them from the schemas, so a
schema change changes the rows and a keyword the walk cannot break fails that test.
"""

from conformance.keywordbreaks._breaks import (
    ARGUMENTS,
    CONTRACTS,
    LONE_ITEM,
    KeywordBreak,
    UnbreakableKeywordError,
    base_documents,
    break_at,
    broken_keyword,
    keyword_breaks,
)

__all__ = [
    "ARGUMENTS",
    "CONTRACTS",
    "LONE_ITEM",
    "KeywordBreak",
    "UnbreakableKeywordError",
    "base_documents",
    "break_at",
    "broken_keyword",
    "keyword_breaks",
]
