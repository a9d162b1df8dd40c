"""Builders for Scenario Fixtures and helpers to run them through the reference Harness IUT.

Every test builds a fixture dict (the contract sheet's ``ScenarioFixture``), runs it through
``reference_harness.iut`` (which validates the fixture and the observation against their
contracts) and asserts the THEN of a rule on the observation.
"""

from __future__ import annotations

import asyncio
import copy
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest

from contracts import DiagnosisRun, validate_document
from reference_harness import CancelScope, Harness, Limits, RunJournal, ScriptedPorts
from reference_harness.iut import create
from reference_harness.store import RunStore

if TYPE_CHECKING:
    from pathlib import Path

START_MS = 1_767_225_000_000
FIFTEEN_MIN_MS = 15 * 60 * 1000


class H:
    """Fixture builders and observation helpers (one instance per test)."""

    start_ms = START_MS
    end_ms = START_MS + FIFTEEN_MIN_MS

    # ----------------------------------------------------------------- tool calls
    @staticmethod
    def args(
        target: str = "checkout",
        query: str = "error",
        start: int = START_MS,
        end: int = START_MS + FIFTEEN_MIN_MS,
    ) -> dict[str, Any]:
        return {"target": target, "time_range": {"start_ms": start, "end_ms": end}, "query": query}

    @classmethod
    def scope(cls, tool: str = "search_logs", **kwargs: Any) -> dict[str, Any]:
        return {"tool": tool, **cls.args(**kwargs)}

    _ABSENT = object()

    @classmethod
    def call(
        cls, call_id: Any = "call_1", name: str = "search_logs", arguments: Any = None
    ) -> dict[str, Any]:
        result: dict[str, Any] = {
            "name": name,
            "arguments": cls.args() if arguments is None else arguments,
        }
        if call_id is not cls._ABSENT:
            result["id"] = call_id
        return result

    @classmethod
    def no_id_call(cls, name: str = "search_logs") -> dict[str, Any]:
        return cls.call(cls._ABSENT, name)

    @staticmethod
    def tool_calls(*calls: dict[str, Any]) -> dict[str, Any]:
        return {"kind": "tool_calls", "tool_calls": list(calls)}

    # ----------------------------------------------------------------- drafts
    @staticmethod
    def analysis(
        analysis_id: str = "a1",
        ids: tuple[str, ...] = ("call_1",),
        kind: str = "OBSERVATION",
        scope: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        result: dict[str, Any] = {
            "analysis_id": analysis_id,
            "kind": kind,
            "statement": f"Statement of {analysis_id}.",
            "tool_call_ids": list(ids),
        }
        if scope is not None:
            result["scope"] = scope
        return result

    @classmethod
    def draft(cls, *analyses: dict[str, Any]) -> dict[str, Any]:
        chosen = list(analyses) or [cls.analysis()]
        return {
            "conclusion": {
                "summary": "Checkout errors rose after the deploy.",
                "confidence": "MEDIUM",
                "analysis_ids": [a["analysis_id"] for a in chosen],
            },
            "analyses": chosen,
            "action_plan": [{"action": "Roll back.", "analysis_ids": [chosen[0]["analysis_id"]]}],
            "recommendations": [],
            "limitations": [],
        }

    @staticmethod
    def draft_turn(draft: Any) -> dict[str, Any]:
        return {"kind": "draft", "draft": draft}

    @staticmethod
    def knowledge(lookup_id: str = "call_1", docs: tuple[str, ...] = ("d1",)) -> dict[str, Any]:
        return {
            "lookup_tool_call_id": lookup_id,
            "items": [
                {
                    "item_id": "i1",
                    "text": "Restart the pod.",
                    "references": [{"tool_call_id": lookup_id, "document_id": d} for d in docs],
                }
            ],
            "limitations": [],
        }

    @staticmethod
    def answer_turn(answer: Any) -> dict[str, Any]:
        return {"kind": "knowledge_answer", "answer": answer}

    # ----------------------------------------------------------------- reviewer
    @staticmethod
    def supported() -> dict[str, Any]:
        return {
            "kind": "verdict",
            "verdict": {"verdict": "SUPPORTED", "unsupported_analysis_ids": []},
        }

    @staticmethod
    def unsupported(*ids: str) -> dict[str, Any]:
        verdict = {"verdict": "UNSUPPORTED", "unsupported_analysis_ids": list(ids or ("a1",))}
        return {"kind": "verdict", "verdict": verdict}

    # ----------------------------------------------------------------- tools
    @staticmethod
    def rows(*texts: str, total: int | None = None) -> dict[str, Any]:
        items = [{"text": t} for t in texts]
        return {
            "kind": "rows",
            "items": items,
            "total_matched": len(items) if total is None else total,
        }

    @staticmethod
    def doc_rows(*ids: str) -> dict[str, Any]:
        items = [{"text": f"Document {d}.", "document_id": d} for d in ids]
        return {"kind": "rows", "items": items, "total_matched": len(items)}

    @staticmethod
    def tools(**responses: list[dict[str, Any]]) -> dict[str, Any]:
        return {name: {"responses": list(turns)} for name, turns in responses.items()}

    # ----------------------------------------------------------------- fixtures
    @classmethod
    def fixture(cls, **overrides: Any) -> dict[str, Any]:
        """A DIAGNOSIS fixture: one search_logs call with a hit, a valid draft, SUPPORTED."""
        base: dict[str, Any] = {
            "fixture_id": "harness-test",
            "session_id": "session-1",
            "prior_runs": [],
            "user_message": "Why is checkout failing?",
            "router": [{"kind": "intent", "intent": "DIAGNOSIS"}],
            "agent": [cls.tool_calls(cls.call()), cls.draft_turn(cls.draft())],
            "semantic_guard": [cls.supported()],
            "tools": cls.tools(search_logs=[cls.rows("HTTP 500 on /pay")]),
            "client": {},
            "limits": {},
            "perturbations": [],
        }
        base.update(copy.deepcopy(overrides))
        return base

    @staticmethod
    def prior_run(
        run_id: str,
        seq: int,
        state: str,
        intent: str | None = "DIAGNOSIS",
        published: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        result: dict[str, Any] | None = published
        fallback_type = None
        error_code = None
        if state == "SUCCESS" and published is None:
            result = {"kind": "DIAGNOSIS_DRAFT", "diagnosis_draft": H.draft()}
        if state == "FALLBACK":
            fallback_type = "EVIDENCE_VALIDATION_FAILED"
            result = {
                "kind": "SAFE_FALLBACK",
                "safe_fallback": {
                    "fallback_type": fallback_type,
                    "message_code": "EVIDENCE_NOT_VERIFIED",
                    "verified_sources": [],
                },
            }
        if state == "FAILED":
            error_code = "AGENT_UNAVAILABLE"
            result = {"kind": "PUBLIC_ERROR", "public_error": {"error_code": error_code}}
        if state == "CANCELLED":
            result = None
        return {
            "run_id": run_id,
            "session_id": "session-1",
            "seq": seq,
            "user_message": f"message {seq}",
            "intent": intent,
            "state": state,
            "published_result": result,
            "fallback_type": fallback_type,
            "error_code": error_code,
            "created_at_ms": START_MS + seq * 1000,
            "finished_at_ms": START_MS + seq * 1000 + 500,
        }

    # ----------------------------------------------------------------- running
    @staticmethod
    def run(fixture: dict[str, Any]) -> dict[str, Any]:
        """Run through the IUT (fixture and observation are contract-validated there)."""
        iut = create()
        try:
            observation = iut.run(fixture)
        finally:
            iut.close()
        for event in observation["trace"]:
            assert validate_document(event, "run-trace-event") == [], event
        return observation

    @staticmethod
    def types(observation: dict[str, Any]) -> list[str]:
        return [event["type"] for event in observation["trace"]]

    @staticmethod
    def data(observation: dict[str, Any], event_type: str) -> list[dict[str, Any]]:
        return [e["data"] for e in observation["trace"] if e["type"] == event_type]

    @staticmethod
    def final_run(observation: dict[str, Any]) -> dict[str, Any]:
        runs = [r for r in observation["runs"] if r["run_id"] == observation["run_id"]]
        assert len(runs) == 1
        return runs[0]

    @staticmethod
    def invocation(observation: dict[str, Any], tool_call_id: str) -> dict[str, Any]:
        found = [i for i in observation["invocations"] if i["tool_call_id"] == tool_call_id]
        assert len(found) == 1, found
        return found[0]

    @staticmethod
    def attempts(observation: dict[str, Any], component: str) -> list[dict[str, Any]]:
        return [
            d for d in H.data(observation, "MODEL_CALL_FINISHED") if d["component"] == component
        ]

    @staticmethod
    def dumps(observation: dict[str, Any]) -> str:
        return json.dumps(observation, ensure_ascii=False)


@dataclass
class Direct:
    """The outcome of a Run driven directly through ``Harness`` (not through the IUT)."""

    row: DiagnosisRun
    journal: RunJournal
    ports: ScriptedPorts
    frames: list[dict[str, Any]] = field(default_factory=list)

    def types(self) -> list[str]:
        return [event["type"] for event in self.journal.events]


def run_direct(
    fixture: dict[str, Any],
    tmp_path: Path,
    *,
    sink: Any = None,
    scope: CancelScope | None = None,
    **harness_kwargs: Any,
) -> Direct:
    """Run ``fixture`` through a Harness on a real SQLite file under ``tmp_path``."""
    ports = ScriptedPorts.from_fixture(fixture)
    frames: list[dict[str, Any]] = []
    counter = iter(range(1, 1_000_000))
    clock = iter(range(START_MS + 100_000, START_MS + 10_000_000))
    store = RunStore(tmp_path / "runs.sqlite3")
    try:
        store.seed([DiagnosisRun.model_validate(r) for r in fixture["prior_runs"]])
        harness_kwargs.setdefault("limits", Limits(**fixture["limits"]))
        harness = Harness(
            store=store,
            router=harness_kwargs.pop("router", ports.router),
            agent=harness_kwargs.pop("agent", ports.agent),
            reviewer=harness_kwargs.pop("reviewer", ports.reviewer),
            tools=harness_kwargs.pop("tools", ports.tools),
            clock=lambda: next(clock),
            run_ids=lambda: f"direct-run-{next(counter)}",
            **harness_kwargs,
        )
        journal = RunJournal()
        row = asyncio.run(
            harness.run(
                fixture["session_id"],
                fixture["user_message"],
                sink=sink if sink is not None else frames.append,
                cancel=scope,
                journal=journal,
            )
        )
    finally:
        store.close()
    return Direct(row=row, journal=journal, ports=ports, frames=frames)


@pytest.fixture
def direct(tmp_path: Path) -> Any:
    """``direct(fixture, **kwargs)`` runs a fixture through ``Harness`` on a real SQLite file."""

    def runner(fixture: dict[str, Any], **kwargs: Any) -> Direct:
        return run_direct(fixture, tmp_path, **kwargs)

    return runner


@pytest.fixture
def h() -> type[H]:
    """The fixture builders."""
    return H
