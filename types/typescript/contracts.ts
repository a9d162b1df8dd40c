/* Generated from schemas/ by json-schema-to-typescript: do not edit. Regenerate with
 * `python -m contracts.codegen_typescript` (CI fails on drift; see docs/types.md). */

/**
 * One stdio NDJSON adapter protocol message, discriminated by type.
 */
export type AdapterMessage =
  HelloMessage | RunMessage | ObservationMessage | ErrorMessage | ByeMessage;
/**
 * Capability vocabulary.
 */
export type Capability =
  | "DIAGNOSIS"
  | "KNOWLEDGE_QUERY"
  | "PREVIOUS_TURN"
  | "CANCELLATION"
  | "SEMANTIC_RETRY"
  | "ROUTER_RETRY"
  | "STRUCTURAL_REPAIR"
  | "MODEL_ENDPOINT";
/**
 * Intent vocabulary.
 */
export type Intent = "DIAGNOSIS" | "KNOWLEDGE_QUERY";
/**
 * Run state vocabulary; all but RUNNING are terminal.
 */
export type RunState = "RUNNING" | "SUCCESS" | "FALLBACK" | "FAILED" | "CANCELLED";
/**
 * What a Run released: one of four bodies, discriminated by kind.
 */
export type PublishedResult =
  PublishedDiagnosisDraft | PublishedKnowledgeAnswer | PublishedSafeFallback | PublishedPublicError;
/**
 * Confidence vocabulary.
 */
export type Confidence = "LOW" | "MEDIUM" | "HIGH";
/**
 * Analysis kind vocabulary.
 */
export type AnalysisKind = "OBSERVATION" | "NEGATIVE_OBSERVATION" | "INFERENCE";
/**
 * A framework-provided Tool Call ID: 1-128 characters of [A-Za-z0-9._:-], starting with a letter or digit. Covers call_..., toolu_..., functions.get_weather:0, pyd_ai_... (spec: Tool call identity).
 */
export type ToolCallId = string;
/**
 * Tool name vocabulary; lookup_documents is the lookup tool.
 */
export type ToolName = "query_metrics" | "search_logs" | "list_alerts" | "lookup_documents";
/**
 * Fallback type vocabulary.
 */
export type FallbackType =
  "EVIDENCE_VALIDATION_FAILED" | "SEMANTIC_UNSUPPORTED" | "SEMANTIC_UNAVAILABLE";
/**
 * Message code vocabulary (fixed per fallback type).
 */
export type MessageCode = "EVIDENCE_NOT_VERIFIED" | "CLAIMS_NOT_SUPPORTED" | "REVIEW_UNAVAILABLE";
/**
 * Evidence status vocabulary.
 */
export type EvidenceStatus = "EVIDENCE_FOUND" | "NO_EVIDENCE" | "ERROR";
/**
 * Public error code vocabulary.
 */
export type PublicErrorCode = "ROUTER_UNAVAILABLE" | "AGENT_UNAVAILABLE" | "INTERNAL_ERROR";
/**
 * One scripted Router answer.
 */
export type RouterTurn =
  RouterIntentTurn | RouterRawTurn | RouterErrorTurn | RouterBlockUntilCancelledTurn;
/**
 * The failure.
 */
export type ModelTurnError = "UNAVAILABLE" | "TIMEOUT";
/**
 * Over the kit's model endpoint, the HTTP status an UNAVAILABLE answer gets (default 503); scripted ports ignore it.
 */
export type ModelTurnHttpStatus = 429 | 500 | 502 | 503 | 504;
/**
 * One scripted Diagnosis Agent answer.
 */
export type AgentTurn =
  | AgentToolCallsTurn
  | AgentDraftTurn
  | AgentKnowledgeAnswerTurn
  | AgentRawTurn
  | AgentErrorTurn
  | AgentBlockUntilCancelledTurn
  | AgentIgnoreCancellationTurn
  | AgentDraftAndToolCallsTurn;
/**
 * One scripted SemanticGuard answer.
 */
export type ReviewTurn =
  ReviewVerdictTurn | ReviewRawTurn | ReviewErrorTurn | ReviewBlockUntilCancelledTurn;
/**
 * One scripted tool backend result.
 */
export type ToolResponse =
  | RowsResponse
  | InBandErrorResponse
  | FailureResponse
  | OversizeResponse
  | BlockUntilCancelledResponse;
/**
 * Run trace event type vocabulary.
 */
export type TraceEventType =
  | "RUN_STARTED"
  | "PREVIOUS_TURN_SELECTED"
  | "INTENT_ROUTED"
  | "MODEL_CALL_STARTED"
  | "MODEL_CALL_FINISHED"
  | "TOOL_CALL_ACCEPTED"
  | "TOOL_CALL_REJECTED"
  | "INVOCATION_STATUS_CHANGED"
  | "EVIDENCE_CLASSIFIED"
  | "DRAFT_SUBMITTED"
  | "EVIDENCE_VALIDATION"
  | "STRUCTURAL_REPAIR_REQUESTED"
  | "SEMANTIC_VERDICT"
  | "CANCEL_REQUESTED"
  | "NEW_WORK_PREVENTED"
  | "INTERRUPT_REQUESTED"
  | "TOOL_WORK_CANCELLED"
  | "LATE_RESULT_DISCARDED"
  | "RESULT_RELEASED"
  | "RUN_FINISHED";
/**
 * Perturbations applied by a wrapper around a real model.
 */
export type Perturbation =
  | "DUPLICATE_FIRST_TOOL_CALL_ID"
  | "STRIP_DRAFT_BINDINGS"
  | "INVALID_FIRST_REVIEW"
  | "FABRICATE_DOCUMENT_ID"
  | "DISCONNECT_DURING_MODEL_CALL";
/**
 * One trace event, discriminated by type.
 */
export type RunTraceEvent =
  | RunStartedEvent
  | PreviousTurnSelectedEvent
  | IntentRoutedEvent
  | ModelCallStartedEvent
  | ModelCallFinishedEvent
  | ToolCallAcceptedEvent
  | ToolCallRejectedEvent
  | InvocationStatusChangedEvent
  | EvidenceClassifiedEvent
  | DraftSubmittedEvent
  | EvidenceValidationEvent
  | StructuralRepairRequestedEvent
  | SemanticVerdictEvent
  | CancelRequestedEvent
  | NewWorkPreventedEvent
  | InterruptRequestedEvent
  | ToolWorkCancelledEvent
  | LateResultDiscardedEvent
  | ResultReleasedEvent
  | RunFinishedEvent;
/**
 * Why a newer Run was passed over as previous turn.
 */
export type SkipReason =
  | "INTENT_KNOWLEDGE_QUERY"
  | "STATE_RUNNING"
  | "STATE_FALLBACK"
  | "STATE_FAILED"
  | "STATE_CANCELLED";
/**
 * Components that make model calls.
 */
export type ModelComponent = "ROUTER" | "DIAGNOSIS_AGENT" | "SEMANTIC_GUARD";
/**
 * Model call purpose vocabulary.
 */
