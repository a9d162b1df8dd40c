package dev.srdh.harness;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An OpenAI-compatible chat-completions client over {@link java.net.http.HttpClient}.
 *
 * <p>One call of {@link #complete} is exactly one HTTP request ({@code POST {base_url}/chat/completions},
 * a JSON answer, {@code "stream": false}): no retry at this layer, the Harness owns retries
 * (Requirement 9). The call ends in one of four ways: an answer, an HTTP or transport error, the
 * Harness's own model-call timeout, or the Run's cancellation, which hangs up the request.
 */
final class ModelClient {
    /** Where one component's model lives. */
    record Endpoint(String baseUrl, String model, String apiKey) {}

    /** How one HTTP request ended. */
    enum Ending { ANSWERED, HTTP_ERROR, TIMEOUT, CANCELLED }

    /**
     * What one request gave: the assistant message's {@code content} (null if absent) and its
     * raw {@code tool_calls} objects. Any chain-of-thought field of the answer is dropped here and
     * never leaves this class.
     */
    record Reply(Ending ending, String content, List<Map<String, Object>> toolCalls, boolean lateAnswer) {
        Reply(Ending ending, String content, List<Map<String, Object>> toolCalls) {
            this(ending, content, toolCalls, false);
        }

        static Reply of(Ending ending) {
            return new Reply(ending, null, List.of());
        }
    }

    /** Extra time after the Run's cancellation for the request bytes to reach the server. */
    private static final long HANG_UP_GRACE_MS = 100;

    private final boolean stream;

