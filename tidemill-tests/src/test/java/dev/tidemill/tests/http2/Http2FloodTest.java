package dev.tidemill.tests.http2;

import static dev.tidemill.testing.H2Fields.*;
import static dev.tidemill.testing.H2Wire.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.Tidemill;
import dev.tidemill.testing.H2Fields;
import dev.tidemill.testing.H2Wire;
import dev.tidemill.testing.TestClient;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The HTTP/2 floods of CASES.md section 13 (H2-01 to H2-12) over sockets against an in-process
 * server: each ends the way RFC 9113 10.5 and the limits in {@code Limits} say, with the handlers
 * started counted and bounded (zero for requests that must never reach one), the heap after GC
 * bounded where the attack is about memory, and the server serving a fresh client afterwards with
 * no connection or body bytes left over ({@code Server.diagnostics()}).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class Http2FloodTest {
    static TestClient client;
    static final AtomicInteger STARTED = new AtomicInteger();
    static final AtomicInteger BODIES_COMPLETE = new AtomicInteger();

    @BeforeAll
    static void start() {
        Tidemill app = Tidemill.create(TestClient.config().build());
        app.get("/", req -> {
            STARTED.incrementAndGet();
            return "hello";
        });
        app.get("/slow", req -> {
            STARTED.incrementAndGet();
            return CompletableFuture.supplyAsync(() -> "late", CompletableFuture.delayedExecutor(200, TimeUnit.MILLISECONDS));
        });
        app.post("/", req -> {
            STARTED.incrementAndGet();
            BODIES_COMPLETE.incrementAndGet(); // a gathered body: the handler runs only with the whole body
            return "got " + req.body().length;
        });
        app.put("/stream", req -> {
            STARTED.incrementAndGet();
            try (InputStream in = req.bodyStream().inputStream()) {
                in.transferTo(java.io.OutputStream.nullOutputStream());
            }
            BODIES_COMPLETE.incrementAndGet();
            return "read";
        }).streamedBody();
        client = TestClient.start(app);
    }

    @AfterAll
    static void stop() {
        client.close();
    }

    /** Connections open before the flood (the test client's own keep-alive connection among them). */
    long openBefore;

    @BeforeEach
    void reset() {
        STARTED.set(0);
        BODIES_COMPLETE.set(0);
        openBefore = client.server().diagnostics().get("connections.open");
    }

    /** After every flood: no connection of the flood left open, no body bytes held, and a fresh client is served. */
    @AfterEach
    void serverStillServesAFreshClient() {
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(client.server().diagnostics().get("connections.open")).as("connections open").isLessThanOrEqualTo(openBefore);
            assertThat(client.server().diagnostics().get("bodies.held_bytes")).isZero();
        });
        try (H2Wire w = H2Wire.open(client.port())) {
            w.request(1, "/");
            assertThat(w.expectStatus(1)).isEqualTo(200);
            assertThat(new String(w.expectBody(1))).isEqualTo("hello");
        }
        assertThat(client.get("/").text()).isEqualTo("hello");
    }

    /**
     * Writes {@code chunk(i)} for i = 0.. up to {@code max} while another thread reads, until the
     * server ends the connection (a write fails) or the chunks run out.
     *
     * @return every frame the server sent, up to its close
     */
    static List<Frame> flood(H2Wire w, int max, IntFunction<byte[]> chunk) throws Exception {
        return flood(w, max, chunk, 0);
    }

    /**
     * As {@link #flood(H2Wire, int, IntFunction)}, but for floods where each chunk draws one frame
     * back: the writer stays at most {@code ahead} chunks ahead of what was read, so the server's
     * GOAWAY is read before it closes on unread bytes (a close with unread bytes is a TCP reset,
     * which can discard what the client had not read yet). 0: unpaced.
     */
    static List<Frame> flood(H2Wire w, int max, IntFunction<byte[]> chunk, int ahead) throws Exception {
        List<Frame> got = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicReference<AssertionError> quiet = new AtomicReference<>();
        // one permit per frame read; all of them once the reader ends, so a paced writer never waits on a closed connection
        Semaphore read = new Semaphore(0);
        Thread reader = Thread.ofVirtual().start(() -> {
            try {
                for (Frame f; (f = w.read()) != null; ) {
                    got.add(f);
                    read.release();
                }
            } catch (AssertionError timeout) {
                quiet.set(timeout); // the server went quiet without closing: asserted below
            } finally {
                read.release(Integer.MAX_VALUE / 2);
            }
        });
        int paced = 0;
        for (int i = 0; i < max && reader.isAlive() && w.tryRaw(chunk.apply(i)); i++) {
            if (ahead > 0) {
                w.flush();
                // at most `ahead` chunks beyond what was read; a server that stops answering them
                // is not waited for long (the close it owes is asserted below)
                while (paced < i - ahead && read.tryAcquire(5, TimeUnit.SECONDS)) paced++;
            }
        }
        w.flush();
        reader.join(Duration.ofSeconds(15));
        assertThat(reader.isAlive()).as("the server closed the connection").isFalse();
        assertThat(quiet.get()).as("the server closed the connection, rather than going quiet; saw %s", tail(got)).isNull();
        synchronized (got) {
            return List.copyOf(got);
        }
    }

    static void assertGoAway(List<Frame> frames, int... codes) {
        Frame last = frames.stream().filter(f -> f.type() == GOAWAY).reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("no GOAWAY; saw " + tail(frames)));
        assertThat(last.errorCode()).as("GOAWAY code; saw " + tail(frames)).isIn(java.util.Arrays.stream(codes).boxed().toList());
    }

    static List<Frame> tail(List<Frame> f) {
        return f.subList(Math.max(0, f.size() - 5), f.size());
    }

    static long heapAfterGc() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) System.gc();
        return rt.totalMemory() - rt.freeMemory();
    }

    static byte[] cat(byte[]... parts) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (byte[] p : parts) b.writeBytes(p);
        return b.toByteArray();
    }

    @Test
    void rapidResetEndsWithEnhanceYourCalmAndBoundsTheHandlersStarted() throws Exception {
        try (H2Wire w = H2Wire.open(client.port())) {
            byte[] block = w.hpack(get("/slow"));
            byte[] again = w.hpack(get("/slow")); // the same fields, now indexed: what every later HEADERS carries
            List<Frame> frames = flood(w, 10_000, i -> cat(
                    frameBytes(HEADERS, END_HEADERS | END_STREAM, 1 + 2 * i, i == 0 ? block : again),
                    frameBytes(RST_STREAM, 0, 1 + 2 * i, intBytes(CANCEL))));
            assertGoAway(frames, ENHANCE_YOUR_CALM);
        }
        // 200 resets per 30 s (maxResetsPerWindow), and never more than 100 streams at once
        assertThat(STARTED.get()).as("handlers started").isLessThanOrEqualTo(200 + 100);
    }

    @Test
    void madeYouResetWindowUpdateZeroOnStreamsEndsWithEnhanceYourCalm() throws Exception {
        try (H2Wire w = H2Wire.open(client.port())) {
            byte[] block = w.hpack(H2Cases.post());
            byte[] again = w.hpack(H2Cases.post());
            List<Frame> frames = flood(w, 10_000, i -> cat(
                    frameBytes(HEADERS, END_HEADERS, 1 + 2 * i, i == 0 ? block : again),
                    frameBytes(WINDOW_UPDATE, 0, 1 + 2 * i, intBytes(0))), 20);
            assertThat(frames.stream().filter(f -> f.type() == RST_STREAM).count()).as("resets the server sent")
                    .isLessThanOrEqualTo(201);
            assertGoAway(frames, ENHANCE_YOUR_CALM);
        }
        assertThat(STARTED.get()).as("handlers started").isZero();
    }

    @Test
    void madeYouResetDataOnHalfClosedStreamsEndsTheConnection() throws Exception {
        try (H2Wire w = H2Wire.open(client.port())) {
            byte[] block = w.hpack(get("/slow"));
            byte[] again = w.hpack(get("/slow"));
            List<Frame> frames = flood(w, 10_000, i -> cat(
                    frameBytes(HEADERS, END_HEADERS | END_STREAM, 1 + 2 * i, i == 0 ? block : again),
                    frameBytes(DATA, 0, 1 + 2 * i, new byte[] {1})), 20); // DATA after END_STREAM: the server resets
            assertGoAway(frames, ENHANCE_YOUR_CALM);
        }
        assertThat(STARTED.get()).as("handlers started").isLessThanOrEqualTo(200 + 100);
    }

    @Test
    void continuationFloodOfLargeFramesEndsTheConnectionWithMemoryBounded() throws Exception {
        long before = heapAfterGc();
        try (H2Wire w = H2Wire.open(client.port())) {
            ByteArrayOutputStream start = new ByteArrayOutputStream();
            start.writeBytes(w.hpack(get("/")));
            start.write(0); // a literal, new name "x-a", whose value claims 100 MB: the CONTINUATIONs carry it
            start.write(3);
            start.writeBytes("x-a".getBytes());
            H2Fields.integer(start, 0, 7, 100_000_000);
            byte[] filler = new byte[16_384];
            java.util.Arrays.fill(filler, (byte) 'a');
            List<Frame> frames = flood(w, 6_000, i -> i == 0 ? frameBytes(HEADERS, END_STREAM, 1, start.toByteArray())
                    : frameBytes(CONTINUATION, 0, 1, filler));
            assertGoAway(frames, ENHANCE_YOUR_CALM, PROTOCOL_ERROR, COMPRESSION_ERROR, FRAME_SIZE_ERROR);
        }
        assertThat(heapAfterGc() - before).as("heap growth").isLessThan(32L << 20);
        assertThat(STARTED.get()).isZero();
    }

    @Test
    void continuationFloodOfZeroLengthFramesEndsTheConnection() throws Exception {
        long before = heapAfterGc();
        try (H2Wire w = H2Wire.open(client.port())) {
            byte[] block = w.hpack(get("/"));
            List<Frame> frames = flood(w, 100_000, i -> i == 0 ? frameBytes(HEADERS, END_STREAM, 1, block)
                    : frameBytes(CONTINUATION, 0, 1, new byte[0]));
            assertGoAway(frames, ENHANCE_YOUR_CALM, PROTOCOL_ERROR);
        }
        assertThat(heapAfterGc() - before).as("heap growth").isLessThan(32L << 20);
        assertThat(STARTED.get()).isZero();
    }

    @Test
    void hpackBombIsRefusedWithoutInflatingIt() throws Exception {
        long before = heapAfterGc();
        try (H2Wire w = H2Wire.open(client.port())) {
            // a 4,000-byte field into the server's dynamic table (literal with incremental indexing)
            ByteArrayOutputStream seed = new ByteArrayOutputStream();
            seed.writeBytes(literal(get("/")));
            seed.write(0x40);
            seed.write(6);
            seed.writeBytes("x-bomb".getBytes());
            H2Fields.integer(seed, 0, 7, 4000);
            seed.writeBytes("b".repeat(4000).getBytes());
            w.headers(1, END_HEADERS | END_STREAM, seed.toByteArray());
            assertThat(w.expectStatus(1)).isEqualTo(200);
            // then 16,000 one-byte references to it: 64 MB once decoded, against a 16 KiB header list
            ByteArrayOutputStream bomb = new ByteArrayOutputStream();
            bomb.writeBytes(literal(get("/")));
            for (int i = 0; i < 16_000; i++) bomb.write(0xbe); // index 62: the newest dynamic entry
            int startedBefore = STARTED.get();
            w.headers(3, END_HEADERS | END_STREAM, bomb.toByteArray());
            boolean refused = false;
            for (Frame f; !refused && (f = w.read()) != null; ) {
                if (f.streamId() == 3 && f.type() == HEADERS) refused = true; // 431 (decoded below)
                if (f.streamId() == 3 && f.type() == RST_STREAM) refused = true;
                if (f.type() == GOAWAY) refused = true;
            }
            assertThat(refused).as("431, RST_STREAM or GOAWAY; saw " + w.seen()).isTrue();
            Frame last = w.seen().get(w.seen().size() - 1);
            if (last.type() == HEADERS) {
                assertThat(w.seen().stream().filter(f -> f.streamId() == 3 && f.type() == DATA)
                        .map(f -> new String(f.payload())).findFirst()).isNotEqualTo(java.util.Optional.of("hello"));
            }
            assertThat(STARTED.get()).as("handlers for the bomb").isEqualTo(startedBefore);
        }
        assertThat(heapAfterGc() - before).as("heap growth").isLessThan(32L << 20);
    }

    @Test
    void aHugeHeaderTableSizeFromTheClientDoesNotGrowTheServer() {
        long before = heapAfterGc();
        try (H2Wire w = H2Wire.connect(client.port())) {
            w.decoderTableSize(0xffffffffL);
            w.handshake(HEADER_TABLE_SIZE, 0xffffffffL);
            for (int i = 0; i < 500; i++) {
                w.request(1 + 2 * i, "/?n=" + i);
                assertThat(w.expectStatus(1 + 2 * i)).isEqualTo(200);
                w.expectBody(1 + 2 * i);
            }
        }
        assertThat(heapAfterGc() - before).as("heap growth").isLessThan(32L << 20);
    }

    @Test
    void settingsFloodFromAClientThatDoesNotReadIsClosed() throws Exception {
        try (H2Wire w = H2Wire.connect(client.port(), 4096)) {
            w.handshake();
            byte[] settings = frameBytes(SETTINGS, 0, 0, new byte[] {0, 3, 0, 0, 0, 100});
            byte[] batch = cat(java.util.Collections.nCopies(100, settings).toArray(byte[][]::new));
            int written = 0;
            while (written < 20_000 && w.tryRaw(batch)) written++; // up to 2,000,000 frames, never reading
            assertThat(written).as("batches of 100 written before the server closed").isLessThan(20_000);
        }
    }

    @Test
    void pingFloodFromAClientThatDoesNotReadIsClosed() throws Exception {
        try (H2Wire w = H2Wire.connect(client.port(), 4096)) {
            w.handshake();
            byte[] ping = frameBytes(PING, 0, 0, new byte[8]);
            byte[] batch = cat(java.util.Collections.nCopies(100, ping).toArray(byte[][]::new));
            int written = 0;
            while (written < 20_000 && w.tryRaw(batch)) written++;
            assertThat(written).as("batches of 100 written before the server closed").isLessThan(20_000);
        }
    }

    @Test
    void emptyDataFrameFloodEndsTheConnection() throws Exception {
        try (H2Wire w = H2Wire.open(client.port())) {
            byte[] block = w.hpack(H2Cases.post());
            List<Frame> frames = flood(w, 1_000, i -> i == 0 ? frameBytes(HEADERS, END_HEADERS, 1, block)
                    : frameBytes(DATA, 0, 1, new byte[0]));
            assertGoAway(frames, ENHANCE_YOUR_CALM, PROTOCOL_ERROR);
        }
        assertThat(STARTED.get()).isZero();
    }

    @Test
    void windowUpdateFloodOverflowsToFlowControlError() throws Exception {
        try (H2Wire w = H2Wire.open(client.port())) {
            List<Frame> frames = flood(w, 100_000, i -> frameBytes(WINDOW_UPDATE, 0, 0, intBytes(0x10000)));
            assertGoAway(frames, FLOW_CONTROL_ERROR);
        }
    }

    @Test
    void streamIdAbuseIsAConnectionErrorAndNeverAHandler() {
        try (H2Wire w = H2Wire.open(client.port())) {
            w.request(2, "/");
            w.expectGoAway(PROTOCOL_ERROR);
        }
        try (H2Wire w = H2Wire.open(client.port())) {
            w.request(1, "/");
            assertThat(w.expectStatus(1)).isEqualTo(200);
            w.expectBody(1);
            int after = STARTED.get();
            w.request(1, "/"); // reuse of a closed stream's id
            w.expectStreamOrConnectionError(1, STREAM_CLOSED, PROTOCOL_ERROR);
            w.request(0x7fffffff, "/"); // the last id, then one below it
            assertThat(w.expectStatus(0x7fffffff)).isEqualTo(200);
            w.expectBody(0x7fffffff);
            int last = STARTED.get();
            w.request(0x7ffffffd, "/");
            w.expectStreamOrConnectionError(0x7ffffffd, STREAM_CLOSED, PROTOCOL_ERROR);
            assertThat(STARTED.get()).isEqualTo(last).isEqualTo(after + 1);
        }
    }

    @Test
    void contentLengthLiesResetTheStreamAndNoHandlerSeesACompleteBody() {
        String[][] routes = {H2Cases.post(), {":method", "PUT", ":scheme", "http", ":path", "/stream", ":authority", "a"}};
        for (String[] route : routes) {
            try (H2Wire w = H2Wire.open(client.port())) {
                w.headers(1, END_HEADERS, literal(with(route, "content-length", "10")));
                w.data(1, END_STREAM, "12345".getBytes()); // less than declared
                w.expectRstStream(1, PROTOCOL_ERROR);
                w.headers(3, END_HEADERS, literal(with(route, "content-length", "3")));
                w.data(3, 0, "12345".getBytes()); // more than declared
                w.expectRstStream(3, PROTOCOL_ERROR);
                w.headers(5, END_HEADERS | END_STREAM, literal(with(route, "content-length", "10"))); // none at all
                w.expectRstStream(5, PROTOCOL_ERROR);
                w.expectAlive();
            }
        }
        assertThat(BODIES_COMPLETE.get()).as("handlers that saw a complete body").isZero();
    }

    @Test
    void malformedAndConnectionSpecificFieldsNeverReachAHandler() {
        String[] g = get("/");
        String[][] blocks = {
            with(g, "connection", "close"), with(g, "te", "gzip"), with(g, "Upper", "x"), with(g, "transfer-encoding", "chunked"),
            {":method", "GET", "x-a", "b", ":scheme", "http", ":path", "/", ":authority", "a"},
            {":scheme", "http", ":path", "/", ":authority", "a"}, {":method", "GET", ":scheme", "http", ":authority", "a"},
            {":method", "GET", ":path", "/", ":authority", "a"}, with(g, ":method", "GET"), with(g, ":path", "/"),
            with(g, "x-a", "a\r\nx-injected: 1"), with(g, "x-a", "trailing ")};
        try (H2Wire w = H2Wire.open(client.port())) {
            for (int i = 0; i < blocks.length; i++) {
                w.headers(1 + 2 * i, END_HEADERS | END_STREAM, literal(blocks[i]));
                w.expectRstStream(1 + 2 * i, PROTOCOL_ERROR);
            }
            assertThat(STARTED.get()).as("handler calls").isZero();
            w.request(1 + 2 * blocks.length, "/"); // the connection still serves
            assertThat(w.expectStatus(1 + 2 * blocks.length)).isEqualTo(200);
        }
    }
}
