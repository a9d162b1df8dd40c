package dev.srdh.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The Run's trace ({@code schemas/run-trace-event.schema.json}) and the SSE client that receives it.
 *
 * <p>Every event is numbered {@code seq} 1, 2, 3 … and sent at once to the client as a
 * {@code run_event} frame. The client is the fixture's simulated one: on the
 * {@code occurrence}-th event of type {@code client.disconnect_on.event_type} it keeps that frame
 * and disconnects, which completes {@link #disconnected()}; the Harness notices it at its next wait.
 * Events carry codes and ids only ({@code ts_ms} is optional and left out).
 */
final class RunTrace {
    private final String runId;
    private final List<Object> events = new ArrayList<>();
    private final List<Object> frames = new ArrayList<>();
    private final String disconnectType;
    private final long disconnectOccurrence;
    private long seen;
    private final CompletableFuture<String> disconnected = new CompletableFuture<>();

    /** @param disconnectOn the fixture's {@code client.disconnect_on} object, or null */
    RunTrace(String runId, Map<String, Object> disconnectOn) {
        this.runId = runId;
        this.disconnectType = disconnectOn == null ? null : Json.asString(disconnectOn.get("event_type"));
        Long occurrence = disconnectOn == null ? null : Json.asLong(disconnectOn.get("occurrence"));
        this.disconnectOccurrence = occurrence == null ? 1 : occurrence;
    }

    /** Completes (with the cancel cause) when the client has gone. */
    CompletableFuture<String> disconnected() {
        return disconnected;
    }

    boolean clientGone() {
        return disconnected.isDone();
    }

    /** Append one event and stream it to the client. */
    void emit(String type, Map<String, Object> data) {
        Map<String, Object> event = Json.obj("run_id", runId, "seq", (long) events.size() + 1, "type", type, "data", data);
        events.add(event);
        if (clientGone()) return;
        frames.add(Json.obj("event", "run_event", "data", event));
        if (type.equals(disconnectType) && ++seen == disconnectOccurrence) {
            disconnected.complete("CLIENT_DISCONNECTED");
        }
    }

    /** Stream the published result (the {@code result} frame), if the client is still there. */
    void resultFrame(Map<String, Object> published) {
        if (!clientGone()) frames.add(Json.obj("event", "result", "data", published));
    }

    /** Stream the last frame, {@code end} with the Run's state, if the client is still there. */
    void endFrame(String state) {
        if (!clientGone()) frames.add(Json.obj("event", "end", "data", Json.obj("state", state)));
    }

    List<Object> events() {
        return events;
    }

    List<Object> frames() {
        return frames;
    }
}
