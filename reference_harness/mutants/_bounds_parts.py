"""Broken parts for the wrong-case and bounds mutants.

A third red team's faulty harnesses passed the default ``srdh run`` with these faults before the
extension rows of features 03, 04, 06 and 09 existed (docs/decisions/wrong-case-and-bounds-rows.md).
Each part is the smallest wrong harness of one kind, passing every row written before those (the
lower-case rows included):

* the Router's JSON answer ``{"intent": X}`` read with ``X`` upper-cased (``"diagnosis"`` taken
  as DIAGNOSIS), while a bare word is still compared exactly;
* a closed value looked up by the enum member's name as well as by its value, the members named
  in CamelCase (``Verdict.Supported = "SUPPORTED"``): ``"Supported"``, ``"Inference"``,
  ``"Medium"`` are accepted, ``"supported"`` or ``"high"`` are not;
* every bound of the QueryScope grammar checked exclusively (``<`` for ``<=``): a target of
  exactly 256 characters, a query of exactly 1,024, an empty query or a one-instant time range
  refused as INVALID_ARGUMENTS;
* a Diagnosis Draft's texts checked as Java strings (``@NotBlank @Size(max = 4000)``): 4,000
  astral characters count 8,000 UTF-16 code units, a whitespace-only text is blank, and the
  draft is rejected SCHEMA_INVALID;
* a Diagnosis Draft's text bounds checked exclusively (``1 < len(text) < 4000``);
* the NO_EVIDENCE kind rule applied to an analysis only when every result it cites is
  NO_EVIDENCE (an OBSERVATION citing a found result beside a NO_EVIDENCE one passes).

:mod:`reference_harness.mutants._bounds_specs` combines each with the reference Harness.
"""

from __future__ import annotations

import copy
import re
from typing import TYPE_CHECKING, Any, Final

from contracts import loads_strict
from reference_harness.guards import Violation
from reference_harness.guards._violations import rejected

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = [
    "exclusive_argument_bounds",
    "exclusive_text_bounds",
    "java_string_text",
    "json_intent_upper_cased",
    "member_named_draft",
    "member_named_verdict",
    "mixed_citation_forgiven",
    "refusing_texts",
    "scope_members_only",
    "utf16_argument_lengths",
]

Json = Any

_INTENTS: Final = frozenset({"DIAGNOSIS", "KNOWLEDGE_QUERY"})
_VERDICTS: Final = frozenset({"SUPPORTED", "UNSUPPORTED"})
_KINDS: Final = frozenset({"OBSERVATION", "NEGATIVE_OBSERVATION", "INFERENCE"})
_CONFIDENCES: Final = frozenset({"LOW", "MEDIUM", "HIGH"})
_MAX_TEXT: Final = 4000
_MAX_TARGET: Final = 256
_MAX_QUERY: Final = 1024
_ANALYSIS: Final = re.compile(r"^/analyses/(\d+)(?:/|$)")


# --------------------------------------------------------------------------- Router


def json_intent_upper_cased(original: Callable[[object], Any]) -> Callable[[object], Any]:
    """Wrap the Router answer check: a JSON answer ``{"intent": X}`` is read as ``X.upper()``.

    What an OpenAI-compatible Harness does when it parses the model's JSON and maps the member
    with ``Intent.valueOf(x.toUpperCase())``; a bare word (``diagnosis``) is still compared
    exactly, so the lower-case row does not reach the fault.
    """
    from reference_harness.ports import RouterAnswer  # noqa: PLC0415 - the class at run time

    def check(answer: object) -> Any:  # noqa: ANN401 - an intent or None
        if isinstance(answer, RouterAnswer) and isinstance(answer.content, str):
            try:
                value = loads_strict(answer.content)
            except ValueError:
                value = None
            if isinstance(value, dict) and set(value) == {"intent"}:
                intent = value["intent"]
                if isinstance(intent, str) and intent.upper() in _INTENTS:
                    answer = RouterAnswer(intent.upper())
        return original(answer)

    return check


# --------------------------------------------------------------------------- enum member names