export type ModelCallPurpose = "ROUTE" | "AGENT_STEP" | "STRUCTURAL_REPAIR" | "SEMANTIC_REVIEW";
/**
 * Attempt outcome vocabulary.
 */
export type AttemptOutcome = "VALID" | "INVALID_SCHEMA" | "UNAVAILABLE" | "TIMEOUT" | "CANCELLED";
/**
 * Tool call rejection reason vocabulary.
 */
export type RejectionReason = "MISSING_ID" | "INVALID_ID" | "DUPLICATE_ID";
export type PresentedToolName = string;
/**
 * Invocation status vocabulary; READY and ERROR are terminal.
 */
export type InvocationStatus = "PROJECTING" | "READY" | "ERROR";
/**
 * 1 = first submission, 2 = after the structural repair.
 */
export type DraftAttempt = 1 | 2;
/**
 * The result kinds an agent submits and SemanticGuard reviews.
 */
export type BodyKind = "DIAGNOSIS_DRAFT" | "KNOWLEDGE_ANSWER";
/**
 * EvidenceGuard violation codes (stable).
 */
export type ViolationCode =
  | "SCHEMA_INVALID"
  | "DUPLICATE_ANALYSIS_ID"
  | "MISSING_TOOL_CALL_IDS"
  | "UNKNOWN_TOOL_CALL_ID"
  | "INVOCATION_NOT_READY"
  | "ERROR_EVIDENCE_CITED"
  | "NO_EVIDENCE_NOT_NEGATIVE"
  | "NEGATIVE_WITHOUT_NO_EVIDENCE"
  | "NEGATIVE_SCOPE_TOO_WIDE"
  | "OBSERVATION_WITHOUT_EVIDENCE"
  | "UNKNOWN_ANALYSIS_ID"
  | "LOOKUP_CALL_COUNT"
  | "REFERENCE_OTHER_CALL"
  | "FABRICATED_DOCUMENT_ID"
  | "ITEM_WITHOUT_REFERENCES"
  | "EMPTY_ANSWER_WITH_DOCUMENTS"
  | "DUPLICATE_ITEM_ID";
/**
 * Semantic verdict vocabulary.
 */
export type Verdict = "SUPPORTED" | "UNSUPPORTED";
/**
 * Cancel cause vocabulary.
 */
export type CancelCause = "CLIENT_DISCONNECTED" | "RUN_DEADLINE" | "OPERATOR";
/**
 * Result kind vocabulary.
 */
export type ResultKind = "DIAGNOSIS_DRAFT" | "KNOWLEDGE_ANSWER" | "SAFE_FALLBACK" | "PUBLIC_ERROR";
/**
 * SSE event name.
 */
export type ClientFrameEvent = "run_event" | "result" | "end";
/**
 * Invocation error code; BACKEND_ERROR is an in-band error (invocation READY).
 */
export type InvocationErrorCode =
  "BACKEND_ERROR" | "TOOL_FAILED" | "TOOL_TIMEOUT" | "CANCELLED" | "INVALID_ARGUMENTS";
/**
 * Error code.
 */
export type ObservationErrorCode = "SCRIPT_EXHAUSTED" | "SCRIPT_UNCONSUMED" | "IUT_ERROR";
/**
 * What the endpoint did: sent the scripted answer, an HTTP error status, held it until the client closed the connection, or stopped before answering.
 */
export type ModelRequestAnswer = "ANSWERED" | "HTTP_ERROR" | "CLIENT_CLOSED" | "NOT_ANSWERED";
/**
 * Component vocabulary.
 */
export type Component =
  "ROUTER" | "DIAGNOSIS_AGENT" | "HARNESS" | "EVIDENCE_GUARD" | "SEMANTIC_GUARD";
/**
 * Whether a component is a model call or deterministic code.
 */
export type ComponentKind = "MODEL" | "DETERMINISTIC";
/**
 * Responsibility vocabulary (closed).
 */
export type Responsibility =
  | "INTENT_CLASSIFICATION"
  | "DIAGNOSIS_REASONING"
  | "TOOL_SELECTION"
  | "REPORT_AUTHORING"
  | "KNOWLEDGE_ANSWER_AUTHORING"
  | "PLANNING"
  | "EXECUTOR"
  | "COMPOSING"
  | "WORKFLOW_ROUTING"
  | "EXECUTION_CONTROL"
  | "TOOL_CALL_IDENTITY"
  | "TOOL_DISPATCH"
  | "INVOCATION_LIFECYCLE"
  | "BOUNDED_PROJECTION"
  | "BUDGETS"
  | "RETRIES"
  | "CANCELLATION"
  | "GUARD_INVOCATION"
  | "RELEASE_OR_FALLBACK"
  | "PERSISTENCE"
  | "EVIDENCE_VALIDATION"
  | "SEMANTIC_REVIEW"
  | "TOOL_CALLS"
  | "DRAFT_REWRITING"
  | "REPORT_TEXT_WRITING"
  | "RESULT_RELEASE";
/**
 * Stage label.
 */
export type Stage = "0" | "1" | "2" | "3" | "4" | "5" | "6A" | "6B" | "7" | "8" | "9";
/**
 * Which path serves the public chat entry.
 */
export type PublicEntry = "LEGACY" | "SINGLE_REACT";

/**
 * Every contract by name (schema file stem): Contracts['diagnosis-run'] is the DiagnosisRun type.
 */
export interface Contracts {
  "adapter-message": AdapterMessage;
  "attempt-record": AttemptRecord;
  "bounded-projection": BoundedProjection;
  "component-registry": ComponentRegistry;
  "diagnosis-draft": DiagnosisDraft;
  "diagnosis-run": DiagnosisRun;
  "knowledge-answer": KnowledgeAnswer;
  "phase-plan": PhasePlan;
  "public-error": PublicError;
  "published-result": PublishedResult;
  "query-scope": QueryScope;
  "run-observation": RunObservation;
  "run-trace-event": RunTraceEvent;
  "safe-fallback": SafeFallback;
  "scenario-fixture": ScenarioFixture;
  "semantic-verdict": SemanticVerdict;
  "tool-call-id": ToolCallId;
  "tool-invocation": ToolInvocation;
  "verified-snapshot": VerifiedSnapshot;
}
/**
 * IUT -> kit, first line: handshake.
 */
export interface HelloMessage {
  /**
   * Message type discriminator.
   */
  type: "hello";
  /**
   * Protocol version.
   */
  protocol_version: "2.0";
  implementation: Implementation;
  /**
   * Capabilities of the IUT.
   */
  capabilities: Capability[];
}
/**
 * Who implements the IUT.
 */
export interface Implementation {
  /**
   * Implementation name.
   */
  name: string;
  /**
   * Implementation version.
   */
  version: string;
}
/**
 * kit -> IUT: run one fixture.
 */
export interface RunMessage {
  /**
   * Message type discriminator.
   */
  type: "run";
  /**
   * Request id.
   */
  request_id: string;
  fixture: ScenarioFixture;
  model_endpoint?: ModelEndpoint;
}
/**
 * The kit's input to any harness: one scripted Run.
 */
