"""Checks on what each model call *received* (global invariants, applied to every Run).

The inputs come from the kit's own model endpoint when the IUT used it (``model_requests``, one
entry per HTTP request) and otherwise from the IUT's report (``model_calls``, one entry per
model-call attempt). Expectations come from the fixture and the spec, never from the IUT:

``R0.model-input-reported``
    Every model-call attempt's input is observable: without the kit's endpoint the observation
    reports ``model_calls``, one per ``MODEL_CALL_STARTED`` (component, call_index, attempt). A
    MUST the kit cannot check is a failure, so an IUT that reports neither fails.
``R1.reviewer-isolated-single-turn``
    Requirement 1, "SemanticGuard as an isolated single-turn semantic reviewer": each
    SemanticGuard call offers no tools and holds (besides instructions: messages of role
    ``system`` or ``developer``, OpenAI's name for them, :data:`INSTRUCTION_ROLES`) exactly one user
    message whose content (a string, or OpenAI text parts) holds the Verified Snapshot as JSON (a
    valid ``verified-snapshot`` document, of the digest the attempt names), alone or with
    instructions around it, but no text of the agent's conversation (its turns' and the tool
    rows' prose the snapshot does not hold), and no text of the user's message outside it.
``R1.snapshot-holds-cited-evidence``
    The same requirement's frozen contract (verified-snapshot: "the projections of exactly the
    invocations the body cites"): the snapshot holds the Run's id, one of the agent's own
    submissions (canonical JSON) and, as ``evidence``, exactly the canonical invocations with a
    projection (READY) that body cites, each once, with its tool name, evidence status and
    projection as the observation's invocation records hold them.
``R7.previous-turn-context-only``
    Requirement 7, "exclude fallback, failed and cancelled Runs from Diagnosis previous-turn
    selection": no model call receives text of an earlier Run other than the selected previous
    turn (failed, cancelled, fallback, running, knowledge-query and other sessions' Runs: user
    texts and published texts; contract enum values such as ``DIAGNOSIS_DRAFT`` are not texts).
``R4.no-raw-payload-to-model``
    Requirement 4, "without exposing chain-of-thought or raw Tool payloads": no model call receives
    a backend row beyond ``max_items``, the part of a row beyond ``max_item_chars``, a tool
    failure's raised message, or an error code a backend answered in band.
``R4.no-chain-of-thought``
    Same sentence: no message sent to a model carries a chain-of-thought field
    (``reasoning_content``, ``reasoning``, ``thinking`` …), and the endpoint's chain-of-thought
    canary reaches neither a model call nor any output of the Run.
``R6.repair-offers-no-tools``
    Requirement 6, "the single no-Tool structural repair": every structural repair request
    (``purpose`` STRUCTURAL_REPAIR) offers no tool, whatever the model answers.
``R9.semantic-retry-same-snapshot``
    Every attempt of one SemanticGuard call is sent the same snapshot document.
``R9.one-http-attempt-per-model-attempt``
    Requirement 9, "require underlying SDK, HTTP and database retry layers to execute one
    attempt": over the kit's endpoint each component received exactly as many HTTP requests as
    the trace has model-call attempts (an SDK or HTTP retry shows as an extra request).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Final, NamedTuple

from conformance.checks._explained import vocabulary_text
from conformance.checks._oracle import expected_previous_turn, submitted_documents
from conformance.checks._outcome_oracle import cited_tool_call_ids
from conformance.checks._result import CheckResult, Findings
from conformance.checks._view import events

__all__ = ["COT_CANARY", "COT_FIELDS", "INSTRUCTION_ROLES", "check_model_inputs"]


COT_FIELDS: Final = frozenset(
    {
        "reasoning_content",
        "reasoning",
        "reasoning_details",
        "thinking",
        "thoughts",
        "thought",
        "chain_of_thought",
    }
)
"""Message keys that carry a model's chain-of-thought."""

