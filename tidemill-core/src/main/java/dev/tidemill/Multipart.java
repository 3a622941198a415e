package dev.tidemill;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@code multipart/form-data} body (RFC 7578), read part by part as it arrives, from
 * {@link Request#multipart()}. Nothing is buffered beyond the piece being parsed: a part's content
 * is read through {@link Part#content()} or written with {@link Part#transferTo(Path, long)}.
 * Blocking: read it from the handler's thread.
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

    /** One part of a multipart body; its content can be read once, until {@link Multipart#next()} is called. */
    interface Part {

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
}