export interface ScenarioFixture {
  /**
   * Id of the fixture.
   */
  fixture_id: string;
  /**
   * Kebab slug of the spec requirement.
   */
  requirement_id?: string;
  /**
   * Kebab slug of the spec scenario.
   */
  scenario_id?: string;
  /**
   * What the fixture exercises.
   */
  description?: string;
  /**
   * The chat session.
   */
  session_id: string;
  /**
   * Runs seeded into the run store before the Run.
   */
  prior_runs: DiagnosisRun[];
  /**
   * The user's message.
   */
  user_message: string;
  /**
   * Scripted Router turns, consumed in order.
   */
  router: RouterTurn[];
  /**
   * Scripted agent turns, consumed in order.
   */
  agent: AgentTurn[];
  /**
   * Scripted SemanticGuard turns, consumed in order.
   */
  semantic_guard: ReviewTurn[];
  /**
   * Scripted tool backends by tool name.
   */
  tools: {
    [k: string]: ToolScript;
  };
  client: ClientScript;
  limits: Limits;
  /**
   * Perturbations for real models.
   */
  perturbations: Perturbation[];
  /**
   * Agent turns a conforming Harness never asks for (e.g. a valid draft after a failed structural repair): answered, in order, only once the agent script is used up, and never reported unconsumed. They let a fixture show what a faulty Harness does next instead of ending in SCRIPT_EXHAUSTED.
   */
  decoy_agent_turns?: AgentTurn[];
}
/**
 * The durable diagnosis_run row. Terminal states (all but RUNNING) are immutable.
 */
export interface DiagnosisRun {
  /**
   * Id of the Run.
   */
  run_id: string;
  /**
   * Id of the chat session.
   */
  session_id: string;
  /**
   * Order of the Run in its session, from 1, strictly increasing.
   */
  seq: number;
  /**
   * The user's message.
   */
  user_message: string;
  /**
   * The routed intent; null until routed.
   */
  intent: Intent | null;
  state: RunState;
  /**
   * What the Run released; null while RUNNING and when CANCELLED.
   */
  published_result: PublishedResult | null;
  /**
   * Fallback type of a FALLBACK Run, else null.
   */
  fallback_type: FallbackType | null;
  /**
   * Public error code of a FAILED Run, else null.
   */
  error_code: PublicErrorCode | null;
  /**
   * Creation time, ms since the Unix epoch (UTC).
   */
  created_at_ms: number;
  /**
   * Finish time, ms since the Unix epoch (UTC); null while RUNNING.
   */
  finished_at_ms: number | null;
}
/**
 * A released Diagnosis Draft.
 */
export interface PublishedDiagnosisDraft {
  /**
   * Result kind discriminator.
   */
  kind: "DIAGNOSIS_DRAFT";
  diagnosis_draft: DiagnosisDraft;
}
/**
 * The typed report the Diagnosis Agent writes. No field for thoughts, reasoning or raw payloads. Invariant: analysis ids unique.
 */
export interface DiagnosisDraft {
  conclusion: Conclusion;
  /**
   * The analyses, each bound to tool calls.
   *
   * @minItems 1
   */
  analyses: [Analysis, ...Analysis[]];
  /**
   * Planned actions, each bound to analyses.
   */
  action_plan: Action[];
  /**
   * Recommendations, each bound to analyses.
   */
  recommendations: Recommendation[];
  /**
   * Limitations of the diagnosis.
   */
  limitations: Limitation[];
}
/**
 * The conclusion of a Diagnosis Draft.
 */
export interface Conclusion {
  /**
   * Summary of the conclusion.
   */
  summary: string;
  confidence: Confidence;
  /**
   * The analyses the conclusion rests on.
   *
   * @minItems 1
   *
   * Items: An analysis id.
   */
  analysis_ids: [string, ...string[]];
}
/**
 * One analysis bound to tool calls; scope is required on NEGATIVE_OBSERVATION.
 */
export interface Analysis {
  /**
   * Id of this analysis, unique within the draft.
   */
  analysis_id: string;
  kind: AnalysisKind;
  /**
   * The statement.
   */
  statement: string;
  /**
   * The Tool Call IDs this analysis cites.
   *
   * @minItems 1
   */
  tool_call_ids: [ToolCallId, ...ToolCallId[]];
  scope?: QueryScope;
}
/**
 * What one tool call looked at: tool, target, time range and query. Invariant (not schema): end_ms >= start_ms.
 */
export interface QueryScope {
  tool: ToolName;
  /**
   * The service, host or corpus queried.
   */
  target: string;
  time_range: TimeRange;
  /**
   * The query text as sent to the backend (may be empty).
   */
  query: string;
}
/**
 * A closed time range in milliseconds since the Unix epoch, UTC.
 */
export interface TimeRange {
  /**
   * Start of the range, ms since the Unix epoch (UTC).
   */
  start_ms: number;
  /**
   * End of the range, ms since the Unix epoch (UTC); invariant end_ms >= start_ms.
   */
  end_ms: number;
}
/**
 * One planned action.
 */
export interface Action {
  /**
   * The action.
   */
  action: string;
  /**
   * The analyses that justify the action.
   *
   * @minItems 1
   *
   * Items: An analysis id.
   */
  analysis_ids: [string, ...string[]];
}
/**
 * One recommendation.
 */
export interface Recommendation {
  /**
   * The recommendation.
   */
  text: string;
  /**
   * The analyses that justify the recommendation.
   *
   * @minItems 1
   *
   * Items: An analysis id.
   */
  analysis_ids: [string, ...string[]];
}
/**
 * One limitation.
 */
export interface Limitation {
  /**
   * The limitation.
   */
  text: string;
  /**
   * Tool Call IDs the limitation refers to (may be empty).
   */
  tool_call_ids: ToolCallId[];
}
/**
 * A released Knowledge Answer.
 */
export interface PublishedKnowledgeAnswer {
  /**
   * Result kind discriminator.
   */
  kind: "KNOWLEDGE_ANSWER";
  knowledge_answer: KnowledgeAnswer;
}
/**
 * A KNOWLEDGE_QUERY answer with exact RAG bindings. Invariants: item ids unique; every reference names lookup_tool_call_id.
 */
export interface KnowledgeAnswer {
  lookup_tool_call_id: ToolCallId;
  /**
   * The answer items.
   */
  items: KnowledgeItem[];
  /**
   * Limitations of the answer.
   */
  limitations: KnowledgeLimitation[];
}
/**
 * One answer item with its references.
 */
export interface KnowledgeItem {
  /**
   * Id of this item, unique within the answer.
   */
  item_id: string;
  /**
   * Item text.
   */
  text: string;
  /**
   * The documents this item cites.
   *
   * @minItems 1
   */
  references: [Reference, ...Reference[]];
}
/**
 * A binding to one document returned by the lookup call.
 */
export interface Reference {
  tool_call_id: ToolCallId;
  /**
   * A document id the lookup returned.
   */
  document_id: string;
}
/**
 * One limitation of a knowledge answer.
 */
