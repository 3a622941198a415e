package dev.tidemill.bench;

import dev.tidemill.bench.common.LoopsContract;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * The WebSocket rows' load: {@code connections} connections to {@link LoopsContract#ECHO}, each
 * sending {@code perConnection} binary messages one at a time and reading each echo back, the sizes
 * cycling through {@link #SIZES} as the reference's do; every echo is compared byte for byte. Written
 * by hand on a blocking socket (RFC 6455: the opening handshake, masked client frames, unmasked
 * server frames) so that plain and TLS connections share one code path. A server that answers the
 * upgrade with anything but {@code 101} fails the first operation, and the cell says so.
 */
final class LoopsWsClient {
    /** Message sizes, bytes, in the order they cycle. */
    static final List<Integer> SIZES = List.of(32, 256, 4096);
    /**
     * RFC 6455 5.3 asks a client for a fresh masking key per frame, against caching proxies; on
     * loopback against our own servers it has no bearing on their work (they XOR every byte for any
     * key but 0, which Netty skips), so one non-zero key is used and each message masked once.
     */
    private static final byte[] MASK = {0x5a, (byte) 0xc3, 0x19, 0x7e};

    private LoopsWsClient() {}

    /**
     * @param port the plain or TLS port
     * @param tls whether to speak TLS
     * @param connections connections
     * @param perConnection messages on each
     * @return the outcome
     */
    static LoopsClient.Outcome echo(int port, boolean tls, int connections, int perConnection) {
        byte[][] payloads = new byte[SIZES.size()][];
        byte[][] frames = new byte[SIZES.size()][];
        for (int i = 0; i < SIZES.size(); i++) {
            payloads[i] = new byte[SIZES.get(i)];
            for (int b = 0; b < payloads[i].length; b++) payloads[i][b] = (byte) (b * 31 + i);
            frames[i] = frame(payloads[i]);
        }
        LoopsClient.Tally tally = new LoopsClient.Tally();
        return LoopsClient.parallel(connections, tally, c -> {
            try (Socket s = LoopsClient.open(port, tls)) {
                OutputStream out = s.getOutputStream();
                InputStream in = new BufferedInputStream(s.getInputStream(), 8192);
                handshake(port, out, in);
                byte[] echo = new byte[SIZES.get(SIZES.size() - 1)];
                for (int k = 0; k < perConnection; k++) {
                    int which = k % SIZES.size();
                    out.write(frames[which]);
                    out.flush();
                    int length = readFrame(in, echo);
                    if (length == payloads[which].length && Arrays.equals(echo, 0, length, payloads[which], 0, length)) {
                        tally.ops.incrementAndGet();
                    } else {
                        throw new IOException("message " + k + ": an echo of " + length + " bytes that is not the " + payloads[which].length
                                + " sent");
                    }
                }
                out.write(new byte[] {(byte) 0x88, (byte) 0x80, MASK[0], MASK[1], MASK[2], MASK[3]}); // close, no status
                out.flush();
            }
        });
    }

    /** Sends the opening handshake and reads the answer through its empty line; anything but 101 throws. */
    private static void handshake(int port, OutputStream out, InputStream in) throws IOException {
        byte[] key = new byte[16];
        java.util.concurrent.ThreadLocalRandom.current().nextBytes(key);
        out.write(LoopsClient.ascii("GET " + LoopsContract.ECHO + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: " + Base64.getEncoder().encodeToString(key) + "\r\nSec-WebSocket-Version: 13\r\n\r\n"));
        out.flush();
        LoopsClient.Head head = LoopsClient.Head.read(in);
        if (head.status() != 101) throw new IOException("the upgrade was answered " + head.status() + ", not 101");
    }

    /** @return a masked binary frame (FIN, opcode 2) carrying {@code payload} */
    static byte[] frame(byte[] payload) {
        int n = payload.length;
        int header = n < 126 ? 2 : n <= 0xffff ? 4 : 10;
        byte[] f = new byte[header + 4 + n];
        f[0] = (byte) 0x82;
        if (n < 126) {
            f[1] = (byte) (0x80 | n);
        } else if (n <= 0xffff) {
            f[1] = (byte) (0x80 | 126);
            f[2] = (byte) (n >>> 8);
            f[3] = (byte) n;
        } else {
            f[1] = (byte) (0x80 | 127);
            for (int i = 0; i < 8; i++) f[2 + i] = (byte) ((long) n >>> (56 - 8 * i));
        }
        System.arraycopy(MASK, 0, f, header, 4);
        for (int i = 0; i < n; i++) f[header + 4 + i] = (byte) (payload[i] ^ MASK[i & 3]);
        return f;
    }

    /**
     * Reads one unmasked server frame into {@code into}.
     *
     * @return its payload length
     * @throws IOException on a frame that is not a final binary one, or larger than {@code into}
     */
    static int readFrame(InputStream in, byte[] into) throws IOException {
        int b0 = in.read(), b1 = in.read();
        if (b0 < 0 || b1 < 0) throw new java.io.EOFException("the connection closed before a frame");
        if (b0 != 0x82) throw new IOException("a frame with first byte 0x" + Integer.toHexString(b0) + ", not a final binary frame");
        if ((b1 & 0x80) != 0) throw new IOException("a masked server frame");
        long n = b1 & 0x7f;
        if (n == 126) {
            n = (in.read() << 8) | in.read();
        } else if (n == 127) {
            n = 0;
            for (int i = 0; i < 8; i++) n = (n << 8) | in.read();
        }
        if (n > into.length) throw new IOException("a frame of " + n + " bytes, larger than any message sent");
        LoopsClient.readFully(in, into, (int) n);
        return (int) n;
    }
}
