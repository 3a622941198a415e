package dev.tidemill.tests.streaming;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Limits;
import dev.tidemill.Response;
import dev.tidemill.SseEvent;
import dev.tidemill.Topic;
import dev.tidemill.testing.TestClient;
import dev.tidemill.tests.support.Setup;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A thousand event-stream readers that stop reading do not grow the heap with what is published
 * to them: each one costs at most its subscription's queue (capacity x a reference; the messages
 * themselves are shared) while its socket and Netty's write buffer are full. Without that bound the
 * run below would hold 1,000 x 2,000 x 512 B = about 1 GB.
 */
@Timeout(120)
class StalledEventReadersTest {
    private static final int READERS = 1_000;
    private static final int EVENTS = 2_000;
    /** The heap may grow by this much: 1,000 queues of 1,024 references (8 MiB) plus the 1,024 shared messages and slack. */
    private static final long BOUND_BYTES = 48L << 20;

    @Test
    void aThousandStalledReadersStayWithinTheBound() throws Exception {
        Topic<String> topic = Topic.<String>builder("stalled-thousand").overflow(Topic.Overflow.DROP_OLDEST).build();
        List<Socket> readers = new ArrayList<>(READERS);
        try (TestClient client = Setup.onDefaultTransport(ExecutionMode.IO).start(
                b -> b.limits(Limits.builder().concurrencyPerLoop(READERS).build()),
                app -> app.get("/events", req -> Response.sse(topic, "*", m -> SseEvent.data(m.value()))))) {
            byte[] request = "GET /events HTTP/1.1\r\nHost: test\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < READERS; i++) {
                Socket s = new Socket();
                s.setReceiveBufferSize(4096); // before connecting: a small window, so the server's side fills quickly
                s.connect(new InetSocketAddress("127.0.0.1", client.port()), 10_000);
                OutputStream out = s.getOutputStream();
                out.write(request);
                out.flush();
                readers.add(s); // and never read
            }
            await("every reader subscribed").atMost(Duration.ofSeconds(10)).until(() -> topic.stats().subscriptions() == READERS);
            long before = heapAfterGc();
            String payload = "x".repeat(512);
            for (int i = 0; i < EVENTS; i++) topic.publish("t", payload);
            await("the stalled readers' queues overflowed").atMost(Duration.ofSeconds(10)).until(() -> topic.stats().dropped() > 0);
            long after = heapAfterGc();
            long grown = after - before;
            System.out.printf("%d stalled readers, %d events of %d B: heap %d -> %d KiB (+%d KiB, bound %d KiB), dropped %d%n",
                    READERS, EVENTS, payload.length(), before >> 10, after >> 10, grown >> 10, BOUND_BYTES >> 10,
                    topic.stats().dropped());
            assertThat(grown).as("heap growth in bytes").isLessThan(BOUND_BYTES);
            assertThat(topic.stats().subscriptions()).as("every reader is still subscribed: DROP_OLDEST drops, it does not disconnect")
                    .isEqualTo(READERS);
        } finally {
            for (Socket s : readers) s.close();
            topic.close();
        }
    }

    private static long heapAfterGc() {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc(); // a full, stop-the-world collection with the default collector
            used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
