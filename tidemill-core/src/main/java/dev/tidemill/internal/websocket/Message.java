package dev.tidemill.internal.websocket;

import dev.tidemill.WebSocketMessage;
import dev.tidemill.internal.codec.BodyBinder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** One reassembled message; immutable, so it can cross to the handler's thread as it is. */
final class Message implements WebSocketMessage {
    private static final Optional<String> JSON = Optional.of("application/json");
    private final boolean text;
    private final byte[] bytes;
    private final BodyBinder binder;

    Message(boolean text, byte[] bytes, BodyBinder binder) {
        this.text = text;
        this.bytes = bytes;
        this.binder = binder;
    }

    @Override
    public boolean isText() {
        return text;
    }

    @Override
    public String text() {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public byte[] bytes() {
        return bytes.clone();
    }

    @Override
    public int length() {
        return bytes.length;
    }

    @Override
    public <T> T json(Class<T> type) {
        return binder.bind(JSON, bytes, type);
    }

    @Override
    public String toString() {
        return (text ? "text" : "binary") + " message, " + bytes.length + " bytes";
    }
}