    /** @param stream ask for server-sent events ({@code "stream": true}) instead of one JSON answer */
    ModelClient(boolean stream) {
        this.stream = stream;
    }

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    /**
     * Send one chat-completions request and wait for its answer.
     *
     * @param messages the chat messages, as sent
     * @param tools the OpenAI {@code tools} array (empty: no tools offered, the key is left out)
     * @param timeoutMs the model-call timeout (the fixture's {@code limits.model_call_timeout_ms})
     * @param cancel completes when the Run is cancelled; the request is then hung up
     */
    Reply complete(Endpoint endpoint, List<Object> messages, List<Object> tools, long timeoutMs,
            CompletableFuture<String> cancel) {
        Map<String, Object> body = Json.obj("model", endpoint.model(), "messages", messages, "stream", stream);
        if (!tools.isEmpty()) body.put("tools", tools);
        byte[] bytes = Json.write(body).getBytes(StandardCharsets.UTF_8);
        CountDownLatch sent = new CountDownLatch(1);
        HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint.baseUrl() + "/chat/completions"))
                .timeout(Duration.ofMillis(timeoutMs))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + endpoint.apiKey())
                .POST(new SignallingPublisher(HttpRequest.BodyPublishers.ofByteArray(bytes), sent))
                .build();
        CompletableFuture<HttpResponse<String>> response =
                http.sendAsync(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        try {
            CompletableFuture.anyOf(response, cancel).get(timeoutMs + 250, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            response.cancel(true);
            return Reply.of(Ending.TIMEOUT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            response.cancel(true);
            return Reply.of(Ending.CANCELLED);
        } catch (ExecutionException e) {
            // the response failed; read below
        }
        if (cancel.isDone()) {
            // an answer that arrives by the time the request is hung up is a late result
            return new Reply(Ending.CANCELLED, null, List.of(), !hangUp(response, sent));
        }
        try {
            HttpResponse<String> answer = response.get();
            if (answer.statusCode() != 200) return Reply.of(Ending.HTTP_ERROR);
            return stream ? parseStream(answer.body()) : parse(answer.body());
        } catch (ExecutionException e) {
            return Reply.of(e.getCause() instanceof HttpTimeoutException ? Ending.TIMEOUT : Ending.HTTP_ERROR);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Reply.of(Ending.CANCELLED);
        }
    }

    /**
     * Hang up once the request has left (give the answer {@link #HANG_UP_GRACE_MS} to arrive): the
     * server sees the client close the connection. False when an answer arrived instead.
     */
    private static boolean hangUp(CompletableFuture<HttpResponse<String>> response, CountDownLatch sent) {
        try {
            if (sent.await(2, TimeUnit.SECONDS)) response.get(HANG_UP_GRACE_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | java.util.concurrent.CancellationException e) {
            // no answer: hang up below
        }
        if (response.isDone() && !response.isCompletedExceptionally()) return false;
        response.cancel(true);
        return true;
    }

    /** Read a {@code chat.completion} body: the first choice's message. */
    private static Reply parse(String text) {
        try {
            Map<String, Object> body = Json.asObject(Json.parse(text));
            List<Object> choices = body == null ? null : Json.asArray(body.get("choices"));
            Map<String, Object> choice = choices == null || choices.isEmpty() ? null : Json.asObject(choices.get(0));
            Map<String, Object> message = choice == null ? null : Json.asObject(choice.get("message"));
            if (message == null) return Reply.of(Ending.HTTP_ERROR);
            List<Map<String, Object>> calls = new ArrayList<>();
            List<Object> raw = Json.asArray(message.get("tool_calls"));
            if (raw != null) {
                for (Object call : raw) {
                    Map<String, Object> c = Json.asObject(call);
                    calls.add(c == null ? Json.obj() : c);
                }
            }
            return new Reply(Ending.ANSWERED, Json.asString(message.get("content")), calls);
        } catch (Json.JsonError e) {
            return Reply.of(Ending.HTTP_ERROR);
        }
    }

    /**
     * Read a streamed answer: {@code data:} lines of {@code chat.completion.chunk} objects until
     * {@code [DONE]}. Content pieces are joined; a tool call is opened by a delta with its
     * {@code index} (and usually its name), its id may come in a later delta, its arguments in
     * pieces. {@code reasoning_content} pieces are dropped.
     */
    private static Reply parseStream(String text) {
        StringBuilder content = null;
        java.util.TreeMap<Long, Map<String, Object>> calls = new java.util.TreeMap<>();
        java.util.Map<Long, StringBuilder> arguments = new java.util.HashMap<>();
        try {
            for (String line : text.split("\n")) {
                if (!line.startsWith("data:")) continue;
                String data = line.substring(5).trim();
                if (data.equals("[DONE]")) break;
                Map<String, Object> chunk = Json.asObject(Json.parse(data));
                List<Object> choices = chunk == null ? null : Json.asArray(chunk.get("choices"));
                if (choices == null || choices.isEmpty()) continue; // e.g. the usage chunk
                Map<String, Object> delta = Json.asObject(Json.asObject(choices.get(0)).get("delta"));
                if (delta == null) continue;
                String piece = Json.asString(delta.get("content"));
                if (piece != null) content = (content == null ? new StringBuilder() : content).append(piece);
                List<Object> toolDeltas = Json.asArray(delta.get("tool_calls"));
                for (Object raw : toolDeltas == null ? List.of() : toolDeltas) {
                    Map<String, Object> d = Json.asObject(raw);
                    Long index = d == null ? null : Json.asLong(d.get("index"));
                    if (index == null) return Reply.of(Ending.HTTP_ERROR);
                    Map<String, Object> call = calls.computeIfAbsent(index, i -> Json.obj("type", "function"));
                    if (d.containsKey("id")) call.put("id", d.get("id"));
                    Map<String, Object> function = Json.asObject(d.get("function"));
                    if (function == null) continue;
                    if (Json.asString(function.get("name")) != null) call.put("name", function.get("name"));
                    String part = Json.asString(function.get("arguments"));
                    if (part != null) arguments.computeIfAbsent(index, i -> new StringBuilder()).append(part);
                }
            }
        } catch (Json.JsonError e) {
            return Reply.of(Ending.HTTP_ERROR);
        }
        List<Map<String, Object>> toolCalls = new ArrayList<>();
        for (Map.Entry<Long, Map<String, Object>> e : calls.entrySet()) {
            Map<String, Object> call = e.getValue();
            StringBuilder args = arguments.get(e.getKey());
            call.put("function", Json.obj("name", call.remove("name"), "arguments", args == null ? "" : args.toString()));
            toolCalls.add(call);
        }
        return new Reply(Ending.ANSWERED, content == null ? null : content.toString(), toolCalls);
    }

    /** A body publisher that counts down {@code sent} once every byte was handed to the client. */
    private record SignallingPublisher(HttpRequest.BodyPublisher inner, CountDownLatch sent)
            implements HttpRequest.BodyPublisher {
        @Override
        public long contentLength() {
            return inner.contentLength();
        }

        @Override
        public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
            inner.subscribe(new Flow.Subscriber<ByteBuffer>() {
                @Override
                public void onSubscribe(Flow.Subscription subscription) {
                    subscriber.onSubscribe(subscription);
                }

                @Override
                public void onNext(ByteBuffer item) {
                    subscriber.onNext(item);
                }

                @Override
                public void onError(Throwable throwable) {
                    subscriber.onError(throwable);
                }

                @Override
                public void onComplete() {
                    subscriber.onComplete();
                    sent.countDown();
                }
            });
        }
    }
}
