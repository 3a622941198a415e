package dev.tidemill.internal.websocket;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;

/**
 * The fragments of one message being reassembled (RFC 6455 5.4), as references to the frames'
 * payloads: no copy until the handler reads the message. Event-loop confined.
 */
final class Fragments {
    private CompositeByteBuf parts;
    private boolean text;
    private long bytes;

    /** @return the message's length so far plus {@code frame}'s payload, as if {@code frame} were added */
    long lengthWith(WebSocketFrame frame) {
        return (frame instanceof ContinuationWebSocketFrame ? bytes : 0) + frame.content().readableBytes();
    }

    /**
     * Adds a non-final first frame or a continuation (a whole unfragmented message never comes here).
     *
     * @return whether the message is complete: {@link #text()} and {@link #take()} then give it
     */
    boolean add(WebSocketFrame frame, ByteBufAllocator alloc) {
        long total = lengthWith(frame);
        if (!(frame instanceof ContinuationWebSocketFrame)) {
            parts = alloc.compositeBuffer(1024);
            text = frame instanceof TextWebSocketFrame;
        }
        parts.addComponent(true, frame.content().retain());
        bytes = total;
        return frame.isFinalFragment();
    }

    /** @return whether the message being completed is text */
    boolean text() {
        return text;
    }

    /** @return the whole message, a reference the caller takes over; nothing is held after */
    CompositeByteBuf take() {
        CompositeByteBuf whole = parts;
        parts = null;
        bytes = 0;
        return whole;
    }

    /** Drops a message that will not be completed (the connection is closing). */
    void release() {
        if (parts != null) {
            parts.release();
            parts = null;
            bytes = 0;
        }
    }
}