INSTRUCTION_ROLES: Final = frozenset({"system", "developer"})
"""Roles of instruction messages: no sentence names the role, and OpenAI's chat API calls system
instructions ``developer`` for newer models (docs/decisions/red-team-6.md, "F2")."""

COT_CANARY: Final = "srdh-cot-canary"
"""The chain-of-thought text the kit's endpoint sends (``conformance.model_endpoint``)."""

_R0: Final = "R0.model-input-reported"
_R1: Final = "R1.reviewer-isolated-single-turn"
_SNAPSHOT: Final = "R1.snapshot-holds-cited-evidence"
_R7: Final = "R7.previous-turn-context-only"
_RAW: Final = "R4.no-raw-payload-to-model"
_COT: Final = "R4.no-chain-of-thought"
_R9: Final = "R9.one-http-attempt-per-model-attempt"
_REPAIR: Final = "R6.repair-offers-no-tools"
_SAME_SNAPSHOT: Final = "R9.semantic-retry-same-snapshot"
_MIN_NEEDLE: Final = 8
_WINDOW: Final = 24
_DEFAULTS: Final = {"max_items": 20, "max_item_chars": 2000}


class _Input(NamedTuple):
    """One model call's input: where it came from, its component, messages, tools, digest.

    ``purpose`` and ``call_index`` come from the attempt's ``MODEL_CALL_STARTED`` (``None`` when
    the input cannot be paired with one).
    """

    label: str
    component: str
    messages: list[dict[str, Any]]
    tools: list[str]
    digest: str | None
    purpose: str | None = None
    call_index: int | None = None


def _strings(value: object) -> list[str]:
    """Every string inside ``value`` (JSON), depth first."""
    found: list[str] = []
    _collect_strings(value, found)
    return found


def _collect_strings(value: object, found: list[str]) -> None:
    """Append the strings inside ``value`` to ``found`` (one list for the whole walk)."""
    if isinstance(value, str):
        found.append(value)
    elif isinstance(value, dict):
        for item in value.values():
            _collect_strings(item, found)
    elif isinstance(value, list):
        for item in value:
            _collect_strings(item, found)


def _text(value: object) -> str:
    return "\n".join(_strings(value))


def _started(observation: dict[str, Any]) -> list[dict[str, Any]]:
    return [e.get("data", {}) for e in events(observation, "MODEL_CALL_STARTED")]


def _inputs(found: Findings, observation: dict[str, Any]) -> list[_Input]:
    """The model-call inputs to check (the kit's own record first), after the R0/R9 rules."""
    started = _started(observation)
    reported = observation.get("model_calls")
    if reported is not None:
        keys = Counter((c["component"], c["call_index"], c["attempt"]) for c in reported)
        wanted = Counter(
            (s.get("component"), s.get("call_index"), s.get("attempt")) for s in started
        )
        for key in sorted((wanted - keys).keys(), key=str):
            found.add(f"attempt {key} started but model_calls has no input", rule=_R0)
        for key in sorted((keys - wanted).keys(), key=str):
            found.add(
                f"model_calls reports {key} (or reports it twice) but "
                "the trace has no such MODEL_CALL_STARTED",
                rule=_R0,
            )
    requests = observation.get("model_requests")
    if requests is not None:
        ended_early = Counter(
            (e.get("data") or {}).get("component")
            for e in observation.get("trace", [])
            if e.get("type") == "MODEL_CALL_FINISHED"
            and (e.get("data") or {}).get("outcome") in {"TIMEOUT", "CANCELLED"}
        )
        return _endpoint_inputs(found, requests, started, ended_early)
    if reported is None:
        if started:
            found.add(
                "the observation has no model_calls and the IUT did "
                "not use the kit's model endpoint (MODEL_ENDPOINT): what each model call "
                "received cannot be checked",
                rule=_R0,
            )
        return []
    by_key = {(s.get("component"), s.get("call_index"), s.get("attempt")): s for s in started}
    inputs = []
    for index, call in enumerate(reported):
        start = by_key.get((call["component"], call["call_index"], call["attempt"])) or {}
        inputs.append(
            _Input(
                f"model_calls/{index} ({call['component']} call {call['call_index']} "
                f"attempt {call['attempt']})",
                call["component"],
                call["messages"],
                call["tools"],
                start.get("snapshot_digest"),
                start.get("purpose"),
                call["call_index"],
            )
        )
    return inputs


