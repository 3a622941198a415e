package dev.tidemill.tests.timeouts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.testing.H2Wire;
import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Lingering close ({@link dev.tidemill.Timeouts#linger()}): when the server ends a connection
 * after its last response, it sends the response and a FIN, then reads and discards until the
 * client closes, for at most the linger timeout. A client still uploading a refused body reads the
 * refusal instead of a reset; a client that never closes is cut when the linger runs out.
 */
@Timeout(120)
class LingeringCloseTest {
    private static final long BODY_LIMIT = 64 * 1024;
    /** Far more than both sockets' buffers hold, so the upload only finishes if the server keeps reading. */
    private static final int UPLOAD = 16 << 20;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#transports")
    void aClientStillUploadingARefusedBodyReadsTheRefusal(Setup setup) throws Exception {
        try (TestClient client = setup.start(b -> b.maxBodyBytes(BODY_LIMIT), app -> {
                    app.post("/upload", req -> "got it");
                    app.get("/hello", req -> "hello");
                });
                RawConnection raw = client.raw()) {
            raw.write("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: " + UPLOAD + "\r\n\r\n");
            // The upload runs on its own thread: the server answers 413 at once and stops parsing,
            // but must go on reading (and discarding) or this write would block for ever.
            CompletableFuture<Void> upload = CompletableFuture.runAsync(() -> {
                byte[] chunk = new byte[64 * 1024];
                for (int sent = 0; sent < UPLOAD; sent += chunk.length) raw.write(chunk);
            });
            upload.get(60, TimeUnit.SECONDS);
            TestResponse r = raw.readResponse();
            assertThat(r.status()).as("%s", r).isEqualTo(413);
            assertThat(r.header("Content-Type")).hasValue("application/problem+json");
            assertThat(r.text()).contains("maxBodyBytes");
            assertThat(raw.awaitClosed(Duration.ofSeconds(10))).as("the server's FIN after the refusal").isTrue();
            assertThat(client.get("/hello").status()).as("next client").isEqualTo(200);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#transports")
    void anHttp2ClientStillWritingAfterAConnectionErrorReadsTheGoAway(Setup setup) throws Exception {
        try (TestClient client = setup.start(b -> {}, app -> app.get("/hello", req -> "hello"));
                H2Wire w = H2Wire.open(client.port())) {
            // a PING of 7 bytes is a connection error FRAME_SIZE_ERROR; the writes after it go on far
            // past both sockets' buffers, so they only finish if the server keeps reading after its GOAWAY
            w.raw(H2Wire.frameBytes(H2Wire.PING, 0, 0, new byte[7]));
            CompletableFuture<Boolean> upload = CompletableFuture.supplyAsync(() -> {
                byte[] ping = H2Wire.frameBytes(H2Wire.PING, 0, 0, new byte[8]);
                byte[] chunk = new byte[ping.length * 4096];
                for (int i = 0; i < 4096; i++) System.arraycopy(ping, 0, chunk, i * ping.length, ping.length);
                for (int sent = 0; sent < UPLOAD; sent += chunk.length) {
                    if (!w.tryRaw(chunk)) return false;
                }
                return true;
            });
            assertThat(upload.get(60, TimeUnit.SECONDS)).as("every write after the error accepted (no reset)").isTrue();
            assertThat(w.expectGoAway(H2Wire.FRAME_SIZE_ERROR).errorCode()).isEqualTo(H2Wire.FRAME_SIZE_ERROR);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#transports")
    void aLingeringConnectionEndsWhenTheClientCloses(Setup setup) {
        // a linger far longer than the wait below: only the client's close can end the connection
        try (TestClient client = setup.start(b -> b.lingerTimeout(Duration.ofMinutes(10)), app -> app.get("/hello", req -> "hello"))) {
            int before = client.server().openConnections();
            try (RawConnection raw = client.raw()) {
                raw.write("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                assertThat(raw.readResponse().status()).isEqualTo(200);
                assertThat(raw.awaitClosed(Duration.ofSeconds(10))).as("FIN after the last response").isTrue();
            }
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                    assertThat(client.server().openConnections()).isLessThanOrEqualTo(before));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#transports")
    void aClientThatNeverClosesIsCutWhenTheLingerRunsOut(Setup setup) {
        try (TestClient client = setup.start(b -> b.lingerTimeout(Duration.ofMillis(300)).idleTimeout(Duration.ofMinutes(10)),
                app -> app.get("/hello", req -> "hello"))) {
            int before = client.server().openConnections();
            RawConnection raw = client.raw();
            raw.write("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            assertThat(raw.readResponse().status()).isEqualTo(200);
            assertThat(raw.awaitClosed(Duration.ofSeconds(10))).as("FIN after the last response").isTrue();
            // The client keeps its side open and silent; the linger timeout alone ends the connection.
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                    assertThat(client.server().openConnections()).isLessThanOrEqualTo(before));
            // Bytes sent now meet a closed socket: the server answers them with a reset, which a later write reports.
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                    .until(() -> writeFails(raw));
            raw.close();
        }
    }

    /** @return whether writing one byte to the connection fails (the peer's socket is gone) */
    private static boolean writeFails(RawConnection raw) {
        try {
            raw.write("x");
            return false;
        } catch (UncheckedIOException e) {
            assertThat(e.getCause()).isInstanceOf(IOException.class);
            return true;
        }
    }
}
