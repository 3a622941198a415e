package dev.tidemill.datastar;

import dev.tidemill.SseEvent;

/**
 * One Datastar event, in the dialect of the {@link Datastar} that made it. Immutable: every
 * setter returns a copy. Send it with {@code stream.send(event.sse())}, or hand events to
 * {@link Datastar#sse(dev.tidemill.Topic, String, java.util.function.Function)} and
 * {@link Datastar#response(DatastarEvent...)}.
 */
public sealed interface DatastarEvent permits PatchElements, PatchSignals, ExecuteScript {

    /**
     * @return the Server-Sent Event carrying this one, encoded for its dialect
     * @throws IllegalArgumentException if the event cannot be sent as set (elements missing, a
     *     pre-1.0 removal without a selector...: the message says which)
     * @throws UnsupportedOperationException if {@link Dialect#PRE_1_0} has no equivalent of a
     *     setting (a namespace other than HTML)
     */
    SseEvent sse();

    /** @return the dialect it is encoded in */
    Dialect dialect();
}
