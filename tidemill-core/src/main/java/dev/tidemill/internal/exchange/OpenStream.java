package dev.tidemill.internal.exchange;

/**
 * A stream that stays open until one side ends it (an event stream, a WebSocket connection): a
 * graceful stop tells each one to end itself cleanly within the grace.
 */
public interface OpenStream {
    /** A graceful stop began: send what ends the stream cleanly, then close. Any thread; idempotent. */
    void serverStopping();
}
