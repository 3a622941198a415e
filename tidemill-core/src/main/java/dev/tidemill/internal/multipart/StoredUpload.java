package dev.tidemill.internal.multipart;

import dev.tidemill.Multipart;
import dev.tidemill.Upload;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * An {@link Upload} held in memory, or past {@code uploadMemoryBytes} in a temporary file. The file
 * is registered for deletion before its first byte is written, so it is deleted however the request
 * ends, a failed write included. {@link Files#createTempFile} creates it {@code rw-------} on a
 * POSIX file system (the JDK's default there), so other local users cannot read an upload; its
 * name is random, never the client's file name.
 */
final class StoredUpload implements Upload {
    private final String name;
    private final Optional<String> filename;
    private final String contentType;
    private final long size;
    private byte[] memory;
    private Path file;
    private boolean moved;

    private StoredUpload(String name, Optional<String> filename, String contentType, long size, byte[] memory, Path file) {
        this.name = name;
        this.filename = filename;
        this.contentType = contentType;
        this.size = size;
        this.memory = memory;
        this.file = file;
    }

    /**
     * Reads a file part to its end.
     *
     * @param part the part, unread
     * @param memoryBytes the most bytes kept in memory ({@code Limits.uploadMemoryBytes})
     * @param onEnd where the temporary file's deletion is registered (the request's end)
     * @return the upload
     */
    static StoredUpload store(Multipart.Part part, int memoryBytes, Consumer<AutoCloseable> onEnd) throws IOException {
        InputStream in = part.content();
        byte[] buf = new byte[Math.min(memoryBytes, 8192) + 1];
        int n = 0;
        // Fill memory up to one byte past the threshold: only then is the part known to need a file.
        while (true) {
            if (n == buf.length) {
                if (n > memoryBytes) break;
                buf = Arrays.copyOf(buf, Math.min(buf.length * 2, memoryBytes + 1));
            }
            int r = in.read(buf, n, buf.length - n);
            if (r < 0) {
                return new StoredUpload(part.name(), part.filename(), part.contentType(), n, Arrays.copyOf(buf, n), null);
            }
            n += r;
        }
        Path tmp = Files.createTempFile("tidemill-upload-", ".tmp");
        onEnd.accept(new Deletion(tmp));
        long size = n;
        try (OutputStream out = Files.newOutputStream(tmp)) {
            out.write(buf, 0, n);
            byte[] copy = new byte[16 * 1024];
            for (int r; (r = in.read(copy)) >= 0; ) {
                out.write(copy, 0, r);
                size += r;
            }
        }
        return new StoredUpload(part.name(), part.filename(), part.contentType(), size, null, tmp);
    }

    /** @return whether the content is in a temporary file */
    boolean onDisk() {
        return file != null;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Optional<String> filename() {
        return filename;
    }

    @Override
    public String contentType() {
        return contentType;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public synchronized InputStream open() {
        if (moved) throw new IllegalStateException("upload " + name + " was moved");
        if (memory != null) return new ByteArrayInputStream(memory);
        try {
            return Files.newInputStream(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public byte[] bytes() {
        try (InputStream in = open()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized Path moveTo(Path target) {
        if (moved) throw new IllegalStateException("upload " + name + " was moved");
        try {
            if (memory != null) Files.write(target, memory);
            else Files.move(file, target, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        moved = true;
        memory = null;
        return target;
    }

    @Override
    public String toString() {
        return "Upload[" + name + ", " + size + " bytes" + (file != null ? ", on disk" : "") + "]";
    }

    /** Deletes a temporary file when the request ends; nothing happens if it was moved away. */
    private record Deletion(Path file) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            Files.deleteIfExists(file);
        }
    }
}
