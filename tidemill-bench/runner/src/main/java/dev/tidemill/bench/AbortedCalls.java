package dev.tidemill.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Clients that give up on a tool call: each opens a connection, sends one stateless
 * {@code tools/call} of a tool whose route takes longer than the client waits, and closes the socket
 * before the answer: every other one with a plain close (FIN: the server's side is left in
 * CLOSE-WAIT until the server closes it), the rest abortively (SO_LINGER 0: RST). At most
 * {@code concurrency} at a time, on virtual threads of the runner.
 */
final class AbortedCalls {
    /**
     * What the clients did.
     *
     * @param clients clients run
     * @param closed those that closed with FIN
     * @param reset those that closed with RST
     * @param answeredBeforeClose those that found answer bytes before they closed (the tool answered sooner than it should)
     * @param failed those whose connect or send failed
     * @param seconds from the first connect to the last close
     */
    record Outcome(int clients, long closed, long reset, long answeredBeforeClose, long failed, double seconds) {}

    private AbortedCalls() {}

    /**
     * @param port the target's port on 127.0.0.1
     * @param tool the slow tool
     * @param clients how many clients
     * @param concurrency how many at a time
     * @param closeAfterMillis how long each waits after sending before it closes
     * @return what they did
     */
    static Outcome run(int port, String tool, int clients, int concurrency, int closeAfterMillis) {
        byte[] request = request(port, tool);
        Semaphore slots = new Semaphore(concurrency);
        AtomicLong closed = new AtomicLong(), reset = new AtomicLong(), early = new AtomicLong(), failed = new AtomicLong();
        long t0 = System.nanoTime();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < clients; i++) {
                boolean abortive = i % 2 == 1;
                slots.acquireUninterruptibly();
                pool.execute(() -> {
                    try (Socket s = new Socket()) {
                        s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
                        OutputStream o = s.getOutputStream();
                        o.write(request);
                        o.flush();
                        Thread.sleep(closeAfterMillis);
                        if (s.getInputStream().available() > 0) early.incrementAndGet();
                        if (abortive) s.setSoLinger(true, 0);
                        (abortive ? reset : closed).incrementAndGet();
                    } catch (IOException e) {
                        failed.incrementAndGet();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        slots.release();
                    }
                });
            }
        }
        return new Outcome(clients, closed.get(), reset.get(), early.get(), failed.get(), (System.nanoTime() - t0) / 1e9);
    }

    /** @return the bytes of one stateless call of the tool, as {@link McpClient} sends it */
    static byte[] request(int port, String tool) {
        byte[] body = McpClient.toolCallBody(tool, "{}").getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder("POST ").append(McpClient.PATH).append(" HTTP/1.1\r\nHost: 127.0.0.1:").append(port)
                .append("\r\n");
        McpClient.toolCallHeaders(tool).forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
        head.append("Content-Length: ").append(body.length).append("\r\n\r\n");
        byte[] h = head.toString().getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[h.length + body.length];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(body, 0, all, h.length, body.length);
        return all;
    }
}
