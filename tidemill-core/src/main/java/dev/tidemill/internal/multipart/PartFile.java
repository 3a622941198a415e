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
 * {@link Multipart.Sink#toFile}: one part's content to a file. The parsing thread adds pieces
 * ({@link #add}), each a view of a buffer {@link MultipartPump} holds until {@link #write} ran on a
 * virtual thread; the file is opened there on the first write (an empty part still creates it) and
 * closed there after the part's end. The two threads take turns, never overlap: the pump parses
 * nothing more until the write is done.
 */
public final class PartFile implements Multipart.FileSink {
    private final Path file;
    private final long maxBytes;
    private final List<ByteBuffer> pending = new ArrayList<>(4);
    private String part;
    private long bytes = -1;
    private boolean ended;
    private boolean closed;
    private FileChannel channel;

    private PartFile(Path file, long maxBytes) {
        this.file = file;
        this.maxBytes = maxBytes;
    }

    /**
     * @param file where the content goes
     * @param maxBytes the most bytes accepted
     * @return a sink for one part
     */
    public static PartFile create(Path file, long maxBytes) {
        if (maxBytes < 0) throw new IllegalArgumentException("maxBytes must be 0 or more");
        return new PartFile(java.util.Objects.requireNonNull(file, "file"), maxBytes);
    }

    @Override
    public Path file() {
        return file;
    }

    @Override
    public long bytes() {
        return bytes;
    }

    /** A part is given to this sink; a second one is refused (400). */
    void begin(String name) {
        if (part != null) {
            throw Refusal.malformed("part " + Refusal.quoted(name) + " went to a file that part " + Refusal.quoted(part)
                    + " already filled");
        }
        part = name;
        bytes = 0;
    }

    /** A piece from outside the pump (a sink wrapping this one): copied, since the view is not kept. */
    @Override
    public void accept(ByteBuffer piece) {
        ByteBuffer own = ByteBuffer.allocate(piece.remaining()).put(piece.duplicate()).flip();
        add(own);
    }

    /**
     * @param piece content to write, valid until {@link #write} ran
     * @throws dev.tidemill.ProblemException 413 past {@code maxBytes}
     */
    void add(ByteBuffer piece) {
        bytes += piece.remaining();
        if (bytes > maxBytes) {
            throw Refusal.tooLarge("file " + Refusal.quoted(part == null ? file.getFileName().toString() : part)
                    + " is larger than " + maxBytes + " bytes (the handler's limit)");
        }
        pending.add(piece);
    }

    @Override
    public void end() {
        ended = true;
    }

    /** @return whether {@link #write} has something to do: pieces, or the close after the end */
    boolean hasWork() {
        return !pending.isEmpty() || (ended && !closed && part != null);
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
        if (closed || part == null) return;
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
