package dev.tidemill.tests.bodies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Limits;
import dev.tidemill.RequestBody;
import dev.tidemill.testing.TestClient;
import dev.tidemill.tests.support.Setup;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The memory a streamed body costs is bounded by the high-water mark, not by the body: a 200 MiB
 * upload to a reader slower than its client, and 100 concurrent 20 MiB uploads held halfway,
 * grow the live heap by a few MiB and Netty's buffers by at most the mark per connection. The
 * server runs in this JVM, so what it holds is measured directly: the heap after a full GC, the
 * shared allocator's direct memory.
 */
@Timeout(300)
class StreamedBodyMemoryTest {
    private static final int HIGH_WATER = Limits.DEFAULTS.bodyHighWaterBytes();
    private static final int PIECE = 64 * 1024;
    /** Live heap a streamed upload may add: the exchange, its stream, the reader's buffer. */
    private static final long HEAP_BOUND = 8L << 20;

    private static long liveHeap() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static long direct() {
        return ((ByteBufAllocatorMetricProvider) ByteBufAllocator.DEFAULT).metric().usedDirectMemory();
    }

    /** Writes a head and {@code size} bytes of body from a virtual thread, counting what the socket took. */
    private static Thread upload(int port, String path, long size, AtomicLong written, List<String> answers) {
        return Thread.ofVirtual().start(() -> {
            try (Socket s = new Socket("127.0.0.1", port)) {
                OutputStream out = s.getOutputStream();
                out.write(("PUT " + path + " HTTP/1.1\r\nHost: x\r\nContent-Length: " + size + "\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                byte[] piece = new byte[PIECE];
                for (long sent = 0; sent < size; sent += PIECE) {
                    int n = (int) Math.min(PIECE, size - sent);
                    out.write(piece, 0, n);
                    written.addAndGet(n);
                }
                out.flush();
                InputStream in = s.getInputStream();
                String head = new String(in.readNBytes(12), StandardCharsets.ISO_8859_1);
                synchronized (answers) {
                    answers.add(head);
                }
            } catch (Exception e) {
                synchronized (answers) {
                    answers.add("failed: " + e);
                }
            }
        });
    }

    /** Waits until the clients' writes stop moving: the server stopped reading and TCP pushes back. */
    private static void awaitPushBack(AtomicLong written) {
        long[] last = {-1};
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() -> {
            long w = written.get();
            boolean still = w == last[0];
            last[0] = w;
            return still;
        });
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ExecutionMode.class, names = {"LOOP", "VIRTUAL"})
    void twoHundredMiBToASlowReaderHoldsTheMarkNotTheBody(ExecutionMode mode) throws Exception {
        long size = 200L << 20;
        Semaphore permits = new Semaphore(0);
        AtomicLong read = new AtomicLong();
        try (TestClient client = Setup.onDefaultTransport(mode).start(b -> b.maxBodyBytes(1L << 30), app ->
                app.put("/slow", req -> {
                    byte[] buf = new byte[PIECE];
                    try (InputStream in = req.bodyStream().inputStream()) {
                        while (true) {
                            permits.acquire(); // one piece per permit: as slow as the test says
                            int n = in.readNBytes(buf, 0, PIECE);
                            if (n <= 0) break;
                            read.addAndGet(n);
                        }
                    }
                    return String.valueOf(read.get());
                }).streamedBody())) {
            long heap0 = liveHeap();
            long direct0 = direct();
            AtomicLong written = new AtomicLong();
            List<String> answers = new ArrayList<>();
            Thread uploader = upload(client.port(), "/slow", size, written, answers);
            for (int stage = 1; stage <= 4; stage++) {
                permits.release((int) ((40L << 20) / PIECE));
                long target = stage * (40L << 20);
                await().atMost(Duration.ofSeconds(60)).until(() -> read.get() >= target);
                awaitPushBack(written);
                long inFlight = written.get() - read.get();
                long heap = liveHeap() - heap0;
                long held = direct() - direct0;
                long inStream = client.server().diagnostics().get("bodies.held_bytes");
                System.out.printf("slow reader %s stage %d: unread %d, in the stream %d, live heap +%d, direct +%d bytes%n",
                        mode, stage, inFlight, inStream, heap, held);
                assertThat(inStream).as("stage %d: bytes the stream holds", stage).isLessThanOrEqualTo(HIGH_WATER + 2L * PIECE);
                // What the client wrote beyond what the reader took sits in the stream (the mark plus one read) and in
                // the two kernels' socket buffers (a few MiB on loopback), never in proportion to the body.
                assertThat(inFlight).as("stage %d: bytes written but unread", stage).isLessThan(HIGH_WATER + (64L << 20));
                assertThat(heap).as("stage %d: live heap growth", stage).isLessThan(HEAP_BOUND);
                assertThat(held).as("stage %d: direct buffers held", stage).isLessThan(HIGH_WATER + (8L << 20));
            }
            permits.release(Integer.MAX_VALUE / 2);
            uploader.join(TimeUnit.SECONDS.toMillis(120));
            assertThat(answers).containsExactly("HTTP/1.1 200");
            assertThat(read.get()).isEqualTo(size);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ExecutionMode.class)
    void aHundredConcurrentTwentyMiBUploadsHoldAtMostTheMarkEach(ExecutionMode mode) throws Exception {
        int clients = 100;
        long size = 20L << 20;
        long half = size / 2;
        CountDownLatch halfway = new CountDownLatch(clients);
        CompletableFuture<Void> resume = new CompletableFuture<>();
        AtomicInteger done = new AtomicInteger();
        try (TestClient client = Setup.onDefaultTransport(mode).start(
                b -> b.maxBodyBytes(1L << 30).concurrencyPerLoop(1_000).maxConnections(1_000), app ->
                app.put("/half", req -> {
                    // A worker loop runs one handler at a time, so 100 readers paused at once must not block one.
                    if (mode != ExecutionMode.VIRTUAL) {
                        return pull(req.bodyStream(), 0, half, halfway, resume).thenApply(n -> {
                            done.incrementAndGet();
                            return String.valueOf(n);
                        });
                    }
                    long n = 0;
                    byte[] buf = new byte[PIECE];
                    try (InputStream in = req.bodyStream().inputStream()) {
                        for (int r; (r = in.read(buf)) > 0; ) {
                            if (n < half && n + r >= half) {
                                halfway.countDown();
                                resume.join();
                            }
                            n += r;
                        }
                    }
                    done.incrementAndGet();
                    return String.valueOf(n);
                }).streamedBody())) {
            long heap0 = liveHeap();
            long direct0 = direct();
            AtomicLong written = new AtomicLong();
            List<String> answers = new ArrayList<>();
            List<Thread> uploaders = new ArrayList<>();
            for (int i = 0; i < clients; i++) uploaders.add(upload(client.port(), "/half", size, written, answers));
            assertThat(halfway.await(120, TimeUnit.SECONDS)).as("every reader is halfway").isTrue();
            awaitPushBack(written);
            long heap = liveHeap() - heap0;
            long held = direct() - direct0;
            long inStreams = client.server().diagnostics().get("bodies.held_bytes");
            System.out.printf("100 x 20 MiB halfway, %s: live heap +%d, direct +%d bytes, in the streams %d%n", mode, heap, held, inStreams);
            assertThat(inStreams).as("bytes %d streams hold", clients).isLessThanOrEqualTo(clients * (HIGH_WATER + 2L * PIECE));
            resume.complete(null);
            for (Thread t : uploaders) t.join(TimeUnit.SECONDS.toMillis(120));
            assertThat(answers).hasSize(clients).allMatch("HTTP/1.1 200"::equals);
            assertThat(done.get()).isEqualTo(clients);
            assertThat(heap).as("live heap growth with %d uploads halfway", clients).isLessThan(2 * HEAP_BOUND);
            assertThat(held).as("direct buffers held by %d streams", clients)
                    .isLessThan(clients * (HIGH_WATER + 2L * PIECE) + (8L << 20));
        }
    }

    /** The event loop's reader: pull-style, pausing on a future rather than a blocked thread. */
    private static CompletionStage<Long> pull(RequestBody body, long n, long half, CountDownLatch halfway,
            CompletableFuture<Void> resume) {
        return body.read().thenCompose(piece -> {
            if (piece == null) return CompletableFuture.completedFuture(n);
            long next = n + piece.remaining();
            if (n < half && next >= half) {
                halfway.countDown();
                return resume.thenCompose(v -> pull(body, next, half, halfway, resume));
            }
            return pull(body, next, half, halfway, resume);
        });
    }

    private static final String BOUNDARY = "tidemill-memory-test-boundary";

    /** A multipart upload of one file part of {@code size} bytes, written from a virtual thread; waits on {@code gate} halfway. */
    private static Thread multipartUpload(int port, String path, long size, AtomicLong written, List<String> answers,
            CountDownLatch halfSent, CountDownLatch gate) {
        return Thread.ofVirtual().start(() -> {
            byte[] head = ("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nbig\r\n--" + BOUNDARY
                    + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.bin\"\r\n"
                    + "Content-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
            byte[] tail = ("\r\n--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.ISO_8859_1);
            try (Socket s = new Socket("127.0.0.1", port)) {
                OutputStream out = s.getOutputStream();
                out.write(("POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=" + BOUNDARY
                        + "\r\nContent-Length: " + (head.length + size + tail.length) + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.write(head);
                byte[] piece = new byte[PIECE];
                for (int i = 0; i < piece.length; i++) piece[i] = (byte) ('a' + i % 26); // never the delimiter's CR
                for (long sent = 0; sent < size; sent += PIECE) {
                    if (sent == size / 2) {
                        out.flush();
                        halfSent.countDown();
                        gate.await();
                    }
                    int n = (int) Math.min(PIECE, size - sent);
                    out.write(piece, 0, n);
                    written.addAndGet(n);
                }
                out.write(tail);
                out.flush();
                String status = new String(s.getInputStream().readNBytes(12), StandardCharsets.ISO_8859_1);
                synchronized (answers) {
                    answers.add(status);
                }
            } catch (Exception e) {
                synchronized (answers) {
                    answers.add("failed: " + e);
                }
            }
        });
    }

    record BigForm(String title, dev.tidemill.Upload file) {}

    @org.junit.jupiter.api.Test
    void multipartFormsSpoolTheirFilesSoAHundredTwentyMiBFormsHoldOnlyTheMarkEach() throws Exception {
        int clients = 100;
        long size = 20L << 20;
        CountDownLatch halfSent = new CountDownLatch(clients);
        CountDownLatch gate = new CountDownLatch(1);
        AtomicInteger spooled = new AtomicInteger();
        try (TestClient client = Setup.onDefaultTransport(ExecutionMode.VIRTUAL).start(
                b -> b.maxBodyBytes(1L << 30).concurrencyPerLoop(1_000).maxConnections(1_000), app ->
                app.post("/form", req -> {
                    BigForm form = req.body(BigForm.class);
                    if (form.file().size() == size) spooled.incrementAndGet();
                    return String.valueOf(form.file().size());
                }).streamedBody())) {
            long heap0 = liveHeap();
            long direct0 = direct();
            AtomicLong written = new AtomicLong();
            List<String> answers = new ArrayList<>();
            List<Thread> uploaders = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                uploaders.add(multipartUpload(client.port(), "/form", size, written, answers, halfSent, gate));
            }
            assertThat(halfSent.await(120, TimeUnit.SECONDS)).as("every client sent half").isTrue();
            awaitPushBack(written);
            long heap = liveHeap() - heap0;
            long held = direct() - direct0;
            long inStreams = client.server().diagnostics().get("bodies.held_bytes");
            System.out.printf("100 multipart forms halfway: live heap +%d, direct +%d bytes, in the streams %d%n", heap, held, inStreams);
            assertThat(inStreams).as("bytes %d streams hold", clients).isLessThanOrEqualTo(clients * (HIGH_WATER + 2L * PIECE));
            gate.countDown();
            for (Thread t : uploaders) t.join(TimeUnit.SECONDS.toMillis(120));
            assertThat(answers).hasSize(clients).allMatch("HTTP/1.1 200"::equals);
            assertThat(spooled.get()).isEqualTo(clients);
            // Half of each 20 MiB file (10 MiB, 1 GiB in all) is in temporary files by now, not in memory.
            assertThat(heap).as("live heap growth with %d forms halfway", clients).isLessThan(2 * HEAP_BOUND);
            assertThat(held).as("direct buffers held by %d forms", clients)
                    .isLessThan(clients * (HIGH_WATER + 2L * PIECE) + (8L << 20));
        }
    }
}
