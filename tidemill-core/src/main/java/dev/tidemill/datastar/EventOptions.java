package dev.tidemill.datastar;

import java.time.Duration;
import java.util.Objects;

/**
 * The SSE fields every Datastar event may carry.
 *
 * @param id the event id, or null
 * @param retry the reconnection delay, or null
 */
record EventOptions(String id, Duration retry) {
    static final EventOptions NONE = new EventOptions(null, null);

    EventOptions withId(String id) {
        Objects.requireNonNull(id, "id");
        // An empty id resets the client's last event id; both SDKs leave an empty one out, so
        // it is refused rather than silently meaning something else.
        if (id.isEmpty()) throw new IllegalArgumentException("a Datastar event id is not empty");
        return new EventOptions(id, retry);
    }

    EventOptions withRetry(Duration retry) {
        Objects.requireNonNull(retry, "retry");
        if (retry.isNegative()) throw new IllegalArgumentException("retry must not be negative");
        return new EventOptions(id, retry);
    }
}