def _endpoint_inputs(
    found: Findings,
    requests: list[dict[str, Any]],
    started: list[dict[str, Any]],
    ended_early: Counter[Any],
) -> list[_Input]:
    """The inputs of the requests the endpoint received, after the one-request-per-attempt rules.

    An attempt recorded TIMEOUT may have been ended by the HTTP timeout before its request went
    out (a 1 ms ``model_call_timeout_ms``), and one recorded CANCELLED by the Run's cancellation
    (it received nothing): so many attempts may lack a request.
    """
    inputs = []
    for component in ("ROUTER", "DIAGNOSIS_AGENT", "SEMANTIC_GUARD"):
        mine = [(i, r) for i, r in enumerate(requests) if r["component"] == component]
        attempts = [s for s in started if s.get("component") == component]
        if len(mine) > len(attempts):
            found.add(
                f"{component}: {len(mine)} HTTP "
                f"requests reached the kit's model endpoint for {len(attempts)} model-call "
                "attempt(s) in the trace: an SDK or HTTP layer retried (one request per attempt)",
                rule=_R9,
            )
        elif len(mine) < len(attempts) - ended_early[component]:
            found.add(
                f"{component}: {len(attempts)} model-call attempt(s) "
                f"in the trace but {len(mine)} request(s) reached the kit's model endpoint",
                rule=_R0,
            )
        same = len(mine) == len(attempts)
        for position, (index, request) in enumerate(mine):
            start = attempts[position] if same else {}
            label = f"model_requests/{index} ({component} request {position + 1})"
            inputs.append(
                _Input(
                    label,
                    component,
                    request["messages"],
                    request["tools"],
                    start.get("snapshot_digest"),
                    start.get("purpose"),
                    start.get("call_index"),
                )
            )
    return inputs


def _repair_offers_no_tools(found: Findings, call: _Input) -> None:
    """A structural repair request offers no tool, whatever the model answers."""
    if call.purpose == "STRUCTURAL_REPAIR":
        found.expect(
            not call.tools,
            f"{call.label}: the structural repair request offers tools {call.tools} (the single "
            "no-Tool structural repair offers none)",
            rule=_REPAIR,
        )


def _content_text(content: object) -> str | None:
    """The text of a message's ``content``: a string, or the text parts of a parts list.

    OpenAI's chat API takes a message's content as a string or as a list of content parts
    (``{"type": "text", "text": ...}``); the text of a parts list is its text parts joined
    (false-kills-8, F6). ``None`` for anything else.
    """
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return None
    texts = []
    for part in content:
        if (
            isinstance(part, dict)
            and part.get("type") == "text"
            and isinstance(part.get("text"), str)
        ):
            texts.append(part["text"])
        elif isinstance(part, str):
            texts.append(part)
        else:
            return None
    return "".join(texts)


_MAX_SNAPSHOT_STARTS: Final = 64
"""How many ``{`` of a reviewer message are tried as the start of the embedded snapshot."""


def _sent_snapshot(content: object) -> tuple[Any, str] | None:
    """Return (the Verified Snapshot a reviewer message sends, the message's text around it).

    The whole text parsed as JSON, or else the first JSON object inside it that is a valid
    ``verified-snapshot`` document: "an isolated single-turn semantic reviewer" receives the
    snapshot, and may receive its instructions in the same user message, around it
    (false-kills-8, F7). ``None`` when the message holds no such JSON.
    """
    from contracts import loads_strict, validate_document  # noqa: PLC0415 - loads schemas

    text = _content_text(content)
    if text is None:
        return None
    try:
        return loads_strict(text), ""
    except ValueError:
        pass
    decoder = json.JSONDecoder()
    start = text.find("{")
    for _ in range(_MAX_SNAPSHOT_STARTS):
        if start < 0:
            return None
        try:
            found, end = decoder.raw_decode(text, start)
            if isinstance(found, dict) and not validate_document(found, "verified-snapshot"):
                return loads_strict(text[start:end]), text[:start] + "\n" + text[end:]
        except ValueError:
            pass
        start = text.find("{", start + 1)
    return None


