"""The expected outcome of a fixture's Run, computed from the fixture and the spec rules alone.

Nothing here reads an implementation's output. From a Scenario Fixture this module derives:

* the **invocation table**: for each accepted call (Tool Call ID classification as in
  :func:`~conformance.checks._oracle.expected_identity`), its invocation status, evidence status,
  error code and bounded projection (items cut to ``max_items`` and ``max_item_chars``,
  ``total_matched``, ``truncated``, lookup ``document_ids``), from the scripted backend result;
* the **EvidenceGuard verdict** of each submission (DESIGN section 4): valid or not, and the
  violations a conforming guard must report, each as alternative codes at alternative JSON
  pointers (the spec fixes the rule and where it is broken, not one wording of it);
* the **release outcome**: whether a structural repair is requested, whether it failed because
  the answer called tools, and the terminal state, fallback type and released document.

Where the spec and the contract sheet leave a result open (a cancelled Run, a tool that times
out, arguments the Harness may refuse, raw text that happens to be JSON, a reviewer answer that
needs a retry), the oracle says "undetermined" (``None``) and the checks judge nothing there: they
are exactly as strict as the spec and no stricter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Final

from conformance.checks._oracle import PresentedCall, expected_identity
from contracts import loads_strict

__all__ = [
    "ExpectedInvocation",
    "ExpectedOutcome",
    "ExpectedProjection",
    "ExpectedVerdict",
    "ExpectedViolation",
    "cited_tool_call_ids",
    "expected_outcome",
    "expected_verdict",
]

LOOKUP_TOOL: Final = "lookup_documents"
_ID: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]*")
_MAX_ID: Final = 128
_DEFAULT_LIMITS: Final = {"max_steps": 8, "max_items": 20, "max_item_chars": 2000}
_CANCELLING_TURNS: Final = frozenset({"block_until_cancelled", "ignore_cancellation"})
_READY: Final = "READY"
_ERROR: Final = "ERROR"
_FOUND: Final = "EVIDENCE_FOUND"
_EMPTY: Final = "NO_EVIDENCE"
_NEGATIVE: Final = "NEGATIVE_OBSERVATION"


@dataclass(frozen=True, slots=True)
class ExpectedProjection:
    """The bounded projection a conforming Harness builds from one scripted backend result.

    ``texts``/``document_ids``/``total_matched``/``truncated`` are ``None`` when the fixture does
    not fix them (an ``oversize`` payload fixes only the bounds). ``max_items`` and
    ``max_item_chars`` are the fixture's limits, which every projection must keep.
    ``item_document_ids`` is the document id of each kept row, in the rows' order (a lookup's
    item is "Id of the document this item comes from"), ``None`` when not fixed or not a lookup;
    ``document_ids`` is a set: the contract lists the items' ids, unique, in no stated order.
    """

    query_scope: dict[str, Any]
    texts: tuple[str, ...] | None
    document_ids: frozenset[str] | None
    total_matched: int | None
    truncated: bool | None
    max_items: int
    max_item_chars: int
    must_truncate: bool = False
    item_document_ids: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class ExpectedInvocation:
    """What the canonical invocation of one accepted call must end as.

    ``status``/``evidence_status``/``error_code`` are ``None`` when undetermined; ``projection``
    is set iff the invocation must end ``READY``.
    """

    call: PresentedCall
    sequence: int
    status: str | None
    evidence_status: str | None
    error_code: str | None
    projection: ExpectedProjection | None

    @property
    def tool_call_id(self) -> str:
        """The accepted Tool Call ID."""
        return str(self.call.value)

    @property
    def determined(self) -> bool:
        """Whether the terminal (status, evidence status) pair is fixed by the fixture."""
        return self.status is not None and self.evidence_status is not None


@dataclass(frozen=True, slots=True)
class ExpectedViolation:
    """One rule a submission breaks, as a conforming guard must report it.

    A code of ``codes`` at a pointer of ``pointers`` (RFC 6901 into the submitted document).
    """

    codes: frozenset[str]
    pointers: frozenset[str]
    why: str

    def met_by(self, violations: list[dict[str, Any]]) -> bool:
        """Return whether one of ``violations`` (``{code, pointer}``) reports this rule."""
        return any(
            v.get("code") in self.codes and v.get("pointer") in self.pointers for v in violations
        )


@dataclass(frozen=True, slots=True)
class ExpectedVerdict:
    """EvidenceGuard's verdict on submission ``attempt`` (1 first, 2 the structural repair).

    ``valid`` is ``None`` when undetermined. ``required`` lists the rules a rejection must report
    (empty for a document the contract schema already rejects: any structural code will do).
    ``by_tool_calls``: the repair answer called tools instead of submitting (a failed repair).
    ``stricter``: a rejection the spec's words also allow in place of this verdict: a Knowledge
    Answer in a Run that holds more than one lookup call may be rejected with
    ``LOOKUP_CALL_COUNT`` at ``/lookup_tool_call_id`` by a Harness reading "the single lookup Tool
    Call" as "the Run made exactly one lookup call", whether or not the answer is otherwise
    valid (implementers guide, "Where two answers fit"). A verdict with ``stricter`` fixes
    nothing after it (repair, release).
    """

    attempt: int
    valid: bool | None
    required: tuple[ExpectedViolation, ...] = ()
    by_tool_calls: bool = False
    kind: str = "draft"
    document: Any = None
    stricter: ExpectedViolation | None = None


@dataclass(frozen=True)
class ExpectedOutcome:
    """Everything the fixture fixes about a Run's evidence and release.

    Attributes:
        complete: no cancellation, timeout or budget makes the Run stop early: every accepted call
            must have its invocation, and the verdicts and release below apply.
        invocations: the expected invocations, in acceptance order.
        rejected: the presented calls that must be rejected, with their reason.
        verdicts: the expected EvidenceGuard verdicts, by submission (empty when undetermined).
        repair_requested: whether a structural repair must be requested (``None``: undetermined).
        state / fallback_type: the terminal state and fallback type (``None``: undetermined).
        released: the document that must be released on SUCCESS (the agent's own submission).
        validated: the submission EvidenceGuard must accept (the one reviewed, whose cited READY
            invocations a semantic fallback lists as verified sources); ``None``: none, or
            undetermined.
    """

    complete: bool
    invocations: tuple[ExpectedInvocation, ...]
    rejected: tuple[tuple[PresentedCall, str], ...]
    verdicts: tuple[ExpectedVerdict, ...] = ()
    repair_requested: bool | None = None
    state: str | None = None
    fallback_type: str | None = None
    released: Any = None
    validated: Any = None
    notes: tuple[str, ...] = field(default=())

    def invocation(self, tool_call_id: str) -> ExpectedInvocation | None:
        """Return the expected invocation of ``tool_call_id``, or ``None``."""
        return next((i for i in self.invocations if i.tool_call_id == tool_call_id), None)


# --------------------------------------------------------------------------- invocations


def _limits(fixture: dict[str, Any]) -> dict[str, int]:
    return {**_DEFAULT_LIMITS, **fixture.get("limits", {})}


def _valid_arguments(arguments: Any) -> bool:  # noqa: ANN401 - JSON
    """The argument shape every Harness must execute: ``{target, time_range, query}``."""
    if not isinstance(arguments, dict) or set(arguments) != {"target", "time_range", "query"}:
        return False
    target, window, query = arguments["target"], arguments["time_range"], arguments["query"]
    if not (isinstance(target, str) and 1 <= len(target) <= 256):  # noqa: PLR2004 - the schema
        return False
    if not (isinstance(query, str) and len(query) <= 1024):  # noqa: PLR2004 - the schema
        return False
    if not isinstance(window, dict) or set(window) != {"start_ms", "end_ms"}:
        return False
    start, end = window["start_ms"], window["end_ms"]
    ints = all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in (start, end))
    return ints and end >= start


def _query_scope(call: PresentedCall) -> dict[str, Any]:
    arguments = call.arguments
    window = arguments["time_range"]
    return {
        "tool": call.tool,
        "target": arguments["target"],
        "time_range": {"start_ms": window["start_ms"], "end_ms": window["end_ms"]},
        "query": arguments["query"],
    }


def _rows_projection(
    call: PresentedCall, response: dict[str, Any], limits: dict[str, int]
) -> ExpectedProjection | None:
    """The projection of a ``rows`` result; ``None`` if a row is malformed for this tool."""
    lookup = call.tool == LOOKUP_TOOL
    rows = response.get("items", [])
    for row in rows:
        has_id = "document_id" in row
        if has_id != lookup or (lookup and not _is_id(row["document_id"])):
            return None
    kept = rows[: limits["max_items"]]
    chars = limits["max_item_chars"]
    texts = tuple(row["text"][:chars] for row in kept)
    cut = any(len(row["text"]) > chars for row in kept)
    reported = response.get("total_matched")
    total = len(rows) if reported is None else reported
    known_total = total >= len(rows)
    return ExpectedProjection(
        query_scope=_query_scope(call),
        texts=texts,
        document_ids=frozenset(row["document_id"] for row in kept) if lookup else frozenset(),
        total_matched=total if known_total else None,
        truncated=(total > len(kept) or cut) if known_total else None,
        max_items=limits["max_items"],
        max_item_chars=chars,
        # the backend matched more than it returned is a limit exceeded too (truncated holds)
        must_truncate=cut or len(rows) > len(kept) or (known_total and total > len(kept)),
        item_document_ids=tuple(row["document_id"] for row in kept) if lookup else None,
    )


def _is_id(value: Any) -> bool:  # noqa: ANN401 - JSON
    return isinstance(value, str) and len(value) <= _MAX_ID and _ID.fullmatch(value) is not None


def _expected_invocation(
    call: PresentedCall, sequence: int, response: dict[str, Any] | None, limits: dict[str, int]
) -> ExpectedInvocation:
    kind = None if response is None else response.get("kind")
    unknown = ExpectedInvocation(call, sequence, None, None, None, None)
    if kind == "failure":
        return ExpectedInvocation(call, sequence, _ERROR, _ERROR, "TOOL_FAILED", None)
    if kind == "in_band_error":
        return ExpectedInvocation(call, sequence, _READY, _ERROR, "BACKEND_ERROR", None)
    if kind == "oversize" and response is not None:
        size = int(response["bytes"])
        capacity = limits["max_items"] * limits["max_item_chars"]
        projection = ExpectedProjection(
            query_scope=_query_scope(call),
            texts=None,
            document_ids=None,
            total_matched=None,
            truncated=None,
            max_items=limits["max_items"],
            max_item_chars=limits["max_item_chars"],
            must_truncate=size > capacity,
        )
        evidence = _FOUND if size > 0 else None
        return ExpectedInvocation(call, sequence, _READY, evidence, None, projection)
    if kind == "rows" and response is not None:
        bounded = _rows_projection(call, response, limits)
        if bounded is None or bounded.total_matched is None:
            return unknown
        empty = not bounded.texts and bounded.total_matched == 0
        evidence = _EMPTY if empty else _FOUND
        return ExpectedInvocation(call, sequence, _READY, evidence, None, bounded)
    return unknown


def _responses(fixture: dict[str, Any], accepted: list[PresentedCall]) -> list[Any]:
    """The backend result each accepted call gets: the n-th execution of its tool."""
    counters: dict[str, int] = {}
    found: list[Any] = []
    broken: set[str] = set()
    for call in accepted:
        script = fixture.get("tools", {}).get(call.tool)
        if not _valid_arguments(call.arguments) or call.tool in broken:
            broken.add(call.tool)  # a Harness may or may not execute it: later ones shift
            found.append(None)
            continue
        nth = counters.get(call.tool, 0)
        counters[call.tool] = nth + 1
        if script is None:
            found.append(None)
            continue
        responses = script.get("responses", [])
        found.append(responses[nth] if nth < len(responses) else script.get("default"))
    return found


_SUBMISSION_KINDS: Final = frozenset({"draft", "knowledge_answer", "raw", "error"})
_REPAIR_KINDS: Final = _SUBMISSION_KINDS | {"tool_calls", "draft_and_tool_calls"}


def _known_turns(fixture: dict[str, Any]) -> bool:
    """Tool steps, then a submission and a repair answer of kinds whose meaning the oracle knows.

    A turn kind added later (a delay, a new way to block) makes the Run undetermined rather than
    judged by rules that may not fit it.
    """
    agent = fixture.get("agent", [])
    index = next((i for i, t in enumerate(agent) if t.get("kind") != "tool_calls"), len(agent))
    tail = agent[index:]
    return (not tail or tail[0].get("kind") in _SUBMISSION_KINDS) and all(
        t.get("kind") in _REPAIR_KINDS for t in tail[1:]
    )


def _is_complete(fixture: dict[str, Any], steps: int) -> bool:
    """No cancellation, blocking tool, or step budget can stop the Run before it submits."""
    if fixture.get("client") or fixture.get("perturbations") or not _known_turns(fixture):
        return False  # a real model (perturbations) does not follow the scripted turns
    turns = [*fixture.get("agent", []), *fixture.get("semantic_guard", [])]
    if any(t.get("kind") in _CANCELLING_TURNS for t in turns):
        return False
    for script in fixture.get("tools", {}).values():
        responses = [*script.get("responses", []), script.get("default") or {}]
        if any(r.get("kind") == "block_until_cancelled" for r in responses):
            return False
    return steps <= _limits(fixture)["max_steps"]


# --------------------------------------------------------------------------- verdicts


def _schema_problems(document: object, contract: str) -> bool:
    """Whether ``document`` breaks ``contract`` (``validate_document``'s verdict, unexplained)."""
    from contracts import is_valid_document  # noqa: PLC0415 - contracts loads schemas on import

    return not is_valid_document(document, contract)


def _pointer(*parts: object) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def _one(codes: set[str] | str, pointers: list[str], why: str) -> ExpectedViolation:
    chosen = {codes} if isinstance(codes, str) else codes
    return ExpectedViolation(frozenset(chosen), frozenset(pointers), why)


def _scope_within(inner: Any, outer: dict[str, Any]) -> bool:  # noqa: ANN401 - JSON
    same = all(inner.get(k) == outer.get(k) for k in ("tool", "target", "query"))
    a, b = inner.get("time_range") or {}, outer["time_range"]
    return bool(same and b["start_ms"] <= a["start_ms"] <= a["end_ms"] <= b["end_ms"])


def _citation(
    kind: str, citation: str, at: str, row: ExpectedInvocation | None
) -> ExpectedViolation | bool | None:
    """The rule an analysis of ``kind`` breaks by citing ``row`` (``True``: undetermined)."""
    here = [at, at.rsplit("/", 2)[0]]
    if row is None:
        return _one("UNKNOWN_TOOL_CALL_ID", [at], f"{citation!r} is not an accepted call")
    if not row.determined:
        return True
    if row.evidence_status == _ERROR:
        codes = {"ERROR_EVIDENCE_CITED"} | (
            {"INVOCATION_NOT_READY"} if row.status != _READY else set()
        )
        return _one(codes, here, f"{citation!r} has evidence status ERROR")
    if row.evidence_status == _EMPTY and kind != _NEGATIVE:
        return _one(
            "NO_EVIDENCE_NOT_NEGATIVE",
            [*here, f"{here[1]}/kind"],
            f"{citation!r} is NO_EVIDENCE but the analysis is {kind}",
        )
    if row.evidence_status != _EMPTY and kind == _NEGATIVE:
        return _one(
            "NEGATIVE_WITHOUT_NO_EVIDENCE",
            [*here, f"{here[1]}/kind"],
            f"a NEGATIVE_OBSERVATION cites {citation!r} ({row.evidence_status})",
        )
    return None


def _analysis_rules(
    index: int, item: dict[str, Any], table: dict[str, ExpectedInvocation]
) -> tuple[list[ExpectedViolation], bool]:
    """Return (the rules analysis ``index`` breaks, whether each of its citations was decidable).

    Each citation is checked (unknown, ERROR evidence, NO_EVIDENCE kind rules), then the
    NEGATIVE_OBSERVATION scope against *every* cited NO_EVIDENCE query, then an OBSERVATION's
    need for an EVIDENCE_FOUND result (required only when no citation already broke a rule).
    """
    kind = item["kind"]
    analysis_at = _pointer("analyses", index)
    rules: list[ExpectedViolation] = []
    decidable = True
    found_evidence = False
    for position, citation in enumerate(item["tool_call_ids"]):
        at = _pointer("analyses", index, "tool_call_ids", position)
        row = table.get(citation)
        rule = _citation(kind, citation, at, row)
        if rule is True or row is None or isinstance(rule, ExpectedViolation):
            decidable = decidable and rule is not True
            rules.extend([rule] if isinstance(rule, ExpectedViolation) else [])
            continue
        found_evidence = found_evidence or row.evidence_status == _FOUND
        scope_wider = (
            kind == _NEGATIVE
            and row.projection is not None
            and not _scope_within(item["scope"], row.projection.query_scope)
        )
        if scope_wider:
            rules.append(
                _one(
                    "NEGATIVE_SCOPE_TOO_WIDE",
                    [f"{analysis_at}/scope", analysis_at, at],
                    f"the scope of {analysis_at} is wider than {citation!r}'s query",
                )
            )
    if kind == "OBSERVATION" and decidable and not (found_evidence or rules):
        rules.append(
            _one(
                "OBSERVATION_WITHOUT_EVIDENCE",
                [f"{analysis_at}/tool_call_ids", analysis_at, f"{analysis_at}/kind"],
                f"the OBSERVATION {analysis_at} cites no EVIDENCE_FOUND result",
            )
        )
    return rules, decidable


def _draft_rules(
    draft: dict[str, Any], table: dict[str, ExpectedInvocation]
) -> tuple[list[ExpectedViolation], bool]:
    """Return (the rules a schema-valid draft breaks, whether every citation was decidable)."""
    rules: list[ExpectedViolation] = []
    decidable = True
    for index, item in enumerate(draft["analyses"]):
        found, known = _analysis_rules(index, item, table)
        rules.extend(found)
        decidable = decidable and known
    analysis_ids = {item["analysis_id"] for item in draft["analyses"]}
    places: list[tuple[tuple[object, ...], list[str]]] = [
        (("conclusion",), draft["conclusion"]["analysis_ids"])
    ]
    for section in ("action_plan", "recommendations"):
        places.extend(((section, i), e["analysis_ids"]) for i, e in enumerate(draft[section]))
    rules.extend(
        _one("UNKNOWN_ANALYSIS_ID", [_pointer(*where, "analysis_ids", n)], f"{a!r} names none")
        for where, named in places
        for n, a in enumerate(named)
        if a not in analysis_ids
    )
    rules.extend(
        _one(
            "UNKNOWN_TOOL_CALL_ID",
            [_pointer("limitations", i, "tool_call_ids", n)],
            f"a limitation cites {citation!r}, not an accepted call",
        )
        for i, entry in enumerate(draft["limitations"])
        for n, citation in enumerate(entry["tool_call_ids"])
        if citation not in table
    )
    return rules, decidable


def _answer_rules(
    answer: dict[str, Any], table: dict[str, ExpectedInvocation]
) -> tuple[list[ExpectedViolation], bool]:
    """Return (the rules a schema-valid knowledge answer breaks, whether they were decidable)."""
    lookups = [row for row in table.values() if row.call.tool == LOOKUP_TOOL]
    if any(row.status is None for row in lookups):
        return [], False  # an undetermined lookup: how it counts is not fixed
    # "the single lookup Tool Call": the one lookup with a bounded result (READY); a lookup that
    # failed (ERROR) returned nothing to bind to, and other tools are no lookups at all
    ready = [row for row in lookups if row.status == _READY]
    named = table.get(answer["lookup_tool_call_id"])
    if named is not None and named in lookups and named.status != _READY:
        # two codes fit naming a failed lookup: the count of usable lookups, or the named
        # invocation is not READY (contract sheet, "Where two codes fit")
        count = _one(
            {"LOOKUP_CALL_COUNT", "INVOCATION_NOT_READY"},
            ["/lookup_tool_call_id", ""],
            f"the answer names {answer['lookup_tool_call_id']!r}, a lookup that failed",
        )
        return [count], True
    if len(ready) != 1 or named is None or named is not ready[0]:
        failed = len(lookups) - len(ready)
        count = _one(
            "LOOKUP_CALL_COUNT",
            ["/lookup_tool_call_id", ""],
            f"the Run has {len(ready)} READY lookup call(s) ({failed} failed); the answer names "
            f"{answer['lookup_tool_call_id']!r}",
        )
        return [count], True
    projection = named.projection
    if projection is None or projection.document_ids is None:
        return [], False  # an in-band error or an oversize lookup: its documents are not fixed
    rules: list[ExpectedViolation] = []
    for index, item in enumerate(answer["items"]):
        for position, reference in enumerate(item["references"]):
            document_id = reference["document_id"]
            if document_id not in projection.document_ids:
                at = _pointer("items", index, "references", position)
                rules.append(
                    _one(
                        "FABRICATED_DOCUMENT_ID",
                        [f"{at}/document_id", at],
                        f"{document_id!r} is not a document id the lookup returned "
                        f"(ids are exact: {sorted(projection.document_ids)})",
                    )
                )
    if not answer["items"] and projection.document_ids:
        rules.append(
            _one(
                "EMPTY_ANSWER_WITH_DOCUMENTS",
                ["/items", ""],
                "zero items while the lookup found documents",
            )
        )
    return rules, True


def cited_tool_call_ids(document: Any) -> list[str]:  # noqa: ANN401 - JSON
    """Return the distinct Tool Call IDs a schema-valid body cites, in document order.

    A Diagnosis Draft cites through its analyses and limitations; a Knowledge Answer through
    ``lookup_tool_call_id`` and its references (contract sheet: the evidence of a Verified
    Snapshot and the verified sources of a Safe Fallback are those of exactly these ids).
    """
    if not isinstance(document, dict):
        return []
    found: list[object] = []
    if "analyses" in document:
        for section in ("analyses", "limitations"):
            for entry in document.get(section) or []:
                found.extend(entry.get("tool_call_ids") or [])
    else:
        found.append(document.get("lookup_tool_call_id"))
        for item in document.get("items") or []:
            found.extend(r.get("tool_call_id") for r in item.get("references") or [])
    return list(dict.fromkeys(str(i) for i in found if isinstance(i, str)))


def _text_verdict(attempt: int, kind: str, text: str) -> ExpectedVerdict:
    """A repair that called tools fails; raw text that is no JSON fails; else undetermined."""
    if kind in {"tool_calls", "draft_and_tool_calls"}:  # only a repair answer can be one
        return ExpectedVerdict(attempt, valid=False, by_tool_calls=True, kind=kind)
    if kind == "raw":
        try:
            loads_strict(text)
        except ValueError:
            return ExpectedVerdict(attempt, valid=False, kind=kind)
    return ExpectedVerdict(attempt, None, kind=kind)


def expected_verdict(
    attempt: int,
    kind: str,
    document: object,
    table: dict[str, ExpectedInvocation],
) -> ExpectedVerdict:
    """Return EvidenceGuard's verdict on one submission, by DESIGN section 4.

    ``kind`` is the agent turn kind (``draft``, ``knowledge_answer``, ``raw``, ``tool_calls``,
    ``draft_and_tool_calls``); ``document`` the submitted JSON (the text of a ``raw`` turn);
    ``table`` the expected invocations by Tool Call ID.
    """
    if kind not in {"draft", "knowledge_answer"}:
        return _text_verdict(attempt, kind, str(document))
    contract = "diagnosis-draft" if kind == "draft" else "knowledge-answer"
    undetermined = isinstance(document, dict) and "$schema" in document
    if undetermined or _schema_problems(document, contract):
        valid = None if undetermined else False
        return ExpectedVerdict(attempt, valid, kind=kind, document=document)
    assert isinstance(document, dict)  # noqa: S101 - the contract schema wants an object
    rule = _draft_rules if kind == "draft" else _answer_rules
    rules, decidable = rule(document, table)
    valid = False if rules else (True if decidable else None)
    stricter = None
    lookups = [row for row in table.values() if row.call.tool == LOOKUP_TOOL]
    if kind == "knowledge_answer" and len(lookups) > 1:
        stricter = _one(
            "LOOKUP_CALL_COUNT",
            ["/lookup_tool_call_id", ""],
            f"the Run holds {len(lookups)} lookup calls (the stricter reading of 'the single "
            "lookup Tool Call')",
        )
    return ExpectedVerdict(
        attempt, valid, tuple(rules), kind=kind, document=document, stricter=stricter
    )


# --------------------------------------------------------------------------- release


def _review_outcome(fixture: dict[str, Any], document: dict[str, Any]) -> tuple[str, str] | None:
    """(state, fallback type or "") fixed by the first SemanticGuard answer, else ``None``."""
    turns = fixture.get("semantic_guard", [])
    if not turns or turns[0].get("kind") != "verdict":
        return None
    verdict = turns[0]["verdict"]
    if not isinstance(verdict, dict) or set(verdict) != {"verdict", "unsupported_analysis_ids"}:
        return None
    named = verdict["unsupported_analysis_ids"]
    if not isinstance(named, list) or len(set(map(str, named))) != len(named):
        return None
    body = document.get("analyses") if "analyses" in document else document.get("items")
    key = "analysis_id" if "analyses" in document else "item_id"
    ids = {entry[key] for entry in body or []}
    if verdict["verdict"] == "SUPPORTED" and named == []:
        return "SUCCESS", ""
    if verdict["verdict"] == "UNSUPPORTED" and named and set(named) <= ids:
        return "FALLBACK", "SEMANTIC_UNSUPPORTED"
    return None


def _routes_plainly(fixture: dict[str, Any]) -> bool:
    """The Router's first answer is an intent and the agent's submission is of that intent."""
    router = fixture.get("router", [])
    if not router or router[0].get("kind") != "intent":
        return False
    wanted = "knowledge_answer" if router[0]["intent"] == "KNOWLEDGE_QUERY" else "draft"
    kinds = {t.get("kind") for t in fixture.get("agent", [])} & {"draft", "knowledge_answer"}
    return kinds <= {wanted}


def _submission_kinds(fixture: dict[str, Any]) -> bool:
    """No agent turn holding both a submission and tool calls comes before the first submission."""
    for turn in fixture.get("agent", []):
        if turn.get("kind") == "draft_and_tool_calls":
            return False
        if turn.get("kind") != "tool_calls":
            return True
    return True


def expected_outcome(fixture: dict[str, Any]) -> ExpectedOutcome:
    """Return what the fixture fixes about the Run (see the module docstring).

    The verdicts and the release outcome are given only for a complete Run (no cancellation,
    blocking tool or step budget) whose every cited invocation is determined.
    """
    accepted, rejected = expected_identity(fixture)
    limits = _limits(fixture)
    responses = _responses(fixture, accepted)
    invocations = tuple(
        _expected_invocation(call, number, response, limits)
        for number, (call, response) in enumerate(zip(accepted, responses, strict=True), 1)
    )
    steps = max((c.step for c in accepted), default=0)
    steps = max(steps, sum(1 for _ in _tool_turns(fixture)))
    complete = (
        _is_complete(fixture, steps) and _submission_kinds(fixture) and _routes_plainly(fixture)
    )
    base = ExpectedOutcome(complete, invocations, tuple(rejected))
    if not complete:
        return base
    return _release(fixture, base)


def _tool_turns(fixture: dict[str, Any]) -> list[dict[str, Any]]:
    found = []
    for turn in fixture.get("agent", []):
        if turn.get("kind") != "tool_calls":
            break
        found.append(turn)
    return found


def _release(fixture: dict[str, Any], base: ExpectedOutcome) -> ExpectedOutcome:
    """Add the verdicts, the repair and the terminal outcome the submissions fix."""
    table = {row.tool_call_id: row for row in base.invocations}
    found = _submitted_turns(fixture)
    if not found or found[0].get("kind") == "error":
        return base
    verdicts = [
        expected_verdict(attempt, turn["kind"], _content(turn), table)
        for attempt, turn in enumerate(found, 1)
    ]
    first = verdicts[0]
    if first.valid is None or (first.valid and first.stricter is not None):
        return replace(base, verdicts=(first,))
    if first.valid:
        passed = replace(base, verdicts=(first,), repair_requested=False, validated=first.document)
        return _reviewed(fixture, passed, first)
    repaired = replace(base, verdicts=tuple(verdicts), repair_requested=True)
    second = verdicts[-1] if found[-1].get("kind") != "error" else first
    if second is first or second.valid is None or (second.valid and second.stricter):
        return repaired
    if second.valid:
        return _reviewed(fixture, replace(repaired, validated=second.document), second)
    return replace(repaired, state="FALLBACK", fallback_type="EVIDENCE_VALIDATION_FAILED")


def _reviewed(
    fixture: dict[str, Any], base: ExpectedOutcome, verdict: ExpectedVerdict
) -> ExpectedOutcome:
    """The outcome of a validated submission, fixed by the SemanticGuard's first answer."""
    document = verdict.document
    assert isinstance(document, dict)  # noqa: S101 - a valid submission is an object
    review = _review_outcome(fixture, document)
    if review is None:
        return base
    state, fallback_type = review
    released = document if state == "SUCCESS" else None
    return replace(base, state=state, fallback_type=fallback_type or None, released=released)


def _submitted_turns(fixture: dict[str, Any]) -> list[dict[str, Any]]:
    """The agent's first submission turn and the turn after it (the structural repair answer)."""
    agent = fixture.get("agent", [])
    for index, turn in enumerate(agent):
        if turn.get("kind") in _CANCELLING_TURNS:
            return []
        if turn.get("kind") != "tool_calls":
            return list(agent[index : index + 2])
    return []


def _content(turn: dict[str, Any]) -> Any:  # noqa: ANN401 - JSON
    """What the guard validates: the raw text of a ``raw`` turn, else the submitted document."""
    if turn.get("kind") == "raw":
        return turn.get("text", "")
    return turn.get("draft", turn.get("answer"))
