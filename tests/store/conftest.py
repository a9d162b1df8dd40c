"""Fixtures for the diagnosis_run store tests: stores, published results, session builders."""

from __future__ import annotations

from typing import Any

import pytest

from contracts import PublishedResult
from reference_harness.store import RunStore

DRAFT = {
    "kind": "DIAGNOSIS_DRAFT",
    "diagnosis_draft": {
        "conclusion": {
            "summary": "Disk full on db-1",
            "confidence": "HIGH",
            "analysis_ids": ["a1"],
        },
        "analyses": [
            {
                "analysis_id": "a1",
                "kind": "OBSERVATION",
                "statement": "disk usage 100%",
                "tool_call_ids": ["call_1"],
            }
        ],
        "action_plan": [],
        "recommendations": [],
        "limitations": [],
    },
}
ANSWER = {
    "kind": "KNOWLEDGE_ANSWER",
    "knowledge_answer": {"lookup_tool_call_id": "call_9", "items": [], "limitations": []},
}
FALLBACK = {
    "kind": "SAFE_FALLBACK",
    "safe_fallback": {
        "fallback_type": "EVIDENCE_VALIDATION_FAILED",
        "message_code": "EVIDENCE_NOT_VERIFIED",
        "verified_sources": [],
    },
}


def public_error(code: str) -> dict[str, Any]:
    return {"kind": "PUBLIC_ERROR", "public_error": {"error_code": code}}


OUTCOMES = (
    "DIAGNOSIS_SUCCESS",
    "KNOWLEDGE_SUCCESS",
    "DIAGNOSIS_FALLBACK",
    "KNOWLEDGE_FALLBACK",
    "DIAGNOSIS_FAILED",
    "ROUTER_FAILED",
    "DIAGNOSIS_CANCELLED",
    "UNROUTED_CANCELLED",
    "DIAGNOSIS_RUNNING",
    "UNROUTED_RUNNING",
)
"""Every (intent, state) shape a Run can end up in."""


def finish(store: RunStore, run_id: str, outcome: str, now_ms: int = 2_000) -> None:
    """Drive a RUNNING Run to ``outcome`` through the public API."""
    intent_part, state_part = outcome.split("_")
    if intent_part in {"DIAGNOSIS", "KNOWLEDGE"}:
        store.set_intent(run_id, "DIAGNOSIS" if intent_part == "DIAGNOSIS" else "KNOWLEDGE_QUERY")
    if state_part == "RUNNING":
        return
    published: dict[str, Any] | None
    fallback_type = error_code = None
    if state_part == "SUCCESS":
        published = DRAFT if intent_part == "DIAGNOSIS" else ANSWER
    elif state_part == "FALLBACK":
        published, fallback_type = FALLBACK, "EVIDENCE_VALIDATION_FAILED"
    elif state_part == "FAILED":
        error_code = "ROUTER_UNAVAILABLE" if intent_part == "ROUTER" else "AGENT_UNAVAILABLE"
        published = public_error(error_code)
    else:
        published = None
    store.finish_run(
        run_id,
        state=state_part,  # type: ignore[arg-type]
        published_result=None if published is None else PublishedResult.model_validate(published),
        fallback_type=fallback_type,
        error_code=error_code,
        now_ms=now_ms,
    )


def build_session(store: RunStore, session_id: str, outcomes: list[str]) -> list[str]:
    """Create one Run per outcome (seq 1..n) and finish it; return the run ids."""
    run_ids = []
    for index, outcome in enumerate(outcomes, start=1):
        run_id = f"{session_id}-r{index}"
        store.create_run(run_id=run_id, session_id=session_id, user_message="m", now_ms=1_000)
        finish(store, run_id, outcome)
        run_ids.append(run_id)
    return run_ids


@pytest.fixture
def store():
    """An in-memory store (unit tests only)."""
    with RunStore(None) as opened:
        yield opened


@pytest.fixture
def db_path(tmp_path):
    """Path of a real SQLite database file."""
    return tmp_path / "runs.sqlite3"


@pytest.fixture(scope="session")
def helpers():
    """The builders above, for test modules (conftest is not importable under importlib mode)."""

    class Helpers:
        draft = DRAFT
        answer = ANSWER
        fallback = FALLBACK
        outcomes = OUTCOMES
        public_error = staticmethod(public_error)
        finish = staticmethod(finish)
        build_session = staticmethod(build_session)

    return Helpers
