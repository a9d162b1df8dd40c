"""The plain-words vocabulary of Given steps: what the agent writes, and presented Tool Call IDs."""

from __future__ import annotations

import re
from collections.abc import Callable

from conformance.builders import ABSENT, FixtureBuilder, analysis, knowledge_answer
from conformance.keywordbreaks import LONE_ITEM, base_documents, break_at
from contracts import StrictJSONError, loads_strict

__all__ = ["StepVocabularyError", "document_for", "presented_id", "quoted"]

_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')
_LONG_ID = re.compile(r'a (\d+)-character ID(?: ending "([A-Za-z0-9._:-]+)")?')
_RANGE = re.compile(r'"([^"\\]*?)(\d+)" through "\1(\d+)"')
"""``"call_1" through "call_30"``: the ids of one prefix numbered from the first to the last."""


class StepVocabularyError(ValueError):
    """A Given step used words the vocabulary does not know; the message lists what it knows."""


def _expand(match: re.Match[str]) -> str:
    prefix, first, last = match.group(1), int(match.group(2)), int(match.group(3))
    if last < first:
        message = f"{match.group(0)!r}: the last number is smaller than the first"
        raise StepVocabularyError(message)
    return ", ".join(f'"{prefix}{n}"' for n in range(first, last + 1))


def quoted(text: str) -> list[str]:
    """Return the JSON string literals in ``text`` (``"a" and "b"`` → ``["a", "b"]``).

    A range ``"call_1" through "call_30"`` (one prefix, increasing numbers) stands for every id
    from the first to the last: long lists with a defect late (docs/decisions/red-team-8.md).

    Raises:
        StepVocabularyError: a range whose last number is smaller than its first.
    """
    text = _RANGE.sub(_expand, text)
    return [loads_strict(f'"{raw}"') for raw in _QUOTED.findall(text)]


def presented_id(text: str) -> object:
    r"""Return the presented Tool Call ID written as ``text``.

    ``absent`` is a missing key, ``a 300-character ID`` a too-long valid-looking id (``a``
    repeated), ``a 128-character ID ending "b"`` one of that length ending in ``b`` (two such ids
    share every character before their endings), anything else a JSON literal (``""``, ``null``,
    ``"call\u0000x"``).

    Raises:
        StepVocabularyError: ``text`` is none of these.
    """
    text = text.strip()
    if text == "absent":
        return ABSENT
    if match := _LONG_ID.fullmatch(text):
        ending = match.group(2) or ""
        return "a" * (int(match.group(1)) - len(ending)) + ending
    try:
        return loads_strict(text)
    except StrictJSONError as error:
        message = f"a Tool Call ID must be 'absent', 'a N-character ID' or JSON, got {text!r}"
        raise StepVocabularyError(message) from error


_LISTS: dict[str, tuple[str, str]] = {
    "conclusion": ("conclusion", "analysis_ids"),
    "analysis": ("analyses", "tool_call_ids"),
    "action": ("action_plan", "analysis_ids"),
    "recommendation": ("recommendations", "analysis_ids"),
    "limitation": ("limitations", "tool_call_ids"),
}
"""The id lists of a draft by the word a row names them with: the member, its id list."""


def _lone_id_list(builder: FixtureBuilder, call_id: str, where: str) -> dict[str, object]:
    """A draft observing ``call_id`` whose ``where`` id list is its one id, bare.

    The draft is also limited by ``call_id``; the list is written as a string instead of an array
    (red team 9: a Harness wrapping it into a one-element list).
    """
    draft = builder.observing_draft([call_id], limited=[call_id])
    member, ids = _LISTS[where]
    holder = draft[member]
    entry = holder if isinstance(holder, dict) else holder[0]  # type: ignore[index]
    assert isinstance(entry, dict)  # noqa: S101 - the builder's own shape
    (only,) = entry[ids]
    entry[ids] = only
    return draft


