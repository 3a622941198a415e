package dev.tidemill.datastar;

import dev.tidemill.SseEvent;
import java.time.Duration;

/**
 * The data of one Datastar event: lines of {@code key value}, which {@link SseEvent} writes as
 * {@code data: key value} each. A multi-line value becomes one line per line, every one with its
 * key (the client joins lines of the same key with LF); a one-line value (a selector, a mode) must
 * have no line break, since a second line of it would be read as a separate value.
 */
final class DataLines {
    /** The SSE reconnection delay both SDKs leave unsent, because it is what a client assumes. */
    static final long DEFAULT_RETRY_MILLIS = 1000;

    private final StringBuilder b = new StringBuilder(128);

    /** Adds {@code key value}; throws if {@code value} has a line break. */
    DataLines line(String key, String value) {
        return raw(key, oneLine(key, value), 0, value.length());
    }

    /** @return {@code value}; throws, naming {@code what}, if it has a CR or LF */
    static String oneLine(String what, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\r' || c == '\n') {
                throw new IllegalArgumentException("Datastar " + what + " must be one line: found a line break at " + i);
            }
        }
        return value;
    }

    /**
     * Adds {@code key line} for each line of {@code text}, split on CR, LF and CRLF. An empty
     * text, or an empty line, is {@code key } with nothing after the space, as the SDK writes it.
     */
    DataLines lines(String key, String text) {
        int start = 0;
        int n = text.length();
        for (int i = 0; i <= n; i++) {
            char c = i < n ? text.charAt(i) : '\n';
            if (c != '\r' && c != '\n') continue;
            raw(key, text, start, i);
            if (c == '\r' && i + 1 < n && text.charAt(i + 1) == '\n') i++;
            start = i + 1;
        }
        return this;
    }

    private DataLines raw(String key, String value, int from, int to) {
        if (!b.isEmpty()) b.append('\n');
        b.append(key).append(' ').append(value, from, to);
        return this;
    }

    /**
     * @param event the event type
     * @param id the event id, or null
     * @param retry the reconnection delay, or null; the default 1,000 ms is not sent
     * @return the SSE event
     */
    SseEvent event(String event, String id, Duration retry) {
        SseEvent e = SseEvent.data(b.toString()).event(event);
        if (id != null) e = e.id(id);
        if (retry != null && retry.toMillis() != DEFAULT_RETRY_MILLIS) e = e.retry(retry);
        return e;
    }
}
