package dev.srdh.harness;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * The Harness: deterministic execution control of one Run (docs/implementers.md).
 *
 * <p>It routes the user message (Router), selects the previous turn, drives the Diagnosis Agent's
 * ReAct loop (Tool Call ID checks, tool dispatch, bounded projections), hands every submission to
 * {@link EvidenceGuard}, asks for at most one no-Tool structural repair, has a valid submission
 * reviewed by the {@link SemanticGuard}, then releases it unchanged or a fixed Safe Fallback. It owns
 * retries (Router and SemanticGuard: one more attempt after INVALID_SCHEMA or UNAVAILABLE), model
 * and tool timeouts, and layered cancellation. It never writes or edits report text.
 */
final class Harness {
    /** The fixture's {@code limits}, with the contract's defaults. */
    record Limits(int maxSteps, int maxItems, int maxItemChars, long modelCallTimeoutMs, long toolTimeoutMs) {
        static Limits of(Map<String, Object> limits) {
            Map<String, Object> l = limits == null ? Map.of() : limits;
            return new Limits(num(l, "max_steps", 8), num(l, "max_items", 20), num(l, "max_item_chars", 2000),
                    num(l, "model_call_timeout_ms", 5000), num(l, "tool_timeout_ms", 5000));
        }

        private static int num(Map<String, Object> l, String key, int fallback) {
            Long value = Json.asLong(l.get(key));
            return value == null ? fallback : (int) Math.min(Integer.MAX_VALUE, value);
        }
    }

    /** The three model endpoints. */
    record Models(ModelClient.Endpoint router, ModelClient.Endpoint agent, ModelClient.Endpoint semanticGuard) {}

    /** The retries the Harness is configured to take (both are a RFC 2119 "may"). */
    record RetryPolicy(boolean router, boolean semanticGuard) {}

    /** What a Run left: its id, trace, frames, published result and invocations. */
    record Outcome(String runId, String state, RunTrace trace, Map<String, Object> published, List<Invocation> invocations) {}

    /** Thrown at the wait where the Harness notices the Run's cancellation; the Run ends CANCELLED. */
    private static final class Cancelled extends Exception {
        private static final long serialVersionUID = 1L;

