package dev.tidemill.internal.exchange;

import dev.tidemill.ProblemException;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * A raw streamed body read by {@code RequestBody.forEach} or {@code discard}: hands each piece to
 * the consumer as read-only views of the transport's buffers, then releases it: no copy. Loops
 * while pieces are already there (no stack growth), and continues from the stream's callback,
 * itself, when one has to arrive: one object per body, where a future and its callback per piece
 * were a third of what a 1 MiB upload allocated ({@link RequestBodyQueue#takeOr}).
 */
final class PieceVisit implements BiConsumer<ByteBuf, Throwable> {
    private final RequestBodyQueue stream;
    private final Consumer<ByteBuffer> consumer;
    private final CompletableFuture<Long> result;
    private long seen;

    PieceVisit(RequestBodyQueue stream, Consumer<ByteBuffer> consumer, CompletableFuture<Long> result) {
        this.stream = stream;
        this.consumer = consumer;
        this.result = result;
    }

    void run() {
        while (true) {
            ByteBuf b;
            try {
                b = stream.takeOr(this); // no wait while pieces are there: a small body is whole at dispatch
            } catch (ProblemException | IllegalStateException e) {
                result.completeExceptionally(e);
                return;
            }
            if (b == null) return; // accept() goes on
            if (b == RequestBodyQueue.END) {
                result.complete(seen);
                return;
            }
            if (!handOn(b)) return;
        }
    }

    @Override
    public void accept(ByteBuf piece, Throwable error) {
        if (error != null) {
            result.completeExceptionally(error);
        } else if (piece == null) {
            result.complete(seen);
        } else if (handOn(piece)) {
            run();
        }
    }

    /** @return whether to go on: false when the consumer threw (the result failed, the body abandoned) */
    private boolean handOn(ByteBuf b) {
        try {
            int n = b.readableBytes();
            if (b.nioBufferCount() == 1) {
                consumer.accept(b.nioBuffer().asReadOnlyBuffer());
            } else {
                for (ByteBuffer nio : b.nioBuffers()) consumer.accept(nio.asReadOnlyBuffer());
            }
            seen += n;
            return true;
        } catch (Throwable t) {
            stream.abandon();
            result.completeExceptionally(t);
            return false;
        } finally {
            b.release();
        }
    }
}
