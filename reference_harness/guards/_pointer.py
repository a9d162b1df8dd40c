"""RFC 6901 JSON pointers built from path segments, bounded in length."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from collections.abc import Iterable

MAX_POINTER_CHARS: Final = 1024
"""Longest pointer a violation carries (the trace event schema's `maxLength`)."""


def pointer(segments: Iterable[object]) -> str:
    """Return the RFC 6901 pointer for `segments` (`~` escaped as `~0`, `/` as `~1`).

    Non-string segments (list indices) are written with `str()`. No segments gives `""`. A
    pointer longer than `MAX_POINTER_CHARS` is cut to the deepest ancestor that fits.
    """
    written = 0
    parts: list[str] = []
    for segment in segments:
        part = "/" + str(segment).replace("~", "~0").replace("/", "~1")
        written += len(part)
        if written > MAX_POINTER_CHARS:
            break
        parts.append(part)
    return "".join(parts)
