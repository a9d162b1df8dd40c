"""Kebab slugs of requirement and scenario names (the ids used by traces, tags and reports)."""

from __future__ import annotations

import re
import unicodedata

_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def slugify(name: str) -> str:
    """Return the kebab slug of a requirement or scenario name.

    Accents are folded to ASCII, letters lower-cased, and every run of other characters becomes
    one ``-``; leading and trailing dashes are dropped. ``"No-evidence result is cited"`` →
    ``"no-evidence-result-is-cited"``; ``"DIAGNOSIS + SUCCESS"`` → ``"diagnosis-success"``.
    Returns ``""`` for a name without letters or digits.
    """
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return _NON_ALNUM.sub("-", folded.lower()).strip("-")
