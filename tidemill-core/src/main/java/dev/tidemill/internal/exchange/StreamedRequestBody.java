package dev.tidemill.internal.exchange;

import dev.tidemill.Problem;
import dev.tidemill.ProblemException;
import dev.tidemill.RequestBody;
import dev.tidemill.internal.codec.ContentDecoding;
import dev.tidemill.internal.multipart.PieceSource;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The handler's {@link RequestBody} over a {@link RequestBodyQueue}: the five ways to read it, each
 * claimed once, and {@code Content-Encoding} decoding. Raw bytes go from the transport's buffers
 * straight into the reader's array or the file; decoding, which only exists as blocking streams
 * here (gzip, deflate, br, zstd), runs where blocking is allowed: in the reader's own thread for
 * {@link #inputStream()}, on a virtual thread per piece for {@link #read()}.
 */
final class StreamedRequestBody implements RequestBody {
    private static final int PIECE = 64 * 1024;
    private static final Set<OpenOption> WRITE_NEW = Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING);

    private final RequestBodyQueue stream;
    private final long declared;
    private final List<String> codings;
    private final long limit;
    private final AtomicReference<String> claimed = new AtomicReference<>();
    private InputStream decoded; // for read() of a coded body: opened on the first read

    StreamedRequestBody(RequestBodyQueue stream, long declared, List<String> codings, long limit) {
        this.stream = stream;
        this.declared = declared;
        this.codings = codings;
        this.limit = limit;
    }

    private void claim(String how) {
        if (!claimed.compareAndSet(null, how)) {
            throw new IllegalStateException("the body is already being read with " + claimed.get()
                    + "(); it can be read one way, once (" + how + "() asked)");
        }
    }

    @Override
    public long declaredLength() {
        return declared;
    }

    @Override
    public InputStream inputStream() {
        if (stream.onTransportThread()) {
            throw new IllegalStateException("a blocking read on the event loop would stop the connection it reads;"
                    + " use read(), publisher() or transferTo(), or run the route in VIRTUAL or LOOP mode");
        }
        claim("inputStream");
        return openStream();
    }

    private InputStream openStream() {
        InputStream raw = new Raw(stream);
        return codings.isEmpty() ? raw : ContentDecoding.decoding(raw, codings, limit);
    }

    @Override
    public CompletionStage<ByteBuffer> read() {
        if (!"read".equals(claimed.get())) claim("read");
        return next();
    }

    /** The next piece as a buffer the caller owns; null at the end. */
    private CompletableFuture<ByteBuffer> next() {
        if (codings.isEmpty()) return stream.takeLater().thenApply(StreamedRequestBody::copy);
        return onVirtualThread(() -> {
            try {
                if (decoded == null) decoded = openStream();
                byte[] b = decoded.readNBytes(PIECE);
                return b.length == 0 ? null : ByteBuffer.wrap(b);
            } catch (IOException e) {
                throw failure(e);
            }
        });
    }

    private static ByteBuffer copy(ByteBuf b) {
        if (b == null) return null;
        try {
            ByteBuffer out = ByteBuffer.allocate(b.readableBytes());
            b.getBytes(b.readerIndex(), out);
            return out.flip();
        } finally {
            b.release();
        }
    }

    @Override
    public Flow.Publisher<ByteBuffer> publisher() {
        claim("publisher");
        return new RequestBodyPublisher(this::next, stream::abandon);
    }

    @Override
    public CompletionStage<Long> transferTo(Path file, long maxBytes) {
        claim("transferTo");
        return onVirtualThread(() -> {
            long written = 0;
            boolean done = false;
            try (FileChannel out = FileChannel.open(file, WRITE_NEW, ownerOnly())) {
                if (codings.isEmpty()) {
                    for (ByteBuf b; (b = stream.take()) != null; ) {
                        try {
                            written += b.readableBytes();
                            if (written > maxBytes) throw tooLarge(maxBytes);
                            for (ByteBuffer nio : b.nioBuffers()) while (nio.hasRemaining()) out.write(nio);
                        } finally {
                            b.release();
                        }
                    }
                } else {
                    InputStream in = openStream();
                    byte[] buf = new byte[PIECE];
                    for (int n; (n = in.read(buf)) > 0; ) {
                        written += n;
                        if (written > maxBytes) throw tooLarge(maxBytes);
                        out.write(ByteBuffer.wrap(buf, 0, n));
                    }
                }
                done = true;
                return written;
            } catch (IOException e) {
                throw failure(e);
            } finally {
                if (!done) {
                    stream.abandon();
                    try {
                        Files.deleteIfExists(file);
                    } catch (IOException ignored) {
                        // the caller learns of the failure that mattered
                    }
                }
            }
        });
    }

    @Override
    public CompletionStage<Long> discard() {
        claim("discard");
        CompletableFuture<Long> result = new CompletableFuture<>();
        new PieceVisit(stream, piece -> { }, result).run(); // raw: dropping needs no decoding
        return result;
    }

    @Override
    public CompletionStage<Long> forEach(Consumer<ByteBuffer> consumer) {
        claim("forEach");
        CompletableFuture<Long> result = new CompletableFuture<>();
        if (codings.isEmpty()) {
            new PieceVisit(stream, consumer, result).run();
        } else {
            visitDecoded(consumer, 0, result);
        }
        return result;
    }

    /** Owned, decoded pieces, one at a time (decoding runs on a virtual thread). */
    private void visitDecoded(Consumer<ByteBuffer> consumer, long seen, CompletableFuture<Long> result) {
        next().whenComplete((piece, error) -> {
            if (error != null) {
                result.completeExceptionally(error);
            } else if (piece == null) {
                result.complete(seen);
            } else {
                int n = piece.remaining();
                try {
                    consumer.accept(piece);
                } catch (Throwable t) {
                    stream.abandon();
                    result.completeExceptionally(t);
                    return;
                }
                visitDecoded(consumer, seen + n, result);
            }
        });
    }

    /**
     * The body for the non-blocking multipart reader: the transport's pieces as they are (the
     * reader releases them), or decoded pieces for a content-coded body.
     */
    PieceSource pieces() {
        claim("multipart");
        if (!codings.isEmpty()) {
            return new PieceSource() {
                @Override
                public ByteBuf next(BiConsumer<ByteBuf, Throwable> waiter) {
                    // decoded on a virtual thread: the waiter is told from there, never from inside this call
                    StreamedRequestBody.this.next().whenCompleteAsync(
                            (b, error) -> waiter.accept(b == null ? null : Unpooled.wrappedBuffer(b), error),
                            task -> Thread.ofVirtual().name("tidemill-body").start(task));
                    return null;
                }

                @Override
                public void abandon() {
                    stream.abandon();
                }
            };
        }
        return new PieceSource() {
            @Override
            public ByteBuf next(BiConsumer<ByteBuf, Throwable> waiter) {
                ByteBuf b = stream.takeOr(waiter);
                return b == RequestBodyQueue.END ? PieceSource.END : b;
            }

            @Override
            public void abandon() {
                stream.abandon();
            }
        };
    }

    /** The handler answered with a complete reply: whatever of the body it did not read is the transport's to dispose of. */
    void answered() {
        stream.abandon();
    }

    /** The exchange was abandoned (timed out, or its peer left): a reader still waiting wakes with this. */
    void cancelled(Problem why) {
        stream.fail(why);
    }

    /** Reads the whole body, blocking, for {@code Request.body()} on a streamed route. */
    byte[] readAll() {
        if (stream.onTransportThread()) {
            throw new IllegalStateException("body() on a streamed route blocks; on the event loop use bodyStream().read()");
        }
        claim("body()");
        try (InputStream in = openStream()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw failure(e);
        }
    }

    private static ProblemException tooLarge(long maxBytes) {
        return new ProblemException(Problem.of(413, "Content Too Large", "the body exceeds the " + maxBytes
                + "-byte limit of transferTo"));
    }

    /** @return the problem an I/O failure carries, or the failure unchecked */
    private static RuntimeException failure(IOException e) {
        if (e.getCause() instanceof ProblemException p) return p;
        return new UncheckedIOException(e);
    }

    private static FileAttribute<?>[] ownerOnly() {
        if (!FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) return new FileAttribute<?>[0];
        return new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))};
    }

    private static <T> CompletableFuture<T> onVirtualThread(Supplier<T> work) {
        CompletableFuture<T> f = new CompletableFuture<>();
        Thread.ofVirtual().name("tidemill-body").start(() -> {
            try {
                f.complete(work.get());
            } catch (Throwable t) {
                f.completeExceptionally(t instanceof CompletionException c && c.getCause() != null ? c.getCause() : t);
            }
        });
        return f;
    }

    /** The body as an {@link InputStream}: each read copies from the transport's buffer into the caller's array. */
    private static final class Raw extends InputStream {
        private final RequestBodyQueue stream;
        private ByteBuf current;
        private boolean eof;

        Raw(RequestBodyQueue stream) {
            this.stream = stream;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) return 0;
            while (current == null || !current.isReadable()) {
                if (eof) return -1;
                if (current != null) current.release();
                current = stream.take();
                if (current == null) {
                    eof = true;
                    return -1;
                }
            }
            int n = Math.min(len, current.readableBytes());
            current.readBytes(b, off, n);
            return n;
        }

        @Override
        public int available() {
            return current == null ? 0 : current.readableBytes();
        }

        @Override
        public void close() {
            if (current != null) {
                current.release();
                current = null;
            }
            if (!eof) stream.abandon();
            eof = true;
        }
    }
}