export interface KnowledgeLimitation {
  /**
   * The limitation.
   */
  text: string;
}
/**
 * A released Safe Fallback.
 */
export interface PublishedSafeFallback {
  /**
   * Result kind discriminator.
   */
  kind: "SAFE_FALLBACK";
  safe_fallback: SafeFallback;
}
/**
 * The fixed-schema fallback. No free text at all; message_code is fixed per fallback_type.
 */
export interface SafeFallback {
  fallback_type: FallbackType;
  message_code: MessageCode;
  /**
   * Sources from READY invocations EvidenceGuard accepted; empty for EVIDENCE_VALIDATION_FAILED.
   */
  verified_sources: VerifiedSource[];
}
/**
 * A verified source: one READY invocation EvidenceGuard accepted.
 */
export interface VerifiedSource {
  tool_call_id: ToolCallId;
  tool_name: ToolName;
  query_scope: QueryScope;
  evidence_status: EvidenceStatus;
}
/**
 * A released Public Error.
 */
export interface PublishedPublicError {
  /**
   * Result kind discriminator.
   */
  kind: "PUBLIC_ERROR";
  public_error: PublicError;
}
/**
 * The fixed error of a FAILED Run. No free text.
 */
export interface PublicError {
  error_code: PublicErrorCode;
}
/**
 * The Router answers an intent.
 */
export interface RouterIntentTurn {
  /**
   * Turn kind discriminator.
   */
  kind: "intent";
  intent: Intent;
}
/**
 * The Router answers raw text (not a valid intent: INVALID_SCHEMA).
 */
export interface RouterRawTurn {
  /**
   * Turn kind discriminator.
   */
  kind: "raw";
  /**
   * The raw text.
   */
  text: string;
}
/**
 * The Router call fails.
 */
export interface RouterErrorTurn {
  /**
   * Turn kind discriminator.
   */
  kind: "error";
  error: ModelTurnError;
  http_status?: ModelTurnHttpStatus;
}
/**
 * The Router call blocks until the Run is cancelled or the call times out, then answers late (a late answer is discarded).
 */
export interface RouterBlockUntilCancelledTurn {
  /**
   * Turn kind discriminator.
   */
  kind: "block_until_cancelled";
  then: RouterTurn;
}
/**
 * The agent calls tools (one step).
 */
export interface AgentToolCallsTurn {
  /**
   * Turn kind discriminator.
   */
  kind: "tool_calls";
  /**
   * The tool calls of this step.
   *
   * @minItems 1
   */
  tool_calls: [ScriptedToolCall, ...ScriptedToolCall[]];
}
/**
 * One tool call as the model wrote it.
 */
export interface ScriptedToolCall {
  /**
   * The presented Tool Call ID: any JSON value; absent means missing.
   */
  id?: unknown;
  name: ToolName;
  /**
   * The arguments as written: {target, time_range: {start_ms, end_ms}, query}.
   */
  arguments: {
    [k: string]: unknown;
  };
}
/**
 * The agent submits a Diagnosis Draft (possibly invalid).
 */
export interface AgentDraftTurn {
  /**
   * Turn kind discriminator.
   */
  kind: "draft";
  /**
   * The draft as the model wrote it (any JSON).
   */
  draft: unknown;
}
/**
 * The agent submits a Knowledge Answer (possibly invalid).
 */
export interface AgentKnowledgeAnswerTurn {
  /**
   * Turn kind discriminator.
   */
  kind: "knowledge_answer";
  /**
   * The answer as the model wrote it (any JSON).
   */
  answer: unknown;
}
/**
 * The agent answers non-JSON text.
 */
export interface AgentRawTurn {
  /**
   * Turn kind discriminator.
   */
  kind: "raw";
  /**
   * The raw text.
   */
  text: string;
}
/**
 * The agent call fails.
 */
export interface AgentErrorTurn {
  /**
   * Turn kind discriminator.
   */
  kind: "error";
  error: ModelTurnError;
  http_status?: ModelTurnHttpStatus;
}
/**
 * Blocks until the Run is cancelled or the call times out, then answers late.
 */
export interface AgentBlockUntilCancelledTurn {
  /**
   * Turn kind discriminator.
   */
  kind: "block_until_cancelled";
  then: AgentTurn;
}
/**
 * Swallows cancellation and answers immediately.
 */
export interface AgentIgnoreCancellationTurn {
  /**
   * Turn kind discriminator.
   */
  kind: "ignore_cancellation";
  then: AgentTurn;
}
/**
 * One model message holding a Diagnosis Draft (its text content) and tool calls together. Tool calls decide what it is: in an agent step it is that step's tool calls; as the structural repair answer it is a failed repair (no tool is executed).
 */
export interface AgentDraftAndToolCallsTurn {
  /**
   * Turn kind discriminator.
   */
  kind: "draft_and_tool_calls";
  /**
   * The draft the message's content holds (any JSON).
   */
  draft: unknown;
  /**
   * The tool calls of the same message.
   *
   * @minItems 1
   */
  tool_calls: [ScriptedToolCall, ...ScriptedToolCall[]];
}
/**
 * The reviewer answers a verdict (possibly invalid).
 */
export interface ReviewVerdictTurn {
  /**
   * Turn kind discriminator.
   */
  kind: "verdict";
  /**
   * The verdict as written (any JSON).
   */
  verdict: unknown;
}
/**
 * The reviewer answers raw text.
 */
export interface ReviewRawTurn {
  /**
   * Turn kind discriminator.
   */
  kind: "raw";
  /**
   * The raw text.
   */
  text: string;
}
/**
 * The review call fails.
 */
export interface ReviewErrorTurn {
  /**
   * Turn kind discriminator.
   */
  kind: "error";
  error: ModelTurnError;
  http_status?: ModelTurnHttpStatus;
}
/**
 * Blocks until cancelled or timed out, then answers late.
 */
export interface ReviewBlockUntilCancelledTurn {
  /**
   * Turn kind discriminator.
   */
  kind: "block_until_cancelled";
  then: ReviewTurn;
}
/**
 * Scripted results of one tool: the n-th execution gets responses[n], then default.
 */
export interface ToolScript {
  /**
   * Results in execution order.
   */
  responses: ToolResponse[];
  default?: ToolResponse;
}
/**
 * HTTP 200 with rows; zero items means NO_EVIDENCE.
 */
export interface RowsResponse {
  /**
   * Turn kind discriminator.
   */
  kind: "rows";
  /**
   * The rows.
   */
  items: RowItem[];
  /**
   * Total matched (default: len(items)).
   */
  total_matched?: number;
}
/**
 * One backend row.
 */
export interface RowItem {
  /**
   * Row text (may exceed the projection limit).
   */
  text: string;
  /**
   * Document id (lookup_documents).
   */
  document_id?: string;
}
/**
 * The backend answered with an error body (READY/ERROR).
 */
