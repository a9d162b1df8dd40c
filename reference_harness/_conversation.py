"""The messages the Harness sends the Diagnosis Agent (OpenAI-style chat messages).

The Harness writes no report text: these are fixed instructions, the user's message, the previous
turn's *published* result, the bounded projections of tool results, fixed rejection notices and,
for the structural repair, only the violation codes and pointers. Raw tool payloads, exception text
and unvalidated drafts of other Runs never appear.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Final

from contracts import canonical_json

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from contracts import DiagnosisRun

__all__ = [
    "SYSTEM_PROMPTS",
    "answer_message",
    "opening_messages",
    "rejection_message",
    "repair_message",
    "tool_step_messages",
]

Message = dict[str, Any]

SYSTEM_PROMPTS: Final[Mapping[str, str]] = {
    "DIAGNOSIS": (
        "You are the Diagnosis Agent of an AIOps service. Investigate the incident with the tools "
        "offered, then answer with one JSON Diagnosis Draft: conclusion, analyses (each with a "
        "unique analysis_id, a kind OBSERVATION, NEGATIVE_OBSERVATION or INFERENCE, and the "
        "tool_call_ids it rests on), action_plan, recommendations, limitations. Cite only tool "
        "calls of this conversation. A result with no evidence may only support a "
        "NEGATIVE_OBSERVATION whose scope stays within that query."
    ),
    "KNOWLEDGE_QUERY": (
        "You are the Diagnosis Agent of an AIOps service answering a knowledge question. Call "
        "lookup_documents exactly once, then answer with one JSON Knowledge Answer whose items "
        "reference that call's tool_call_id and only document ids it returned."
    ),
}

_REJECTION: Final[Mapping[str, str]] = {
    "MISSING_ID": "the tool call had no id",
    "INVALID_ID": "the tool call id was not a valid Tool Call ID",
    "DUPLICATE_ID": "the tool call id was already used in this run",
    "UNKNOWN_TOOL": "the tool name is not one of the offered tools",
}

_REPAIR: Final = (
    "Your answer failed evidence validation. Submit the corrected JSON document only; no tools are "
    "available. Violations (code and JSON pointer into your document): "
)


def _json_text(value: object) -> str:
    try:
        return canonical_json(value).decode("utf-8")
    except (TypeError, ValueError, OverflowError):  # e.g. an integer beyond IEEE 754 doubles
        return json.dumps(value, sort_keys=True, default=lambda _: None)


def opening_messages(
    intent: str, user_message: str, previous: DiagnosisRun | None
) -> list[Message]:
    """Return the system prompt, the previous turn (if any) and the user's message."""
    messages: list[Message] = [{"role": "system", "content": SYSTEM_PROMPTS[intent]}]
    if previous is not None and previous.published_result is not None:
        published = previous.published_result.model_dump(mode="json", exclude_none=True)
        messages.append({"role": "user", "content": previous.user_message})
        messages.append({"role": "assistant", "content": _json_text(published)})
    messages.append({"role": "user", "content": user_message})
    return messages


def tool_step_messages(records: Sequence[Mapping[str, Any]]) -> list[Message]:
    """Return the assistant message of one step's accepted calls and one tool message per call.

    A tool message carries the invocation's status, evidence status and bounded projection (or
    its error code) as canonical JSON.
    """
    if not records:
        return []
    calls = [
        {
            "id": record["tool_call_id"],
            "type": "function",
            "function": {
                "name": record["tool_name"],
                "arguments": json.dumps(record["arguments"], sort_keys=True),
            },
        }
        for record in records
    ]
    messages: list[Message] = [{"role": "assistant", "content": None, "tool_calls": calls}]
    for record in records:
        body: dict[str, Any] = {
            "status": record["status"],
            "evidence_status": record["evidence_status"],
        }
        if record["projection"] is not None:
            body["projection"] = record["projection"]
        if record["error"] is not None:
            body["error_code"] = record["error"]["code"]
        messages.append(
            {"role": "tool", "tool_call_id": record["tool_call_id"], "content": _json_text(body)}
        )
    return messages


def rejection_message(step: int, position: int, reason: str) -> Message:
    """Return the fixed notice that call ``position`` of ``step`` was rejected and not executed."""
    return {
        "role": "user",
        "content": (
            f"Tool call {position} of step {step} was rejected ({reason}: {_REJECTION[reason]}) "
            "and was not executed. Do not cite it."
        ),
    }


def answer_message(content: object) -> Message:
    """Return the assistant message holding the agent's final answer as it was submitted."""
    text = content if isinstance(content, str) else _json_text(content)
    return {"role": "assistant", "content": text}


def repair_message(request: Mapping[str, Any]) -> Message:
    """Return the repair instruction: fixed text plus the violation codes and pointers only."""
    return {"role": "user", "content": _REPAIR + _json_text(request)}