        Cancelled() {
            super(null, null, false, false);
        }
    }

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]*");
    private static final Set<String> TOOL_NAMES = Set.of("query_metrics", "search_logs", "list_alerts", "lookup_documents");
    private static final Set<String> RETRY_ON = Set.of("INVALID_SCHEMA", "UNAVAILABLE");

    /**
     * TODO(K2, /work/shared/cases/suite-gaps.md round 3): record LATE_RESULT_DISCARDED for every
     * model call the cancellation interrupted, even when the request was hung up before any answer
     * arrived. Until K2 is fixed on main the kit's R8.layered-cancellation demands the event after a
     * hang-up, which the spec ("discards any late model result") does not. Once K2 is fixed this may
     * be set to false (the event then follows only an answer that arrived, {@code reply.lateAnswer()}),
     * but keeping it true keeps the trace deterministic: whether an immediate answer beats the
     * hang-up is a race (docs/decisions/java-example.md).
     */
    private static final boolean DISCARD_EVERY_INTERRUPTED_CALL = true;

    private final RunStore store;
    private final ScriptedTools tools;
    private final ModelClient client;
    private final Models models;
    private final Limits limits;
    private final RetryPolicy retries;
    private final ExecutorService toolThreads;

    // the state of the one Run this object executes
    private String runId;
    private RunTrace trace;
    private boolean cancelRecorded;
    private int agentCalls;
    private final Map<String, Invocation> invocations = new LinkedHashMap<>();

    Harness(RunStore store, ScriptedTools tools, ModelClient client, Models models, Limits limits, RetryPolicy retries,
            ExecutorService toolThreads) {
        this.store = store;
        this.tools = tools;
        this.client = client;
        this.models = models;
        this.limits = limits;
        this.retries = retries;
        this.toolThreads = toolThreads;
    }

    /** Execute one Run of {@code sessionId} for {@code userMessage}; the SSE client may disconnect. */
    Outcome run(String sessionId, String userMessage, Map<String, Object> disconnectOn) {
        long seq = store.nextSeq(sessionId);
        runId = "run-" + seq;
        for (int n = 2; store.hasRunId(runId); n++) runId = "run-" + seq + "-" + n;
        trace = new RunTrace(runId, disconnectOn);
        store.insertRunning(runId, sessionId, seq, userMessage, System.currentTimeMillis());
        trace.emit("RUN_STARTED", Json.obj("session_id", sessionId, "run_seq", seq));
        Map<String, Object> published;
        try {
            published = execute(sessionId, seq, userMessage);
        } catch (Cancelled c) {
            store.finish(runId, "CANCELLED", null, null, null, System.currentTimeMillis());
            trace.emit("RUN_FINISHED", Json.obj("state", "CANCELLED", "fallback_type", null, "error_code", null));
            return new Outcome(runId, "CANCELLED", trace, null, new ArrayList<>(invocations.values()));
        }
        return new Outcome(runId, stateOf(published), trace, published, new ArrayList<>(invocations.values()));
    }

    private Map<String, Object> execute(String sessionId, long seq, String userMessage) throws Cancelled {
        String intent = route(userMessage);
        if (intent == null) return release(publicError("ROUTER_UNAVAILABLE"));
        store.setIntent(runId, intent);
        trace.emit("INTENT_ROUTED", Json.obj("intent", intent));
        Map<String, Object> previous = null;
        if ("DIAGNOSIS".equals(intent)) {
            RunStore.PreviousTurn turn = store.previousTurn(sessionId, seq);
            List<Object> skipped = new ArrayList<>();
            for (RunStore.Skipped s : turn.skipped()) skipped.add(Json.obj("run_id", s.runId(), "reason", s.reason()));
            previous = turn.selected();
            trace.emit("PREVIOUS_TURN_SELECTED",
                    Json.obj("selected_run_id", previous == null ? null : previous.get("run_id"), "skipped", skipped));
        }
        String resultKind = "DIAGNOSIS".equals(intent) ? "DIAGNOSIS_DRAFT" : "KNOWLEDGE_ANSWER";
        List<Object> messages = Prompts.agentMessages(intent, previous, userMessage);
        String submission = agentLoop(messages);
        if (submission == null) return release(publicError("AGENT_UNAVAILABLE"));
        return validateAndReview(resultKind, messages, submission);
    }

    // ================================================================== Router

    /** Route the message; null when the Router stays invalid or unavailable. */
    private String route(String userMessage) throws Cancelled {
        int allowed = retries.router() ? 2 : 1;
        for (int attempt = 1; attempt <= allowed; attempt++) {
            ModelClient.Reply reply = call("ROUTER", "ROUTE", 1, attempt, null, models.router(),
                    Prompts.routerMessages(userMessage), List.of());
            String intent = reply.ending() == ModelClient.Ending.ANSWERED ? Prompts.parseIntent(reply.content()) : null;
            String outcome = outcome(reply, intent != null);
            finished("ROUTER", "ROUTE", 1, attempt, null, outcome);
            if (intent != null) return intent;
            if (!RETRY_ON.contains(outcome)) break;
        }
        return null;
    }

    // ================================================================== the agent loop

    /** Run agent steps until the agent submits; its text, or null when it failed or ran out of steps. */
    private String agentLoop(List<Object> messages) throws Cancelled {
        Set<String> accepted = new HashSet<>();
        // each tool_calls answer is one step (docs/contracts.md, "Agent steps"); after the last
        // step of the budget the agent is called again: a submission then ends the loop, more
        // tool calls are beyond the budget and never executed
        for (int step = 1; ; step++) {
            int index = ++agentCalls;
            ModelClient.Reply reply = call("DIAGNOSIS_AGENT", "AGENT_STEP", index, 1, null, models.agent(), messages,
                    Prompts.TOOLS);
            finished("DIAGNOSIS_AGENT", "AGENT_STEP", index, 1, null, outcome(reply, true));
            if (reply.ending() != ModelClient.Ending.ANSWERED) return null;
            if (reply.toolCalls().isEmpty()) return reply.content() == null ? "" : reply.content();
            if (step > limits.maxSteps()) return null; // the step budget ran out before a submission
            toolStep(step, reply, messages, accepted);
        }
    }

    /** One agent step: check each presented call's Tool Call ID, execute the accepted ones in order. */
    private void toolStep(int step, ModelClient.Reply reply, List<Object> messages, Set<String> accepted) throws Cancelled {
        List<Object> echoed = new ArrayList<>();
        List<Object> results = new ArrayList<>();
        List<String> rejections = new ArrayList<>();
        List<Map<String, Object>> calls = reply.toolCalls();
        for (int position = 0; position < calls.size(); position++) {
            Map<String, Object> call = calls.get(position);
            Map<String, Object> function = Json.asObject(call.get("function"));
            String name = function == null ? null : Json.asString(function.get("name"));
            String reason = rejection(call, accepted);
            if (reason == null && !TOOL_NAMES.contains(name)) reason = "INVALID_ID"; // no canonical record for an unknown tool
            if (reason != null) {
                trace.emit("TOOL_CALL_REJECTED", Json.obj("reason", reason,
                        "presented_id", call.containsKey("id") ? Json.cut(Json.write(call.get("id")), 160) : null,
                        "tool_name", name == null ? null : Json.cut(name, 256), "step", (long) step, "position", (long) position));
                rejections.add("position " + position + ": " + reason);
                continue;
            }
            gate();
            String id = (String) call.get("id");
            accepted.add(id);
            Invocation invocation = accept(id, name, step, function);
            echoed.add(Json.obj("id", id, "type", "function", "function",
                    Json.obj("name", name, "arguments", Json.write(invocation.arguments))));
            results.add(Json.obj("role", "tool", "tool_call_id", id, "content", Prompts.toolResult(invocation)));
        }
        Map<String, Object> assistant = Json.obj("role", "assistant", "content", reply.content());
        if (!echoed.isEmpty()) assistant.put("tool_calls", echoed);
        messages.add(assistant);
        messages.addAll(results);
        if (!rejections.isEmpty()) {
            messages.add(Json.obj("role", "user", "content", "These tool calls were rejected and not executed "
                    + "(each needs its own valid, unique Tool Call ID): " + String.join("; ", rejections)));
        }
    }

    /** Why a presented Tool Call ID is refused (null: accepted), per the tool-call-id contract. */
    private static String rejection(Map<String, Object> call, Set<String> accepted) {
        Object id = call.get("id");
        if (id == null || "".equals(id)) return "MISSING_ID";
        if (!(id instanceof String s) || s.length() > 128 || !ID.matcher(s).matches()) return "INVALID_ID";
        return accepted.contains(s) ? "DUPLICATE_ID" : null;
    }

    /** Record the accepted call's canonical invocation and execute it. */
    private Invocation accept(String id, String name, int step, Map<String, Object> function) throws Cancelled {
        long sequence = invocations.size() + 1;
        Map<String, Object> arguments = null;
        try {
            arguments = Json.asObject(Json.parse(String.valueOf(function.get("arguments"))));
        } catch (Json.JsonError e) {
            // no query scope: refused below
        }
        Invocation invocation = new Invocation(id, runId, sequence, step, name, arguments == null ? Json.obj() : arguments);
        invocations.put(id, invocation);
        trace.emit("TOOL_CALL_ACCEPTED", Json.obj("tool_call_id", id, "tool_name", name, "step", (long) step, "sequence", sequence));
        statusChanged(invocation);
        Map<String, Object> scope = Invocation.queryScope(name, arguments);
        if (scope == null) {
            invocation.error("INVALID_ARGUMENTS", "The arguments give no query scope; the call was not executed.");
            statusChanged(invocation);
            return invocation;
        }
        executeTool(invocation, scope);
        return invocation;
    }

    /** Execute one tool call, bounded by the tool timeout and the Run's cancellation. */
    private void executeTool(Invocation invocation, Map<String, Object> scope) throws Cancelled {
        CompletableFuture<String> stop = new CompletableFuture<>();
        ScriptedTools.Call call = tools.send(invocation.toolName);
        CompletableFuture<ScriptedTools.Result> work =
                CompletableFuture.supplyAsync(() -> call.answer(stop), toolThreads);
        ScriptedTools.Result result = null;
        if (!trace.clientGone()) {
            try {
                CompletableFuture.anyOf(work, trace.disconnected()).get(limits.toolTimeoutMs(), TimeUnit.MILLISECONDS);
                if (!trace.clientGone()) result = work.get();
            } catch (TimeoutException e) {
                stop.complete("TIMEOUT");
                invocation.error("TOOL_TIMEOUT", "The tool did not answer within its timeout.");
                statusChanged(invocation);
                return;
            } catch (InterruptedException | ExecutionException e) {
                if (e instanceof InterruptedException) Thread.currentThread().interrupt();
                result = ScriptedTools.Result.of("failure");
            }
        }
        if (result == null) { // the client has gone: cancel the tool work, layer by layer
            stop.complete("CANCELLED");
            recordCancellation();
            trace.emit("TOOL_WORK_CANCELLED", Json.obj("tool_call_id", invocation.toolCallId));
            invocation.error("CANCELLED", "The Run was cancelled; the tool work was stopped.");
            statusChanged(invocation);
            throw new Cancelled();
        }
        switch (result.kind()) {
            case "rows":
                invocation.ready(Invocation.project(scope, result.rows(), result.totalMatched(), limits.maxItems(), limits.maxItemChars()));
                break;
            case "oversize":
                invocation.ready(Invocation.projectOversize(scope, result.bytes(), limits.maxItems(), limits.maxItemChars()));
                break;
            case "in_band_error":
                invocation.readyWithBackendError(Invocation.project(scope, List.of(), 0L, 0, 0));
                break;
            default: // failure, exhausted script
                invocation.error("TOOL_FAILED", "The tool failed.");
                statusChanged(invocation);
                return;
        }
        statusChanged(invocation);
        Map<String, Object> projection = invocation.projection;
        trace.emit("EVIDENCE_CLASSIFIED", Json.obj("tool_call_id", invocation.toolCallId,
                "evidence_status", invocation.evidenceStatus, "item_count", (long) Json.asArray(projection.get("items")).size(),
                "total_matched", projection.get("total_matched"), "truncated", projection.get("truncated")));
    }

    private void statusChanged(Invocation invocation) {
        trace.emit("INVOCATION_STATUS_CHANGED", Json.obj("tool_call_id", invocation.toolCallId,
                "status", invocation.status, "evidence_status", invocation.evidenceStatus));
    }

    // ================================================================== EvidenceGuard, repair, review

    private Map<String, Object> validateAndReview(String resultKind, List<Object> messages, String submission) throws Cancelled {
        Object body = parseSubmission(submission);
        List<EvidenceGuard.Violation> violations = validate(1, resultKind, body);
        if (violations.isEmpty()) return review(resultKind, body);
        List<Object> codes = new ArrayList<>();
        for (EvidenceGuard.Violation v : violations) codes.add(v.toJson());
        trace.emit("STRUCTURAL_REPAIR_REQUESTED", Json.obj("violations", codes));
        messages.add(Json.obj("role", "assistant", "content", submission));
        messages.add(Json.obj("role", "user", "content", Prompts.repairRequest(violations)));
        int index = ++agentCalls;
        ModelClient.Reply reply = call("DIAGNOSIS_AGENT", "STRUCTURAL_REPAIR", index, 1, null, models.agent(), messages, List.of());
        finished("DIAGNOSIS_AGENT", "STRUCTURAL_REPAIR", index, 1, null, outcome(reply, true));
        if (reply.ending() != ModelClient.Ending.ANSWERED) return release(fallback("EVIDENCE_VALIDATION_FAILED", List.of()));
        // a repair answer that calls tools is a failed repair: its calls are never executed
        Object repaired = reply.toolCalls().isEmpty() ? parseSubmission(reply.content()) : NOT_JSON;
        if (!validate(2, resultKind, repaired).isEmpty()) return release(fallback("EVIDENCE_VALIDATION_FAILED", List.of()));
        return review(resultKind, repaired);
    }

    private static final Object NOT_JSON = new Object();

    private static Object parseSubmission(String text) {
        try {
            return Json.parse(text == null ? "" : text);
        } catch (Json.JsonError e) {
            return NOT_JSON;
        }
    }

    /** DRAFT_SUBMITTED then EVIDENCE_VALIDATION of one attempt; the violations (empty: valid). */
    private List<EvidenceGuard.Violation> validate(int attempt, String resultKind, Object body) {
        trace.emit("DRAFT_SUBMITTED", Json.obj("attempt", (long) attempt, "result_kind", resultKind));
        List<EvidenceGuard.Violation> violations;
        if (body == NOT_JSON) {
            violations = List.of(new EvidenceGuard.Violation("SCHEMA_INVALID", ""));
        } else if ("DIAGNOSIS_DRAFT".equals(resultKind)) {
            violations = EvidenceGuard.validateDraft(body, invocations);
        } else {
            violations = EvidenceGuard.validateAnswer(body, invocations);
        }
        List<Object> listed = new ArrayList<>();
        for (EvidenceGuard.Violation v : violations) listed.add(v.toJson());
        trace.emit("EVIDENCE_VALIDATION", Json.obj("attempt", (long) attempt, "result_kind", resultKind,
                "valid", violations.isEmpty(), "violations", listed));
        return violations;
    }

    /** Have the SemanticGuard review the validated body; release it or the fixed fallback. */
    private Map<String, Object> review(String resultKind, Object body) throws Cancelled {
        Map<String, Object> snapshot = SemanticGuard.snapshot(runId, resultKind, body, invocations);
        String digest = (String) snapshot.get("digest");
        List<Object> messages = SemanticGuard.messages(snapshot);
        Set<String> reviewed = SemanticGuard.reviewedIds(body);
        Map<String, Object> verdict = null;
        int allowed = retries.semanticGuard() ? 2 : 1;
        for (int attempt = 1; attempt <= allowed && verdict == null; attempt++) {
            ModelClient.Reply reply = call("SEMANTIC_GUARD", "SEMANTIC_REVIEW", 1, attempt, digest, models.semanticGuard(), messages, List.of());
            verdict = reply.ending() == ModelClient.Ending.ANSWERED ? SemanticGuard.parseVerdict(reply.content(), reviewed) : null;
            String outcome = outcome(reply, verdict != null);
            finished("SEMANTIC_GUARD", "SEMANTIC_REVIEW", 1, attempt, digest, outcome);
            if (verdict == null && !RETRY_ON.contains(outcome)) break;
        }
        List<Object> sources = verifiedSources(body);
        if (verdict == null) return release(fallback("SEMANTIC_UNAVAILABLE", sources));
        trace.emit("SEMANTIC_VERDICT", Json.obj("snapshot_digest", digest, "verdict", verdict.get("verdict"),
                "unsupported_analysis_ids", verdict.get("unsupported_analysis_ids")));
        if (!"SUPPORTED".equals(verdict.get("verdict"))) return release(fallback("SEMANTIC_UNSUPPORTED", sources));
        String key = "DIAGNOSIS_DRAFT".equals(resultKind) ? "diagnosis_draft" : "knowledge_answer";
        return release(Json.obj("kind", resultKind, key, body));
    }

    /** The READY invocations the validated body cites, each once, as a fallback lists them. */
    private List<Object> verifiedSources(Object body) {
        List<Object> sources = new ArrayList<>();
        for (String id : SemanticGuard.citedIds(body)) {
            Invocation call = invocations.get(id);
            if (call == null || !"READY".equals(call.status)) continue;
            sources.add(Json.obj("tool_call_id", id, "tool_name", call.toolName,
                    "query_scope", call.projection.get("query_scope"), "evidence_status", call.evidenceStatus));
        }
        return sources;
    }

    // ================================================================== release

    private static final Map<String, String> MESSAGE_CODES = Map.of(
            "EVIDENCE_VALIDATION_FAILED", "EVIDENCE_NOT_VERIFIED",
            "SEMANTIC_UNSUPPORTED", "CLAIMS_NOT_SUPPORTED",
            "SEMANTIC_UNAVAILABLE", "REVIEW_UNAVAILABLE");

    private static Map<String, Object> fallback(String type, List<Object> sources) {
        return Json.obj("kind", "SAFE_FALLBACK", "safe_fallback",
                Json.obj("fallback_type", type, "message_code", MESSAGE_CODES.get(type), "verified_sources", sources));
    }

    private static Map<String, Object> publicError(String code) {
        return Json.obj("kind", "PUBLIC_ERROR", "public_error", Json.obj("error_code", code));
    }

    private static String stateOf(Map<String, Object> published) {
        switch ((String) published.get("kind")) {
            case "SAFE_FALLBACK": return "FALLBACK";
            case "PUBLIC_ERROR": return "FAILED";
            default: return "SUCCESS";
        }
    }

    /**
     * Release a result through the gate: a Run whose client has gone is cancelled instead. The row
     * is made terminal first, then RESULT_RELEASED, the result frame, RUN_FINISHED and the end frame.
     */
    private Map<String, Object> release(Map<String, Object> published) throws Cancelled {
        gate();
        String state = stateOf(published);
        Map<String, Object> fallback = Json.asObject(published.get("safe_fallback"));
        Map<String, Object> error = Json.asObject(published.get("public_error"));
        String fallbackType = fallback == null ? null : (String) fallback.get("fallback_type");
        String errorCode = error == null ? null : (String) error.get("error_code");
        store.finish(runId, state, published, fallbackType, errorCode, System.currentTimeMillis());
        trace.emit("RESULT_RELEASED", Json.obj("kind", published.get("kind")));
        trace.resultFrame(published);
        trace.emit("RUN_FINISHED", Json.obj("state", state, "fallback_type", fallbackType, "error_code", errorCode));
        trace.endFrame(state);
        return published;
    }

    // ================================================================== model calls and cancellation

    /**
     * One model-call attempt: MODEL_CALL_STARTED, then one HTTP request. A cancellation noticed
     * while it is in flight ends the attempt CANCELLED and the Run with it.
     */
    private ModelClient.Reply call(String component, String purpose, int index, int attempt, String digest,
            ModelClient.Endpoint endpoint, List<Object> messages, List<Object> offered) throws Cancelled {
        gate();
        trace.emit("MODEL_CALL_STARTED", Json.obj("component", component, "purpose", purpose, "call_index", (long) index,
                "attempt", (long) attempt, "snapshot_digest", digest));
        ModelClient.Reply reply = client.complete(endpoint, messages, offered, limits.modelCallTimeoutMs(), trace.disconnected());
        if (reply.ending() == ModelClient.Ending.CANCELLED) {
            recordCancellation();
            finished(component, purpose, index, attempt, digest, "CANCELLED");
            if (reply.lateAnswer() || DISCARD_EVERY_INTERRUPTED_CALL) {
                trace.emit("LATE_RESULT_DISCARDED", Json.obj("component", component, "purpose", purpose,
                        "call_index", (long) index, "attempt", (long) attempt));
            }
            throw new Cancelled();
        }
        return reply;
    }

    private void finished(String component, String purpose, int index, int attempt, String digest, String outcome) {
        trace.emit("MODEL_CALL_FINISHED", Json.obj("component", component, "purpose", purpose, "call_index", (long) index,
                "attempt", (long) attempt, "snapshot_digest", digest, "outcome", outcome));
    }

    private static String outcome(ModelClient.Reply reply, boolean valid) {
        switch (reply.ending()) {
            case HTTP_ERROR: return "UNAVAILABLE";
            case TIMEOUT: return "TIMEOUT";
            case CANCELLED: return "CANCELLED";
            default: return valid ? "VALID" : "INVALID_SCHEMA";
        }
    }

    /** The release gate: before any new work or release, a Run whose client has gone is cancelled. */
    private void gate() throws Cancelled {
        if (trace.clientGone()) {
            recordCancellation();
            throw new Cancelled();
        }
    }

    /** CANCEL_REQUESTED, NEW_WORK_PREVENTED, INTERRUPT_REQUESTED: once per Run. */
    private void recordCancellation() {
        if (cancelRecorded) return;
        cancelRecorded = true;
        trace.emit("CANCEL_REQUESTED", Json.obj("cause", trace.disconnected().getNow("CLIENT_DISCONNECTED")));
        trace.emit("NEW_WORK_PREVENTED", Json.obj());
        trace.emit("INTERRUPT_REQUESTED", Json.obj());
    }
}
