package dev.tidemill.internal.multipart;

import io.netty.buffer.ByteBuf;
import java.util.concurrent.CompletableFuture;

/**
 * Where {@link MultipartPump} takes a body from, a piece at a time: a streamed body's queue, its
 * decoded pieces, or a body already read whole.
 */
public interface PieceSource {

    /** @return the next piece (the caller releases it), or null at the end; failed with the body's fault */
    CompletableFuture<ByteBuf> next();

    /** The reader stops before the end (the form failed): the transport disposes of the rest. */
    void abandon();

    /**
     * @param whole a body read whole
     * @return a source that hands it over as one piece
     */
    static PieceSource of(byte[] whole) {
        return new PieceSource() {
            private boolean given;

            @Override
            public CompletableFuture<ByteBuf> next() {
                if (given) return CompletableFuture.completedFuture(null);
                given = true;
                return CompletableFuture.completedFuture(io.netty.buffer.Unpooled.wrappedBuffer(whole));
            }

            @Override
            public void abandon() {
                given = true;
            }
        };
    }
}
