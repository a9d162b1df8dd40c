"""Text a Run legitimately carries: what a leak check may not take for leaked text.

The leak checks (``R6.fallback-fixed-schema``: no unreleased draft text in a fallback, its run row
or the client's frames; ``R6.internal-error-excluded``: no text a tool raised in any record) look
for a needle (a draft's statement, summary or item text; a raised message) as a substring of the
Run's output. A needle that a conforming Harness's output contains for another reason proves
nothing: a statement that is the call's own query (a semantic fallback lists the call's query
scope), an analysis id the SemanticGuard's verdict names, a contract code (``EVIDENCE_FOUND``,
``TOOL_FAILED``), a member name a violation's JSON pointer holds (``analyses``), the session id,
or ``1``/``null``/``:`` of the JSON text itself (docs/decisions/false-kills-8.md, F1).

:func:`explained_text` is that legitimate text: the contracts' vocabulary (every enum and const
string and every property name of ``schemas/``), what the fixture scripts outside the needles'
own places, and the ids, digests, pointers, presented ids and numbers the observation's records
carry. A needle inside it is not looked for. A leak of longer text (any draft sentence, any raised
message that is not one of these words) is still found.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any, Final

from contracts import CONTRACTS

__all__ = ["explained_text", "vocabulary_text"]

_ID_KEYS: Final = frozenset(
    {
        "run_id",
        "session_id",
        "selected_run_id",
        "snapshot_digest",
        "digest",
        "pointer",
        "presented_id",
        "tool_call_id",
        "document_id",
        "analysis_id",
        "item_id",
        "lookup_tool_call_id",
    }
)
"""Members whose string values are ids, digests, pointers or presented ids, never free text."""

_FREE_TEXT_KEYS: Final = frozenset({"statement", "summary", "text", "action", "message"})
"""Members of a scripted turn or result that hold model- or backend-written free text."""

_NEVER_EMITTED: Final = frozenset({"fixture_id", "requirement_id", "scenario_id", "description"})
"""Top-level fixture members about the fixture itself: no Harness emits them."""


def _walk_schema(node: object, found: set[str]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                found.update(str(name) for name in value)
            if key == "enum" and isinstance(value, list):
                found.update(v for v in value if isinstance(v, str))
            if key == "const" and isinstance(value, str):
                found.add(value)
            _walk_schema(value, found)
    elif isinstance(node, list):
        for value in node:
            _walk_schema(value, found)


@cache
def vocabulary_text() -> str:
    """Every enum and const string and every property name of the contracts, one a line."""
    found: set[str] = set()
    for info in CONTRACTS.values():
        _walk_schema(info.schema, found)
    return "\n".join(sorted(found))


def _scripted_words(node: object, out: list[str]) -> None:
    """Collect the fixture's strings outside free text (ids, arguments, codes, kinds)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in _FREE_TEXT_KEYS and isinstance(value, str):
                continue
            _scripted_words(value, out)
    elif isinstance(node, list):
        for value in node:
            _scripted_words(value, out)
    elif isinstance(node, str):
        out.append(node)


def _observed_words(node: object, out: list[str], key: str | None = None) -> None:
    """Collect the observation's ids, digests, pointers, presented ids and numbers."""
    if isinstance(node, dict):
        for name, value in node.items():
            _observed_words(value, out, str(name))
    elif isinstance(node, list):
        for value in node:
            _observed_words(value, out, key)
    elif isinstance(node, bool) or node is None:
        return
    elif isinstance(node, int | float):
        out.append(json.dumps(node))
    elif isinstance(node, str) and key in _ID_KEYS:
        out.append(node)


def explained_text(observation: dict[str, Any], fixture: dict[str, Any]) -> str:
    """Return the text the Run legitimately carries, whatever its drafts and tools said.

    One string (the parts joined by line feeds): :func:`vocabulary_text`; the JSON literals
    ``null``/``true``/``false`` and JSON punctuation; the fixture's strings outside free-text
    members (Tool Call IDs and arguments, ids, codes, the session id, the user's messages as
    scripted in ``prior_runs`` rows and the Run's own ``user_message``); and the observation's
    ids, digests, pointers, presented ids and numbers. A needle found inside it is no evidence of
    a leak.
    """
    words: list[str] = [vocabulary_text(), 'null true false {}[]:,"\\ ']
    _scripted_words({k: v for k, v in fixture.items() if k not in _NEVER_EMITTED}, words)
    _observed_words(
        {key: observation.get(key) for key in ("runs", "trace", "invocations", "client_frames")},
        words,
    )
    return "\n".join(words)
