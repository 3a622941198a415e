package dev.tidemill.testing;

import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A Server-Sent Events stream as a browser's {@code EventSource} reads it: the body is parsed with
 * the HTML standard's algorithm ("interpret an event stream", 9.2.6), so a test sees exactly the
 * events a browser would dispatch, and the comments (such as pings) it would ignore.
 */
public final class EventStream implements AutoCloseable {

    /**
     * A dispatched event.
     *
     * @param type the event type ({@code message} when none was given)
     * @param data the data, lines joined with LF
     * @param lastEventId the last event id seen so far on this stream (ids carry over)
     */
    public record Event(String type, String data, String lastEventId) { }

    private final StreamingResponse response;
    private final ArrayDeque<Event> events = new ArrayDeque<>();
    private final List<String> comments = new ArrayList<>();
    private final StringBuilder pending = new StringBuilder();
    private final StringBuilder data = new StringBuilder();
    private String type = "";
    private String lastId = "";
    private boolean sawCr;
    private boolean ended;

    /** How long {@link #next()} waits for an event, however many comments (pings) arrive meanwhile. */
    private final Duration timeout;

    EventStream(StreamingResponse response, Duration timeout) {
        this.response = response;
        this.timeout = timeout;
    }

    /** @return the response head: status, headers */
    public StreamingResponse response() {
        return response;
    }

    /**
     * Waits (up to the client's timeout) for the next event. The wait is for an event: a server's
     * pings (comments) arriving meanwhile do not extend it.
     *
     * @return the event; empty once the stream has ended
     * @throws java.io.UncheckedIOException on a timeout
     */
    public Optional<Event> next() {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (events.isEmpty() && !ended) {
            if (System.nanoTime() - deadline > 0) {
                throw new UncheckedIOException(new SocketTimeoutException("no event within " + timeout
                        + " (comments meanwhile: " + comments + ")"));
            }
            read();
        }
        return Optional.ofNullable(events.poll());
    }

    /**
     * Waits for the next comment line (without its colon and the space after it), reading past
     * events, which stay queued for {@link #next()}.
     *
     * @return the comment; empty once the stream has ended
     */
    public Optional<String> nextComment() {
        while (comments.isEmpty() && !ended) read();
        return comments.isEmpty() ? Optional.empty() : Optional.of(comments.remove(0));
    }

    /** @return whether the body has ended */
    public boolean ended() {
        return ended;
    }

    private void read() {
        Optional<byte[]> chunk = response.nextChunk();
        if (chunk.isEmpty()) {
            ended = true;
            return;
        }
        String text = new String(chunk.get(), StandardCharsets.UTF_8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (sawCr && c == '\n') { // the LF of a CRLF
                sawCr = false;
                continue;
            }
            sawCr = c == '\r';
            if (c == '\r' || c == '\n') {
                line(pending.toString());
                pending.setLength(0);
            } else {
                pending.append(c);
            }
        }
    }

    private void line(String line) {
        if (line.isEmpty()) {
            if (!data.isEmpty()) events.add(new Event(type.isEmpty() ? "message" : type, data.substring(0, data.length() - 1), lastId));
            data.setLength(0);
            type = "";
            return;
        }
        if (line.charAt(0) == ':') {
            comments.add(line.startsWith(": ") ? line.substring(2) : line.substring(1));
            return;
        }
        int colon = line.indexOf(':');
        String field = colon < 0 ? line : line.substring(0, colon);
        String value = colon < 0 ? "" : line.substring(colon + 1);
        if (value.startsWith(" ")) value = value.substring(1);
        switch (field) {
            case "event" -> type = value;
            case "data" -> data.append(value).append('\n');
            case "id" -> {
                if (value.indexOf('\0') < 0) lastId = value;
            }
            default -> { } // retry and unknown fields: nothing a test reads
        }
    }

    @Override
    public void close() {
        response.close();
    }
}
