package dev.tidemill.internal.exchange;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http.HttpHeaders;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A request made by the server to one of its own routes, on behalf of a request it is serving (an
 * MCP tool call runs its tool's route this way): the same stages as a request off the wire (the
 * gate's routing, binding and caller check, the dispatcher's concurrency limit and execution mode,
 * the handler, the route's request timeout), with the reply captured instead of written. Nothing
 * is encoded to HTTP bytes and parsed again.
 */
public final class InnerCall implements ReplySink {
    /** The most bytes of a streamed answer kept; past it the stream is cut and the answer marked truncated. */
    static final int MAX_STREAMED_BYTES = 1 << 20;

    /**
     * A captured reply.
     *
     * @param status the HTTP status
     * @param headers name/value pairs, as the reply carries them
     * @param contentType the body's media type, null if none
     * @param body the whole body
     */
    public record Answer(int status, List<String> headers, String contentType, byte[] body) {
        /** @param name a header name @return its first value, null if absent */
        public String header(String name) {
            for (int i = 0; i + 1 < headers.size(); i += 2) {
                if (headers.get(i).equalsIgnoreCase(name)) return headers.get(i + 1);
            }
            return null;
        }
    }

    private final Exchange outer;
    private final CompletableFuture<Answer> answer = new CompletableFuture<>();
    private final ByteArrayOutputStream streamed = new ByteArrayOutputStream();
    private Reply head;
    private volatile ScheduledFuture<?> deadline;

    private InnerCall(Exchange outer) {
        this.outer = outer;
    }

    /**
     * Runs {@code method uri} through the server's request path as the outer request's caller.
     *
     * @param outer the request being served, whose connection, TLS state and address the call shares
     * @param method the method
     * @param uri the request target (path and query, percent-encoded)
     * @param headers the call's headers (the caller's credentials among them)
     * @param body the body, empty for none
     * @param attributes request attributes the route's handler finds ({@code Request.attribute})
     * @return the route's answer, or the refusal of a stage before it
     */
    public static CompletionStage<Answer> run(Exchange outer, String method, String uri, HttpHeaders headers, byte[] body,
            java.util.Map<String, Object> attributes) {
        InnerCall call = new InnerCall(outer);
        Exchange ex = new Exchange(outer.context, call, 0, method, uri, RequestTarget.rawPath(uri), headers, false,
                outer.remoteAddress());
        attributes.forEach(ex::attribute);
        if (outer.transportSecurity() != null) ex.secured(outer.transportSecurity());
        ex.arrived(System.nanoTime());
        RouteGate gate = outer.context.gate();
        Verdict verdict = gate.route(ex, body.length);
        if (verdict == null) verdict = gate.bind(ex, headers);
        if (verdict == Verdict.PENDING) {
            gate.admission(ex).whenComplete((v, failure) -> {
                if (failure != null) {
                    ex.refuse(dev.tidemill.Problem.of(500, "Internal Server Error", "authenticating the caller failed"), false);
                } else {
                    call.proceed(ex, v, body);
                }
            });
        } else {
            call.proceed(ex, verdict, body);
        }
        return call.answer;
    }

    /**
     * @param outer the request being served
     * @param left out: names (lower case) of fields that describe the outer request itself
     * @return the outer request's other header fields (its credentials among them), for a call made on its behalf
     */
    public static HttpHeaders forwarded(Exchange outer, java.util.Set<String> left) {
        HttpHeaders out = new io.netty.handler.codec.http.DefaultHttpHeaders();
        for (java.util.Map.Entry<String, String> h : outer.headers) {
            if (!left.contains(h.getKey().toLowerCase(java.util.Locale.ROOT))) out.add(h.getKey(), h.getValue());
        }
        return out;
    }

    private void proceed(Exchange ex, Verdict verdict, byte[] body) {
        if (verdict != null) {
            ex.refuse(verdict, false);
            return;
        }
        if (ex.endpoint().route().streamsBody()) {
            ex.refuse(dev.tidemill.Problem.of(500, "Internal Server Error", "a route that streams its body cannot be called as a tool"),
                    false);
            return;
        }
        ex.body(body);
        long timeout = ex.endpoint().requestTimeoutNanos();
        if (timeout > 0) deadline = scheduler().schedule(ex::expire, timeout, TimeUnit.NANOSECONDS);
        outer.context.dispatch(ex);
    }

    @Override
    public void send(Exchange ex, Reply reply) {
        if (reply.streamed()) {
            head = reply;
            return; // chunks follow, then end
        }
        try {
            ByteBuf b = reply.body();
            byte[] bytes = b == null ? new byte[0] : ByteBufUtil.getBytes(b);
            finish(new Answer(reply.status(), reply.headers(), text(reply.contentType()), bytes));
        } finally {
            reply.release();
        }
    }

    @Override
    public void sendChunk(Exchange ex, ByteBuf chunk, CompletableFuture<Void> written) {
        try {
            synchronized (streamed) {
                int room = MAX_STREAMED_BYTES - streamed.size();
                if (room > 0) streamed.write(ByteBufUtil.getBytes(chunk, chunk.readerIndex(), Math.min(room, chunk.readableBytes())), 0,
                        Math.min(room, chunk.readableBytes()));
            }
            written.complete(null);
        } finally {
            chunk.release();
        }
    }

    @Override
    public void end(Exchange ex) {
        Reply h = head;
        byte[] bytes;
        synchronized (streamed) {
            bytes = streamed.toByteArray();
        }
        finish(new Answer(h == null ? 200 : h.status(), h == null ? List.of() : h.headers(), h == null ? null : text(h.contentType()),
                bytes));
    }

    @Override
    public void abort(Exchange ex) {
        finish(new Answer(502, List.of(), "text/plain", "the route's streamed answer failed".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    private void finish(Answer a) {
        ScheduledFuture<?> d = deadline;
        if (d != null) d.cancel(false);
        answer.complete(a);
    }

    @Override
    public boolean onTransportThread() {
        return outer.sink().onTransportThread();
    }

    @Override
    public ScheduledExecutorService scheduler() {
        return outer.sink().scheduler();
    }

    private static String text(CharSequence s) {
        return s == null ? null : s.toString();
    }
}
