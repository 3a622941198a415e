package dev.tidemill.internal.websocket;

import dev.tidemill.WebSocketMessage;
import dev.tidemill.internal.codec.BodyBinder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * One reassembled message, and its own callback task (so a message costs no lambda): running it
 * hands it to the connection's handler. It holds the frame's pooled buffer until its callback
 * returns, so an echo ({@code ws.send(message)}) costs no copy; {@link #bytes()} copies out once,
 * on first use, and what was read during the callback stays readable after it.
 */
final class Message implements WebSocketMessage, Runnable {
    private static final Optional<String> JSON = Optional.of("application/json");
    private final boolean text;
    private final int length;
    private final BodyBinder binder;
    private final WebSocketConnection connection;
    /** The payload, retained, until {@link #release}; touched only on the handler's thread after delivery. */
    private ByteBuf content;
    private byte[] bytes;

    /** @param content the payload, whose reference this message takes over */
    Message(boolean text, ByteBuf content, BodyBinder binder, WebSocketConnection connection) {
        this.text = text;
        this.content = content;
        this.length = content.readableBytes();
        this.binder = binder;
        this.connection = connection;
    }

    @Override
    public void run() {
        connection.handle(this);
    }

    @Override
    public boolean isText() {
        return text;
    }

    @Override
    public String text() {
        if (bytes == null && content != null) return content.toString(StandardCharsets.UTF_8);
        return new String(bytes(), StandardCharsets.UTF_8);
    }

    @Override
    public byte[] bytes() {
        if (bytes == null) {
            if (content == null) {
                throw new IllegalStateException("a message's content is read during onMessage (call bytes() or text() there to keep it)");
            }
            bytes = ByteBufUtil.getBytes(content);
        }
        return bytes; // the message's own array: nothing else reads it once it is delivered
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public <T> T json(Class<T> type) {
        return binder.bind(JSON, bytes(), type);
    }

    /** @return the payload for sending it back, sharing the pooled buffer while it is held */
    ByteBuf retainedPayload() {
        if (content != null) return content.retainedDuplicate();
        return Unpooled.wrappedBuffer(bytes());
    }

    /** The callback returned: the pooled buffer goes back. */
    void release() {
        ByteBuf c = content;
        if (c != null) {
            content = null;
            c.release();
        }
    }

    @Override
    public String toString() {
        return (text ? "text" : "binary") + " message, " + length + " bytes";
    }
}