def _same_snapshot(found: Findings, inputs: list[_Input]) -> None:
    """Every attempt of one SemanticGuard call is sent the same snapshot document."""
    first: dict[Any, tuple[str, Any]] = {}
    for call in inputs:
        if call.component != "SEMANTIC_GUARD" or call.call_index is None:
            continue
        others = [m for m in call.messages if m.get("role") not in INSTRUCTION_ROLES]
        content = others[0].get("content") if len(others) == 1 else None
        parsed = _sent_snapshot(content)
        if parsed is None:
            continue
        sent = parsed[0]
        if call.call_index not in first:
            first[call.call_index] = (call.label, sent)
            continue
        label, earlier = first[call.call_index]
        found.expect(
            sent == earlier,
            f"{call.label}: the SemanticGuard retry is sent another snapshot than {label} (a "
            "second attempt reuses the same verified snapshot)",
            rule=_SAME_SNAPSHOT,
        )


def _reviewer(
    found: Findings, call: _Input, fixture: dict[str, Any], observation: dict[str, Any]
) -> None:
    found.expect(
        not call.tools, f"{call.label}: tools offered to the SemanticGuard: {call.tools}", rule=_R1
    )
    others = [m for m in call.messages if m.get("role") not in INSTRUCTION_ROLES]
    roles = [m.get("role") for m in others]
    if not found.expect(
        roles == ["user"],
        f"{call.label}: expected exactly one user message besides instructions (system or "
        "developer) "
        f"(no history, no tool results), got roles {roles}",
        rule=_R1,
    ):
        return
    content = others[0].get("content")
    from contracts import validate_document  # noqa: PLC0415 - loads schemas

    parsed = _sent_snapshot(content)
    snapshot, around = parsed if parsed is not None else (None, "")
    problems = validate_document(snapshot, "verified-snapshot") if snapshot is not None else []
    if not found.expect(
        isinstance(snapshot, dict) and not problems,
        f"{call.label}: the user message holds no Verified Snapshot as JSON"
        + (f" ({problems[0].pointer or '/'}: {problems[0].message})" if problems else ""),
        rule=_R1,
    ):
        return
    assert isinstance(snapshot, dict)  # noqa: S101 - narrowed by the expectation above
    sent = json.dumps(snapshot, ensure_ascii=False)
    conversation = [t for t in _conversation_texts(fixture) if t in around and t not in sent]
    found.expect(
        not conversation,
        f"{call.label}: the user message carries text of the agent's conversation beside the "
        f"Verified Snapshot (no history): {conversation[0][:80]!r}"
        if conversation
        else "",
        rule=_R1,
    )
    if call.digest is not None:
        found.expect(
            snapshot.get("digest") == call.digest,
            f"{call.label}: the snapshot sent has digest {snapshot.get('digest')}, the "
            f"attempt names {call.digest}",
            rule=_R1,
        )
    _snapshot_contents(found, call.label, snapshot, fixture, observation)
    question = fixture.get("user_message", "")
    instructions = _text([m for m in call.messages if m.get("role") in INSTRUCTION_ROLES])
    instructions += "\n" + around  # text beside the snapshot is instructions too
    if len(question) >= _MIN_NEEDLE and question not in sent:
        found.expect(
            question not in instructions,
            f"{call.label}: the user's message reached the SemanticGuard's instructions",
            rule=_R1,
        )


def _conversation_texts(fixture: dict[str, Any]) -> list[str]:
    """Prose of the agent's turns and of the tool rows: what only the conversation holds."""
    texts = _strings(fixture.get("agent")) + _strings(fixture.get("tools"))
    return [t for t in dict.fromkeys(texts) if _is_prose(t)]


