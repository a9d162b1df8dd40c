package dev.srdh.harness;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The canonical invocation of one accepted Tool call ({@code schemas/tool-invocation.schema.json}).
 *
 * <p>Its invocation status moves PROJECTING → READY or ERROR exactly once; terminal states are
 * immutable. The evidence status is independent of it (Requirement 3): READY carries
 * EVIDENCE_FOUND, NO_EVIDENCE or an in-band ERROR; ERROR always carries evidence ERROR.
 */
final class Invocation {
    static final String LOOKUP = "lookup_documents";

    final String toolCallId;
    final String runId;
    final long sequence;
    final long step;
    final String toolName;
    final Map<String, Object> arguments;
    String status = "PROJECTING";
    String evidenceStatus;
    Map<String, Object> projection;
    String errorCode;
    String safeMessage;

    Invocation(String toolCallId, String runId, long sequence, long step, String toolName, Map<String, Object> arguments) {
        this.toolCallId = toolCallId;
        this.runId = runId;
        this.sequence = sequence;
        this.step = step;
        this.toolName = toolName;
        this.arguments = arguments;
    }

    boolean isTerminal() {
        return !"PROJECTING".equals(status);
    }

    /** READY with a bounded projection; evidence NO_EVIDENCE iff no item and no match. */
    void ready(Map<String, Object> projection) {
        requireProjecting();
        this.status = "READY";
        this.projection = projection;
        boolean empty = Json.asArray(projection.get("items")).isEmpty() && Json.asLong(projection.get("total_matched")) == 0;
        this.evidenceStatus = empty ? "NO_EVIDENCE" : "EVIDENCE_FOUND";
    }

    /** READY with the backend's in-band error: evidence ERROR, code BACKEND_ERROR. */
    void readyWithBackendError(Map<String, Object> emptyProjection) {
        requireProjecting();
        this.status = "READY";
        this.projection = emptyProjection;
        this.evidenceStatus = "ERROR";
        this.errorCode = "BACKEND_ERROR";
        this.safeMessage = "The backend answered with an error.";
    }

    /** ERROR: the call failed (the message is the Harness's own text, never the tool's). */
    void error(String code, String safeMessage) {
        requireProjecting();
        this.status = "ERROR";
        this.evidenceStatus = "ERROR";
        this.errorCode = code;
        this.safeMessage = safeMessage;
    }

    private void requireProjecting() {
        if (isTerminal()) throw new IllegalStateException("invocation " + toolCallId + " is already " + status);
    }

    Map<String, Object> toJson() {
        return Json.obj(
                "tool_call_id", toolCallId, "run_id", runId, "sequence", sequence, "step", step,
                "tool_name", toolName, "arguments", arguments, "status", status,
                "evidence_status", evidenceStatus, "projection", projection,
                "error", errorCode == null ? null : Json.obj("code", errorCode, "safe_message", safeMessage));
    }

    // ------------------------------------------------------------------ query scope and projection

    /**
     * The query scope of well-formed arguments {@code {target, time_range: {start_ms, end_ms}, query}}
     * (other members are left open), or null when they give none.
     */
    static Map<String, Object> queryScope(String tool, Map<String, Object> arguments) {
        if (arguments == null) return null;
        String target = Json.asString(arguments.get("target"));
        Object rawQuery = arguments.get("query");
        String query = Json.asString(rawQuery);
        Map<String, Object> window = Json.asObject(arguments.get("time_range"));
        if (target == null || Json.length(target) < 1 || Json.length(target) > 256) return null;
        if (query == null || Json.length(query) > 1024 || window == null) return null;
        Long start = Json.asLong(window.get("start_ms"));
        Long end = Json.asLong(window.get("end_ms"));
        if (start == null || end == null || start < 0 || end < start) return null;
        return Json.obj("tool", tool, "target", target,
                "time_range", Json.obj("start_ms", start, "end_ms", end),
                "query", query);
    }

    /**
     * The bounded projection of backend rows: at most {@code maxItems} items, each cut to
     * {@code maxItemChars} code points; {@code total_matched} is the backend's count when it
     * reports more; truncated iff something was left out.
     */
    static Map<String, Object> project(Map<String, Object> scope, List<Map<String, Object>> rows, Long reported,
            int maxItems, int maxItemChars) {
        boolean lookup = LOOKUP.equals(scope.get("tool"));
        List<Object> items = new ArrayList<>();
        Set<String> documentIds = new LinkedHashSet<>();
        boolean cut = false;
        for (Map<String, Object> row : rows.subList(0, Math.min(rows.size(), maxItems))) {
            String text = Json.asString(row.get("text"));
            String kept = Json.cut(text, maxItemChars);
            cut |= kept.length() != text.length();
            Map<String, Object> item = Json.obj("text", kept);
            String documentId = Json.asString(row.get("document_id"));
            if (lookup && documentId == null) continue; // a lookup row without a document id binds nothing
            if (lookup) {
                item.put("document_id", documentId);
                documentIds.add(documentId);
            }
            items.add(item);
        }
        long total = Math.max(reported == null ? rows.size() : reported, rows.size());
        boolean truncated = cut || total > items.size();
        return Json.obj("query_scope", scope, "items", items, "total_matched", total, "truncated", truncated,
                "document_ids", new ArrayList<Object>(documentIds));
    }

    /** The projection of a raw payload of {@code bytes} characters: one item, cut to the limits. */
    static Map<String, Object> projectOversize(Map<String, Object> scope, long bytes, int maxItems, int maxItemChars) {
        if (bytes == 0 || maxItems == 0 || LOOKUP.equals(scope.get("tool"))) { // a lookup payload has no document ids
            return Json.obj("query_scope", scope, "items", new ArrayList<>(), "total_matched", bytes == 0 ? 0L : 1L,
                    "truncated", bytes > 0, "document_ids", new ArrayList<>());
        }
        String kept = "x".repeat((int) Math.min(bytes, maxItemChars));
        List<Object> items = new ArrayList<>();
        items.add(Json.obj("text", kept));
        return Json.obj("query_scope", scope, "items", items, "total_matched", 1L,
                "truncated", bytes > maxItemChars, "document_ids", new ArrayList<>());
    }
}
