package dev.srdh.harness;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code diagnosis_run} store: one row per Run ({@code schemas/diagnosis-run.schema.json}).
 *
 * <p>Rows are kept in memory; a production Harness puts them in its database. The store keeps
 * the two rules the contract sheet gives it: a terminal row (SUCCESS, FALLBACK, FAILED,
 * CANCELLED) is never changed again, and a new Run's {@code seq} follows its session's. It also
 * selects the previous turn (Requirement 7): the latest DIAGNOSIS + SUCCESS Run of the session.
 */
final class RunStore {
    /** One Run passed over by previous-turn selection, with its reason. */
    record Skipped(String runId, String reason) {}

    /** The selected previous turn (a row, or null) and every newer Run passed over. */
    record PreviousTurn(Map<String, Object> selected, List<Skipped> skipped) {}

    private final List<Map<String, Object>> rows = new ArrayList<>();

    /** Seed the store with the fixture's {@code prior_runs}, as they are. */
    void seed(List<Object> priorRuns) {
        for (Object row : priorRuns) rows.add(new LinkedHashMap<>(Json.asObject(row)));
    }

    boolean hasRunId(String runId) {
        return rows.stream().anyMatch(r -> runId.equals(r.get("run_id")));
    }

    /** The next {@code seq} of a session: one more than its greatest, 1 for a new session. */
    long nextSeq(String sessionId) {
        return session(sessionId).stream().mapToLong(r -> Json.asLong(r.get("seq"))).max().orElse(0) + 1;
    }

    /** Insert a RUNNING row (no intent yet). */
    Map<String, Object> insertRunning(String runId, String sessionId, long seq, String userMessage, long nowMs) {
        Map<String, Object> row = Json.obj(
                "run_id", runId, "session_id", sessionId, "seq", seq, "user_message", userMessage,
                "intent", null, "state", "RUNNING", "published_result", null, "fallback_type", null,
                "error_code", null, "created_at_ms", nowMs, "finished_at_ms", null);
        rows.add(row);
        return row;
    }

    /** Record the intent the Router decided, on this Run's row only. */
    void setIntent(String runId, String intent) {
        Map<String, Object> row = running(runId);
        row.put("intent", intent);
    }

    /**
     * Move a RUNNING row to its terminal state, with its published result (null when CANCELLED).
     *
     * @throws IllegalStateException the row is already terminal (terminal states are immutable)
     */
    void finish(String runId, String state, Map<String, Object> published, String fallbackType,
            String errorCode, long nowMs) {
        Map<String, Object> row = running(runId);
        row.put("state", state);
        row.put("published_result", published);
        row.put("fallback_type", fallbackType);
        row.put("error_code", errorCode);
        long created = Json.asLong(row.get("created_at_ms"));
        row.put("finished_at_ms", Math.max(created, nowMs));
    }

    private Map<String, Object> running(String runId) {
        for (Map<String, Object> row : rows) {
            if (runId.equals(row.get("run_id"))) {
                if (!"RUNNING".equals(row.get("state"))) {
                    throw new IllegalStateException("run " + runId + " is terminal: " + row.get("state"));
                }
                return row;
            }
        }
        throw new IllegalStateException("no run " + runId);
    }

    /** Every row of a session, by {@code seq}. */
    List<Map<String, Object>> session(String sessionId) {
        List<Map<String, Object>> found = new ArrayList<>();
        for (Map<String, Object> row : rows) if (sessionId.equals(row.get("session_id"))) found.add(row);
        found.sort(Comparator.comparingLong(r -> Json.asLong(r.get("seq"))));
        return found;
    }

    /**
     * Select the previous turn of the Run {@code seq} of a session: the Run of greatest smaller
     * {@code seq} with intent DIAGNOSIS and state SUCCESS. Every newer Run is skipped with one
     * reason, newest first, at most 100 listed.
     */
    PreviousTurn previousTurn(String sessionId, long seq) {
        List<Map<String, Object>> earlier = new ArrayList<>(session(sessionId));
        earlier.removeIf(r -> Json.asLong(r.get("seq")) >= seq);
        List<Skipped> skipped = new ArrayList<>();
        for (int i = earlier.size() - 1; i >= 0; i--) {
            Map<String, Object> row = earlier.get(i);
            String reason = skipReason(row);
            if (reason == null) return new PreviousTurn(row, cap(skipped));
            skipped.add(new Skipped((String) row.get("run_id"), reason));
        }
        return new PreviousTurn(null, cap(skipped));
    }

    private static List<Skipped> cap(List<Skipped> skipped) {
        return skipped.size() <= 100 ? skipped : skipped.subList(0, 100);
    }

    /** Why a Run is not a previous turn (null: it is one). The first matching row wins. */
    private static String skipReason(Map<String, Object> row) {
        switch (String.valueOf(row.get("state"))) {
            case "RUNNING": return "STATE_RUNNING";
            case "FALLBACK": return "STATE_FALLBACK";
            case "FAILED": return "STATE_FAILED";
            case "CANCELLED": return "STATE_CANCELLED";
            default: break;
        }
        return "DIAGNOSIS".equals(row.get("intent")) ? null : "INTENT_KNOWLEDGE_QUERY";
    }
}
