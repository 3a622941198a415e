package dev.tidemill.bench.peers.helidon;

import dev.tidemill.bench.common.UploadContract;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The Helidon SE 4 peer of the uploads suite ({@link UploadContract}), a main class of its own so
 * that {@link Main} stays as the HTTP suites measure it. Helidon's blocking idiom: each request on
 * a virtual thread, the raw body read from {@code req.content().inputStream()} into a 64 KiB
 * buffer and counted, or copied to a temp file with {@link Files#copy(InputStream, Path,
 * java.nio.file.CopyOption...)}.
 *
 * <p>No multipart endpoints: Helidon's multipart media support ({@code helidon-http-media-multipart})
 * is not served at 4.5.0 by the registry this project builds from, so {@code /multipart/*}
 * answers 404 and the suite reports them as not measured for this peer.
 */
public final class UploadsMain {
    private UploadsMain() {}

    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        int ioThreads = Integer.parseInt(args[1]);
        WebServer server = WebServer.builder()
                .host("127.0.0.1")
                .port(port)
                .connectionOptions(o -> o.tcpNoDelay(true)) // as in Main
                .routing(r -> r.put(UploadContract.RAW_DISCARD, UploadsMain::discard).put(UploadContract.RAW_DISK, UploadsMain::toDisk))
                .build()
                .start();
        System.out.println("helidon uploads on 127.0.0.1:" + server.port()
                + " (virtual thread per request; I/O thread argument " + ioThreads + " not applicable; no multipart module)");
    }

    private static void discard(ServerRequest req, ServerResponse res) throws IOException {
        long count = 0;
        byte[] buffer = new byte[UploadContract.BUFFER_BYTES];
        try (InputStream in = req.content().inputStream()) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) count += n;
        }
        answer(res, count);
    }

    private static void toDisk(ServerRequest req, ServerResponse res) throws IOException {
        Path file = UploadContract.tempFile();
        try {
            try (InputStream in = req.content().inputStream()) {
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            }
            answer(res, Files.size(file));
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static void answer(ServerResponse res, long count) {
        res.header(HeaderNames.CONTENT_TYPE, "text/plain");
        res.send(Long.toString(count));
    }
}
