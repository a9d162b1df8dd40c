package dev.srdh.harness;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The SemanticGuard client: an isolated, single-turn review of a Verified Snapshot.
 *
 * <p>The reviewer is sent system instructions and one user message holding only the Verified
 * Snapshot as JSON ({@code schemas/verified-snapshot.schema.json}), and no tools. Its answer must be
 * a {@code semantic-verdict} document; anything else is an attempt with outcome INVALID_SCHEMA.
 */
final class SemanticGuard {
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]*");

    static final String INSTRUCTIONS = "You are the SemanticGuard. The user message is a Verified Snapshot: a report "
            + "and the bounded evidence it cites. Decide whether every claim is supported by that evidence. Answer "
            + "only with JSON {\"verdict\": \"SUPPORTED\"|\"UNSUPPORTED\", \"unsupported_analysis_ids\": [ids]}.";

    private SemanticGuard() {}

    /**
     * Build the Verified Snapshot of a validated body: the body as the agent submitted it and the
     * projections of exactly the READY invocations it cites, each once, in citation order; the
     * {@code digest} is SHA-256 of the RFC 8785 canonical JSON of the snapshot without it.
     */
    static Map<String, Object> snapshot(String runId, String resultKind, Object body, Map<String, Invocation> invocations) {
        Map<String, Object> snapshot = Json.obj("run_id", runId, "result_kind", resultKind);
        snapshot.put("DIAGNOSIS_DRAFT".equals(resultKind) ? "diagnosis_draft" : "knowledge_answer", body);
        List<Object> evidence = new ArrayList<>();
        for (String id : citedIds(body)) {
            Invocation call = invocations.get(id);
            if (call == null || !"READY".equals(call.status)) continue;
            evidence.add(Json.obj("tool_call_id", call.toolCallId, "tool_name", call.toolName,
                    "evidence_status", call.evidenceStatus, "projection", call.projection));
        }
        snapshot.put("evidence", evidence);
        snapshot.put("digest", Json.digest(snapshot));
        return snapshot;
    }

    /**
     * The distinct Tool Call IDs a valid body cites, in document order: a draft through its analyses
     * and limitations, an answer through its lookup and references.
     */
    static List<String> citedIds(Object body) {
        Map<String, Object> doc = Json.asObject(body);
        Set<String> ids = new LinkedHashSet<>();
        if (doc.containsKey("analyses")) {
            for (String section : List.of("analyses", "limitations")) {
                for (Object entry : Json.asArray(doc.get(section))) {
                    for (Object id : Json.asArray(Json.asObject(entry).get("tool_call_ids"))) ids.add((String) id);
                }
            }
        } else {
            ids.add((String) doc.get("lookup_tool_call_id"));
            for (Object item : Json.asArray(doc.get("items"))) {
                for (Object ref : Json.asArray(Json.asObject(item).get("references"))) {
                    ids.add((String) Json.asObject(ref).get("tool_call_id"));
                }
            }
        }
        return new ArrayList<>(ids);
    }

    /** The analysis ids of a draft, or the item ids of an answer: what a verdict may name. */
    static Set<String> reviewedIds(Object body) {
        Map<String, Object> doc = Json.asObject(body);
        boolean draft = doc.containsKey("analyses");
        Set<String> ids = new HashSet<>();
        for (Object entry : Json.asArray(doc.get(draft ? "analyses" : "items"))) {
            ids.add((String) Json.asObject(entry).get(draft ? "analysis_id" : "item_id"));
        }
        return ids;
    }

    /** The chat messages of a review: instructions, then the snapshot alone. */
    static List<Object> messages(Map<String, Object> snapshot) {
        List<Object> messages = new ArrayList<>();
        messages.add(Json.obj("role", "system", "content", INSTRUCTIONS));
        messages.add(Json.obj("role", "user", "content", Json.canonical(snapshot)));
        return messages;
    }

    /**
     * Parse a reviewer's answer as a {@code semantic-verdict}, or null when it is not one (exactly
     * the two members; SUPPORTED names no id, UNSUPPORTED at least one; ids unique, each naming an
     * analysis or answer item of the reviewed body).
     */
    static Map<String, Object> parseVerdict(String content, Set<String> reviewedIds) {
        if (content == null) return null;
        Map<String, Object> verdict;
        try {
            verdict = Json.asObject(Json.parse(content));
        } catch (Json.JsonError e) {
            return null;
        }
        if (verdict == null || !verdict.keySet().equals(Set.of("verdict", "unsupported_analysis_ids"))) return null;
        Object kind = verdict.get("verdict");
        List<Object> ids = Json.asArray(verdict.get("unsupported_analysis_ids"));
        if (ids == null) return null;
        Set<Object> seen = new HashSet<>();
        for (Object id : ids) {
            if (!(id instanceof String s) || s.length() > 128 || !ID.matcher(s).matches() || !seen.add(s)
                    || !reviewedIds.contains(s)) return null;
        }
        if ("SUPPORTED".equals(kind) && ids.isEmpty()) return verdict;
        if ("UNSUPPORTED".equals(kind) && !ids.isEmpty()) return verdict;
        return null;
    }
}
