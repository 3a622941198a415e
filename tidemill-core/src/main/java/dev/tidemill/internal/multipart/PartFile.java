package dev.tidemill.internal.multipart;

import dev.tidemill.Multipart;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the part a {@link Multipart.FileSink} was given. The parsing thread adds pieces
 * ({@link #add}), each a view of a buffer {@link MultipartPump} holds until {@link #write} ran on a
 * virtual thread; the file is opened there on the first write (an empty part still creates it) and
 * closed there after the part's end. The two threads take turns, never overlap: the pump parses
 * nothing more until the write is done. The sink itself counts the bytes and holds the limit.
 */
final class PartFile {
    private final Multipart.FileSink sink;
    private final Path file;
    private final String part;
    private final List<ByteBuffer> pending = new ArrayList<>(4);
    private boolean ended;
    private boolean closed;
    private FileChannel channel;

    /**
     * @param sink where the part goes
     * @param part the part's name, from the client
     */
    PartFile(Multipart.FileSink sink, String part) {
        this.sink = sink;
        this.file = sink.file();
        this.part = part;
    }

    /** @return the name of the part it writes */
    String part() {
        return part;
    }

    /** @return the sink this writes for */
    Multipart.FileSink sink() {
        return sink;
    }

    /**
     * @param piece content to write, valid until {@link #write} ran
     * @param viewOfIt a read-only view of the same bytes, for the sink's count
     * @throws dev.tidemill.ProblemException 413 past the sink's {@code maxBytes}
     */
    void add(ByteBuffer piece, ByteBuffer viewOfIt) {
        if (Math.max(sink.bytes(), 0) + piece.remaining() > sink.maxBytes()) {
            throw Refusal.tooLarge("file " + Refusal.quoted(part) + " is larger than " + sink.maxBytes()
                    + " bytes (the handler's limit)");
        }
        sink.accept(viewOfIt);
        pending.add(piece);
    }

    /** The part's content is complete. */
    void end() {
        ended = true;
        sink.end();
    }

    /** @return whether {@link #write} has something to do: pieces, or the close after the end */
    boolean hasWork() {
        return !pending.isEmpty() || (ended && !closed);
    }

    /** On a virtual thread: writes what was added, and closes the file once the part ended. */
    void write() throws IOException {
        if (channel == null) channel = FileChannel.open(file, OPTIONS, ownerOnly());
        for (ByteBuffer b : pending) {
            while (b.hasRemaining()) channel.write(b);
        }
        pending.clear();
        if (ended) {
            closed = true;
            channel.close();
        }
    }

    /** The form failed: a file whose part did not end is closed and deleted; one that is complete stays. */
    void abandon() {
        pending.clear();
        if (closed) return;
        try {
            if (channel != null) channel.close();
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // the failure the caller learns of is the form's
        }
    }

    private static final java.util.Set<StandardOpenOption> OPTIONS = java.util.EnumSet.of(StandardOpenOption.CREATE,
            StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);

    private static FileAttribute<?>[] ownerOnly() {
        if (!FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) return new FileAttribute<?>[0];
        return new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))};
    }
}
