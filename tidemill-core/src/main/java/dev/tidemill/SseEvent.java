package dev.tidemill;

import java.time.Duration;
import java.util.Objects;

/**
 * One Server-Sent Event (the WHATWG HTML standard, "Server-sent events", section 9.2), immutable:
 * {@code SseEvent.data("hello").event("greeting").id("7")}.
 *
 * <p>Nothing in a value can end an event early or add a field: data is split on CR, LF and CRLF
 * into one {@code data:} line each (a client joins them back with LF), and an {@code event} or
 * {@code id} value containing CR, LF or NUL is refused with an {@link IllegalArgumentException}
 * (a client would end the field there and read the rest as a new line).
 */
public final class SseEvent {
    private final String data;
    private final String event;
    private final String id;
    private final long retryMillis;
    private final String comment;

    private SseEvent(String data, String event, String id, long retryMillis, String comment) {
        this.data = data;
        this.event = event;
        this.id = id;
        this.retryMillis = retryMillis;
        this.comment = comment;
    }

    /**
     * @param data the payload; may contain line breaks, each becomes its own {@code data:} line
     * @return an event carrying {@code data}
     */
    public static SseEvent data(String data) {
        return new SseEvent(Objects.requireNonNull(data, "data"), null, null, -1, null);
    }

    /**
     * A comment line ({@code : text}), which clients ignore: keeps a connection alive, or carries a
     * note for someone reading the stream by hand. Line breaks make several comment lines.
     *
     * @param text the comment
     * @return a comment-only event
     */
    public static SseEvent comment(String text) {
        return new SseEvent(null, null, null, -1, Objects.requireNonNull(text, "text"));
    }

    /**
     * @param name the event type a client's {@code addEventListener(name, ...)} receives
     * @return a copy with the type
     * @throws IllegalArgumentException if {@code name} contains CR, LF or NUL
     */
    public SseEvent event(String name) {
        return new SseEvent(data, checkField("event", name), id, retryMillis, comment);
    }

    /**
     * @param id the event id, sent back by a reconnecting client as {@code Last-Event-ID}
     * @return a copy with the id
     * @throws IllegalArgumentException if {@code id} contains CR, LF or NUL
     */
    public SseEvent id(String id) {
        return new SseEvent(data, event, checkField("id", id), retryMillis, comment);
    }

    /**
     * @param delay how long a client waits before reconnecting, whole milliseconds, not negative
     * @return a copy with the {@code retry:} field
     */
    public SseEvent retry(Duration delay) {
        long ms = delay.toMillis();
        if (ms < 0) throw new IllegalArgumentException("retry must not be negative");
        return new SseEvent(data, event, id, ms, comment);
    }

    /** @return the data, or null for a comment */
    public String data() {
        return data;
    }

    /** @return the event type, or null */
    public String eventName() {
        return event;
    }

    /** @return the id, or null */
    public String eventId() {
        return id;
    }

    private static String checkField(String field, String value) {
        Objects.requireNonNull(value, field);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\r' || c == '\n' || c == 0) {
                throw new IllegalArgumentException("SSE " + field + " must not contain CR, LF or NUL (it would end the field"
                        + " and start a line of the attacker's choosing): found " + (c == 0 ? "NUL" : c == '\r' ? "CR" : "LF")
                        + " at " + i);
            }
        }
        return value;
    }

    /**
     * @return the event as the stream carries it: its fields, one line each, and the blank line
     *     that ends it
     */
    public String encode() {
        StringBuilder b = new StringBuilder((data == null ? 0 : data.length()) + (comment == null ? 0 : comment.length()) + 32);
        if (comment != null) lines(b, ":", comment);
        if (event != null) b.append("event: ").append(event).append('\n');
        if (id != null) b.append("id: ").append(id).append('\n');
        if (retryMillis >= 0) b.append("retry: ").append(retryMillis).append('\n');
        if (data != null) lines(b, "data:", data);
        return b.append('\n').toString();
    }

    /** Appends {@code prefix value-line} per line of {@code value}, split on CR, LF and CRLF. */
    private static void lines(StringBuilder b, String prefix, String value) {
        int start = 0;
        int n = value.length();
        for (int i = 0; i <= n; i++) {
            char c = i < n ? value.charAt(i) : '\n';
            if (c != '\r' && c != '\n') continue;
            b.append(prefix);
            // A leading space of the value would be eaten by the client's "one space after the
            // colon" rule: the separating space is always written, so the value survives as sent.
            b.append(' ');
            b.append(value, start, i).append('\n');
            if (c == '\r' && i + 1 < n && value.charAt(i + 1) == '\n') i++;
            start = i + 1;
        }
    }

    @Override
    public String toString() {
        return encode();
    }
}