def _lone_entry_answer(
    builder: FixtureBuilder, lookup_id: str, document_ids: list[str], where: str
) -> dict[str, object]:
    """An answer citing ``document_ids`` whose ``where`` list is its one entry, bare.

    ``items`` (the answer's one item), ``references`` (its item's one reference) or
    ``limitations`` (one limitation) is written as that object instead of an array (red team 9:
    a Harness wrapping a lone entry into a list).
    """
    answer = builder.answer(lookup_id, document_ids[:1])
    answer["limitations"] = [{"text": "The documents cover the current API version only."}]
    holder = answer["items"][0] if where == "references" else answer  # type: ignore[index]
    assert isinstance(holder, dict)  # noqa: S101 - the builder's own shape
    entries = holder[where]
    assert isinstance(entries, list)  # noqa: S101 - the builder's own shape
    (only,) = entries
    holder[where] = only
    return answer


def _analysis_id(text: str) -> str:
    """The analysis ID written as ``text``: a JSON string or ``a N-character ID`` (red team 9).

    Raises:
        StepVocabularyError: ``text`` is neither.
    """
    value = presented_id(text)
    if not isinstance(value, str):
        message = f"an analysis ID must be a JSON string or 'a N-character ID', got {text!r}"
        raise StepVocabularyError(message)
    return value


def _with_unnamed_analysis(
    builder: FixtureBuilder, call_id: str, analysis_id: str
) -> dict[str, object]:
    """A draft observing ``call_id`` plus an OBSERVATION ``analysis_id`` no other member names.

    Only the analysis ID's own grammar can reject it: no conclusion, plan or recommendation
    refers to it (red team 9: a Harness checking the id's type only, whose references' grammar
    check hid the fault when the id was named).
    """
    draft = builder.observing_draft([call_id])
    analyses = draft["analyses"]
    assert isinstance(analyses, list)  # noqa: S101 - the builder's own shape
    analyses.append(analysis(analysis_id, "OBSERVATION", [call_id]))
    return draft


_WIDENINGS = {
    "every service": "target",
    "a whole day": "time",
    "any query": "query",
    "another tool": "tool",
    "an earlier start": "start",
    "a millisecond earlier start": "start-ms",
    "a millisecond later end": "end-ms",
    "the target in another case": "case",
}


def _widening(words: str) -> list[str]:
    """Return the scope parts the words name (the keys of ``_WIDENINGS``, e.g. ``any query``).

    Raises:
        StepVocabularyError: ``words`` name none of them, or something else.
    """
    parts = [p.strip() for p in re.split(r",| and ", words) if p.strip()]
    unknown = [p for p in parts if p not in _WIDENINGS]
    if unknown or not parts:
        message = f"cannot widen a scope to {words!r}; say {' / '.join(_WIDENINGS)}"
        raise StepVocabularyError(message)
    return [_WIDENINGS[p] for p in parts]


def _unbound(
    document: dict[str, object], array: str, binding: str, *, absent: bool
) -> dict[str, object]:
    """``document`` with each entry of ``array`` bound to nothing: ``binding`` empty or absent."""
    entries = document[array]
    assert isinstance(entries, list)  # noqa: S101 - the builders' documents
    for entry in entries:
        if absent:
            entry.pop(binding, None)
        else:
            entry[binding] = []
    return document


_BOUND_TEXT = re.compile(r"(\d+) (astral )?characters? long|only whitespace()")


def _bound_text(words: str) -> str:
    """Return the draft text ``words`` describe, at a bound of its schema.

    ``N characters long``, ``N astral characters long`` (code points beyond U+FFFF: one
    character each for JSON Schema's ``maxLength``) or ``only whitespace`` (spaces, a tab and a
    newline: ``minLength: 1`` holds).

    Raises:
        StepVocabularyError: other words.
    """
    match = _BOUND_TEXT.fullmatch(words.strip())
    if match is None:
        message = (
            f"unknown text {words!r}; say 'N characters long', 'N astral characters long' "
            "or 'only whitespace'"
        )
        raise StepVocabularyError(message)
    if match.group(3) is not None:
        return " \t\n "
    count = int(match.group(1))
    return "\U0001f50d" * count if match.group(2) else ("checkout fails " * count)[:count]