export interface InBandErrorResponse {
  /**
   * Turn kind discriminator.
   */
  kind: "in_band_error";
  /**
   * The backend's error code.
   */
  code: string;
}
/**
 * The tool raises (ERROR/ERROR); message must never reach any output.
 */
export interface FailureResponse {
  /**
   * Turn kind discriminator.
   */
  kind: "failure";
  /**
   * The raised message.
   */
  message: string;
}
/**
 * A raw payload of that many bytes; the projection must stay bounded.
 */
export interface OversizeResponse {
  /**
   * Turn kind discriminator.
   */
  kind: "oversize";
  /**
   * Payload size in bytes.
   */
  bytes: number;
}
/**
 * The tool blocks until its work is cancelled (Run cancellation or the tool timeout).
 */
export interface BlockUntilCancelledResponse {
  /**
   * Turn kind discriminator.
   */
  kind: "block_until_cancelled";
  then?: ToolResponse;
}
/**
 * The simulated SSE client.
 */
export interface ClientScript {
  disconnect_on?: DisconnectOn;
}
/**
 * Disconnect after the n-th event of a type.
 */
export interface DisconnectOn {
  event_type: TraceEventType;
  /**
   * Which occurrence, from 1.
   */
  occurrence: number;
}
/**
 * Harness limits for the Run.
 */
export interface Limits {
  /**
   * Maximum agent steps.
   */
  max_steps?: number;
  /**
   * Projection max items (<= 200).
   */
  max_items?: number;
  /**
   * Projection max item chars (<= 8192).
   */
  max_item_chars?: number;
  /**
   * Model call timeout in ms.
   */
  model_call_timeout_ms?: number;
  /**
   * Tool timeout in ms.
   */
  tool_timeout_ms?: number;
}
/**
 * The kit's OpenAI-compatible chat-completions endpoint on loopback, playing the fixture's Router, Diagnosis Agent and SemanticGuard turns for this one Run. Each component has its own base URL (a path prefix): the kit tells the components apart by the request path alone and answers 404 to any other path.
 */
export interface ModelEndpoint {
  router: ModelEndpointComponent;
  diagnosis_agent: ModelEndpointComponent;
  semantic_guard: ModelEndpointComponent;
  /**
   * Bearer token to send (the kit accepts any; SDKs insist on one).
   */
  api_key: string;
}
/**
 * One component's chat-completions endpoint: POST {base_url}/chat/completions with {model, messages, tools?, stream?}.
 */
export interface ModelEndpointComponent {
  /**
   * Base URL including the version path, e.g. http://127.0.0.1:41234/router/v1 (loopback only).
   */
  base_url: string;
  /**
   * The model name to send.
   */
  model: string;
}
/**
 * IUT -> kit: the observation of one run.
 */
export interface ObservationMessage {
  /**
   * Message type discriminator.
   */
  type: "observation";
  /**
   * Request id.
   */
  request_id: string;
  observation: RunObservation;
}
/**
 * What the kit observes of one Run.
 */
export interface RunObservation {
  /**
   * The fixture that was run.
   */
  fixture_id: string;
  /**
   * The Run.
   */
  run_id: string;
  /**
   * The Run trace, by seq.
   */
  trace: RunTraceEvent[];
  /**
   * SSE frames the client received, in order.
   */
  client_frames: ClientFrame[];
  /**
   * Every diagnosis_run row of the session after the Run, by seq.
   */
  runs: DiagnosisRun[];
  /**
   * What the Run released, or null.
   */
  published_result: PublishedResult | null;
  /**
   * The canonical invocations of the Run, by sequence.
   */
  invocations: ToolInvocation[];
  error?: ObservationError;
  /**
   * What each model-call attempt received, reported by the IUT: one entry per Attempt Record (MODEL_CALL_STARTED), in trace order. Required in effect for an IUT that does not declare MODEL_ENDPOINT (the kit fails a Run whose model inputs it cannot see).
   */
  model_calls?: ModelCall[];
  /**
   * Filled by the kit, never by the IUT: every HTTP request its model endpoint received during the Run, in arrival order.
   */
  model_requests?: ModelRequest[];
  /**
   * Filled by the kit, never by the IUT: milliseconds on the kit's clock from just before the run message was sent (in process: run() called) until the observation was received.
   */
  elapsed_ms?: number;
}
/**
 * Trace event RUN_STARTED: The Run started.
 */
export interface RunStartedEvent {
  /**
   * The Run.
   */
  run_id: string;
  /**
   * Event order within the Run, from 1.
   */
  seq: number;
  /**
   * Event type discriminator.
   */
  type: "RUN_STARTED";
  data: RunStartedData;
  /**
   * Volatile timestamp, ms since the Unix epoch (UTC); dropped by the normalizer.
   */
  ts_ms?: number;
}
/**
 * The Run started.
 */
export interface RunStartedData {
  /**
   * The session.
   */
  session_id: string;
  /**
   * The Run's seq in its session.
   */
  run_seq: number;
}
/**
 * Trace event PREVIOUS_TURN_SELECTED: The previous turn was selected.
 */
export interface PreviousTurnSelectedEvent {
  /**
   * The Run.
   */
  run_id: string;
  /**
   * Event order within the Run, from 1.
   */
  seq: number;
  /**
   * Event type discriminator.
   */
  type: "PREVIOUS_TURN_SELECTED";
  data: PreviousTurnSelectedData;
  /**
   * Volatile timestamp, ms since the Unix epoch (UTC); dropped by the normalizer.
   */
  ts_ms?: number;
}
/**
 * The previous turn was selected.
 */
export interface PreviousTurnSelectedData {
  /**
   * The selected previous Run, or null if none.
   */
  selected_run_id: string | null;
  /**
   * Newer Runs passed over, with the reason.
   */
  skipped: SkippedRun[];
}
/**
 * A Run passed over when selecting the previous turn.
 */
export interface SkippedRun {
  /**
   * The skipped Run.
   */
  run_id: string;
  reason: SkipReason;
}
/**
 * Trace event INTENT_ROUTED: The Router classified the intent.
 */
export interface IntentRoutedEvent {
  /**
   * The Run.
   */
  run_id: string;
  /**
   * Event order within the Run, from 1.
   */
  seq: number;
  /**
   * Event type discriminator.
   */
  type: "INTENT_ROUTED";
  data: IntentRoutedData;
  /**
   * Volatile timestamp, ms since the Unix epoch (UTC); dropped by the normalizer.
   */
  ts_ms?: number;
}
/**
 * The Router classified the intent.
 */
export interface IntentRoutedData {
  intent: Intent;
}
/**
 * Trace event MODEL_CALL_STARTED: A model call attempt started.
 */
export interface ModelCallStartedEvent {
  /**
   * The Run.
   */
  run_id: string;
  /**
   * Event order within the Run, from 1.
   */
  seq: number;
  /**
   * Event type discriminator.
   */
  type: "MODEL_CALL_STARTED";
  data: ModelCallStartedData;
  /**
   * Volatile timestamp, ms since the Unix epoch (UTC); dropped by the normalizer.
   */
  ts_ms?: number;
}
/**
 * A model call attempt started.
 */