def _snapshot_contents(
    found: Findings,
    label: str,
    snapshot: dict[str, Any],
    fixture: dict[str, Any],
    observation: dict[str, Any],
) -> None:
    """The snapshot holds this Run, an agent submission and exactly its cited READY evidence."""
    from contracts import canonical_json  # noqa: PLC0415 - contracts loads schemas on import

    found.expect(
        snapshot.get("run_id") == observation.get("run_id"),
        f"{label}: the snapshot names Run {snapshot.get('run_id')!r}, not the observed Run",
        rule=_SNAPSHOT,
    )
    body = snapshot.get("diagnosis_draft", snapshot.get("knowledge_answer"))
    submitted = [canonical_json(document) for document in submitted_documents(fixture)]
    if not found.expect(
        canonical_json(body) in submitted,
        f"{label}: the snapshot's body is not canonical-JSON-identical to a submission of the "
        "agent (the reviewer must see the validated body itself)",
        rule=_SNAPSHOT,
    ):
        return
    records = {i.get("tool_call_id"): i for i in observation.get("invocations", [])}
    cited = cited_tool_call_ids(body)
    expected = {
        c: {
            "tool_call_id": c,
            "tool_name": records[c].get("tool_name"),
            "evidence_status": records[c].get("evidence_status"),
            "projection": records[c].get("projection"),
        }
        for c in cited
        if c in records
        and records[c].get("status") == "READY"
        and records[c].get("projection") is not None
    }
    evidence = [e for e in snapshot.get("evidence") or [] if isinstance(e, dict)]
    held = [e.get("tool_call_id") for e in evidence]
    found.expect(
        len(held) == len(set(map(str, held))),
        f"{label}: the snapshot's evidence holds a Tool Call ID twice: {held}",
        rule=_SNAPSHOT,
    )
    extra = [h for h in held if h not in expected]
    found.expect(
        not extra,
        f"{label}: the snapshot holds evidence of {extra}, which the body does not cite or "
        f"which is no READY invocation (the body cites {cited})",
        rule=_SNAPSHOT,
    )
    missing = sorted(set(expected) - set(map(str, held)))
    found.expect(
        not missing,
        f"{label}: the snapshot leaves out the projections of the cited READY invocations "
        f"{missing}",
        rule=_SNAPSHOT,
    )
    changed = [
        e.get("tool_call_id")
        for e in evidence
        if e.get("tool_call_id") in expected and e != expected[e["tool_call_id"]]
    ]
    found.expect(
        not changed,
        f"{label}: the snapshot's evidence of {changed} differs from the canonical invocation "
        "(tool name, evidence status or projection)",
        rule=_SNAPSHOT,
    )


def _prior_needles(fixture: dict[str, Any]) -> list[tuple[str, str]]:
    """(run id, text) of every earlier Run that is not the selected previous turn."""
    session = fixture.get("session_id")
    prior = fixture.get("prior_runs", [])
    same = [r for r in prior if r.get("session_id") == session]
    selected, _ = expected_previous_turn({**fixture, "prior_runs": same})
    allowed = _text(
        [
            [r for r in same if r.get("run_id") == selected],
            fixture.get("user_message"),
            fixture.get("agent"),
            fixture.get("tools"),
        ]
    )
    needles: list[tuple[str, str]] = []
    for run in prior:
        if run.get("run_id") == selected:
            continue
        texts = [run.get("user_message"), *_strings(run.get("published_result"))]
        needles.extend(
            (str(run.get("run_id")), text)
            for text in texts
            if _is_prose(text) and text not in allowed
        )
    return needles


def _is_prose(text: object) -> bool:
    """A needle worth looking for: words of a person or a model, not an enum value or an id.

    Contract vocabulary (``DIAGNOSIS_DRAFT``, ``OBSERVATION``) and ids (``call_1``) legitimately
    reach models through the Verified Snapshot and tool messages; they hold no white space.
    """
    return isinstance(text, str) and len(text) >= _MIN_NEEDLE and any(c.isspace() for c in text)


