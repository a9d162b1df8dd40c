package dev.srdh.harness;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The stdio entry: the kit's adapter protocol ({@code schemas/adapter-message.schema.json}).
 *
 * <p>Writes {@code hello}, then answers each {@code run} with one {@code observation} (or an
 * {@code error} when the fixture cannot be run at all), and exits 0 on {@code bye} or end of input.
 * Standard output carries protocol lines only; diagnostics go to standard error.
 *
 * <p>Every Run starts from the fixture's {@code prior_runs} alone: a fresh {@link RunStore} per
 * {@code run} message (each fixture is a session history of its own).
 */
public final class StdioMain {
    static final List<String> CAPABILITIES = List.of("DIAGNOSIS", "KNOWLEDGE_QUERY", "PREVIOUS_TURN", "CANCELLATION",
            "SEMANTIC_RETRY", "ROUTER_RETRY", "STRUCTURAL_REPAIR", "MODEL_ENDPOINT");

    private final PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    /** {@code SRDH_JAVA_STREAM=1}: the model clients ask for server-sent events. */
    private final ModelClient client = new ModelClient("1".equals(System.getenv("SRDH_JAVA_STREAM")));
    private final ExecutorService toolThreads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "srdh-tool");
        t.setDaemon(true);
        return t;
    });

    public static void main(String[] args) throws IOException {
        new StdioMain().serve();
        System.exit(0);
    }

    private void serve() throws IOException {
        send(Json.obj("type", "hello", "protocol_version", "2.0",
                "implementation", Json.obj("name", "srdh-java-example", "version", "0.1.0"),
                "capabilities", new ArrayList<Object>(CAPABILITIES)));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            Map<String, Object> message;
            try {
                message = Json.asObject(Json.parse(line));
            } catch (Json.JsonError e) {
                send(error(null, "BAD_MESSAGE", "not a JSON message: " + e.getMessage()));
                continue;
            }
            String type = message == null ? null : Json.asString(message.get("type"));
            if ("bye".equals(type)) return;
            if (!"run".equals(type)) {
                send(error(null, "BAD_MESSAGE", "expected a run or bye message"));
                continue;
            }
            String requestId = Json.asString(message.get("request_id"));
            try {
                send(Json.obj("type", "observation", "request_id", requestId,
                        "observation", run(Json.asObject(message.get("fixture")), Json.asObject(message.get("model_endpoint")))));
            } catch (RuntimeException e) {
                e.printStackTrace(System.err);
                send(error(requestId, "IUT_ERROR", "the adapter failed: " + e));
            }
        }
    }

    /** Run one fixture on a fresh store and return its RunObservation. */
    private Map<String, Object> run(Map<String, Object> fixture, Map<String, Object> endpoint) {
        if (endpoint == null) throw new IllegalArgumentException("this IUT needs the kit's model_endpoint (MODEL_ENDPOINT)");
        RunStore store = new RunStore();
        store.seed(Json.asArray(fixture.get("prior_runs")));
        ScriptedTools tools = new ScriptedTools(Json.asObject(fixture.get("tools")));
        String apiKey = Json.asString(endpoint.get("api_key"));
        Harness.Models models = new Harness.Models(endpoint(endpoint, "router", apiKey),
                endpoint(endpoint, "diagnosis_agent", apiKey), endpoint(endpoint, "semantic_guard", apiKey));
        Harness harness = new Harness(store, tools, client, models, Harness.Limits.of(Json.asObject(fixture.get("limits"))),
                new Harness.RetryPolicy(CAPABILITIES.contains("ROUTER_RETRY"), CAPABILITIES.contains("SEMANTIC_RETRY")),
                toolThreads);
        String sessionId = Json.asString(fixture.get("session_id"));
        Map<String, Object> client = Json.asObject(fixture.get("client"));
        Harness.Outcome outcome = harness.run(sessionId, Json.asString(fixture.get("user_message")),
                client == null ? null : Json.asObject(client.get("disconnect_on")));

        List<Object> invocations = new ArrayList<>();
        for (Invocation call : outcome.invocations()) invocations.add(call.toJson());
        Map<String, Object> observation = Json.obj("fixture_id", fixture.get("fixture_id"), "run_id", outcome.runId(),
                "trace", outcome.trace().events(), "client_frames", outcome.trace().frames(),
                "runs", new ArrayList<Object>(store.session(sessionId)), "published_result", outcome.published(),
                "invocations", invocations);
        List<String> problems = tools.problems(!"CANCELLED".equals(outcome.state()));
        if (!problems.isEmpty()) {
            String code = problems.get(0).startsWith("SCRIPT_EXHAUSTED") ? "SCRIPT_EXHAUSTED" : "SCRIPT_UNCONSUMED";
            List<String> shown = new ArrayList<>(problems);
            shown.set(0, shown.get(0).substring(code.length() + 2)); // the code has its own field
            observation.put("error", Json.obj("code", code, "message", Json.cut(String.join("; ", shown), 4000)));
        }
        return observation;
    }

    private static ModelClient.Endpoint endpoint(Map<String, Object> endpoint, String key, String apiKey) {
        Map<String, Object> component = Json.asObject(endpoint.get(key));
        return new ModelClient.Endpoint(Json.asString(component.get("base_url")), Json.asString(component.get("model")), apiKey);
    }

    private static Map<String, Object> error(String requestId, String code, String message) {
        return Json.obj("type", "error", "request_id", requestId, "code", code, "message", Json.cut(message, 4000));
    }

    private void send(Map<String, Object> message) {
        out.print(Json.write(message));
        out.print('\n');
        out.flush();
    }
}