export interface ModelCallStartedData {
  component: ModelComponent;
  purpose: ModelCallPurpose;
  /**
   * The n-th logical call of that component in the Run, from 1.
   */
  call_index: number;
  /**
   * Attempt of that call, from 1.
   */
  attempt: number;
  /**
   * Digest of the reviewed snapshot (SEMANTIC_REVIEW only, else null).
   */
  snapshot_digest: string | null;
}
/**
 * Trace event MODEL_CALL_FINISHED: A model call attempt finished: an AttemptRecord.
 */
export interface ModelCallFinishedEvent {
  /**
   * The Run.
   */
  run_id: string;
  /**
   * Event order within the Run, from 1.
   */
  seq: number;
  /**
   * Event type discriminator.
   */
  type: "MODEL_CALL_FINISHED";
  data: AttemptRecord;
  /**
   * Volatile timestamp, ms since the Unix epoch (UTC); dropped by the normalizer.
   */
  ts_ms?: number;
}
/**
 * One attempt of one model call.
 */
export interface AttemptRecord {
  component: ModelComponent;
  purpose: ModelCallPurpose;
  /**
   * The n-th logical call of that component in the Run, from 1.
   */
  call_index: number;
  /**
   * Attempt of that call, from 1.
   */
  attempt: number;
  /**
   * Digest of the reviewed snapshot (SEMANTIC_REVIEW only, else null).
   */
  snapshot_digest: string | null;
  outcome: AttemptOutcome;
}
/**
 * Trace event TOOL_CALL_ACCEPTED: A tool call was accepted.
 */
export interface ToolCallAcceptedEvent {
  /**
   * The Run.
   */
  run_id: string;
  /**
   * Event order within the Run, from 1.
   */
  seq: number;
  /**
   * Event type discriminator.
   */
  type: "TOOL_CALL_ACCEPTED";
  data: ToolCallAcceptedData;
  /**
   * Volatile timestamp, ms since the Unix epoch (UTC); dropped by the normalizer.
   */
  ts_ms?: number;
}
/**
 * A tool call was accepted.
 */
export interface ToolCallAcceptedData {
  tool_call_id: ToolCallId;
  tool_name: ToolName;
  /**
   * Agent step, from 1.
   */
  step: number;
  /**
   * Acceptance order within the Run, from 1.
   */
  sequence: number;
}
/**
 * Trace event TOOL_CALL_REJECTED: A tool call was rejected and never executed.
 */
export interface ToolCallRejectedEvent {
  /**
   * The Run.
   */
  run_id: string;
  /**
   * Event order within the Run, from 1.
   */
  seq: number;
  /**
   * Event type discriminator.
   */
  type: "TOOL_CALL_REJECTED";
  data: ToolCallRejectedData;
  /**
   * Volatile timestamp, ms since the Unix epoch (UTC); dropped by the normalizer.
   */
  ts_ms?: number;
}
/**
 * A tool call was rejected and never executed.
 */
export interface ToolCallRejectedData {
  reason: RejectionReason;
  /**
   * JSON text of the presented id (<= 160 chars), null if absent.
   */
  presented_id: string | null;
  /**
   * The presented tool name, or null.
   */
  tool_name: PresentedToolName | null;
  /**
   * Agent step, from 1.
   */
  step: number;
  /**
   * Index of the call within the step, from 0.
   */
  position: number;
}
/**
 * Trace event INVOCATION_STATUS_CHANGED: An invocation changed status.
 */
export interface InvocationStatusChangedEvent {
  /**
   * The Run.
   */
  run_id: string;
  /**
   * Event order within the Run, from 1.
   */
  seq: number;
  /**
   * Event type discriminator.
   */
  type: "INVOCATION_STATUS_CHANGED";
  data: InvocationStatusChangedData;
  /**
   * Volatile timestamp, ms since the Unix epoch (UTC); dropped by the normalizer.
   */
  ts_ms?: number;
}
/**
 * An invocation changed status.
 */
export interface InvocationStatusChangedData {
  tool_call_id: ToolCallId;
  status: InvocationStatus;
  /**
   * New evidence status.
   */
  evidence_status: EvidenceStatus | null;
}
/**
 * Trace event EVIDENCE_CLASSIFIED: A result was classified.
 */
export interface EvidenceClassifiedEvent {
  /**
   * The Run.
   */
  run_id: string;
  /**
   * Event order within the Run, from 1.
   */
  seq: number;
  /**
   * Event type discriminator.
   */
  type: "EVIDENCE_CLASSIFIED";
  data: EvidenceClassifiedData;
  /**
   * Volatile timestamp, ms since the Unix epoch (UTC); dropped by the normalizer.
   */
  ts_ms?: number;
}
/**
 * A result was classified.
 */
export interface EvidenceClassifiedData {
  tool_call_id: ToolCallId;
  evidence_status: EvidenceStatus;
  /**
   * Number of projected items.
   */
  item_count: number;
  /**
   * Items the backend matched.
   */
  total_matched: number;
  /**
   * Whether the projection was truncated.
   */
  truncated: boolean;
}
/**
 * Trace event DRAFT_SUBMITTED: The agent submitted a body.
 */
export interface DraftSubmittedEvent {
  /**
   * The Run.
   */
  run_id: string;
  /**
   * Event order within the Run, from 1.
   */
  seq: number;
  /**
   * Event type discriminator.
   */
  type: "DRAFT_SUBMITTED";
  data: DraftSubmittedData;
  /**
   * Volatile timestamp, ms since the Unix epoch (UTC); dropped by the normalizer.
   */
  ts_ms?: number;
}
/**
 * The agent submitted a body.
 */
export interface DraftSubmittedData {
  attempt: DraftAttempt;
  result_kind: BodyKind;
}
/**
 * Trace event EVIDENCE_VALIDATION: EvidenceGuard validated a submission.
 */
export interface EvidenceValidationEvent {
  /**
   * The Run.
   */
  run_id: string;
  /**
   * Event order within the Run, from 1.
   */
  seq: number;
  /**
   * Event type discriminator.
   */
  type: "EVIDENCE_VALIDATION";
  data: EvidenceValidationData;
  /**
   * Volatile timestamp, ms since the Unix epoch (UTC); dropped by the normalizer.
   */
  ts_ms?: number;
}
/**
 * EvidenceGuard validated a submission.
 */
export interface EvidenceValidationData {
  attempt: DraftAttempt;
  result_kind: BodyKind;
  /**
   * Whether the submission passed.
   */
  valid: boolean;
  /**
   * The violations (empty iff valid).
   */
  violations: Violation[];
}
/**
 * One EvidenceGuard violation.
 */
export interface Violation {
  code: ViolationCode;
  /**
   * RFC 6901 JSON pointer into the submitted document.
   */
  pointer: string;
}
/**
 * Trace event STRUCTURAL_REPAIR_REQUESTED: One no-tool structural repair was requested.
 */
