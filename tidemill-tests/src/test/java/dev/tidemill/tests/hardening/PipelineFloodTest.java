package dev.tidemill.tests.hardening;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.Tidemill;
import dev.tidemill.tests.support.Setup;
import dev.tidemill.testing.TestClient;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Category 7, pipelining: 10,000 pipelined requests for a 64 KiB response each (640 MiB in all),
 * from a client that never reads. The server must stop reading the connection once its responses
 * stop draining, so its heap stays flat (measured after a GC, before and after the flood) and it
 * keeps serving other clients. Without that back-pressure this test runs the test JVM out of heap.
 */
@Timeout(120)
class PipelineFloodTest {
    static final String CAT = "7 pipelining";
    private static final int REQUESTS = 10_000;
    private static final int RESPONSE_BYTES = 64 * 1024;
    /** Heap growth allowed while the flood is parked: a few socket buffers' worth of responses, far below 640 MiB. */
    private static final long MAX_GROWTH_BYTES = 64L << 20;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modes")
    void aNeverReadingPipelinerCannotGrowTheHeap(Setup setup) throws Exception {
        AtomicInteger answered = new AtomicInteger();
        try (TestClient client = setup.start((Tidemill app) -> {
            app.get("/ok", req -> "ok");
            app.get("/kb64", req -> {
                answered.incrementAndGet();
                return dev.tidemill.Response.ok().bytes(new byte[RESPONSE_BYTES], "application/octet-stream");
            });
        })) {
            long before = heapAfterGc();
            try (Socket s = new Socket()) {
                s.setReceiveBufferSize(4096);
                s.connect(new InetSocketAddress("127.0.0.1", client.port()));
                byte[] one = "GET /kb64 HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
                Thread writer = Thread.ofPlatform().daemon().start(() -> {
                    try {
                        OutputStream out = s.getOutputStream();
                        for (int i = 0; i < REQUESTS; i++) out.write(one);
                        out.flush();
                    } catch (IOException blockedOrClosed) {
                        // the server stopped reading (the write blocks) or cut the connection: both fine
                    }
                });
                // wait until the server has stopped taking requests in: it has parked the connection
                AtomicInteger lastSeen = new AtomicInteger(-1);
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
                    int now = answered.get();
                    return now > 0 && now == lastSeen.getAndSet(now);
                });
                long during = heapAfterGc();
                assertThat(during - before).as("heap growth while the flood is parked (bytes)").isLessThan(MAX_GROWTH_BYTES);
                assertThat(answered.get()).as("requests the server took in").isLessThan(REQUESTS);
                for (int i = 0; i < 10; i++) assertThat(client.get("/ok").status()).as("other clients").isEqualTo(200);
                s.close();
                writer.join(5_000);
            }
        }
    }

    /**
     * @return heap in use right after a collection that is known to have run: one that cleared a
     *     weak reference to an object dropped just before (System.gc() is only a request)
     */
    private static long heapAfterGc() {
        WeakReference<Object> dropped = new WeakReference<>(new Object());
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
            System.gc();
            return dropped.get() == null;
        });
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