def _broken_draft(builder: FixtureBuilder, groups: list[str]) -> dict[str, object]:
    """The full draft observing ``groups[0]``, denying ``groups[1]``, broken at one keyword.

    ``groups[2]`` is the keyword, ``groups[3]`` the quoted pointer of a row of
    :func:`conformance.keywordbreaks.keyword_breaks` (the rows are generated and checked by
    tests/conformance/test_conf_keyword_breaks.py), ``groups[4]`` the cell's
    :data:`~conformance.keywordbreaks.LONE_ITEM` suffix when it writes the array as its one item.

    Raises:
        StepVocabularyError: the schema has no such break (a stale row).
    """
    observed, denied = quoted(groups[0])[0], quoted(groups[1])[0]
    scopes = {"call_1": builder.scope_of(observed), "call_2": builder.scope_of(denied)}
    base = base_documents("diagnosis-draft", scopes)
    try:
        document: dict[str, object] = break_at(
            "diagnosis-draft", base, groups[2], quoted(groups[3])[0], lone_item=bool(groups[4])
        )
    except KeyError as error:
        raise StepVocabularyError(str(error)) from error
    return document


def _broken_answer(_builder: FixtureBuilder, groups: list[str]) -> dict[str, object]:
    """The full Knowledge Answer citing ``d1`` of ``groups[0]``, broken at one keyword.

    The base names the lookup ``lookup_1`` (:func:`conformance.keywordbreaks.base_documents`);
    ``groups[1]`` is the keyword, ``groups[2]`` the quoted pointer of a generated row, ``groups[3]``
    its lone-item suffix (when present).

    Raises:
        StepVocabularyError: another lookup id, or the schema has no such break (a stale row).
    """
    lookup = quoted(groups[0])[0]
    base = base_documents("knowledge-answer", {})
    if lookup != base[0]["lookup_tool_call_id"]:
        message = f'a full answer is on "lookup_1", not {lookup!r}'
        raise StepVocabularyError(message)
    try:
        document: dict[str, object] = break_at(
            "knowledge-answer", base, groups[1], quoted(groups[2])[0], lone_item=bool(groups[3])
        )
    except KeyError as error:
        raise StepVocabularyError(str(error)) from error
    return document


_Shape = Callable[[FixtureBuilder, list[str]], dict[str, object]]
_LONE = re.escape(LONE_ITEM)


def _items_citing(
    builder: FixtureBuilder, lookup_id: str, item_ids: list[str], document_ids: list[str]
) -> dict[str, object]:
    """An answer whose items ``item_ids`` each cite the document of the same position.

    Raises:
        StepVocabularyError: the step names more items than documents, or fewer.
    """
    if len(item_ids) != len(document_ids):
        message = f"{len(item_ids)} item IDs for {len(document_ids)} documents: name one each"
        raise StepVocabularyError(message)
    return builder.answer_with_item_ids(lookup_id, item_ids, document_ids)