export interface StructuralRepairRequestedEvent {
  /**
   * The Run.
   */
  run_id: string;
  /**
   * Event order within the Run, from 1.
   */
  seq: number;
  /**
   * Event type discriminator.
   */
  type: "STRUCTURAL_REPAIR_REQUESTED";
  data: StructuralRepairRequestedData;
  /**
   * Volatile timestamp, ms since the Unix epoch (UTC); dropped by the normalizer.
   */
  ts_ms?: number;
}
/**
 * One no-tool structural repair was requested.
 */
export interface StructuralRepairRequestedData {
  /**
   * The violations sent to the agent.
   *
   * @minItems 1
   */
  violations: [Violation, ...Violation[]];
}
/**
 * Trace event SEMANTIC_VERDICT: SemanticGuard gave a valid verdict.
 */
export interface SemanticVerdictEvent {
  /**
   * The Run.
   */
  run_id: string;
  /**
   * Event order within the Run, from 1.
   */
  seq: number;
  /**
   * Event type discriminator.
   */
  type: "SEMANTIC_VERDICT";
  data: SemanticVerdictData;
  /**
   * Volatile timestamp, ms since the Unix epoch (UTC); dropped by the normalizer.
   */
  ts_ms?: number;
}
/**
 * SemanticGuard gave a valid verdict.
 */
export interface SemanticVerdictData {
  /**
   * Digest of the reviewed snapshot.
   */
  snapshot_digest: string;
  verdict: Verdict;
  /**
   * Unsupported analysis or item ids.
   *
   * Items: An id.
   */
  unsupported_analysis_ids: string[];
}
/**
 * Trace event CANCEL_REQUESTED: Cancellation was requested.
 */
export interface CancelRequestedEvent {
  /**
   * The Run.
   */
  run_id: string;
  /**
   * Event order within the Run, from 1.
   */
  seq: number;
  /**
   * Event type discriminator.
   */
  type: "CANCEL_REQUESTED";
  data: CancelRequestedData;
  /**
   * Volatile timestamp, ms since the Unix epoch (UTC); dropped by the normalizer.
   */
  ts_ms?: number;
}
/**
 * Cancellation was requested.
 */
export interface CancelRequestedData {
  cause: CancelCause;
}
/**
 * Trace event NEW_WORK_PREVENTED: The release gate closed; no new model or tool call.
 */
export interface NewWorkPreventedEvent {
  /**
   * The Run.
   */
  run_id: string;
  /**
   * Event order within the Run, from 1.
   */
  seq: number;
  /**
   * Event type discriminator.
   */
  type: "NEW_WORK_PREVENTED";
  data: NewWorkPreventedData;
  /**
   * Volatile timestamp, ms since the Unix epoch (UTC); dropped by the normalizer.
   */
  ts_ms?: number;
}
/**
 * The release gate closed; no new model or tool call.
 */
export interface NewWorkPreventedData {}
/**
 * Trace event INTERRUPT_REQUESTED: The agent loop was interrupted.
 */
export interface InterruptRequestedEvent {
  /**
   * The Run.
   */
  run_id: string;
  /**
   * Event order within the Run, from 1.
   */
  seq: number;
  /**
   * Event type discriminator.
   */
  type: "INTERRUPT_REQUESTED";
  data: InterruptRequestedData;
  /**
   * Volatile timestamp, ms since the Unix epoch (UTC); dropped by the normalizer.
   */
  ts_ms?: number;
}
/**
 * The agent loop was interrupted.
 */
export interface InterruptRequestedData {}
/**
 * Trace event TOOL_WORK_CANCELLED: In-flight tool work was cancelled.
 */
export interface ToolWorkCancelledEvent {
  /**
   * The Run.
   */
  run_id: string;
  /**
   * Event order within the Run, from 1.
   */
  seq: number;
  /**
   * Event type discriminator.
   */
  type: "TOOL_WORK_CANCELLED";
  data: ToolWorkCancelledData;
  /**
   * Volatile timestamp, ms since the Unix epoch (UTC); dropped by the normalizer.
   */
  ts_ms?: number;
}
/**
 * In-flight tool work was cancelled.
 */
export interface ToolWorkCancelledData {
  tool_call_id: ToolCallId;
}
/**
 * Trace event LATE_RESULT_DISCARDED: A late model result was discarded.
 */
export interface LateResultDiscardedEvent {
  /**
   * The Run.
   */
  run_id: string;
  /**
   * Event order within the Run, from 1.
   */
  seq: number;
  /**
   * Event type discriminator.
   */
  type: "LATE_RESULT_DISCARDED";
  data: LateResultDiscardedData;
  /**
   * Volatile timestamp, ms since the Unix epoch (UTC); dropped by the normalizer.
   */
  ts_ms?: number;
}
/**
 * A late model result was discarded.
 */
export interface LateResultDiscardedData {
  component: ModelComponent;
  purpose: ModelCallPurpose;
  /**
   * The logical call, from 1.
   */
  call_index: number;
  /**
   * The attempt, from 1.
   */
  attempt: number;
}
/**
 * Trace event RESULT_RELEASED: A result was released to the client.
 */
export interface ResultReleasedEvent {
  /**
   * The Run.
   */
  run_id: string;
  /**
   * Event order within the Run, from 1.
   */
  seq: number;
  /**
   * Event type discriminator.
   */
  type: "RESULT_RELEASED";
  data: ResultReleasedData;
  /**
   * Volatile timestamp, ms since the Unix epoch (UTC); dropped by the normalizer.
   */
  ts_ms?: number;
}
/**
 * A result was released to the client.
 */
export interface ResultReleasedData {
  kind: ResultKind;
}
/**
 * Trace event RUN_FINISHED: The Run finished.
 */
export interface RunFinishedEvent {
  /**
   * The Run.
   */
  run_id: string;
  /**
   * Event order within the Run, from 1.
   */
  seq: number;
  /**
   * Event type discriminator.
   */
  type: "RUN_FINISHED";
  data: RunFinishedData;
  /**
   * Volatile timestamp, ms since the Unix epoch (UTC); dropped by the normalizer.
   */
  ts_ms?: number;
}
/**
 * The Run finished.
 */
export interface RunFinishedData {
  state: RunState;
  /**
   * Fallback type of a FALLBACK Run.
   */
  fallback_type: FallbackType | null;
  /**
   * Error code of a FAILED Run.
   */
  error_code: PublicErrorCode | null;
}
/**
 * One SSE frame: run_event carries a RunTraceEvent, result the PublishedResult, end {state}.
 */
export interface ClientFrame {
  event: ClientFrameEvent;
  /**
   * The frame's JSON data.
   */
  data: {
    [k: string]: unknown;
  };
}
/**
 * The canonical invocation record of one accepted tool call. Allowed (status, evidence_status) pairs: (PROJECTING, null), (READY, EVIDENCE_FOUND), (READY, NO_EVIDENCE), (READY, ERROR), (ERROR, ERROR).
 */