def _member_name(value: str) -> str:
    """The CamelCase member name of a closed value (NEGATIVE_OBSERVATION: NegativeObservation)."""
    return "".join(word.capitalize() for word in value.split("_"))


def by_member_name(value: Json, allowed: frozenset[str]) -> Json:
    """``value`` read as ``Enum(value)`` falling back to ``Enum[value]`` would read it.

    The closed value whose CamelCase member name ``value`` is, else ``value`` unchanged.
    """
    if isinstance(value, str) and value not in allowed:
        for closed in allowed:
            if _member_name(closed) == value:
                return closed
    return value


def member_named_verdict(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``parse_verdict``: a verdict written as its member name (``"Supported"``) is taken."""

    def parse(raw: object, **kwargs: Any) -> Any:  # noqa: ANN401 - a SemanticVerdict or None
        value: object = raw
        if isinstance(raw, str):
            try:
                value = loads_strict(raw)
            except ValueError:
                return original(raw, **kwargs)
        if isinstance(value, dict) and "verdict" in value:
            value = {**value, "verdict": by_member_name(value["verdict"], _VERDICTS)}
        return original(value, **kwargs)

    return parse


def _member_named_document(document: Json) -> Json:
    """A copy of ``document`` with each Analysis kind and the confidence read by member name."""
    if not isinstance(document, dict):
        return document
    read = copy.deepcopy(document)
    analyses = read.get("analyses")
    for analysis in analyses if isinstance(analyses, list) else []:
        if isinstance(analysis, dict) and "kind" in analysis:
            analysis["kind"] = by_member_name(analysis["kind"], _KINDS)
    conclusion = read.get("conclusion")
    if isinstance(conclusion, dict) and "confidence" in conclusion:
        conclusion["confidence"] = by_member_name(conclusion["confidence"], _CONFIDENCES)
    return read


def member_named_draft(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``check_draft``: the draft's closed values are read by member name first.

    Before validation, ``"Inference"`` becomes INFERENCE and ``"Medium"`` MEDIUM.
    """

    def check(document: object, **kwargs: Any) -> Any:  # noqa: ANN401 - a GuardVerdict
        return original(_member_named_document(document), **kwargs)

    return check


# --------------------------------------------------------------------------- bounds


def exclusive_argument_bounds(original: Callable[[object], bool]) -> Callable[[object], bool]:
    """Wrap ``valid_arguments``: every bound of the QueryScope grammar is checked exclusively.

    ``1 < len(target) < 256``, ``0 < len(query) < 1024`` and ``start_ms < end_ms``: each ``<=``
    or ``>=`` of the grammar (``minLength``, ``maxLength``, ``end_ms >= start_ms``) written as a
    strict comparison, so a value at a bound is refused as INVALID_ARGUMENTS.
    """

    def valid_arguments(arguments: object) -> bool:
        if not original(arguments) or not isinstance(arguments, dict):
            return False
        window = arguments["time_range"]
        return (
            1 < len(arguments["target"]) < _MAX_TARGET
            and 0 < len(arguments["query"]) < _MAX_QUERY
            and window["start_ms"] < window["end_ms"]
        )

    return valid_arguments


def utf16_argument_lengths(original: Callable[[object], bool]) -> Callable[[object], bool]:
    """Wrap ``valid_arguments``: the target and the query are measured in UTF-16 code units.

    What a Java Harness does with ``String.length()``: a target of 256 astral characters counts
    512 units and is refused as INVALID_ARGUMENTS, though the QueryScope grammar (JSON Schema
    ``maxLength``, counting characters) allows 1..256 characters of target and 0..1,024 of query.
    (A fifth red team's ``args_utf16_length``, docs/decisions/red-team-5.md.)
    """

    def valid_arguments(arguments: object) -> bool:
        if not original(arguments) or not isinstance(arguments, dict):
            return False
        return (
            _utf16_length(arguments["target"]) <= _MAX_TARGET
            and _utf16_length(arguments["query"]) <= _MAX_QUERY
        )

    return valid_arguments


def scope_members_only(original: Callable[[object], Any]) -> Callable[[object], Any]:
    """Wrap ``recorded_arguments``: only the QueryScope's members of arguments are recorded.

    Arguments with a target and a time range keep ``target``, ``time_range`` and ``query``.

    What a Harness does when it records the arguments it parsed into a typed scope rather than
    the object presented: an extra member (``"limit": 50``) is dropped from the recorded
    ToolInvocation, against "kept as presented so that INVALID_ARGUMENTS can be recorded" (a
    fifth red team's ``arguments_normalized``, docs/decisions/red-team-5.md).
    """

    def recorded_arguments(arguments: object) -> Any:  # noqa: ANN401 - the recorded object
        kept = original(arguments)
        if isinstance(kept, dict) and "target" in kept and "time_range" in kept:
            return {k: v for k, v in kept.items() if k in {"target", "time_range", "query"}}
        return kept

    return recorded_arguments


def _texts(document: Json) -> list[tuple[str, str]]:
    """The summary and the statements of a draft, with their pointers."""
    if not isinstance(document, dict):
        return []
    found: list[tuple[str, str]] = []
    conclusion = document.get("conclusion")
    summary = conclusion.get("summary") if isinstance(conclusion, dict) else None
    if isinstance(summary, str):
        found.append(("/conclusion/summary", summary))
    analyses = document.get("analyses")
    for index, analysis in enumerate(analyses if isinstance(analyses, list) else []):
        statement = analysis.get("statement") if isinstance(analysis, dict) else None
        if isinstance(statement, str):
            found.append((f"/analyses/{index}/statement", statement))
    return found


def refusing_texts(refused: Callable[[str], bool]) -> Callable[[Callable[..., Any]], Any]:
    """A ``check_draft`` wrap: a draft passing it is still rejected where ``refused`` says.

    SCHEMA_INVALID at each summary or statement ``refused`` picks.
    """

    def wrap(original: Callable[..., Any]) -> Callable[..., Any]:
        def check(document: object, **kwargs: Any) -> Any:  # noqa: ANN401 - a GuardVerdict
            verdict = original(document, **kwargs)
            picked = [at for at, text in _texts(document) if refused(text)]
            if not verdict.valid or not picked:
                return verdict
            return rejected([Violation("SCHEMA_INVALID", at) for at in picked])

        return check

    return wrap


def _utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def java_string_text(text: str) -> bool:
    """Whether ``@NotBlank @Size(max = 4000)`` on a Java ``String`` refuses ``text``.

    ``String.length()`` counts UTF-16 code units (an astral character counts 2) and
    ``@NotBlank`` refuses a text of whitespace only; the schema's ``maxLength`` counts characters
    and ``minLength: 1`` allows whitespace.
    """
    return _utf16_length(text) > _MAX_TEXT or not text.strip()


def exclusive_text_bounds(text: str) -> bool:
    """Whether ``1 < len(text) < 4000`` refuses ``text``: ``minLength``/``maxLength`` exclusive."""
    return not 1 < len(text) < _MAX_TEXT


# --------------------------------------------------------------------------- citations


def mixed_citation_forgiven(
    violation: dict[str, str], document: Json, invocations: Mapping[str, Any]
) -> bool:
    """NO_EVIDENCE_NOT_NEGATIVE is dropped when the analysis also cites an EVIDENCE_FOUND result.

    The kind rule checked for the analysis as a whole ("is all it cites NO_EVIDENCE?"), not per
    cited result.
    """
    match = _ANALYSIS.match(violation["pointer"])
    analyses = document.get("analyses") if isinstance(document, dict) else None
    if violation["code"] != "NO_EVIDENCE_NOT_NEGATIVE" or match is None:
        return False
    if not isinstance(analyses, list) or int(match.group(1)) >= len(analyses):
        return False
    analysis = analyses[int(match.group(1))]
    cited = analysis.get("tool_call_ids") if isinstance(analysis, dict) else None
    return any(
        getattr(invocations.get(c), "evidence_status", None) == "EVIDENCE_FOUND"
        for c in (cited if isinstance(cited, list) else [])
        if isinstance(c, str)
    )