_SHAPES: list[tuple[re.Pattern[str], _Shape]] = [
    (
        re.compile(rf'a full draft on (".+") and (".+") breaking (\w+) at (".*")({_LONE})?'),
        _broken_draft,
    ),
    (re.compile(rf'a full answer on (".+") breaking (\w+) at (".*")({_LONE})?'), _broken_answer),
    (
        re.compile(
            r'an answer citing the documents (".+") from (".+") whose '
            r"(items|references|limitations) list is written as its one entry"
        ),
        lambda b, g: _lone_entry_answer(b, quoted(g[1])[0], quoted(g[0]), g[2]),
    ),
    (
        re.compile(
            r'a draft observing (".+") whose '
            r"(conclusion|analysis|action|recommendation|limitation) list is written as its one ID"
        ),
        lambda b, g: _lone_id_list(b, quoted(g[0])[0], g[1]),
    ),
    (
        re.compile(
            r'a draft observing (".+") beside an analysis named by nothing whose ID is '
            r'(".*"|a \d+-character ID)'
        ),
        lambda b, g: _with_unnamed_analysis(b, quoted(g[0])[0], _analysis_id(g[1])),
    ),
    (
        re.compile(r'a draft with one analysis observing each of (".+")'),
        lambda b, g: b.per_call_draft(quoted(g[0])),
    ),
    (
        re.compile(
            r'a draft with a NEGATIVE_OBSERVATION on (".+") within the query scope of (".+")'
        ),
        lambda b, g: b.negative_over(quoted(g[0]), quoted(g[1])[0]),
    ),
    (
        re.compile(r'a draft observing (".+") whose conclusion also names (".+")'),
        lambda b, g: b.naming_unknown_analysis(quoted(g[0])[0], quoted(g[1])[0]),
    ),
    (
        re.compile(r'a draft observing (".+") whose action plan also names (".+")'),
        lambda b, g: b.naming_unknown_analysis(quoted(g[0])[0], quoted(g[1])[0], "action_plan"),
    ),
    (
        re.compile(r'a draft observing (".+") whose recommendation also names (".+")'),
        lambda b, g: b.naming_unknown_analysis(quoted(g[0])[0], quoted(g[1])[0], "recommendations"),
    ),
    (
        re.compile(r'a draft observing (".+") whose texts are padded with whitespace'),
        lambda b, g: b.padded_draft(quoted(g[0])[0]),
    ),
    (
        re.compile(
            r'a draft observing (".+") with an extra (".+") member '
            r"(at its top level|in its first analysis)"
        ),
        lambda b, g: b.draft_with_member(
            quoted(g[0])[0], quoted(g[1])[0], in_analysis=g[2] == "in its first analysis"
        ),
    ),
    (
        re.compile(r'an answer whose one item cites the documents (".+") from (".+")'),
        lambda b, g: b.answer_item_citing(quoted(g[1])[0], quoted(g[0])),
    ),
    (
        re.compile(r'a draft inferring from (".+") only'),
        lambda b, g: b.inferring_draft(quoted(g[0])[0]),
    ),
    (
        re.compile(r'a draft observing (".+") with (".+") as a limitation'),
        lambda b, g: b.observing_draft(quoted(g[0]), limited=quoted(g[1])),
    ),
    (
        re.compile(r'a draft observing (".+") whose limitation lacks the tool_call_ids field'),
        lambda b, g: _unbound(
            b.observing_draft(quoted(g[0]), limited=quoted(g[0])),
            "limitations",
            "tool_call_ids",
            absent=True,
        ),
    ),
    (
        re.compile(r'a draft observing (".+") whose (analysis kind|confidence) is written (".*")'),
        lambda b, g: b.draft_with_value(
            quoted(g[0])[0], "kind" if g[1] == "analysis kind" else "confidence", quoted(g[2])[0]
        ),
    ),
    (
        re.compile(r'a draft observing (".+") whose (summary|statement) is (.+)'),
        lambda b, g: b.draft_with_value(quoted(g[0])[0], g[1], _bound_text(g[2])),
    ),
    (
        re.compile(r'a draft observing (".+") beside an inference without Tool Call IDs()'),
        lambda b, g: b.draft_with_unbound_entry(quoted(g[0])[0], "analyses"),
    ),
    (
        re.compile(r'a draft observing (".+") whose action plan has an entry naming no analysis()'),
        lambda b, g: b.draft_with_unbound_entry(quoted(g[0])[0], "action_plan"),
    ),
    (
        re.compile(
            r'an answer citing the documents (".+") from (".+") and an item without references'
        ),
        lambda b, g: b.answer_with_unbound_item(quoted(g[1])[0], quoted(g[0])),
    ),
    (
        re.compile(r'an answer citing the documents (".+") from (".+") under one item ID()'),
        lambda b, g: b.answer_under_one_item_id(quoted(g[1])[0], quoted(g[0])),
    ),
    (re.compile(r'a draft observing (".+")'), lambda b, g: b.observing_draft(quoted(g[0]))),
    (
        re.compile(r'a draft with a NEGATIVE_OBSERVATION on (".+") within its query scope'),
        lambda b, g: b.negative_draft(quoted(g[0])[0]),
    ),
    (
        re.compile(r'a draft with a NEGATIVE_OBSERVATION on (".+") widened to (.+)'),
        lambda b, g: b.negative_draft(quoted(g[0])[0], widen=_widening(g[1])),
    ),
    (
        re.compile(r'a draft with a NEGATIVE_OBSERVATION on (".+") narrowed to one instant'),
        lambda b, g: b.negative_draft(quoted(g[0])[0], instant=True),
    ),
    (
        re.compile(r'a draft with three analyses citing (".+")'),
        lambda b, g: b.three_analyses_draft(quoted(g[0])),
    ),
    (re.compile(r"a draft whose analyses have no Tool Call IDs()"), lambda b, _: b.unbound_draft()),
    (
        re.compile(r"a draft whose analyses lack the tool_call_ids field()"),
        lambda b, _: _unbound(b.unbound_draft(), "analyses", "tool_call_ids", absent=True),
    ),
    (
        re.compile(
            r'an answer from (".+") whose item (has no references|lacks the references field)'
        ),
        lambda b, g: _unbound(
            b.answer(quoted(g[0])[0], ["d1"]),
            "items",
            "references",
            absent=g[1] != "has no references",
        ),
    ),
    (
        re.compile(r'a draft whose analyses (".+") each observe (".+")'),
        lambda b, g: b.analyses_draft(quoted(g[0]), quoted(g[1])[0]),
    ),
    (
        re.compile(r'a draft repeating the analysis ID (".+") for (".+")'),
        lambda b, g: b.duplicate_analysis_draft(quoted(g[0])[0], quoted(g[1])[0]),
    ),
    (
        re.compile(
            r'an answer naming (".+") whose references cite the documents (".+") from (".+")'
        ),
        lambda b, g: b.answer_naming(quoted(g[0])[0], quoted(g[2])[0], quoted(g[1])),
    ),
    (
        re.compile(r'an answer whose one item cites the documents (".+") from (".+")'),
        lambda b, g: b.answer_one_item(quoted(g[1])[0], quoted(g[0])),
    ),
    (
        re.compile(r'an answer whose items (".+") cite the documents (".+") from (".+")'),
        lambda b, g: _items_citing(b, quoted(g[2])[0], quoted(g[0]), quoted(g[1])),
    ),
    (
        re.compile(r'an answer citing the documents (".+") from (".+")'),
        lambda b, g: b.answer(quoted(g[1])[0], quoted(g[0])),
    ),
    (
        re.compile(r'an answer with zero items from (".+")'),
        lambda b, g: b.answer(quoted(g[0])[0], []),
    ),
    (
        re.compile(r'an answer with zero items and the limitation (".+") from (".+")'),
        lambda _b, g: knowledge_answer(quoted(g[1])[0], [], quoted(g[0])),
    ),
]


def document_for(builder: FixtureBuilder, words: str) -> dict[str, object]:
    """Return the draft or answer described by ``words`` (e.g. ``a draft observing "call_1"``).

    Raises:
        StepVocabularyError: ``words`` match no known shape.
    """
    for pattern, build in _SHAPES:
        if match := pattern.fullmatch(words.strip()):
            return build(builder, list(match.groups()))
    known = "; ".join(p.pattern for p, _ in _SHAPES)
    message = f"unknown draft or answer {words!r}; known shapes: {known}"
    raise StepVocabularyError(message)
