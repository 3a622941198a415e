package dev.tidemill.internal.multipart;

import dev.tidemill.Limits;
import dev.tidemill.Multipart;
import dev.tidemill.Problem;
import dev.tidemill.ProblemException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link Multipart} over a blocking {@link InputStream}: reads the source 16 KiB at a time into the
 * {@link MultipartParser} and hands out its events in order. What is buffered is at most one read's
 * worth of events: the content slices of one read, which point into the read buffer (or the
 * parser's delimiter) rather than copy it, because the buffer is refilled only once every event
 * of the last read was handed out. Memory stays bounded by the read size whatever the parts'
 * sizes, and content costs no allocation (a copy per slice made a 100 MiB upload allocate 100 MiB;
 * async-profiler's alloc event put 92 % of the uploads target's allocations there).
 *
 * <p>A source's {@code IOException} whose cause is a {@link ProblemException} (the streamed body's
 * 413 or 408) is rethrown as that problem; any other is an {@link UncheckedIOException} from
 * {@link #next()} and an {@code IOException} from a part's content.
 */
public final class MultipartReader implements Multipart {
    private static final int READ_BYTES = 16 * 1024;
    private static final Object PART_END = new Object();

    /** Content bytes: a slice of the read buffer, valid until the next read from the source. */
    private record Slice(byte[] array, int off, int len) {}

    private final InputStream source;
    private final MultipartParser parser;
    private final ArrayDeque<Object> events = new ArrayDeque<>();
    private final byte[] buffer;
    private boolean finished;
    private ReaderPart current;

    private MultipartReader(String contentType, InputStream source, Limits limits, long length) {
        this.source = source;
        // A small form (most are) gets a buffer of its size, not 16 KiB: per request that is most of what it allocates.
        this.buffer = new byte[length > 0 && length < READ_BYTES ? (int) length : READ_BYTES];
        this.parser = MultipartParser.forContentType(contentType, limits, new PartListener() {
            @Override
            public void partBegin(PartHead head) {
                events.add(head);
            }

            @Override
            public void partData(java.nio.ByteBuffer data, int off, int len) {
                if (data.hasArray()) {
                    events.add(new Slice(data.array(), data.arrayOffset() + off, len)); // the read buffer: no copy
                } else {
                    byte[] copy = new byte[len]; // the parser's delimiter bytes, a few at most
                    data.get(off, copy);
                    events.add(new Slice(copy, 0, len));
                }
            }

            @Override
            public void partEnd() {
                events.add(PART_END);
            }
        });
    }

    /**
     * @param contentType the request's {@code Content-Type}
     * @param source the body
     * @param limits the multipart limits
     * @return a reader positioned before the first part
     * @throws ProblemException 415 when the content type is not {@code multipart/form-data}, 400 for its boundary
     */
    public static MultipartReader open(Optional<String> contentType, InputStream source, Limits limits) {
        return open(contentType, source, limits, -1);
    }

    /**
     * @param contentType the request's {@code Content-Type}
     * @param source the body
     * @param limits the multipart limits
     * @param length the body's length when known, else -1: the read buffer is no larger
     * @return a reader positioned before the first part
     */
    public static MultipartReader open(Optional<String> contentType, InputStream source, Limits limits, long length) {
        requireFormData(contentType);
        return new MultipartReader(contentType.get(), source, limits, length);
    }

    /**
     * @param contentType the request's {@code Content-Type}
     * @throws ProblemException 415 unless it is {@code multipart/form-data}
     */
    public static void requireFormData(Optional<String> contentType) {
        if (contentType.isEmpty() || !Boundary.isFormData(contentType.get())) {
            throw new ProblemException(Problem.of(415, "Unsupported Media Type",
                    (contentType.isEmpty() ? "Content-Type is missing" : "this request is not a multipart form")
                            + "; expected multipart/form-data"));
        }
    }

    /** @param contentType a {@code Content-Type} value @return whether it is {@code multipart/form-data} */
    public static boolean isMultipart(String contentType) {
        return Boundary.isFormData(contentType);
    }

    @Override
    public Part next() {
        try {
            if (current != null) {
                current.skip();
                current = null;
            }
            while (true) {
                Object e = events.poll();
                if (e instanceof PartHead h) return current = new ReaderPart(h);
                if (e == null && !pull()) return null;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads once more from the source into the parser; false at its end (after the parser's final check). */
    private boolean pull() throws IOException {
        if (finished) return false;
        int n;
        try {
            n = source.read(buffer);
        } catch (IOException e) {
            if (e.getCause() instanceof ProblemException p) throw p;
            throw e;
        }
        if (n < 0) {
            finished = true;
            parser.finish();
            return false;
        }
        parser.feed(buffer, 0, n);
        return true;
    }

    private final class ReaderPart extends InputStream implements Part {
        private final PartHead head;
        private Slice chunk;
        private int pos;
        private int end;
        private boolean ended;

        ReaderPart(PartHead head) {
            this.head = head;
        }

        @Override
        public String name() {
            return head.name();
        }

        @Override
        public Optional<String> filename() {
            return head.filename();
        }

        @Override
        public String contentType() {
            return head.contentType();
        }

        @Override
        public Map<String, List<String>> headers() {
            return head.headers();
        }

        @Override
        public InputStream content() {
            return this;
        }

        @Override
        public long transferTo(Path target, long maxBytes) {
            long total = 0;
            try (OutputStream out = Files.newOutputStream(target)) {
                byte[] b = new byte[READ_BYTES];
                for (int n; (n = read(b, 0, b.length)) >= 0; ) {
                    total += n;
                    if (total > maxBytes) {
                        out.close();
                        Files.deleteIfExists(target);
                        throw Refusal.tooLarge("file " + Refusal.quoted(head.name()) + " is larger than " + maxBytes
                                + " bytes (the handler's limit)");
                    }
                    out.write(b, 0, n);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (RuntimeException e) {
                try {
                    Files.deleteIfExists(target);
                } catch (IOException ignored) {
                    // the refusal matters more than a partial file the caller named
                }
                throw e;
            }
            return total;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            if (len == 0) return 0;
            while (true) {
                if (chunk != null && pos < end) {
                    int n = Math.min(len, end - pos);
                    System.arraycopy(chunk.array(), pos, b, off, n);
                    pos += n;
                    return n;
                }
                if (ended) return -1;
                chunk = null;
                Object e = events.peek();
                if (e == null) {
                    if (!pull()) throw new IllegalStateException("the parser ended a body inside a part"); // finish() throws first
                } else if (e == PART_END) {
                    events.poll();
                    ended = true;
                } else if (e instanceof Slice d) {
                    events.poll();
                    chunk = d;
                    pos = d.off();
                    end = d.off() + d.len();
                } else {
                    throw new IllegalStateException("a part began before the previous one ended");
                }
            }
        }

        @Override
        public int available() {
            return chunk == null ? 0 : end - pos;
        }

        /** Reads and drops the rest of this part; afterwards reads return -1. */
        void skip() throws IOException {
            chunk = null;
            while (!ended) {
                Object e = events.peek();
                if (e == null) {
                    if (!pull()) return;
                } else {
                    events.poll();
                    if (e == PART_END) ended = true;
                }
            }
        }

        @Override
        public String toString() {
            return "part " + head.name() + head.filename().map(f -> " (file)").orElse("");
        }
    }
}
