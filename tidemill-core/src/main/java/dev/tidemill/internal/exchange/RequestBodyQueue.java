package dev.tidemill.internal.exchange;

import dev.tidemill.Problem;
import dev.tidemill.ProblemException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A streamed request body between a transport and its reader, whatever the protocol: the pieces
 * the transport offered and the reader has not taken, bounded by a high-water mark. The transport
 * (on its thread) {@link #offer}s pieces, then {@link #end}s or {@link #fail}s the body, and stops
 * reading when {@code offer} says the stream is full; the reader takes pieces, blocking
 * ({@link #take}) or not ({@link #takeOr}, {@link #takeLater}), and the stream asks its {@link RequestBodySource} for more
 * when it is empty or has drained below half the mark. {@link StreamedRequestBody} is the handler's API on
 * top of it.
 *
 * <p>One lock guards the queue: a piece is taken or offered at most a few times per 64 KiB, so the
 * lock costs nothing next to the bytes, and a virtual thread blocked in {@link #take} parks on its
 * condition without pinning (JDK 24+).
 */
public final class RequestBodyQueue {
    /** A piece smaller than this is copied into a shared buffer rather than queued as it is. */
    private static final int SMALL_PIECE = 4 * 1024;
    private static final int COALESCE_BUFFER = 16 * 1024;

    private final ReentrantLock lock = new ReentrantLock();
    /** Where a blocking reader waits; made by the first that has to (most bodies are read without waiting). */
    private Condition arrived;
    private final ArrayDeque<ByteBuf> queue = new ArrayDeque<>(4); // grows when a slow reader lets pieces pile up; most bodies are a piece or two
    private final RequestBodySource source;
    private final ByteBufAllocator alloc;
    private final int highWater;
    private final LongAdder held;
    private long buffered;
    /** The queue's last buffer when it is one of ours that small pieces are copied into. */
    private ByteBuf coalescing;
    private boolean ended;
    private ProblemException failure;
    /** The transport is not reading: nothing asked yet, or the stream was full. */
    private boolean paused = true;
    /** The reader gave up before the end: what still comes is dropped. */
    private boolean abandoned;
    /**
     * The reader waiting on an empty queue, told {@code (piece, null)}, {@code (null, null)} at the
     * end or {@code (null, problem)}; never from inside {@link #takeOr} (a transport's
     * {@link RequestBodySource#demand} does not deliver synchronously), so a reader need not guard against
     * its own callback running before {@code takeOr} returns.
     */
    private BiConsumer<ByteBuf, Throwable> waiting;

    /**
     * @param source the transport's side
     * @param alloc for the buffers small pieces are gathered in
     * @param highWater bytes held above which the transport stops reading
     *     ({@link dev.tidemill.Limits#bodyHighWaterBytes()})
     * @param held the server's count of bytes its streams hold ({@code bodies.held_bytes} in the diagnostics)
     */
    public RequestBodyQueue(RequestBodySource source, ByteBufAllocator alloc, int highWater, LongAdder held) {
        this.source = source;
        this.alloc = alloc;
        this.highWater = highWater;
        this.held = held;
    }

    // ---- the transport's side (its thread) ----

    /**
     * Hands a piece of the body to the stream, which now owns it.
     *
     * @param piece bytes of the body, in order
     * @return whether the transport may go on reading; false: the stream is full, and
     *     {@link RequestBodySource#demand} will say when to read again
     */
    public boolean offer(ByteBuf piece) {
        BiConsumer<ByteBuf, Throwable> handTo = null;
        boolean more;
        lock.lock();
        try {
            if (abandoned || failure != null || ended) {
                piece.release();
                return true; // the transport disposes of the rest as it decided on abandon
            }
            if (waiting != null) {
                handTo = waiting; // a reader waits on an empty queue: straight to it, never buffered
                waiting = null;
            } else {
                enqueue(piece);
                signal();
            }
            more = buffered < highWater;
            if (!more) {
                paused = true;
                // what it holds now stays until the reader takes it: no piece pins a buffer much larger than its bytes
                PieceCompaction.compact(queue, coalescing, alloc);
            }
        } finally {
            lock.unlock();
        }
        if (handTo != null) {
            source.taken(piece.readableBytes());
            handTo.accept(piece, null);
        }
        return more;
    }

    private void enqueue(ByteBuf piece) {
        int n = piece.readableBytes();
        buffered += n;
        held.add(n);
        if (n < SMALL_PIECE) {
            // Tiny pieces (1-byte chunks, say) would each pin their socket buffer and a queue node;
            // copying them into one buffer bounds what the stream holds by the bytes it counts.
            if (coalescing == null || coalescing.writableBytes() < n) {
                coalescing = alloc.buffer(COALESCE_BUFFER, COALESCE_BUFFER);
                queue.add(coalescing);
            }
            coalescing.writeBytes(piece);
            piece.release();
            return;
        }
        coalescing = null;
        queue.add(piece);
    }

    /**
     * Hands the whole body at once, before the reader runs (it came with its head), and ends it. It
     * is queued as it is, a view of the transport's read buffer, without the copy {@link #offer}
     * makes of a small piece: a reader that takes it at once (an IO-mode handler, during dispatch)
     * costs no copy; {@link #settle} copies it if the reader did not.
     *
     * @param body the body's bytes; the stream owns them
     */
    public void offerWhole(ByteBuf body) {
        lock.lock();
        try {
            int n = body.readableBytes();
            if (n > 0) {
                buffered += n;
                held.add(n);
                queue.add(body);
            } else {
                body.release();
            }
            ended = true;
            paused = false;
        } finally {
            lock.unlock();
        }
    }

    /**
     * After the reader's first turn: a small piece it did not take yet is copied out of the read
     * buffer it is a view of, so a slow reader holds the bytes it counts (as {@link #offer} would
     * have), not the larger buffer around them.
     */
    public void settle() {
        lock.lock();
        try {
            ByteBuf b = queue.peek();
            if (b == null || b == coalescing || b.readableBytes() >= SMALL_PIECE) return;
            queue.poll();
            ByteBuf copy = alloc.buffer(b.readableBytes(), b.readableBytes());
            copy.writeBytes(b);
            b.release();
            queue.addFirst(copy);
        } finally {
            lock.unlock();
        }
    }

    /** The body's last byte was offered. */
    public void end() {
        BiConsumer<ByteBuf, Throwable> w;
        lock.lock();
        try {
            if (ended || failure != null) return;
            ended = true;
            paused = false; // nothing more to ask the transport for
            w = waiting;
            waiting = null;
            signal();
        } finally {
            lock.unlock();
        }
        if (w != null) w.accept(null, null);
    }

    /**
     * The body cannot be read to its end: the reader's next take throws this problem. Idempotent;
     * does nothing once the body ended.
     *
     * @param problem why
     */
    public void fail(Problem problem) {
        BiConsumer<ByteBuf, Throwable> w;
        lock.lock();
        try {
            if (ended || failure != null) return;
            failure = new ProblemException(problem);
            w = waiting;
            waiting = null;
            dropQueued();
            signal();
        } finally {
            lock.unlock();
        }
        if (w != null) w.accept(null, failure);
    }

    /** @return whether the body was read to its end (every byte offered) */
    public boolean ended() {
        lock.lock();
        try {
            return ended;
        } finally {
            lock.unlock();
        }
    }

    // ---- the reader's side (any thread) ----

    /**
     * Blocks until a piece is there.
     *
     * @return the next piece (the caller releases it), or null at the end
     * @throws IOException whose cause is the {@link ProblemException} the body failed with;
     *     {@link InterruptedIOException} when the thread is interrupted
     */
    ByteBuf take() throws IOException {
        boolean ask = false;
        int took = 0;
        lock.lock();
        try {
            while (true) {
                if (failure != null) throw new IOException(failure.getMessage(), failure);
                ByteBuf b = poll();
                if (b != null) {
                    ask = resumeIfDrained();
                    took = b.readableBytes();
                    return b;
                }
                if (ended) return null;
                if (abandoned) throw new IOException("the body was closed");
                if (paused) {
                    paused = false;
                    lock.unlock();
                    try {
                        source.demand();
                    } finally {
                        lock.lock();
                    }
                    continue;
                }
                try {
                    if (arrived == null) arrived = lock.newCondition();
                    arrived.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while reading the request body");
                }
            }
        } finally {
            lock.unlock();
            if (took > 0) source.taken(took);
            if (ask) source.demand();
        }
    }

    /** What {@link #takeOr} returns at the end of the body. */
    static final ByteBuf END = io.netty.buffer.Unpooled.EMPTY_BUFFER;

    /**
     * Takes a piece that is there, or leaves the reader's callback to be told when one is: the
     * non-blocking reader's loop without a future per piece. A {@link CompletableFuture} and the
     * callback {@code whenComplete} makes for it were 22 % of what a 1 MiB multipart upload
     * allocated, 34 % of a raw one (async-profiler alloc, IO mode, wrk -t1 -c4 -d10s, 1 MiB bodies
     * discarded: about 2 KiB per upload, some 16 pieces of 64 KiB).
     *
     * @param waiter told {@code (piece, null)}, {@code (null, null)} at the end or
     *     {@code (null, problem)}, later and on the transport's thread, when this returns null
     * @return the next piece (the caller releases it), {@link #END} at the end, or null when the
     *     waiter will be told
     * @throws ProblemException the problem the body failed with
     * @throws IllegalStateException when the body was abandoned or a read is already pending
     */
    ByteBuf takeOr(BiConsumer<ByteBuf, Throwable> waiter) {
        boolean ask = false;
        int took = 0;
        lock.lock();
        try {
            if (failure != null) throw failure;
            if (waiting != null) throw new IllegalStateException("a read of this body is already pending");
            ByteBuf b = poll();
            if (b != null) {
                ask = resumeIfDrained();
                took = b.readableBytes();
                return b;
            }
            if (ended) return END;
            if (abandoned) throw new IllegalStateException("the body was closed");
            waiting = waiter;
            if (paused) {
                paused = false;
                ask = true;
            }
            return null;
        } finally {
            lock.unlock();
            if (took > 0) source.taken(took);
            if (ask) source.demand();
        }
    }

    /** @return the next piece (the caller releases it) or null at the end, once there; failed with the body's problem */
    CompletableFuture<ByteBuf> takeLater() {
        Later later = new Later();
        ByteBuf b;
        try {
            b = takeOr(later);
        } catch (ProblemException | IllegalStateException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (b != null) later.complete(b == END ? null : b);
        return later;
    }

    /** A future that is its own waiter: one object per {@link #takeLater}. */
    private static final class Later extends CompletableFuture<ByteBuf> implements BiConsumer<ByteBuf, Throwable> {
        @Override
        public void accept(ByteBuf piece, Throwable error) {
            if (error != null) completeExceptionally(error);
            else complete(piece);
        }
    }

    /** The reader stops before the end: what is held is dropped, the transport told. */
    void abandon() {
        lock.lock();
        try {
            if (ended || failure != null || abandoned) return;
            abandoned = true;
            dropQueued();
        } finally {
            lock.unlock();
        }
        source.abandon();
    }

    /** @return whether the reader runs on the transport's thread */
    boolean onTransportThread() {
        return source.onTransportThread();
    }

    private void signal() {
        if (arrived != null) arrived.signalAll();
    }

    private ByteBuf poll() {
        ByteBuf b = queue.poll();
        if (b == null) return null;
        if (b == coalescing) coalescing = null;
        buffered -= b.readableBytes();
        held.add(-b.readableBytes());
        return b;
    }

    /** @return whether the transport must be asked to read again (it paused, and half the mark is free) */
    private boolean resumeIfDrained() {
        if (paused && buffered < highWater / 2) {
            paused = false;
            return true;
        }
        return false;
    }

    private void dropQueued() {
        for (ByteBuf b; (b = queue.poll()) != null; ) b.release();
        coalescing = null;
        held.add(-buffered);
        buffered = 0;
    }
}
