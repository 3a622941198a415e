package dev.tidemill.internal.http1;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * Reads one request body whole, up to its limit, or discards a refused request's body up to the
 * drain limit. The caller feeds it the decoder's {@link HttpContent} pieces (after checking them
 * for decoder failures) and acts on the {@link Outcome}. It owns the accumulated bytes and
 * releases them on every path. Event-loop confined.
 */
final class BodyReader {
    /** What a piece of body led to. */
    enum Outcome {
        /** more to come */
        MORE,
        /** the body is complete ({@link #take()} has it; for a discard: all of it thrown away) */
        COMPLETE,
        /** past the limit: nothing more is kept */
        TOO_LARGE
    }

    private static final byte[] EMPTY = new byte[0];

    private CompositeByteBuf body;
    private long limit;
    private long seen;
    private int lastPiece;

    /** Starts a body kept in memory, at most {@code limit} bytes. */
    void read(long limit) {
        release();
        this.limit = limit;
        this.seen = 0;
    }

    /** Starts a body that is thrown away, at most {@code limit} bytes of it. */
    void discard(long limit) {
        read(limit);
    }

    /** @return the bytes of the last piece fed (a stall timer restarts only when bytes came) */
    int lastPiece() {
        return lastPiece;
    }

    /** Feeds a piece of the body being read. */
    Outcome feed(HttpContent content, ByteBufAllocator alloc) {
        ByteBuf data = content.content();
        int n = data.readableBytes();
        lastPiece = n;
        seen += n;
        if (seen > limit) {
            release();
            return Outcome.TOO_LARGE;
        }
        if (n > 0) {
            if (body == null) body = alloc.compositeBuffer(1024);
            body.addComponent(true, data.retain());
        }
        return content instanceof LastHttpContent ? Outcome.COMPLETE : Outcome.MORE;
    }

    /** Feeds a piece of a body being discarded. */
    Outcome skip(HttpContent content) {
        int n = content.content().readableBytes();
        lastPiece = n;
        seen += n;
        if (seen > limit) return Outcome.TOO_LARGE;
        return content instanceof LastHttpContent ? Outcome.COMPLETE : Outcome.MORE;
    }

    /** @return the complete body's bytes (empty if none), released here */
    byte[] take() {
        if (body == null) return EMPTY;
        byte[] bytes = new byte[body.readableBytes()];
        body.readBytes(bytes);
        release();
        return bytes;
    }

    /** Drops whatever was accumulated. */
    void release() {
        if (body != null) {
            body.release();
            body = null;
        }
    }
}
