"""Stable rule ids: what each check failure names, and the spec sentence it tests.

Every failure line a check records names one :class:`Rule` (``[R2.duplicate-id-rejected] …``), so
that a report, a mutant's kill and a spec sentence all point at the same id. A rule names the
requirement it serves (by requirement id, the kebab slug of the requirement name) and one or more
verbatim fragments of the spec's normative sentences (requirement bodies and scenario WHEN/THEN
bullets) that it tests; ``srdh trace`` maps every normative sentence to the rules quoting it.

Ids read ``R<n>.<slug>``: ``n`` is the requirement's position in the spec (1-10), ``slug`` a short
kebab name of the rule; ``R0`` rules belong to the kit's protocol (a valid observation), not to a
requirement. Ids are stable: rename one only together with every mutant and document
that names it.

Some rules rest on the frozen **contract** rather than on a spec sentence: the spec says that
missing ids are rejected, the contract says what the TOOL_CALL_REJECTED event records about it.
Such a rule quotes the contract documents it rests on (:attr:`Rule.contract`, each a verbatim
fragment of a frozen file: a schema's description, ``docs/contracts.md``, the design freeze's
``design.md``; a test keeps them true) and, when no spec sentence states it, no sentence at all:
``srdh trace`` then counts it for no sentence, and :attr:`Rule.basis` says ``contract``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "CONTRACT_SOURCES",
    "REQUIREMENT_IDS",
    "RULES",
    "ContractQuote",
    "Rule",
    "rule",
    "rule_ids_in",
]

_RULE_TAG: Final = re.compile(r"\[(R\d+\.[a-z0-9-]+)\]")

REQUIREMENT_IDS: Final = (
    "design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning",
    "tool-invocation-identity-shall-use-the-framework-tool-call-id",
    "invocation-status-and-evidence-status-shall-be-independent",
    "diagnosis-draft-shall-expose-typed-report-structure",
    "knowledge-answers-shall-use-exact-rag-bindings",
    "safe-fallback-shall-use-a-fixed-schema",
    "previous-turn-shall-come-from-a-safe-durable-run-result",
    "cancellation-shall-be-layered-and-observable",
    "retry-attempts-shall-be-owned-by-harness",
    "phase-gates-shall-remain-serial",
)
"""The spec's requirement ids in spec order: ``R<n>`` is ``REQUIREMENT_IDS[n - 1]``."""


CONTRACT_SOURCES: Final = (
    "docs/contracts.md",
    "openspec/changes/archive/2026-07-21-single-react-design-freeze/design.md",
    "schemas/",
)
"""Where a rule may quote the frozen contract: the contract sheet, the design freeze, a schema."""


@dataclass(frozen=True, slots=True)
class ContractQuote:
    """A verbatim fragment of a frozen contract document a rule rests on.

    Attributes:
        source: the document, relative to the repository root (under :data:`CONTRACT_SOURCES`;
            for a schema, ``schemas/<name>.schema.json``).
        text: the fragment, word for word (whitespace runs compare as one space).
    """

    source: str
    text: str


@dataclass(frozen=True, slots=True)
class Rule:
    """One checkable rule of the spec.

    Attributes:
        id: ``R<n>.<slug>``, stable.
        summary: the rule in one sentence, as a failure report states it.
        sentences: verbatim fragments of the spec's normative sentences this rule tests (each
            occurs in exactly one sentence of the spec; a test keeps them true).
        contract: fragments of the frozen contract documents the rule rests on where the spec's
            sentences do not fix what it checks (a violation code, an event field's meaning).
    """

    id: str
    summary: str
    sentences: tuple[str, ...]
    contract: tuple[ContractQuote, ...] = ()

    @property
    def basis(self) -> str:
        """What the rule rests on: ``spec``, ``contract``, ``spec+contract``, ``protocol`` (R0)."""
        if self.requirement_id is None:
            return "protocol"
        if self.sentences and self.contract:
            return "spec+contract"
        return "contract" if self.contract else "spec"

    @property
    def requirement_id(self) -> str | None:
        """The id of the requirement ``R<n>`` names; ``None`` for an ``R0`` protocol rule."""
        number = int(self.id[1:].split(".", 1)[0])
        return REQUIREMENT_IDS[number - 1] if number else None


