package dev.srdh.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the Harness sends to the Router and the Diagnosis Agent: instructions, the tools offered,
 * tool results and the structural repair request. Only bounded projections and codes reach a
 * model; never a raw backend row, a tool's raised message or a model's chain-of-thought.
 */
final class Prompts {
    private Prompts() {}

    private static final Set<String> INTENTS = Set.of("DIAGNOSIS", "KNOWLEDGE_QUERY");

    static final String ROUTER = "Classify the user's message. DIAGNOSIS: the user asks why a service misbehaves. "
            + "KNOWLEDGE_QUERY: the user asks what the documentation says. Answer only with JSON {\"intent\": \"DIAGNOSIS\"} "
            + "or {\"intent\": \"KNOWLEDGE_QUERY\"}.";

    static final String DIAGNOSIS = "You are the Diagnosis Agent, the only author of the incident report. Call the "
            + "tools to gather evidence, then answer with one JSON Diagnosis Draft: {conclusion: {summary, confidence: "
            + "LOW|MEDIUM|HIGH, analysis_ids}, analyses: [{analysis_id, kind: OBSERVATION|NEGATIVE_OBSERVATION|INFERENCE, "
            + "statement, tool_call_ids, scope?}], action_plan: [{action, analysis_ids}], recommendations: [{text, "
            + "analysis_ids}], limitations: [{text, tool_call_ids}]}. Cite the Tool Call IDs of the results you rely on; "
            + "a result with no evidence supports only a NEGATIVE_OBSERVATION within its query scope.";

    static final String KNOWLEDGE = "You are the Diagnosis Agent answering a documentation question. Call "
            + "lookup_documents once, then answer with one JSON Knowledge Answer: {lookup_tool_call_id, items: [{item_id, "
            + "text, references: [{tool_call_id, document_id}]}], limitations: [{text}]}, citing only document ids the "
            + "lookup returned.";

    /** The OpenAI {@code tools} offered to an agent step: the four tools, each with its arguments schema. */
    static final List<Object> TOOLS = tools();

    private static List<Object> tools() {
        Map<String, Object> parameters = Json.obj("type", "object",
                "properties", Json.obj(
                        "target", Json.obj("type", "string"),
                        "time_range", Json.obj("type", "object", "properties", Json.obj(
                                "start_ms", Json.obj("type", "integer"), "end_ms", Json.obj("type", "integer")),
                                "required", List.of("start_ms", "end_ms")),
                        "query", Json.obj("type", "string")),
                "required", List.of("target", "time_range", "query"));
        List<Object> tools = new ArrayList<>();
        for (String name : List.of("query_metrics", "search_logs", "list_alerts", "lookup_documents")) {
            tools.add(Json.obj("type", "function", "function", Json.obj("name", name,
                    "description", "Query " + name.replace('_', ' ') + " for a target over a time range.",
                    "parameters", parameters)));
        }
        return List.copyOf(tools);
    }

    static List<Object> routerMessages(String userMessage) {
        List<Object> messages = new ArrayList<>();
        messages.add(Json.obj("role", "system", "content", ROUTER));
        messages.add(Json.obj("role", "user", "content", userMessage));
        return messages;
    }

    /** The Router's answer {@code {"intent": …}}, or null when it is no valid intent. */
    static String parseIntent(String content) {
        if (content == null) return null;
        try {
            Map<String, Object> answer = Json.asObject(Json.parse(content));
            if (answer == null || !answer.keySet().equals(Set.of("intent"))) return null;
            Object intent = answer.get("intent");
            return intent instanceof String s && INTENTS.contains(s) ? s : null;
        } catch (Json.JsonError e) {
            return null;
        }
    }

    /**
     * The agent's opening messages: instructions, the selected previous turn (its user message and
     * its published draft, nothing of any other earlier Run), then the user's message.
     */
    static List<Object> agentMessages(String intent, Map<String, Object> previous, String userMessage) {
        List<Object> messages = new ArrayList<>();
        messages.add(Json.obj("role", "system", "content", "DIAGNOSIS".equals(intent) ? DIAGNOSIS : KNOWLEDGE));
        if (previous != null) {
            Map<String, Object> published = Json.asObject(previous.get("published_result"));
            Object draft = published == null ? null : published.get("diagnosis_draft");
            messages.add(Json.obj("role", "user", "content", previous.get("user_message")));
            if (draft != null) messages.add(Json.obj("role", "assistant", "content", Json.write(draft)));
        }
        messages.add(Json.obj("role", "user", "content", userMessage));
        return messages;
    }

    /** What the agent learns of one executed call: the bounded projection, or status and code only. */
    static String toolResult(Invocation call) {
        if ("READY".equals(call.status) && !"ERROR".equals(call.evidenceStatus)) {
            return Json.write(Json.obj("status", "READY", "evidence_status", call.evidenceStatus, "projection", call.projection));
        }
        return Json.write(Json.obj("status", call.status, "evidence_status", call.evidenceStatus, "error_code", call.errorCode));
    }

    /** The single no-Tool structural repair request, naming each violation by code and pointer. */
    static String repairRequest(List<EvidenceGuard.Violation> violations) {
        StringBuilder text = new StringBuilder("Your submission was rejected by EvidenceGuard: ");
        for (int i = 0; i < violations.size(); i++) {
            if (i > 0) text.append("; ");
            text.append(violations.get(i).code()).append(" at \"").append(violations.get(i).pointer()).append('"');
        }
        return text.append(". Answer once more with the corrected JSON only. No tools are available.").toString();
    }
}
