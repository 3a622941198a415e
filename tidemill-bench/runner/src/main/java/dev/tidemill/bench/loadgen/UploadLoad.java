package dev.tidemill.bench.loadgen;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The uploads suite's load generator: a bounded number of keep-alive connections over blocking
 * sockets on loopback, one platform thread each, each sending one upload after another and
 * reading the answer before the next (closed loop, one upload in flight per connection). A phase
 * ends at a deadline (each connection finishes the upload it is in, so no upload is cut off and
 * counted half) or after a fixed count per connection. Every answer is checked against the file
 * bytes sent: a {@code 200} whose body is not that number is a mismatch, which the suite treats
 * as a target that did not read what it was sent.
 *
 * <p>Connections survive from one phase to the next (warm-up, then the measured window); one the
 * server closed is opened again for the next upload.
 */
public final class UploadLoad implements AutoCloseable {
    /** Problems kept per phase, for the report; the counts hold them all. */
    static final int KEPT_PROBLEMS = 10;
    /** How long a read may block: a stuck target ends the upload as an error instead of hanging the suite (ms). */
    static final int READ_TIMEOUT_MILLIS = 60_000;
    /** The scratch buffer per connection, also the chunk size of a chunked body (bytes). */
    static final int SCRATCH_BYTES = 64 * 1024;

    /**
     * One phase's outcome.
     *
     * @param uploads uploads answered {@code 200} with the right count
     * @param fileBytes their file bytes (the payload; the multipart framing is not counted)
     * @param errors uploads that failed: a non-200 answer, a connection that failed or closed mid-upload
     * @param mismatches {@code 200} answers whose count was not the bytes sent
     * @param nanos from the phase's start until its last connection finished
     * @param problems the first few errors and mismatches, described
     */
    public record Phase(long uploads, long fileBytes, long errors, long mismatches, long nanos, List<String> problems) {}

    private final String host;
    private final int port;
    private final List<Connection> connections = new ArrayList<>();

    /**
     * @param host the target's address (127.0.0.1)
     * @param port its port
     * @param connections how many connections (each gets a thread per phase)
     */
    public UploadLoad(String host, int port, int connections) {
        if (connections < 1) throw new IllegalArgumentException("connections must be >= 1");
        this.host = host;
        this.port = port;
        for (int i = 0; i < connections; i++) this.connections.add(new Connection());
    }

    /**
     * Runs one phase on every connection at once.
     *
     * @param request what each upload sends
     * @param durationNanos when above 0, the phase ends this long after its start
     * @param perConnection otherwise, each connection sends this many uploads
     * @return the outcome
     */
    public Phase run(UploadRequest request, long durationNanos, int perConnection) {
        AtomicLong uploads = new AtomicLong(), bytes = new AtomicLong(), errors = new AtomicLong(), mismatches = new AtomicLong();
        List<String> problems = Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime(), deadline = start + durationNanos;
        List<Thread> threads = new ArrayList<>();
        for (Connection c : connections) {
            threads.add(Thread.ofPlatform().name("upload-load").start(() -> {
                for (int i = 0; durationNanos > 0 ? System.nanoTime() < deadline : i < perConnection; i++) {
                    Optional<String> problem;
                    boolean failed = false;
                    try {
                        problem = check(c.upload(request), request.body().fileBytes());
                    } catch (IOException | RuntimeException e) {
                        c.close();
                        problem = Optional.of(request.path() + ": " + e);
                        failed = true;
                    }
                    if (problem.isEmpty()) {
                        uploads.incrementAndGet();
                        bytes.addAndGet(request.body().fileBytes());
                        continue;
                    }
                    if (failed || !problem.get().contains(MISMATCH)) errors.incrementAndGet();
                    else mismatches.incrementAndGet();
                    if (problems.size() < KEPT_PROBLEMS) problems.add(problem.get());
                    if (failed) pause(); // a target that refuses connections must not turn the phase into a busy loop
                }
            }));
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        return new Phase(uploads.get(), bytes.get(), errors.get(), mismatches.get(), System.nanoTime() - start, List.copyOf(problems));
    }

    /**
     * Sends one upload on a connection of its own and reads the answer (the suite's probes and checks).
     *
     * @param host the target's address
     * @param port its port
     * @param request what to send
     * @return the answer
     * @throws IOException if the connection fails
     */
    public static HttpAnswer once(String host, int port, UploadRequest request) throws IOException {
        try (Socket s = new Socket()) {
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress(host, port), 5_000);
            s.setSoTimeout(READ_TIMEOUT_MILLIS);
            request.write(new BufferedOutputStream(s.getOutputStream(), SCRATCH_BYTES), host + ":" + port, new byte[SCRATCH_BYTES]);
            return HttpAnswer.read(new BufferedInputStream(s.getInputStream(), 8192));
        }
    }

    /** Marks a problem that is a wrong count rather than a failure. */
    static final String MISMATCH = "answered a count of";

    /**
     * @param answer a target's answer to an upload
     * @param expected the file bytes sent
     * @return what is wrong with it, or empty when it is {@code 200} with exactly that count
     */
    public static Optional<String> check(HttpAnswer answer, long expected) {
        if (answer.status() != 200) {
            return Optional.of("status " + answer.status() + " (" + abbreviate(answer.body()) + ") for " + expected + " bytes");
        }
        String text = answer.body().trim();
        try {
            long count = Long.parseLong(text);
            if (count == expected) return Optional.empty();
        } catch (NumberFormatException notANumber) {
            // reported below with the text
        }
        return Optional.of(MISMATCH + " '" + abbreviate(text) + "' for " + expected + " bytes sent");
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "...";
    }

    private static void pause() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closes every connection. */
    @Override
    public void close() {
        connections.forEach(Connection::close);
    }

    /** One keep-alive connection, opened on first use and again after the server closed it. */
    private final class Connection {
        private final byte[] scratch = new byte[SCRATCH_BYTES];
        private Socket socket;
        private InputStream in;
        private OutputStream out;

        HttpAnswer upload(UploadRequest request) throws IOException {
            if (socket == null) open();
            request.write(out, host + ":" + port, scratch);
            HttpAnswer answer = HttpAnswer.read(in);
            if (answer.close()) close();
            return answer;
        }

        private void open() throws IOException {
            Socket s = new Socket();
            try {
                s.setTcpNoDelay(true);
                s.connect(new InetSocketAddress(host, port), 5_000);
                s.setSoTimeout(READ_TIMEOUT_MILLIS);
                in = new BufferedInputStream(s.getInputStream(), 8192);
                out = new BufferedOutputStream(s.getOutputStream(), SCRATCH_BYTES);
                socket = s;
            } catch (IOException e) {
                s.close();
                throw e;
            }
        }

        void close() {
            if (socket == null) return;
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing a failed connection; nothing to do
            }
            socket = null;
        }
    }
}
