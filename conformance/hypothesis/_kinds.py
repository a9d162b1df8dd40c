"""The red-team-6 kinds :func:`~conformance.hypothesis.scenario_fixtures` draws.

Shapes the pipeline of :mod:`conformance.hypothesis._fixtures` draws besides its own
(docs/decisions/open-world-7.md):

* :func:`respell`: a Tool Call ID in another spelling (letter case, a full-width character whose
  NFKC form is the id, padding), for a Knowledge Answer's lookup id or a draft's cited id;
* :func:`one_keyword_broken`: a near-valid document breaking exactly one keyword of its frozen
  contract, from :mod:`conformance.keywordbreaks` walking the drawn valid document;
* :func:`held_disconnect`: the client disconnect placed on the start of a model call whose
  scripted answer is held until the Run is cancelled (a Router, agent step, structural repair or
  SemanticGuard call in flight at the disconnect).
"""

from __future__ import annotations

import copy
import functools
import json
from typing import TYPE_CHECKING, Any, Final

from hypothesis import strategies as st

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

__all__ = [
    "HELD_PURPOSES",
    "RESPELLINGS",
    "held_disconnect",
    "one_keyword_broken",
    "respell",
    "respelled_answer",
    "respelled_draft",
]

RESPELLINGS: Final = ("case", "width", "padding")
"""How :func:`respell` changes an id: letter case, a full-width character, surrounding space."""

HELD_PURPOSES: Final = ("ROUTE", "AGENT_STEP", "STRUCTURAL_REPAIR", "SEMANTIC_REVIEW")
"""The model-call purposes (attempt-record ``ModelCallPurpose``) a held disconnect may target."""

_HELD: Final = "block_until_cancelled"


def respell(value: str, how: str, where: int = 0) -> str:
    """Return ``value`` spelled another way: ``how`` one of :data:`RESPELLINGS`.

    ``case`` swaps the case of every letter (an id without a letter is padded instead);
    ``width`` writes character ``where`` (modulo the length) in its full-width form, whose NFKC
    form is the character; ``padding`` adds a space before (``where`` even) or after the id.
    The result never equals ``value``.
    """
    if how == "case" and value.swapcase() != value:
        return value.swapcase()
    if how == "width":
        at = where % len(value)
        char = value[at]
        if "!" <= char <= "~":
            return value[:at] + chr(0xFF01 + ord(char) - 0x21) + value[at + 1 :]
    return f" {value}" if where % 2 == 0 else f"{value} "


def respelled_answer(draw: st.DrawFn, answer: dict[str, Any], how: str) -> dict[str, Any]:
    """Respell the lookup id of a valid Knowledge Answer: the lookup id, the references, or both."""
    respelled = copy.deepcopy(answer)
    lookup = str(respelled["lookup_tool_call_id"])
    other = respell(lookup, how, draw(st.integers(0, 3)))
    where = draw(st.sampled_from(["lookup", "references", "both"]))
    if where in {"lookup", "both"}:
        respelled["lookup_tool_call_id"] = other
    if where in {"references", "both"}:
        references = [r for item in respelled["items"] for r in item["references"]]
        for reference in draw(st.lists(st.sampled_from(references), min_size=1, unique_by=id)):
            reference["tool_call_id"] = other
    return respelled


def respelled_draft(draw: st.DrawFn, draft: dict[str, Any], how: str) -> dict[str, Any]:
    """Respell one Tool Call ID one analysis of a valid draft cites."""
    respelled = copy.deepcopy(draft)
    analysis = draw(st.sampled_from(respelled["analyses"]))
    ids = analysis["tool_call_ids"]
    at = draw(st.integers(0, len(ids) - 1))
    ids[at] = respell(str(ids[at]), how, draw(st.integers(0, 3)))
    return respelled


def one_keyword_broken(
    draw: st.DrawFn, contract: str, base: object, keyword: str | None
) -> object | None:
    """A document breaking one keyword of ``contract``, walked from the valid ``base``.

    ``keyword`` (when given) is preferred: ``"maxLength"``, or ``"maxLength:statement"`` for a
    break whose pointer ends in that member name. ``None`` when the walk finds no break (or
    ``base`` is not valid).
    """
    breaks = _breaks(contract, json.dumps(base, sort_keys=True))
    if keyword is not None:
        name, _, member = keyword.partition(":")
        wanted = tuple(
            b for b in breaks if b[0] == name and (not member or b[1].rsplit("/", 1)[-1] == member)
        )
        breaks = wanted or breaks
    if not breaks:
        return None
    document: object = copy.deepcopy(draw(st.sampled_from(breaks))[2])
    return document


@functools.lru_cache(maxsize=256)
def _breaks(contract: str, base: str) -> tuple[tuple[str, str, Any], ...]:
    from conformance.keywordbreaks import keyword_breaks  # noqa: PLC0415 - loads the schemas
    from contracts import loads_strict  # noqa: PLC0415

    try:
        found = keyword_breaks(contract, [loads_strict(base)])
    except ValueError:  # a base the contract rejects (drawn text past a bound): no break
        return ()
    # A lone-item break (an array written as its one item) is the outlines' alone: drawing it
    # here would change every drawn keyword break (docs/decisions/lone-items-11.md, "Left").
    return tuple((b.keyword, b.pointer, b.document) for b in found if not b.lone_item)


def _unwrap(turn: Mapping[str, Any]) -> Mapping[str, Any]:
    while turn.get("kind") == "ignore_cancellation":
        turn = turn["then"]
    return turn


def _first_held(turns: Sequence[Mapping[str, Any]], indexes: Sequence[int]) -> int | None:
    return next((i for i in indexes if _unwrap(turns[i]).get("kind") == _HELD), None)


def held_disconnect(fixture: Mapping[str, Any], purpose: str) -> dict[str, object] | None:
    """The ``client`` member disconnecting while a held call of ``purpose`` is in flight.

    The disconnect is on the ``MODEL_CALL_STARTED`` of that call: the Router's, the agent's, the
    SemanticGuard's attempts start in script order (every Router and agent turn of a drawn
    fixture is consumed before the next component's). ``None`` when the script holds no held
    call of that purpose.
    """
    router, agent = list(fixture["router"]), list(fixture["agent"])
    tools = [i for i, t in enumerate(agent) if t.get("kind") == "tool_calls"]
    submission = next((i for i in range(len(agent)) if i not in tools), None)
    position: int | None = None
    if purpose == "ROUTE":
        position = _first_held(router, range(len(router)))
    elif purpose == "AGENT_STEP" and submission is not None:
        index = _first_held(agent, [submission])
        position = None if index is None else len(router) + index
    elif purpose == "STRUCTURAL_REPAIR" and submission is not None:
        repair = [submission + 1] if submission + 1 < len(agent) else []
        index = _first_held(agent, repair)
        position = None if index is None else len(router) + index
    elif purpose == "SEMANTIC_REVIEW":
        reviews = list(fixture["semantic_guard"])
        index = _first_held(reviews, range(len(reviews)))
        position = None if index is None else len(router) + len(agent) + index
    if position is None:
        return None
    return {"disconnect_on": {"event_type": "MODEL_CALL_STARTED", "occurrence": position + 1}}
