package dev.tidemill.tests.http2;

import static dev.tidemill.testing.H2Fields.*;
import static dev.tidemill.testing.H2Wire.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.Response;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.H2Wire;
import dev.tidemill.testing.TestClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The HTTP/2 clients of CASES.md H2-08, H2-10 and H2-15 that attack by being slow or odd rather
 * than by flooding: a reader that never opens its window (100 streams of 10 MB each), a
 * one-byte-at-a-time window dribble, PRIORITY churn, empty header names, and a client that
 * advertises a header list size of 1. Each is bounded (the heap after GC, the DATA the server
 * sends, the handlers started) and ends the way the write-stall timeout or the reset limit says,
 * and the server serves a fresh client afterwards with nothing left held.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class Http2SlowClientTest {
    /** The write-stall timeout of this server: how long a stream may wait for window before it is reset. */
    static final Duration STALL = Duration.ofSeconds(1);
    static final int BIG = 10_000_000;
    static final byte[] PIECE = new byte[64 * 1024];
    static final byte[] FULL = new byte[BIG];
    static TestClient client;
    static final AtomicInteger STARTED = new AtomicInteger();
    static final AtomicInteger STREAMS_ENDED = new AtomicInteger();

    @BeforeAll
    static void start() {
        Tidemill app = Tidemill.create(TestClient.config().writeStallTimeout(STALL).build());
        app.get("/", req -> {
            STARTED.incrementAndGet();
            return "hello";
        });
        app.get("/big", req -> { // 10 MB streamed in 64 KiB pieces, each written once the last was taken
            STARTED.incrementAndGet();
            return Response.stream("application/octet-stream", s -> write(s, 0).whenComplete((v, e) -> {
                STREAMS_ENDED.incrementAndGet();
                s.close();
            }));
        });
        app.get("/full", req -> { // 10 MB in one reply: the same array every time
            STARTED.incrementAndGet();
            return Response.ok().bytes(FULL, "application/octet-stream");
        });
        client = TestClient.start(app);
    }

    static CompletionStage<Void> write(dev.tidemill.ResponseStream s, int sent) {
        if (sent >= BIG || !s.isOpen()) return CompletableFuture.completedFuture(null);
        return s.write(PIECE).thenCompose(v -> write(s, sent + PIECE.length));
    }

    @AfterAll
    static void stop() {
        client.close();
    }

    long openBefore;

    @BeforeEach
    void reset() {
        STARTED.set(0);
        STREAMS_ENDED.set(0);
        openBefore = client.server().diagnostics().get("connections.open");
    }

    @AfterEach
    void serverStillServesAFreshClient() {
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(client.server().diagnostics().get("connections.open")).as("connections open").isLessThanOrEqualTo(openBefore));
        try (H2Wire w = H2Wire.open(client.port())) {
            w.request(1, "/");
            assertThat(w.expectStatus(1)).isEqualTo(200);
            assertThat(new String(w.expectBody(1))).isEqualTo("hello");
        }
    }

    static long heapAfterGc() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) System.gc();
        return rt.totalMemory() - rt.freeMemory();
    }

    /** H2-15 (CVE-2019-9517): window 0, never updated, 100 streams each asking for 10 MB. */
    @Test
    void aReaderThatNeverOpensItsWindowHoldsLittleAndEveryStreamIsResetAfterTheStall() throws Exception {
        for (String path : List.of("/big", "/full")) {
            STARTED.set(0);
            long before = heapAfterGc();
            try (H2Wire w = H2Wire.connect(client.port())) {
                w.timeout(Duration.ofSeconds(15)).handshake(INITIAL_WINDOW_SIZE, 0);
                for (int i = 0; i < 100; i++) w.request(1 + 2 * i, path);
                await().atMost(Duration.ofSeconds(10)).until(() -> STARTED.get() == 100);
                assertThat(heapAfterGc() - before).as("%s: heap growth with 100 streams stalled", path).isLessThan(32L << 20);
                int resets = 0;
                for (Frame f; resets < 100 && (f = w.read()) != null; ) {
                    assertThat(f.type()).as("%s: nothing but resets (and no DATA: the window is 0); %s", path, f).isNotEqualTo(DATA);
                    if (f.type() == RST_STREAM) {
                        assertThat(f.errorCode()).isEqualTo(CANCEL);
                        resets++;
                    }
                }
                assertThat(resets).as("%s: streams reset after the write stall", path).isEqualTo(100);
                w.expectAlive(); // the connection itself is fine: only its stalled streams are gone
            }
            assertThat(heapAfterGc() - before).as("%s: heap growth after", path).isLessThan(16L << 20);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> STREAMS_ENDED.get() == 100);
    }

    /** H2-08 (CVE-2019-9511): the window opened one byte at a time. */
    @Test
    void aOneByteWindowDribbleGetsNoMoreDataFramesThanItsUpdates() {
        try (H2Wire w = H2Wire.connect(client.port())) {
            w.handshake(INITIAL_WINDOW_SIZE, 0);
            w.request(1, "/big");
            w.expectHeaders(1);
            int updates = 2_000, dataFrames = 0, dataBytes = 0;
            for (int i = 0; i < updates; i++) w.windowUpdate(1, 1);
            // Every byte granted must come (a read that times out fails the test) ...
            w.timeout(Duration.ofSeconds(10));
            while (dataBytes < updates) {
                Frame f = w.read();
                assertThat(f).as("DATA up to the window granted; %d of %d bytes came", dataBytes, updates).isNotNull();
                if (f.type() == DATA) {
                    dataFrames++;
                    dataBytes += f.payload().length;
                }
            }
            // ... and nothing past it: a PING sent once the window is used up is answered after
            // whatever DATA the server wrote with those updates
            w.ping(0, "dribble!".getBytes());
            for (Frame f; (f = w.read()) != null; ) {
                if (f.type() == DATA) {
                    dataFrames++;
                    dataBytes += f.payload().length;
                }
                if (f.type() == PING && f.has(ACK)) break;
            }
            assertThat(dataBytes).as("DATA bytes: exactly the window granted").isEqualTo(updates);
            assertThat(dataFrames).as("DATA frames").isBetween(1, updates);
            w.expectAlive();
        }
    }

    /** H2-08 (CVE-2019-9513): PRIORITY frames churning the dependency tree of idle streams. */
    @Test
    void priorityChurnKeepsTheHeapBoundedAndTheConnectionServing() {
        long before = heapAfterGc();
        try (H2Wire w = H2Wire.open(client.port())) {
            java.io.ByteArrayOutputStream batch = new java.io.ByteArrayOutputStream();
            for (int i = 0; i < 50_000; i++) {
                int stream = 1 + 2 * (i % 10_000);
                int dependency = 1 + 2 * ((i * 7919) % 10_000);
                if (dependency == stream) dependency += 2;
                batch.writeBytes(frameBytes(PRIORITY, 0, stream, priorityBytes(dependency, i % 3 == 0, i % 256)));
            }
            w.raw(batch.toByteArray());
            w.request(20_001, "/");
            assertThat(w.expectStatus(20_001)).isEqualTo(200);
        }
        assertThat(heapAfterGc() - before).as("heap growth").isLessThan(32L << 20);
        assertThat(STARTED.get()).isEqualTo(1);
    }

    /** H2-08 (CVE-2019-9516): empty header names, each a malformed request, then a flood of them. */
    @Test
    void emptyHeaderNamesAreMalformedAndTheirFloodEndsTheConnection() {
        try (H2Wire w = H2Wire.open(client.port())) {
            w.headers(1, END_HEADERS | END_STREAM, literal(with(get("/"), "", "x")));
            w.expectRstStream(1, PROTOCOL_ERROR);
            w.headers(3, END_HEADERS | END_STREAM, literal(with(get("/"), "", "")));
            w.expectRstStream(3, PROTOCOL_ERROR);
            w.expectAlive();
            for (int i = 2; i < 400; i++) w.tryRaw(frameBytes(HEADERS, END_HEADERS | END_STREAM, 1 + 2 * i, literal(with(get("/"), "", ""))));
            w.expectGoAway(ENHANCE_YOUR_CALM);
        }
        assertThat(STARTED.get()).as("handlers started").isZero();
    }

    /**
     * H2-10 (Netty CVE-2026-50560): the client says it takes header lists of 1 byte. The setting
     * is advisory (RFC 9113 6.5.2); the server answers as usual, each request exactly once, and
     * never does the work of a response it then throws away.
     */
    @Test
    void aOneByteHeaderListLimitFromTheClientIsAdvisory() {
        try (H2Wire w = H2Wire.connect(client.port())) {
            w.handshake(MAX_HEADER_LIST_SIZE, 1);
            for (int i = 0; i < 50; i++) {
                w.request(1 + 2 * i, "/");
                assertThat(w.expectStatus(1 + 2 * i)).isEqualTo(200);
                assertThat(new String(w.expectBody(1 + 2 * i))).isEqualTo("hello");
            }
            w.expectAlive();
        }
        assertThat(STARTED.get()).isEqualTo(50);
    }
}
