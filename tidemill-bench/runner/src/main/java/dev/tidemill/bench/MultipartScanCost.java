package dev.tidemill.bench;

import dev.tidemill.Limits;
import dev.tidemill.internal.multipart.MultipartParser;
import dev.tidemill.internal.multipart.PartHead;
import dev.tidemill.internal.multipart.PartListener;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.Random;

/**
 * What the multipart parser costs per MiB of a file part, as the non-blocking reader meets it: a
 * 100 MiB form (curl's 40-character boundary, random content) written 64 KiB at a time into one
 * direct buffer (as a socket read leaves it: just written, in cache) and parsed there, against
 * the same writes without parsing; the difference is the parse. One thread, 8 warm-up rounds, 4
 * measured. Run it pinned to one core:
 *
 * <pre>
 * taskset -c 0 java -cp "tidemill-bench/runner/target/tidemill-bench-0.1.0-SNAPSHOT.jar:$(cat tidemill-bench/runner/target/classpath.txt)" dev.tidemill.bench.MultipartScanCost
 * </pre>
 *
 * A measurement for the parser's comments, not a suite: the uploads suite measures the server.
 */
public final class MultipartScanCost {
    private static final String BOUNDARY = "------------------------d74496d66958873e";
    private static final int CHUNK = 64 * 1024;

    private MultipartScanCost() {}

    /** @param args none */
    public static void main(String[] args) {
        byte[] body = form(100 << 20);
        ByteBuffer socket = ByteBuffer.allocateDirect(CHUNK);
        long[] seen = {0};
        PartListener count = new PartListener() {
            @Override
            public void partBegin(PartHead head) {
            }

            @Override
            public void partData(ByteBuffer data, int off, int len) {
                seen[0] += len;
            }

            @Override
            public void partEnd() {
            }
        };
        double mib = body.length / 1048576.0;
        for (int round = 0; round < 12; round++) {
            long writes = time(body, socket, null);
            long parsed = time(body, socket, new MultipartParser(BOUNDARY, Limits.DEFAULTS, count));
            if (round >= 8) {
                System.out.printf(Locale.ROOT, "round %d: writes %.1f us per MiB, writes and parse %.1f, parse %.1f%n", round - 7,
                        writes / 1e3 / mib, parsed / 1e3 / mib, (parsed - writes) / 1e3 / mib);
            }
        }
        if (seen[0] != 12L * (100 << 20)) throw new IllegalStateException("the parser lost bytes: " + seen[0]);
    }

    /** @return nanoseconds to write the body through the socket buffer, parsing each piece when a parser is given */
    private static long time(byte[] body, ByteBuffer socket, MultipartParser parser) {
        long t0 = System.nanoTime();
        for (int i = 0; i < body.length; i += CHUNK) {
            int n = Math.min(CHUNK, body.length - i);
            socket.put(0, body, i, n);
            if (parser != null) parser.feed(socket.slice(0, n));
        }
        if (parser != null) parser.finish();
        return System.nanoTime() - t0;
    }

    private static byte[] form(int size) {
        byte[] head = ("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] tail = ("\r\n--" + BOUNDARY + "--\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] body = new byte[head.length + size + tail.length];
        System.arraycopy(head, 0, body, 0, head.length);
        byte[] content = new byte[size];
        new Random(20261202).nextBytes(content);
        System.arraycopy(content, 0, body, head.length, size);
        System.arraycopy(tail, 0, body, head.length + size, tail.length);
        return body;
    }
}
