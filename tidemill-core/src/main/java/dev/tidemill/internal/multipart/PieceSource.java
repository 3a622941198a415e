package dev.tidemill.internal.multipart;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.function.BiConsumer;

/**
 * Where {@link MultipartPump} takes a body from, a piece at a time: a streamed body's queue, its
 * decoded pieces, or a body already read whole. A piece that is there is returned; one that is
 * not is handed to the reader's callback when it comes, which saves the future per piece a
 * {@code CompletableFuture} would cost (see {@code RequestBodyQueue.takeOr}).
 */
public interface PieceSource {

    /** What {@link #next} returns at the end of the body. */
    ByteBuf END = Unpooled.EMPTY_BUFFER;

    /**
     * @param waiter told {@code (piece, null)}, {@code (null, null)} at the end or
     *     {@code (null, fault)} when this returns null; never before this returns
     * @return the next piece (the caller releases it), {@link #END} at the end, or null when the
     *     waiter will be told
     * @throws RuntimeException the body's fault, when it is known now
     */
    ByteBuf next(BiConsumer<ByteBuf, Throwable> waiter);

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
            public ByteBuf next(BiConsumer<ByteBuf, Throwable> waiter) {
                if (given) return END;
                given = true;
                return whole.length == 0 ? END : Unpooled.wrappedBuffer(whole);
            }

            @Override
            public void abandon() {
                given = true;
            }
        };
    }
}
