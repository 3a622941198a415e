package dev.tidemill.internal.ops;

import dev.tidemill.internal.codec.JsonString;
import dev.tidemill.internal.exchange.Exchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One line per request to the SLF4J logger {@value #LOGGER}, at INFO, written as the response head
 * goes out: a JSON object with {@code method}, {@code route} (the pattern, {@code unmatched} when
 * none matched), {@code status}, {@code duration_us} (arrival of the head to the response head),
 * {@code bytes} (the body's length; null for a streamed body, whose length is not known then),
 * {@code request_id} and, when the request carried a valid {@code traceparent}, {@code trace_id}.
 * The logging backend decides where the line goes; configured with a pattern of just the message
 * (logback: {@code %msg%n}) the file is JSON Lines. It is written on the I/O thread, so a backend
 * that blocks on disk should be asynchronous (logback's {@code AsyncAppender}).
 */
final class AccessLog {
    /** The logger name, documented in docs/operations.md. */
    static final String LOGGER = "tidemill.access";
    private static final Logger LOG = LoggerFactory.getLogger(LOGGER);

    void write(Exchange ex, String method, String route, int status, long bodyBytes, long nanos) {
        if (!LOG.isInfoEnabled()) return;
        StringBuilder b = new StringBuilder(160);
        b.append("{\"method\":");
        JsonString.append(b, method);
        b.append(",\"route\":");
        JsonString.append(b, route);
        b.append(",\"status\":").append(status);
        b.append(",\"duration_us\":").append(nanos / 1_000);
        b.append(",\"bytes\":");
        if (bodyBytes < 0) b.append("null");
        else b.append(bodyBytes);
        b.append(",\"request_id\":");
        JsonString.append(b, ex.requestId()); // [A-Za-z0-9._-] only: nothing to escape, but one rule for every string
        ex.traceParent().ifPresent(t -> JsonString.append(b.append(",\"trace_id\":"), t.traceId()));
        b.append('}');
        LOG.info("{}", b);
    }
}
