package dev.srdh.harness;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * EvidenceGuard: deterministic validation of what the Diagnosis Agent submits, without a model.
 *
 * <p>A submission is first checked against its contract ({@code diagnosis-draft} or
 * {@code knowledge-answer}: every member, type, length, pattern and enum, no member the contract
 * does not define), then against the Run's canonical invocations (the binding rules of the
 * contract sheet). Each violation is a stable code at an RFC 6901 pointer into the submission.
 */
final class EvidenceGuard {
    /** One broken rule: its code and where. */
    record Violation(String code, String pointer) {
        Map<String, Object> toJson() {
            return Json.obj("code", code, "pointer", pointer);
        }
    }

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]*");
    private static final Set<String> KINDS = Set.of("OBSERVATION", "NEGATIVE_OBSERVATION", "INFERENCE");
    private static final Set<String> CONFIDENCE = Set.of("LOW", "MEDIUM", "HIGH");
    private static final Set<String> TOOLS = Set.of("query_metrics", "search_logs", "list_alerts", "lookup_documents");

    private final List<Violation> found = new ArrayList<>();

    private EvidenceGuard() {}

    // ================================================================== Diagnosis Draft

    /** Validate a Diagnosis Draft against the Run's invocations (by Tool Call ID). */
    static List<Violation> validateDraft(Object document, Map<String, Invocation> invocations) {
        EvidenceGuard guard = new EvidenceGuard();
        guard.draftSchema(document);
        if (guard.found.isEmpty()) guard.draftBindings(Json.asObject(document), invocations);
        return List.copyOf(new LinkedHashSet<>(guard.found));
    }

    private void draftSchema(Object document) {
        Map<String, Object> draft = object(document, "", Set.of("conclusion", "analyses", "action_plan", "recommendations", "limitations"),
                Set.of("conclusion", "analyses", "action_plan", "recommendations", "limitations"));
        if (draft == null) return;
        Map<String, Object> conclusion = object(draft.get("conclusion"), "/conclusion",
                Set.of("summary", "confidence", "analysis_ids"), Set.of("summary", "confidence", "analysis_ids"));
        if (conclusion != null) {
            text(conclusion.get("summary"), "/conclusion/summary", 1, 4000);
            oneOf(conclusion.get("confidence"), "/conclusion/confidence", CONFIDENCE);
            ids(conclusion.get("analysis_ids"), "/conclusion/analysis_ids", 1);
        }
        List<Object> analyses = array(draft.get("analyses"), "/analyses", 1);
        for (int i = 0; analyses != null && i < analyses.size(); i++) analysisSchema(analyses.get(i), "/analyses/" + i);
        List<Object> actions = array(draft.get("action_plan"), "/action_plan", 0);
        for (int i = 0; actions != null && i < actions.size(); i++) {
            String at = "/action_plan/" + i;
            Map<String, Object> action = object(actions.get(i), at, Set.of("action", "analysis_ids"), Set.of("action", "analysis_ids"));
            if (action == null) continue;
            text(action.get("action"), at + "/action", 1, 2000);
            ids(action.get("analysis_ids"), at + "/analysis_ids", 1);
        }
        List<Object> recommendations = array(draft.get("recommendations"), "/recommendations", 0);
        for (int i = 0; recommendations != null && i < recommendations.size(); i++) {
            String at = "/recommendations/" + i;
            Map<String, Object> rec = object(recommendations.get(i), at, Set.of("text", "analysis_ids"), Set.of("text", "analysis_ids"));
            if (rec == null) continue;
            text(rec.get("text"), at + "/text", 1, 2000);
            ids(rec.get("analysis_ids"), at + "/analysis_ids", 1);
        }
        List<Object> limitations = array(draft.get("limitations"), "/limitations", 0);
        for (int i = 0; limitations != null && i < limitations.size(); i++) {
            String at = "/limitations/" + i;
            Map<String, Object> lim = object(limitations.get(i), at, Set.of("text", "tool_call_ids"), Set.of("text", "tool_call_ids"));
            if (lim == null) continue;
            text(lim.get("text"), at + "/text", 1, 2000);
            ids(lim.get("tool_call_ids"), at + "/tool_call_ids", 0);
        }
    }

    private void analysisSchema(Object value, String at) {
        Map<String, Object> analysis = object(value, at, Set.of("analysis_id", "kind", "statement", "tool_call_ids", "scope"),
                Set.of("analysis_id", "kind", "statement"));
        if (analysis == null) return;
        id(analysis.get("analysis_id"), at + "/analysis_id", analysis.containsKey("analysis_id"));
        oneOf(analysis.get("kind"), at + "/kind", KINDS);
        text(analysis.get("statement"), at + "/statement", 1, 4000);
        Object citations = analysis.get("tool_call_ids");
        List<Object> list = Json.asArray(citations);
        if (citations == null || (list != null && list.isEmpty())) {
            found.add(new Violation("MISSING_TOOL_CALL_IDS", at + "/tool_call_ids"));
        } else {
            ids(citations, at + "/tool_call_ids", 1);
        }
        if (analysis.containsKey("scope")) {
            scopeSchema(analysis.get("scope"), at + "/scope");
        } else if ("NEGATIVE_OBSERVATION".equals(analysis.get("kind"))) {
            found.add(new Violation("SCHEMA_INVALID", at + "/scope"));
        }
    }

    private void scopeSchema(Object value, String at) {
        Map<String, Object> scope = object(value, at, Set.of("tool", "target", "time_range", "query"),
                Set.of("tool", "target", "time_range", "query"));
        if (scope == null) return;
        oneOf(scope.get("tool"), at + "/tool", TOOLS);
        text(scope.get("target"), at + "/target", 1, 256);
        text(scope.get("query"), at + "/query", 0, 1024);
        Map<String, Object> window = object(scope.get("time_range"), at + "/time_range", Set.of("start_ms", "end_ms"), Set.of("start_ms", "end_ms"));
        if (window == null) return;
        Long start = nonNegative(window.get("start_ms"), at + "/time_range/start_ms");
        Long end = nonNegative(window.get("end_ms"), at + "/time_range/end_ms");
        if (start != null && end != null && end < start) found.add(new Violation("SCHEMA_INVALID", at + "/time_range"));
    }

    private void draftBindings(Map<String, Object> draft, Map<String, Invocation> invocations) {
        List<Object> analyses = Json.asArray(draft.get("analyses"));
        Set<String> analysisIds = new HashSet<>();
        for (int i = 0; i < analyses.size(); i++) {
            Map<String, Object> analysis = Json.asObject(analyses.get(i));
            String at = "/analyses/" + i;
            if (!analysisIds.add((String) analysis.get("analysis_id"))) {
                found.add(new Violation("DUPLICATE_ANALYSIS_ID", at + "/analysis_id"));
            }
            analysisBindings(analysis, at, invocations);
        }
        namedAnalyses(Json.asObject(draft.get("conclusion")), "/conclusion", analysisIds);
        for (String section : List.of("action_plan", "recommendations")) {
            List<Object> entries = Json.asArray(draft.get(section));
            for (int i = 0; i < entries.size(); i++) namedAnalyses(Json.asObject(entries.get(i)), "/" + section + "/" + i, analysisIds);
        }
        List<Object> limitations = Json.asArray(draft.get("limitations"));
        for (int i = 0; i < limitations.size(); i++) {
            List<Object> cited = Json.asArray(Json.asObject(limitations.get(i)).get("tool_call_ids"));
            for (int j = 0; j < cited.size(); j++) {
                if (!invocations.containsKey(cited.get(j))) {
                    found.add(new Violation("UNKNOWN_TOOL_CALL_ID", "/limitations/" + i + "/tool_call_ids/" + j));
                }
            }
        }
    }

    /**
     * The rules of one analysis: each citation is an accepted call with usable evidence, a cited
     * NO_EVIDENCE result is a NEGATIVE_OBSERVATION within the scope of every call it cites, and an
     * OBSERVATION cites at least one EVIDENCE_FOUND result.
     */
    private void analysisBindings(Map<String, Object> analysis, String at, Map<String, Invocation> invocations) {
        String kind = (String) analysis.get("kind");
        boolean negative = "NEGATIVE_OBSERVATION".equals(kind);
        boolean broken = false;
        boolean evidenceFound = false;
        List<Object> cited = Json.asArray(analysis.get("tool_call_ids"));
        for (int j = 0; j < cited.size(); j++) {
            String where = at + "/tool_call_ids/" + j;
            Invocation call = invocations.get(cited.get(j));
            String code = null;
            if (call == null) {
                code = "UNKNOWN_TOOL_CALL_ID";
            } else if (!"READY".equals(call.status)) {
                code = "INVOCATION_NOT_READY";
            } else if ("ERROR".equals(call.evidenceStatus)) {
                code = "ERROR_EVIDENCE_CITED";
            } else if ("NO_EVIDENCE".equals(call.evidenceStatus) && !negative) {
                code = "NO_EVIDENCE_NOT_NEGATIVE";
            } else if (!"NO_EVIDENCE".equals(call.evidenceStatus) && negative) {
                code = "NEGATIVE_WITHOUT_NO_EVIDENCE";
            } else if (negative && !within(Json.asObject(analysis.get("scope")), Json.asObject(call.projection.get("query_scope")))) {
                found.add(new Violation("NEGATIVE_SCOPE_TOO_WIDE", at + "/scope"));
                broken = true;
            }
            if (code != null) {
                found.add(new Violation(code, where));
                broken = true;
            } else if ("EVIDENCE_FOUND".equals(call.evidenceStatus)) {
                evidenceFound = true;
            }
        }
        if ("OBSERVATION".equals(kind) && !broken && !evidenceFound) {
            found.add(new Violation("OBSERVATION_WITHOUT_EVIDENCE", at + "/tool_call_ids"));
        }
    }

    /** Scope A is within scope B: same tool, target and query, and B's window holds A's. */
    private static boolean within(Map<String, Object> inner, Map<String, Object> outer) {
        for (String key : List.of("tool", "target", "query")) {
            if (!inner.get(key).equals(outer.get(key))) return false;
        }
        Map<String, Object> a = Json.asObject(inner.get("time_range"));
        Map<String, Object> b = Json.asObject(outer.get("time_range"));
        long aStart = Json.asLong(a.get("start_ms")), aEnd = Json.asLong(a.get("end_ms"));
        long bStart = Json.asLong(b.get("start_ms")), bEnd = Json.asLong(b.get("end_ms"));
        return bStart <= aStart && aStart <= aEnd && aEnd <= bEnd;
    }

    private void namedAnalyses(Map<String, Object> entry, String at, Set<String> analysisIds) {
        List<Object> named = Json.asArray(entry.get("analysis_ids"));
        for (int n = 0; n < named.size(); n++) {
            if (!analysisIds.contains(named.get(n))) found.add(new Violation("UNKNOWN_ANALYSIS_ID", at + "/analysis_ids/" + n));
        }
    }

    // ================================================================== Knowledge Answer

    /** Validate a Knowledge Answer against the Run's invocations (by Tool Call ID). */
    static List<Violation> validateAnswer(Object document, Map<String, Invocation> invocations) {
        EvidenceGuard guard = new EvidenceGuard();
        guard.answerSchema(document);
        if (guard.found.isEmpty()) guard.answerBindings(Json.asObject(document), invocations);
        return List.copyOf(new LinkedHashSet<>(guard.found));
    }

    private void answerSchema(Object document) {
        Map<String, Object> answer = object(document, "", Set.of("lookup_tool_call_id", "items", "limitations"),
                Set.of("lookup_tool_call_id", "items", "limitations"));
        if (answer == null) return;
        id(answer.get("lookup_tool_call_id"), "/lookup_tool_call_id", true);
        List<Object> items = array(answer.get("items"), "/items", 0);
        for (int i = 0; items != null && i < items.size(); i++) {
            String at = "/items/" + i;
            Map<String, Object> item = object(items.get(i), at, Set.of("item_id", "text", "references"), Set.of("item_id", "text"));
            if (item == null) continue;
            id(item.get("item_id"), at + "/item_id", item.containsKey("item_id"));
            text(item.get("text"), at + "/text", 1, 4000);
            Object references = item.get("references");
            List<Object> list = Json.asArray(references);
            if (references == null || (list != null && list.isEmpty())) {
                found.add(new Violation("ITEM_WITHOUT_REFERENCES", at + "/references"));
                continue;
            }
            list = array(references, at + "/references", 1);
            for (int j = 0; list != null && j < list.size(); j++) {
                String ref = at + "/references/" + j;
                Map<String, Object> reference = object(list.get(j), ref, Set.of("tool_call_id", "document_id"), Set.of("tool_call_id", "document_id"));
                if (reference == null) continue;
                id(reference.get("tool_call_id"), ref + "/tool_call_id", true);
                id(reference.get("document_id"), ref + "/document_id", true);
            }
        }
        List<Object> limitations = array(answer.get("limitations"), "/limitations", 0);
        for (int i = 0; limitations != null && i < limitations.size(); i++) {
            Map<String, Object> lim = object(limitations.get(i), "/limitations/" + i, Set.of("text"), Set.of("text"));
            if (lim != null) text(lim.get("text"), "/limitations/" + i + "/text", 1, 2000);
        }
    }

    /**
     * The exact RAG bindings: the answer names the single lookup call of the Run (its one READY
     * {@code lookup_documents} invocation), every reference names that call and a document id it
     * returned (exactly), item ids are unique, and the answer is not empty when documents were found.
     */
    private void answerBindings(Map<String, Object> answer, Map<String, Invocation> invocations) {
        String named = (String) answer.get("lookup_tool_call_id");
        List<Invocation> ready = new ArrayList<>();
        for (Invocation call : invocations.values()) {
            if (Invocation.LOOKUP.equals(call.toolName) && "READY".equals(call.status)) ready.add(call);
        }
        if (ready.size() != 1 || !ready.get(0).toolCallId.equals(named)) {
            found.add(new Violation("LOOKUP_CALL_COUNT", "/lookup_tool_call_id"));
        }
        // the documents of the named call when it is a READY lookup (even beside another lookup:
        // its references are still checked, so that the repair request names every broken binding)
        Invocation lookup = invocations.get(named);
        if (lookup != null && !(Invocation.LOOKUP.equals(lookup.toolName) && "READY".equals(lookup.status))) lookup = null;
        Set<String> documents = new LinkedHashSet<>();
        if (lookup != null) for (Object id : Json.asArray(lookup.projection.get("document_ids"))) documents.add((String) id);
        List<Object> items = Json.asArray(answer.get("items"));
        Set<String> itemIds = new HashSet<>();
        for (int i = 0; i < items.size(); i++) {
            Map<String, Object> item = Json.asObject(items.get(i));
            if (!itemIds.add((String) item.get("item_id"))) found.add(new Violation("DUPLICATE_ITEM_ID", "/items/" + i + "/item_id"));
            List<Object> references = Json.asArray(item.get("references"));
            for (int j = 0; j < references.size(); j++) {
                Map<String, Object> reference = Json.asObject(references.get(j));
                String at = "/items/" + i + "/references/" + j;
                if (!named.equals(reference.get("tool_call_id"))) {
                    found.add(new Violation("REFERENCE_OTHER_CALL", at + "/tool_call_id"));
                } else if (lookup != null && !documents.contains(reference.get("document_id"))) {
                    found.add(new Violation("FABRICATED_DOCUMENT_ID", at + "/document_id"));
                }
            }
        }
        if (lookup != null && items.isEmpty() && !documents.isEmpty()) found.add(new Violation("EMPTY_ANSWER_WITH_DOCUMENTS", "/items"));
    }

    // ================================================================== schema helpers

    private Map<String, Object> object(Object value, String at, Set<String> allowed, Set<String> required) {
        Map<String, Object> map = Json.asObject(value);
        if (map == null) {
            found.add(new Violation("SCHEMA_INVALID", at));
            return null;
        }
        for (String key : map.keySet()) {
            if (!allowed.contains(key)) found.add(new Violation("SCHEMA_INVALID", at + "/" + escape(key)));
        }
        for (String key : required) {
            if (!map.containsKey(key)) found.add(new Violation("SCHEMA_INVALID", at + "/" + key));
        }
        return map;
    }

    private List<Object> array(Object value, String at, int minItems) {
        List<Object> list = Json.asArray(value);
        if (list == null || list.size() < minItems) {
            found.add(new Violation("SCHEMA_INVALID", at));
            return null;
        }
        return list;
    }

    private void text(Object value, String at, int min, int max) {
        String s = Json.asString(value);
        if (s == null || Json.length(s) < min || Json.length(s) > max) found.add(new Violation("SCHEMA_INVALID", at));
    }

    private void oneOf(Object value, String at, Set<String> allowed) {
        if (!(value instanceof String s) || !allowed.contains(s)) found.add(new Violation("SCHEMA_INVALID", at));
    }

    private void id(Object value, String at, boolean present) {
        if (!present) return; // reported as a missing required member
        String s = Json.asString(value);
        if (s == null || s.length() > 128 || !ID.matcher(s).matches()) found.add(new Violation("SCHEMA_INVALID", at));
    }

    private void ids(Object value, String at, int minItems) {
        List<Object> list = array(value, at, minItems);
        for (int i = 0; list != null && i < list.size(); i++) id(list.get(i), at + "/" + i, true);
    }

    private Long nonNegative(Object value, String at) {
        Long n = value instanceof Json.Num ? Json.asLong(value) : null;
        if (n == null || n < 0) {
            found.add(new Violation("SCHEMA_INVALID", at));
            return null;
        }
        return n;
    }

    /** RFC 6901 escaping of one reference token. */
    static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }
}