export interface ToolInvocation {
  tool_call_id: ToolCallId;
  /**
   * The Run this invocation belongs to.
   */
  run_id: string;
  /**
   * Acceptance order of this call within the Run, from 1.
   */
  sequence: number;
  /**
   * Agent step that produced the call, from 1.
   */
  step: number;
  tool_name: ToolName;
  /**
   * The arguments as presented by the agent: normally {target, time_range: {start_ms, end_ms}, query}; kept as presented so that INVALID_ARGUMENTS can be recorded.
   */
  arguments: {
    [k: string]: unknown;
  };
  status: InvocationStatus;
  /**
   * Evidence status; null while PROJECTING.
   */
  evidence_status: EvidenceStatus | null;
  /**
   * The bounded projection; present iff READY.
   */
  projection: BoundedProjection | null;
  /**
   * The safe error; present iff evidence_status is ERROR.
   */
  error: InvocationError | null;
}
/**
 * A bounded view of one tool result; raw payloads never leave the Harness.
 */
export interface BoundedProjection {
  query_scope: QueryScope;
  /**
   * The projected items (at most 200).
   *
   * @maxItems 200
   */
  items: ProjectionItem[];
  /**
   * How many items the backend matched (>= len(items)).
   */
  total_matched: number;
  /**
   * True iff total_matched > len(items) or an item text was cut.
   */
  truncated: boolean;
  /**
   * Document ids of the items (lookup_documents only; else empty).
   *
   * @maxItems 200
   *
   * Items: A document id.
   */
  document_ids: string[];
}
/**
 * One projected item.
 */
export interface ProjectionItem {
  /**
   * Item text, cut to the configured max_item_chars (<= 8192).
   */
  text: string;
  /**
   * Id of the document this item comes from (lookup_documents only).
   */
  document_id?: string;
}
/**
 * A safe, fixed-shape error of an invocation.
 */
export interface InvocationError {
  code: InvocationErrorCode;
  /**
   * A safe message; never raw exception or backend text.
   */
  safe_message: string;
}
/**
 * An error of the fixture run.
 */
export interface ObservationError {
  code: ObservationErrorCode;
  /**
   * What went wrong.
   */
  message: string;
}
/**
 * One model-call attempt's input, as the IUT sent it to its model.
 */
export interface ModelCall {
  component: ModelComponent;
  /**
   * The logical call (the Attempt Record's call_index).
   */
  call_index: number;
  /**
   * The attempt (the Attempt Record's attempt).
   */
  attempt: number;
  /**
   * The messages sent, oldest first.
   */
  messages: ChatMessage[];
  /**
   * Names of the tools offered (empty: none).
   */
  tools: string[];
}
/**
 * One chat message as sent to the model (OpenAI shape). Keys other than role, content, tool_calls, tool_call_id and name go, with their values, into other_fields, so that a chain-of-thought field stays visible to the checks.
 */
export interface ChatMessage {
  /**
   * system, user, assistant, tool (or whatever was sent).
   */
  role: string;
  /**
   * The content as sent: text, null, or content parts.
   */
  content?: unknown;
  /**
   * The assistant's tool calls as sent ({id, type, function: {name, arguments}}).
   */
  tool_calls?: unknown[];
  /**
   * The Tool Call ID a tool message answers, as sent.
   */
  tool_call_id?: unknown;
  /**
   * The name key, as sent.
   */
  name?: unknown;
  /**
   * Every other key sent with the message, with its value (e.g. reasoning_content).
   */
  other_fields?: {
    [k: string]: unknown;
  };
}
/**
 * One HTTP request the kit's model endpoint received.
 */
export interface ModelRequest {
  component: ModelComponent;
  /**
   * The model name sent (empty if none).
   */
  model: string;
  /**
   * The messages sent, oldest first.
   */
  messages: ChatMessage[];
  /**
   * Names of the tools offered (empty: none).
   */
  tools: string[];
  /**
   * Whether a streamed answer was asked for.
   */
  stream: boolean;
  answer: ModelRequestAnswer;
  /**
   * Milliseconds on the kit's clock from the request's arrival (its body read) until the endpoint answered it, saw the client close it, or stopped; absent when not measured.
   */
  held_ms?: number;
}
/**
 * IUT -> kit: an error.
 */
export interface ErrorMessage {
  /**
   * Message type discriminator.
   */
  type: "error";
  /**
   * Request id, or null.
   */
  request_id: string | null;
  /**
   * Error code.
   */
  code: string;
  /**
   * Error message.
   */
  message: string;
}
/**
 * kit -> IUT: exit 0.
 */
export interface ByeMessage {
  /**
   * Message type discriminator.
   */
  type: "bye";
}
/**
 * DESIGN section 2 as data: who owns which responsibility and what it must never do.
 */
export interface ComponentRegistry {
  /**
   * The components.
   *
   * @minItems 1
   */
  components: [ComponentEntry, ...ComponentEntry[]];
}
/**
 * One component and its responsibilities.
 */
export interface ComponentEntry {
  component: Component;
  kind: ComponentKind;
  /**
   * Responsibilities it owns.
   */
  owns: Responsibility[];
  /**
   * Responsibilities it must never hold.
   */
  never: Responsibility[];
}
/**
 * The 11 serial OpenSpec changes, in order.
 */
export interface PhasePlan {
  /**
   * Exactly 11 changes, in order.
   *
   * @minItems 11
   * @maxItems 11
   */
  changes: [Change, Change, Change, Change, Change, Change, Change, Change, Change, Change, Change];
}
/**
 * One OpenSpec change of the plan.
 */
export interface Change {
  /**
   * Position in the serial order, 1..11.
   */
  order: number;
  stage: Stage;
  /**
   * OpenSpec change id (kebab case).
   */
  change_id: string;
  /**
   * Title of the change.
   */
  title: string;
  /**
   * Why the change exists.
   */
  reason: string;
  /**
   * Names of the spec scenarios that gate the change.
   *
   * Items: A scenario name.
   */
  gate_scenarios: string[];
  public_entry: PublicEntry;
}
/**
 * SemanticGuard's answer. For a knowledge answer the ids are item ids.
 */
export interface SemanticVerdict {
  verdict: Verdict;
  /**
   * Ids of unsupported analyses (empty iff SUPPORTED).
   *
   * Items: An analysis or item id.
   */
  unsupported_analysis_ids: string[];
}
/**
 * What SemanticGuard reviews: exactly one validated body plus the projections it cites, and a digest (SHA-256 hex of the RFC 8785 canonical JSON of the snapshot without digest).
 */
export interface VerifiedSnapshot {
  /**
   * The Run under review.
   */
  run_id: string;
  result_kind: BodyKind;
  diagnosis_draft?: DiagnosisDraft;
  knowledge_answer?: KnowledgeAnswer;
  /**
   * Projections of exactly the invocations the body cites.
   */
  evidence: SnapshotEvidence[];
  /**
   * SHA-256 (lower-case hex) of the RFC 8785 canonical JSON of this object without digest.
   */
  digest: string;
}
/**
 * The projection of one cited invocation.
 */
export interface SnapshotEvidence {
  tool_call_id: ToolCallId;
  tool_name: ToolName;
  evidence_status: EvidenceStatus;
  projection: BoundedProjection;
}
