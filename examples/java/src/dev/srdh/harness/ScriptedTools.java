package dev.srdh.harness;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The tool backends, scripted by the fixture's {@code tools} map: the n-th execution of a tool
 * gets {@code responses[n]}, then {@code default}. This is the adapter side, not the Harness
 * under test: a real deployment plugs its metrics, logs, alerts and document backends in here.
 */
final class ScriptedTools {
    /** What a backend gave back. {@code kind}: rows, in_band_error, failure, oversize, stopped, exhausted. */
    record Result(String kind, List<Map<String, Object>> rows, Long totalMatched, String code, long bytes) {
        static Result of(String kind) {
            return new Result(kind, List.of(), null, null, 0);
        }
    }

    private final Map<String, Object> tools;
    private final Map<String, Integer> executions = new HashMap<>();
    private final List<String> problems = new ArrayList<>();

    ScriptedTools(Map<String, Object> tools) {
        this.tools = tools == null ? Map.of() : tools;
    }

    /** One call sent to a backend; {@link #answer} waits for its response on the tool thread. */
    interface Call {
        /**
         * The backend's response. A blocking response waits until {@code stop} completes (the
         * Run's cancellation or the tool timeout); with a {@code then} it answers that late.
         */
        Result answer(CompletableFuture<String> stop);
    }

    /**
     * Send one call of {@code tool}: its scripted response is taken now, on the caller's thread,
     * as a real backend receives a request once it is sent. A call the Harness stops at once (a
     * 1 ms tool timeout fires before the tool thread runs) has still used its response, so the
     * script never reports it unconsumed.
     */
    Call send(String tool) {
        Map<String, Object> response = next(tool);
        return stop -> response == null ? Result.of("exhausted") : play(response, stop);
    }

    private synchronized Map<String, Object> next(String tool) {
        Map<String, Object> script = Json.asObject(tools.get(tool));
        int n = executions.merge(tool, 1, Integer::sum) - 1;
        if (script == null) {
            problems.add("SCRIPT_EXHAUSTED: no script for tool " + tool);
            return null;
        }
        List<Object> responses = Json.asArray(script.get("responses"));
        if (responses != null && n < responses.size()) return Json.asObject(responses.get(n));
        Map<String, Object> fallback = Json.asObject(script.get("default"));
        if (fallback == null) problems.add("SCRIPT_EXHAUSTED: tool " + tool + " execution " + (n + 1) + " has no response");
        return fallback;
    }

    private static Result play(Map<String, Object> response, CompletableFuture<String> stop) {
        String kind = Json.asString(response.get("kind"));
        switch (String.valueOf(kind)) {
            case "rows": {
                List<Map<String, Object>> rows = new ArrayList<>();
                for (Object item : Json.asArray(response.get("items"))) rows.add(Json.asObject(item));
                return new Result("rows", rows, Json.asLong(response.get("total_matched")), null, 0);
            }
            case "in_band_error":
                return new Result("in_band_error", List.of(), null, Json.asString(response.get("code")), 0);
            case "failure":
                return Result.of("failure"); // the raised message never leaves the backend
            case "oversize":
                return new Result("oversize", List.of(), null, null, Json.asLong(response.get("bytes")));
            case "block_until_cancelled": {
                try {
                    stop.get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (ExecutionException e) {
                    // stopped either way
                }
                Map<String, Object> then = Json.asObject(response.get("then"));
                return then == null ? Result.of("stopped") : play(then, CompletableFuture.completedFuture("late"));
            }
            default:
                return Result.of("failure");
        }
    }

    /** Script problems: executions with no response, and responses left unconsumed. */
    synchronized List<String> problems(boolean includeUnconsumed) {
        List<String> found = new ArrayList<>(problems);
        if (!includeUnconsumed) return found;
        for (Map.Entry<String, Object> e : tools.entrySet()) {
            List<Object> responses = Json.asArray(Json.asObject(e.getValue()).get("responses"));
            int used = executions.getOrDefault(e.getKey(), 0);
            if (responses != null && used < responses.size()) {
                found.add("SCRIPT_UNCONSUMED: tool " + e.getKey() + " has " + (responses.size() - used) + " response(s) left");
            }
        }
        return found;
    }
}
