package dev.tidemill;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * A {@code multipart/form-data} body (RFC 7578), read part by part as it arrives, from
 * {@link Request#multipart()}. Nothing is buffered beyond the piece being parsed: a part's content
 * is read through {@link Part#content()} or written with {@link Part#transferTo(Path, long)}.
 * Blocking: read it from the handler's thread. The non-blocking way to read a form, for IO and
 * LOOP handlers, is {@link Request#multipart(PartHandler)}: each part's content is handed to a
 * {@link Sink} as it arrives, on the connection's event loop.
 *
 * <p>Every refusal is a {@link ProblemException}, thrown by {@link #next()} or by a read of a part's
 * content: 400 for a malformed body (naming the rule), 413 past {@link Limits#maxParts()},
 * {@link Limits#maxPartHeaderBytes()}, {@link Limits#maxFieldBytes()} or
 * {@link Limits#maxFileBytes()} (naming the limit).
 *
 * <pre>{@code
 * Multipart form = req.multipart();
 * for (Multipart.Part p = form.next(); p != null; p = form.next()) {
 *     if (p.filename().isPresent()) p.transferTo(dir.resolve(Upload.safeName(p.filename().get())), 1 << 30);
 * }
 * }</pre>
 */
public interface Multipart {

    /**
     * Moves to the next part, skipping whatever of the previous part was not read.
     *
     * @return the next part, or null after the last one
     */
    Part next();

    /** What a part's header block says: its name, file name, content type and header fields. */
    interface Head {

        /** @return the {@code name} parameter of its {@code Content-Disposition} */
        String name();

        /**
         * @return the file name as the client sent it ({@code filename*} preferred over
         *     {@code filename}), present for a file part; never safe to use as a path, see
         *     {@link Upload#safeName(String)}
         */
        Optional<String> filename();

        /**
         * @return its {@code Content-Type}; when absent {@code text/plain} for a field (RFC 7578
         *     section 4.4) and {@code application/octet-stream} for a file
         */
        String contentType();

        /** @return its header fields by lower-case name, in the order sent, values in order */
        Map<String, List<String>> headers();
    }

    /** One part of a multipart body; its content can be read once, until {@link Multipart#next()} is called. */
    interface Part extends Head {

        /** @return its content; ends at the part's end; a malformed or over-limit body throws {@link ProblemException} */
        InputStream content();

        /**
         * Writes the unread content to a file, created or replaced.
         *
         * @param target the file to write
         * @param maxBytes the most bytes accepted; past it the file is deleted and a 413
         *     {@link ProblemException} thrown
         * @return the bytes written
         */
        long transferTo(Path target, long maxBytes);
    }

    /**
     * Decides, for each part of a form read with {@link Request#multipart(PartHandler)}, where its
     * content goes. Called on the thread that parses the body (the connection's event loop, or a
     * virtual thread that has just written a file piece; never two at once), so it must not block.
     */
    @FunctionalInterface
    interface PartHandler {

        /**
         * @param head the part's headers, complete and checked
         * @return what takes its content: a sink of your own, {@link Sink#toFile}, or
         *     {@link Sink#skip()} (null skips it too)
         */
        Sink part(Head head);
    }

    /**
     * Takes one part's content, piece by piece, non-blocking (see {@link PartHandler}). A sink that
     * throws stops the reading: the stage {@link Request#multipart(PartHandler)} returned fails
     * with its exception (a {@link ProblemException} is answered as that problem).
     */
    @FunctionalInterface
    interface Sink {

        /**
         * @param piece the next bytes of the part's content, a read-only view of the server's
         *     buffer that is valid only during the call (copy what you keep); never empty
         */
        void accept(ByteBuffer piece);

        /** The part's content is complete. Not called when the form failed before its end. */
        default void end() {
        }

        /** @return a sink that drops the content */
        static Sink skip() {
            return piece -> { };
        }

        /**
         * A sink that writes the part to a file (created or replaced, owner read/write only) on a
         * virtual thread, with back-pressure: the body is parsed further only once a piece is on
         * disk. The stage {@link Request#multipart(PartHandler)} returned completes after the file
         * is closed. Past {@code maxBytes} the form fails with a 413 {@link ProblemException};
         * when the form fails (that refusal, a malformed body, a client that left), a file not
         * yet complete and closed is deleted.
         *
         * @param file the target; never a client's file name as it came (see {@link Upload#safeName})
         * @param maxBytes the most bytes of content accepted
         * @return the sink, for one part: handed a second part it fails the form with a 400;
         *     {@link FileSink#bytes()} tells the bytes written
         */
        static FileSink toFile(Path file, long maxBytes) {
            return new FileSink(file, maxBytes);
        }
    }

    /**
     * A {@link Sink} that writes a file: {@link Sink#toFile(Path, long)}. It says where the part
     * goes and counts what it is given; the server writes the content, on a virtual thread, only
     * when this is the part's sink itself (a sink wrapping it counts into it but writes nothing).
     */
    final class FileSink implements Sink {
        private final Path file;
        private final long maxBytes;
        private long bytes = -1;

        FileSink(Path file, long maxBytes) {
            if (maxBytes < 0) throw new IllegalArgumentException("maxBytes must be 0 or more");
            this.file = java.util.Objects.requireNonNull(file, "file");
            this.maxBytes = maxBytes;
        }

        /** @return the path it writes */
        public Path file() {
            return file;
        }

        /** @return the most bytes of content it accepts */
        public long maxBytes() {
            return maxBytes;
        }

        /**
         * @return the bytes written: final once the stage {@link Request#multipart(PartHandler)}
         *     returned has completed; -1 while no part was given to it
         */
        public long bytes() {
            return bytes;
        }

        /**
         * Counts a piece of the part's content.
         *
         * @throws ProblemException 413 once the content passes {@link #maxBytes()}
         */
        @Override
        public void accept(ByteBuffer piece) {
            bytes = Math.max(bytes, 0) + piece.remaining();
            if (bytes > maxBytes) {
                String name = file.getFileName() == null ? file.toString() : file.getFileName().toString();
                throw new ProblemException(Problem.of(413, "Content Too Large",
                        "file \"" + name + "\" is larger than " + maxBytes + " bytes (the handler's limit)"));
            }
        }

        @Override
        public void end() {
            if (bytes < 0) bytes = 0;
        }

        @Override
        public String toString() {
            return "file sink " + file + " (at most " + maxBytes + " bytes)";
        }
    }
}