_R1_BODY = "Diagnosis Agent as the only diagnosis report author"
_R2_BODY = "reject missing, invalid, or duplicate IDs within a Run"
_R3_BODY = "PROJECTING/READY/ERROR as invocation lifecycle states"
_R4_BODY = "without exposing chain-of-thought or raw Tool payloads"
_R6_BODY = "SHALL exclude unvalidated Draft content and internal errors"
_R7_BODY = "exclude fallback, failed and cancelled Runs from Diagnosis previous-turn selection"
_R8_BODY = "distinguish cancellation request, prevention of new work, framework interruption"
_R9_BODY = "Harness explicitly owns any allowed Router or SemanticGuard retry"

_RULES: Final = (
    Rule(
        "R1.harness-holds-no-forbidden-responsibility",
        "no Harness contract assigns Planner, Executor, Composer, workflow routing or diagnosis "
        "reasoning to the Harness",
        ("no Harness contract assigns Planner, Executor, Composer, workflow routing",),
    ),
    Rule(
        "R1.step-budget",
        "the Harness takes no tool call of an agent step beyond the Run's step budget "
        "(limits.max_steps)",
        ("Harness as deterministic execution control",),
        (
            ContractQuote("docs/contracts.md", "max_steps?: int>=1 (default 8)"),
            ContractQuote("docs/contracts.md", "Agent steps: each `tool_calls` turn is one step"),
        ),
    ),
    Rule(
        "R1.released-is-agent-authored",
        "a released draft or answer is canonical-JSON-identical to one the agent submitted and "
        "that passed validation",
        (_R1_BODY,),
    ),
    Rule(
        "R1.deterministic-control",
        "the same fixture gives the same normalized trace",
        ("Harness as deterministic execution control",),
    ),
    Rule(
        "R2.tool-call-identity",
        "missing, invalid and duplicate Tool Call IDs are rejected with their reason, never "
        "executed, and the first canonical invocation is never overwritten",
        (_R2_BODY, "prohibits overwriting the first canonical invocation"),
    ),
    Rule(
        "R3.no-evidence-invocation",
        "a successful zero-match query is invocation READY and evidence NO_EVIDENCE",
        ("invocation status is READY and evidence status is NO_EVIDENCE",),
    ),
    Rule(
        "R3.in-band-error",
        "a backend's in-band error is invocation READY with evidence status ERROR",
        (_R3_BODY,),
    ),
    Rule(
        "R3.no-evidence-citation",
        "a cited NO_EVIDENCE result is a NEGATIVE_OBSERVATION bounded to the Tool query scope",
        ("the Analysis kind MUST be NEGATIVE_OBSERVATION and MUST remain bounded",),
    ),
    Rule(
        "R4.analysis-structure",
        "every Analysis has a unique analysis ID, a fixed Analysis kind and a Tool Call ID",
        ("every Analysis has a unique analysis ID, a fixed Analysis kind",),
    ),
    Rule(
        "R4.rejected-then-repaired",
        "a draft the EvidenceGuard rejects is never released; only a valid repair may be",
        (_R4_BODY,),
    ),
    Rule(
        "R5.fabricated-citation-rejected",
        "an answer citing a document id the lookup did not return is rejected, never published",
        (
            "later Harness validation rejects the answer instead of publishing",
            # the check fails an answer whose reference names a document id its lookup did not
            # return: it tests that references identify returned document IDs (body sentence)
            "returned document IDs",
        ),
    ),
    Rule(
        "R6.fallback-fixed-schema",
        "a Safe Fallback is the fixed catalogue entry of its type, with no draft text or "
        "internal error",
        (_R6_BODY,),
    ),
    Rule(
        "R6.evidence-validation-failed",
        "initial validation and the single structural repair both failing gives "
        "EVIDENCE_VALIDATION_FAILED with empty verified sources",
        ("the fallback type is EVIDENCE_VALIDATION_FAILED and verified sources are empty",),
    ),
    Rule(
        "R6.one-structural-repair",
        "the agent gets exactly one no-Tool structural repair",
        ("the single no-Tool structural repair both fail",),
    ),
    Rule(
        "R6.semantic-outcome-fallback",
        "the SemanticGuard's last allowed attempt decides: SUPPORTED releases, UNSUPPORTED falls "
        "back SEMANTIC_UNSUPPORTED, an invalid, unavailable or timed-out review falls back "
        "SEMANTIC_UNAVAILABLE",
        ("semantic unsupported and semantic unavailable outcomes",),
    ),
    Rule(
        "R7.previous-turn-selection",
        "the previous turn is the latest DIAGNOSIS + SUCCESS Run; newer Runs are skipped with "
        "their reason, listed newest first",
        (_R7_BODY, "selection continues to the latest eligible DIAGNOSIS + SUCCESS Run"),
        (
            ContractQuote(
                "openspec/changes/archive/2026-07-21-single-react-design-freeze/design.md",
                "Skipped Runs are listed newest first, at most",
            ),
        ),
    ),
    Rule(
        "R7.same-session-selection",
        "only Runs of the same session are selected or skipped as the previous turn",
        ("the latest same-session Run ended with FALLBACK",),
    ),
    Rule(
        "R7.prior-runs-untouched",
        "earlier Runs stay as they were and the Run's seq follows the session's",
        ("SHALL exclude fallback, failed and cancelled Runs",),
    ),
    Rule(
        "R7.durable-run-outcome",
        "the Run's diagnosis_run row holds its terminal state and exactly the published result "
        "the client received",
        ("diagnosis_run as the durable source of intent, release outcome and safe published",),
    ),
    Rule(
        "R8.layered-cancellation",
        "a disconnect is recorded layer by layer: cancel request, new work prevented, "
        "interruption, cancelled terminal state, late result discarded",
        (_R8_BODY, "requests interruption, records an internal cancelled terminal state"),
    ),
    Rule(
        "R8.cancelled-releases-nothing",
        "a cancelled Run releases nothing",
        ("the system prevents later Draft release",),
    ),
    Rule(
        "R8.disconnect-noticed",
        "a client disconnect before the release is noticed at the Harness's next wait: "
        "CANCEL_REQUESTED follows with at most one model or tool call started meanwhile",
        ("distinguish cancellation request",),
    ),
    Rule(
        "R8.tool-work-cancelled",
        "tool work in flight when the Run is cancelled is cancelled and recorded "
        "(TOOL_WORK_CANCELLED, invocation ERROR); its late result never makes it READY",
        ("cancellable Tool work",),
    ),
    Rule(
        "R8.model-call-timeout",
        "a model call still blocked after model_call_timeout_ms ends TIMEOUT by the Harness's own "
        "timeout and its late answer is discarded",
        ("HTTP timeout for already-blocking synchronous model calls",),
    ),
    Rule(
        "R9.attempts-bounded",
        "the Harness makes at most the attempts its retry policy allows, each recorded",
        (_R9_BODY,),
    ),
    Rule(
        "R9.semantic-retry-same-snapshot",
        "a second SemanticGuard attempt reuses the same verified snapshot, whatever ended the "
        "first (INVALID_SCHEMA or UNAVAILABLE); both are recorded",
        ("one second attempt with the same verified snapshot and records both attempts",),
    ),
    Rule(
        "R9.failed-run",
        "a Run whose Router or agent stays unavailable fails with the fixed public error",
        ("while Harness explicitly owns any allowed Router",),
    ),
    Rule(
        "R9.model-call-outcome",
        "every attempt is recorded with the outcome its answer gives (VALID, INVALID_SCHEMA, "
        "UNAVAILABLE, TIMEOUT; CANCELLED only once the Run is cancelled)",
        ("underlying SDK, HTTP and database retry layers to execute one attempt",),
    ),
    Rule(
        "R9.retry-as-declared",
        "the Router and the SemanticGuard get a second attempt only when the retry is declared "
        "(ROUTER_RETRY, SEMANTIC_RETRY) and the first ended INVALID_SCHEMA or UNAVAILABLE; a "
        "declared retry may be taken after either or both (a Run that does not take it is "
        "judged by the one-attempt policy and reports the turns left for it)",
        (_R9_BODY,),
    ),
    Rule(
        "R10.serial-cutover",
        "the public Chat entry stays on the old path until stage 6B is allowed",
        (
            "the public Chat entry remains on the old path and stage 6B cutover is prohibited",
            # the check requires the phase plan's change orders to be exactly 1..11 (serial)
            "The implementation plan SHALL contain eleven independent OpenSpec changes",
        ),
    ),
    Rule(
        "R1.reviewer-isolated-single-turn",
        "each SemanticGuard call offers no tools and holds one user message: the Verified "
        "Snapshot as JSON (a string or OpenAI text parts), with at most instructions around it "
        "and no text of the conversation (no history); other instructions have role `system` or "
        "`developer`",
        ("SemanticGuard as an isolated single-turn semantic reviewer",),
    ),
    Rule(
        "R4.no-raw-payload-to-model",
        "no model call receives a backend row beyond the bounded projection or a tool's raised "
        "message",
        (_R4_BODY,),
    ),
    Rule(
        "R4.no-chain-of-thought",
        "no message sent to a model carries a chain-of-thought field, and a model's "
        "chain-of-thought reaches neither a later model call nor any output",
        (_R4_BODY,),
    ),
    Rule(
        "R7.previous-turn-context-only",
        "no model call receives text of an earlier Run other than the selected previous turn "
        "(failed, cancelled, fallback, other sessions' Runs, user texts included)",
        (_R7_BODY,),
    ),
    Rule(
        "R9.one-http-attempt-per-model-attempt",
        "over the kit's model endpoint each component receives exactly one HTTP request per "
        "model-call attempt (no SDK or HTTP retry)",
        ("require underlying SDK, HTTP and database retry layers to execute one attempt",),
    ),
    Rule(
        "R0.model-input-reported",
        "the observation shows what every model-call attempt received (model_calls, or the "
        "kit's model endpoint)",
        (),
    ),
    # -- the evidence and release outcome oracle (conformance.checks._outcome) ------------------
    Rule(
        "R1.evidence-guard-verdict",
        "EvidenceGuard accepts exactly the submissions that break no evidence rule of the "
        "contract sheet, and rejects every one that breaks one",
        ("EvidenceGuard as deterministic evidence validation",),
    ),
    Rule(
        "R3.invocation-lifecycle",
        "every accepted call's invocation is observed PROJECTING, then moves exactly once to "
        "READY or ERROR, and its record is that terminal state",
        (_R3_BODY,),
    ),
    Rule(
        "R3.invocation-outcome",
        "the invocation and evidence status follow the backend's outcome: rows are READY with "
        "EVIDENCE_FOUND or NO_EVIDENCE, an in-band error READY with ERROR, a raised error ERROR "
        "with ERROR",
        ("EVIDENCE_FOUND/NO_EVIDENCE/ERROR as evidence result states",),
    ),
    Rule(
        "R3.evidence-citation",
        "an analysis never cites ERROR evidence, a NEGATIVE_OBSERVATION cites only NO_EVIDENCE "
        "results and an OBSERVATION cites at least one EVIDENCE_FOUND result",
        ("EVIDENCE_FOUND/NO_EVIDENCE/ERROR as evidence result states",),
    ),
    Rule(
        "R4.tool-call-bindings",
        "every Tool Call ID a draft cites is an accepted invocation of this Run and every "
        "analysis id it names exists; each bad binding is rejected at its JSON pointer",
        ("action plan, recommendations, limitations and Tool Call bindings",),
    ),
    Rule(
        "R4.bounded-projection",
        "a projection keeps at most max_items items, each cut to max_item_chars and (for a lookup) "
        "labelled with its own row's document id, with the backend's total_matched, and is marked "
        "truncated iff it left something out",
        (_R4_BODY,),
    ),
    Rule(
        "R5.exact-rag-bindings",
        "a Knowledge Answer names the single lookup call of the Run, cites only document ids it "
        "returned (exactly, case included), and is not empty when documents were found",
        ("references identify the single lookup Tool Call and returned document IDs",),
    ),
    Rule(
        "R6.repair-offers-no-tools",
        "the structural repair request offers no tool and the repair executes none: a repair "
        "answer that calls tools is a failed repair and its calls are never executed",
        ("the single no-Tool structural repair",),
    ),
    Rule(
        "R6.release-outcome",
        "the Run ends with the outcome its verdicts fix: SUCCESS with the validated, supported "
        "submission, or the fallback type of the failure (EVIDENCE_VALIDATION_FAILED, "
        "SEMANTIC_UNSUPPORTED)",
        ("stable fallback types for evidence validation failure, semantic unsupported",),
    ),
    # -- the Verified Snapshot and the Safe Fallback's verified sources (surv-evidence) ----------
    Rule(
        "R1.snapshot-holds-cited-evidence",
        "the Verified Snapshot a SemanticGuard call reviews holds the agent's validated body and "
        "exactly the projections of the READY invocations that body cites, as the canonical "
        "invocations hold them",
        ("SemanticGuard as an isolated single-turn semantic reviewer",),
    ),
    Rule(
        "R6.fallback-verified-sources",
        "a SEMANTIC_UNSUPPORTED or SEMANTIC_UNAVAILABLE fallback lists as verified sources exactly "
        "the READY invocations the validated body cites (each once, as its canonical invocation): "
        "no uncited, failed or unknown call, none left out",
        (_R6_BODY, "semantic unsupported and semantic unavailable outcomes"),
    ),
    # -- late results, tool stops, durable intent, safe errors (helper "surv-runtime") ----------
    Rule(
        "R8.late-result-discarded",
        "once the Run is cancelled, a model answer that arrives late is recorded discarded "
        "(LATE_RESULT_DISCARDED) and nothing is done with it: no routing, tool call, EvidenceGuard "
        "validation, structural repair, SemanticGuard verdict or release follows the cancellation",
        ("discards any late model result",),
    ),
    Rule(
        "R8.tool-stop-recorded",
        "tool work the Run's cancellation stops ends ERROR with code CANCELLED, tool work its "
        "timeout stops ends ERROR with code TOOL_TIMEOUT; CANCELLED is never recorded for work "
        "the Run's cancellation did not stop",
        ("cancellable Tool work",),
    ),
    Rule(
        "R8.late-tool-result-discarded",
        "a tool answer that arrives after its work was stopped (the Run's cancellation or the "
        "tool timeout) is discarded: never projected, classified (EVIDENCE_CLASSIFIED) or sent to "
        "a model",
        ("cancellable Tool work",),
    ),
    Rule(
        "R7.durable-run-intent",
        "the Run's diagnosis_run row holds its own session, seq and user message and the intent "
        "the Router decided (null only when the Run was never routed)",
        ("diagnosis_run as the durable source of intent",),
    ),
    Rule(
        "R6.internal-error-excluded",
        "no text of a tool's raised error reaches the Run's records (invocations and their "
        "safe_message, run rows, trace, published result) or its client: an invocation's error "
        "carries the Harness's own safe message",
        (_R6_BODY,),
    ),
    Rule(
        "R6.in-band-error-excluded",
        "no error code a tool backend answered in band (a result carrying an error, not a raise) "
        "reaches the Run's records (invocations and their safe_message, run rows, trace, "
        "published result) or its client: the invocation's error is BACKEND_ERROR with the "
        "Harness's own safe message",
        (_R6_BODY,),
        (
            ContractQuote(
                "schemas/tool-invocation.schema.json",
                "A safe message; never raw exception or backend text.",
            ),
            ContractQuote(
                "openspec/changes/archive/2026-07-21-single-react-design-freeze/design.md",
                "raw payloads never leave the Harness",
            ),
        ),
    ),
    Rule(
        "R0.valid-observation",
        "the observation, its trace events and its run rows are valid contract documents",
        (),
    ),
    # -- what the frozen contracts define beyond the spec's sentences (._contract_details) -----
    Rule(
        "R2.rejected-presented-id",
        "a TOOL_CALL_REJECTED event's presented_id is the JSON text of the id as presented "
        "(cut to 160 characters), null exactly when the id was absent",
        (),
        (
            ContractQuote(
                "schemas/run-trace-event.schema.json",
                "JSON text of the presented id (<= 160 chars), null if absent.",
            ),
            ContractQuote(
                "docs/contracts.md", "JSON text of the presented value, ≤ 160 chars, null if absent"
            ),
        ),
    ),
    Rule(
        "R1.validated-body-kind",
        "DRAFT_SUBMITTED and EVIDENCE_VALIDATION name the kind of body the Run's intent fixes: "
        "DIAGNOSIS_DRAFT in a DIAGNOSIS Run, KNOWLEDGE_ANSWER in a KNOWLEDGE_QUERY Run",
        (),
        (
            ContractQuote("schemas/run-trace-event.schema.json", "Kind of the submitted body."),
            ContractQuote("schemas/run-trace-event.schema.json", "Kind of the validated body."),
        ),
    ),
    Rule(
        "R4.missing-binding-code",
        "an analysis without Tool Call IDs (empty or absent) is reported as "
        "MISSING_TOOL_CALL_IDS at its pointer, not only as SCHEMA_INVALID",
        (),
        (
            ContractQuote(
                "openspec/changes/archive/2026-07-21-single-react-design-freeze/design.md",
                "each violation a stable code and an RFC 6901 pointer: schema invalid, duplicate "
                "analysis id, analysis without Tool Call IDs",
            ),
            ContractQuote("schemas/run-trace-event.schema.json", "EvidenceGuard violation codes"),
        ),
    ),
    Rule(
        "R5.item-without-references-code",
        "a knowledge item without references (empty or absent) is reported as "
        "ITEM_WITHOUT_REFERENCES at its pointer, not only as SCHEMA_INVALID",
        (),
        (
            ContractQuote(
                "openspec/changes/archive/2026-07-21-single-react-design-freeze/design.md",
                "fabricated document id, item without references",
            ),
            ContractQuote("schemas/run-trace-event.schema.json", "EvidenceGuard violation codes"),
        ),
    ),
    Rule(
        "R2.invocation-run-id",
        "every canonical invocation's run_id is the Run it belongs to (the observed Run's id, "
        "not its session's)",
        (),
        (
            ContractQuote(
                "schemas/tool-invocation.schema.json", "The Run this invocation belongs to."
            ),
        ),
    ),
    Rule(
        "R2.rejected-tool-name",
        "a TOOL_CALL_REJECTED event's tool_name is the tool name the rejected call presented",
        (),
        (
            ContractQuote(
                "schemas/run-trace-event.schema.json", "The presented tool name, or null."
            ),
        ),
    ),
    Rule(
        "R6.repair-sends-violations",
        "STRUCTURAL_REPAIR_REQUESTED holds every violation of the failed EvidenceGuard "
        "validation it repairs",
        (),
        (
            ContractQuote(
                "schemas/run-trace-event.schema.json", "The violations sent to the agent."
            ),
        ),
    ),
    Rule(
        "R9.call-index-per-component",
        "each component numbers its logical model calls 1, 2, ... in the order they start, "
        "whatever their purpose",
        (),
        (
            ContractQuote(
                "schemas/run-trace-event.schema.json",
                "The n-th logical call of that component in the Run, from 1.",
            ),
        ),
    ),
    Rule(
        "R9.verdict-after-valid-review",
        "a SEMANTIC_VERDICT is recorded only for a SemanticGuard attempt that finished VALID, "
        "after it",
        (),
        (
            ContractQuote(
                "schemas/run-trace-event.schema.json", "SemanticGuard gave a valid verdict."
            ),
        ),
    ),
    Rule(
        "R7.skip-report-cap",
        "when more than 100 newer Runs were passed over, PREVIOUS_TURN_SELECTED lists the "
        "newest 100 of them, newest first",
        (),
        (
            ContractQuote(
                "docs/contracts.md",
                "the newer Runs passed over are reported with a skip reason (newest first, at "
                "most 100)",
            ),
        ),
    ),
    # -- trace fields derived from other records, SSE frames, tool error codes (helper "frames")
    Rule(
        "R2.accepted-call-recorded",
        "TOOL_CALL_ACCEPTED and the canonical invocation record the accepted call's tool, agent "
        "step and acceptance order (1, 2, … over the Run's accepted calls; rejected calls are not "
        "counted)",
        (),
        (
            ContractQuote(
                "schemas/run-trace-event.schema.json", "Acceptance order within the Run, from 1."
            ),
            ContractQuote("schemas/run-trace-event.schema.json", "Agent step, from 1."),
            ContractQuote(
                "docs/contracts.md",
                "sequence: int>=1 (acceptance order in the Run), step: int>=1 (agent step)",
            ),
        ),
    ),
    Rule(
        "R3.classified-as-projected",
        "EVIDENCE_CLASSIFIED states its READY invocation's evidence status and its projection's "
        "item count, total matched and truncated flag; every READY invocation is classified once",
        (),
        (
            ContractQuote("schemas/run-trace-event.schema.json", "Number of projected items."),
            ContractQuote("schemas/run-trace-event.schema.json", "Items the backend matched."),
            ContractQuote(
                "schemas/run-trace-event.schema.json", "Whether the projection was truncated."
            ),
            ContractQuote(
                "openspec/changes/archive/2026-07-21-single-react-design-freeze/design.md",
                "EVIDENCE_CLASSIFIED only for READY",
            ),
        ),
    ),
    Rule(
        "R3.malformed-arguments-error",
        "an accepted call whose arguments give no query scope ({target, time_range {start_ms <= "
        "end_ms}, query}) is never executed and ends ERROR/ERROR with code INVALID_ARGUMENTS; "
        "INVALID_ARGUMENTS is the code of nothing else; every invocation keeps its arguments as "
        "presented (extra members included)",
        (),
        (
            ContractQuote(
                "schemas/tool-invocation.schema.json",
                "kept as presented so that INVALID_ARGUMENTS can be recorded",
            ),
            ContractQuote(
                "openspec/changes/archive/2026-07-21-single-react-design-freeze/design.md",
                "Malformed arguments end the invocation ERROR/ERROR `INVALID_ARGUMENTS`",
            ),
            ContractQuote(
                "docs/contracts.md",
                "the Harness expects `{target, time_range: {start_ms, end_ms}, query}` (QueryScope "
                "minus `tool`) and derives the projection's `query_scope` from them",
            ),
            ContractQuote(
                "docs/contracts.md", "Invariant `time-range-order`: `end_ms >= start_ms`"
            ),
        ),
    ),
    Rule(
        "R7.trace-agrees-with-run",
        "RUN_STARTED names the Run's session; RESULT_RELEASED is emitted once, exactly when a "
        "result is published, with its kind; RUN_FINISHED's fallback_type and error_code are the "
        "diagnosis_run row's",
        (),
        (
            ContractQuote(
                "schemas/run-trace-event.schema.json", "Fallback type of a FALLBACK Run."
            ),
            ContractQuote("schemas/run-trace-event.schema.json", "Error code of a FAILED Run."),
            ContractQuote(
                "openspec/changes/archive/2026-07-21-single-react-design-freeze/design.md",
                "RESULT_RELEASED also for fallbacks and public errors",
            ),
        ),
    ),
    Rule(
        "R7.client-stream",
        "the client receives every trace event, in order, as a run_event frame equal to it "
        "(ts_ms aside), the published result as one result frame after RESULT_RELEASED's frame "
        "and before RUN_FINISHED's, and an end frame {state} last (up to a disconnect)",
        (),
        (
            ContractQuote(
                "openspec/changes/archive/2026-07-21-single-react-design-freeze/design.md",
                "then RESULT_RELEASED → `result` frame → RUN_FINISHED → `end`",
            ),
            ContractQuote(
                "docs/contracts.md",
                "SSE frames: `run_event` carries a RunTraceEvent; `result` carries the "
                "PublishedResult; `end` carries `{state}`.",
            ),
            ContractQuote(
                "schemas/run-observation.schema.json", "SSE frames the client received, in order."
            ),
        ),
    ),
    Rule(
        "R8.nothing-after-disconnect",
        "a client that disconnected receives nothing more: its frames end with the frame it "
        "disconnected on",
        ("an SSE client disconnects",),
        (
            ContractQuote(
                "schemas/scenario-fixture.schema.json", "Disconnect after the n-th event of a type."
            ),
        ),
    ),
)

RULES: Final[Mapping[str, Rule]] = MappingProxyType({r.id: r for r in _RULES})
"""Every rule by id."""


def rule(rule_id: str) -> Rule:
    """Return the rule ``rule_id``.

    Raises:
        KeyError: no such rule (a check names an id that is not registered).
    """
    try:
        return RULES[rule_id]
    except KeyError:
        message = f"unknown check rule id {rule_id!r}: register it in conformance.checks._rules"
        raise KeyError(message) from None


def rule_ids_in(text: str) -> tuple[str, ...]:
    """Return the registered rule ids a failure text names (``[R2.…]`` tags), first-seen order.

    Reports and the mutant self-test use it to read which rules a failure over any adapter named.
    """
    found = (m.group(1) for m in _RULE_TAG.finditer(text))
    return tuple(dict.fromkeys(i for i in found if i in RULES))