def _raw_needles(fixture: dict[str, Any]) -> list[str]:
    """Texts a bounded projection never carries: rows past max_items, row tails, raises.

    Also the error codes a backend answers in band (none that is a contract's code).
    """
    limits = {**_DEFAULTS, **fixture.get("limits", {})}
    max_items, max_chars = int(limits["max_items"]), int(limits["max_item_chars"])
    projected: list[str] = []
    candidates: list[str] = []
    for script in fixture.get("tools", {}).values():
        responses = [*script.get("responses", []), script.get("default") or {}]
        for response in responses:
            if response.get("kind") == "failure":
                candidates.append(str(response.get("message", "")))
            if response.get("kind") == "in_band_error":
                candidates.append(str(response.get("code", "")))
            if response.get("kind") != "rows":
                continue
            texts = [str(item.get("text", "")) for item in response.get("items", [])]
            projected.extend(text[:max_chars] for text in texts[:max_items])
            candidates.extend(texts[max_items:])
            for text in texts[:max_items]:
                if len(text) > max_chars:
                    # The window across the cut (an off-by-one leak) and the text just past it.
                    candidates.append(text[max(0, max_chars - _WINDOW) : max_chars + 1])
                    candidates.append(text[max_chars : max_chars + _WINDOW])
    # Text an IUT may legitimately send: the projections, the user's message, the tool names (its
    # tool list and prompts name them) and everything the fixture scripts for the model side.
    scripted = {key: value for key, value in fixture.items() if key != "tools"}
    allowed = "\n".join(
        [
            *projected,
            str(fixture.get("user_message", "")),
            *fixture.get("tools", {}),
            json.dumps(scripted, ensure_ascii=False),
            vocabulary_text(),
        ]
    )
    # A needle whose text is allowed once its surrounding whitespace goes (a tool name and the
    # space after it) carries no payload character: only text the model could not otherwise get
    # shows a raw payload.
    return [
        c
        for c in candidates
        if len(c) >= _MIN_NEEDLE and c not in allowed and c.strip() not in allowed
    ]


def _chain_of_thought(found: Findings, call: _Input) -> None:
    for index, message in enumerate(call.messages):
        fields = sorted(COT_FIELDS & set(message.get("other_fields", {})))
        found.expect(
            not fields,
            f"{call.label}: message {index} carries chain-of-thought field(s) {fields}",
            rule=_COT,
        )


def check_model_inputs(observation: dict[str, Any], fixture: dict[str, Any]) -> CheckResult:
    """Check what every model call of the Run received; see the module docstring for the rules."""
    found = Findings("model inputs", _R0)
    inputs = _inputs(found, observation)
    priors = _prior_needles(fixture)
    raw = _raw_needles(fixture)
    _same_snapshot(found, inputs)
    for call in inputs:
        if call.component == "SEMANTIC_GUARD":
            _reviewer(found, call, fixture, observation)
        _repair_offers_no_tools(found, call)
        _chain_of_thought(found, call)
        text = _text(call.messages)
        for run_id, needle in priors:
            found.expect(
                needle not in text,
                f"{call.label}: text of earlier Run {run_id!r} "
                f"(not the selected previous turn) reached the model: {needle[:80]!r}",
                rule=_R7,
            )
        for needle in raw:
            found.expect(
                needle not in text,
                f"{call.label}: raw tool payload beyond the bounded "
                f"projection reached the model: {needle[:80]!r}",
                rule=_RAW,
            )
        found.expect(
            COT_CANARY not in text,
            f"{call.label}: a model's chain-of-thought was sent back to a model",
            rule=_COT,
        )
    output = _text(
        [
            observation.get("client_frames"),
            observation.get("runs"),
            observation.get("published_result"),
        ]
    )
    found.expect(
        COT_CANARY not in output,
        "a model's chain-of-thought reached the client or a run row",
        rule=_COT,
    )
    return found.result()
