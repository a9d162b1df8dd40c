"""Kebab slugs of requirement and scenario names (the ids used by traces, tags and reports)."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

_WORD_CATEGORIES = frozenset("LNM")
"""Unicode general categories (first letter) that are part of an id: letters, numbers, marks."""


def _fold(char: str) -> str:
    """Fold ``char`` to its ASCII base when it is one plus combining marks (``é`` -> ``e``)."""
    decomposed = unicodedata.normalize("NFKD", char)
    if decomposed[:1].isascii() and all(unicodedata.category(c) == "Mn" for c in decomposed[1:]):
        return decomposed[0]
    return unicodedata.normalize("NFKC", char)


@lru_cache(maxsize=4096)  # a pure function; every nested suite session slugs the same names
def slugify(name: str) -> str:
    """Return the kebab slug of a requirement or scenario name, in any script.

    Latin letters with diacritics (and compatibility forms such as full-width letters) fold to
    their ASCII base; letters, digits and combining marks of every other script are kept as
    written (``告警去重`` stays ``告警去重``, ``が`` keeps its voicing mark). Letters are
    lower-cased, and every run of other characters (spaces, punctuation, symbols, emoji) becomes
    one ``-``; leading and trailing dashes are dropped. ``"No-evidence result is cited"`` ->
    ``"no-evidence-result-is-cited"``; ``"DIAGNOSIS + SUCCESS"`` -> ``"diagnosis-success"``;
    ``"Café crème"`` -> ``"cafe-creme"``.

    Returns ``""`` for a name without letters or digits (``"🚀 !"``); the spec linter reports
    such a name as ``KIT_EMPTY_ID`` and two names with one slug as ``KIT_DUPLICATE_*_ID``.
    """
    folded = "".join(_fold(c) for c in unicodedata.normalize("NFC", name)).lower()
    out: list[str] = []
    for char in folded:
        if unicodedata.category(char)[0] in _WORD_CATEGORIES:
            out.append(char)
        elif out and out[-1] != "-":
            out.append("-")
    return "".join(out).strip("-")
