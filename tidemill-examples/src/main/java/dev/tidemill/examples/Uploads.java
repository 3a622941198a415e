package dev.tidemill.examples;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Problem;
import dev.tidemill.Tidemill;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * The demo's uploads: {@code PUT /files/{name}} streams a raw body into a temporary directory
 * (never holding more than the streamed-body mark in memory) and answers its size and SHA-256.
 * Bodies up to {@link #MAX_BYTES}; past it 413, also when the body is chunked.
 */
final class Uploads {
    /** The largest upload the demo takes: 256 MiB. */
    static final long MAX_BYTES = 256L << 20;

    /** What a stored upload was. */
    record Stored(String name, long bytes, String sha256) {}

    private Uploads() {}

    static void register(Tidemill app) {
        Path dir;
        try {
            dir = Files.createTempDirectory("tidemill-demo-files-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        app.put("/files/{name}", req -> {
            String name = req.pathParam("name");
            // The name is the client's: used as a file name only when it cannot leave the directory or hide there.
            if (!name.matches("[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}")) {
                throw Problem.of(422, "Unprocessable Content",
                        "a file name is 1-128 letters, digits, '.', '-' or '_', not starting with '.'").toException();
            }
            Path target = dir.resolve(name);
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            long n = 0;
            byte[] buf = new byte[64 * 1024];
            try (InputStream in = req.bodyStream().inputStream();
                    FileChannel out = FileChannel.open(target, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                            StandardOpenOption.TRUNCATE_EXISTING)) {
                for (int r; (r = in.read(buf)) > 0; ) {
                    sha.update(buf, 0, r);
                    out.write(ByteBuffer.wrap(buf, 0, r));
                    n += r;
                }
            } catch (IOException | RuntimeException e) {
                Files.deleteIfExists(target);
                throw e;
            }
            return new Stored(name, n, HexFormat.of().formatHex(sha.digest()));
        }).streamedBody().maxBodyBytes(MAX_BYTES).mode(ExecutionMode.VIRTUAL).returns(Stored.class)
                .summary("Stores the raw body as a file (streamed, up to 256 MiB)").tags("uploads");
    }
}
