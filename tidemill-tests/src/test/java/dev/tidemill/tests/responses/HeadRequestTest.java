package dev.tidemill.tests.responses;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Response;
import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * HEAD is answered wherever GET is: same status and headers (including the Content-Length a GET
 * would get), never a body. Checked on the wire: a response pipelined right after the HEAD
 * response must parse.
 */
@Timeout(60)
class HeadRequestTest {
    record Item(int id, String name) {}

    private static final Setup ONE = Setup.onDefaultTransport(ExecutionMode.LOOP);
    private final AtomicInteger streamProduced = new AtomicInteger();
    private TestClient client;

    @BeforeEach
    void start() {
        client = ONE.start(app -> {
            app.get("/text", req -> "Hello, World!");
            app.get("/json", req -> new Item(7, "tide"));
            app.get("/custom", req -> Response.status(201).header("X-Custom", "yes").header("Cache-Control", "no-store")
                    .text("created"));
            app.get("/stream", req -> Response.stream("text/plain; charset=utf-8", s -> {
                streamProduced.incrementAndGet();
                s.write("one,");
                s.write("two");
                s.close();
            }));
        });
    }

    @AfterEach
    void stop() {
        client.close();
    }

    @Test
    void headHasTheStatusAndHeadersOfGetWithoutBody() {
        for (String path : List.of("/text", "/json", "/custom")) {
            TestResponse get = client.get(path);
            TestResponse head = client.head(path);
            assertThat(head.status()).as(path).isEqualTo(get.status());
            assertThat(withoutDate(head)).as(path).isEqualTo(withoutDate(get));
            assertThat(head.header("Content-Length")).as(path).hasValue(String.valueOf(get.body().length));
        }
    }

    @Test
    void headResponseCarriesNoBodyOnTheWire() {
        try (RawConnection raw = client.raw()) {
            raw.write("HEAD /text HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /json HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "HEAD /json HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /text HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            TestResponse headText = raw.readResponse("HEAD");
            assertThat(headText.status()).isEqualTo(200);
            assertThat(headText.header("Content-Length")).hasValue("13");
            TestResponse getJson = raw.readResponse("GET");
            assertThat(getJson.status()).as("%s", getJson).isEqualTo(200);
            assertThat(getJson.text()).isEqualTo("{\"id\":7,\"name\":\"tide\"}");
            TestResponse headJson = raw.readResponse("HEAD");
            assertThat(headJson.status()).isEqualTo(200);
            assertThat(headJson.header("Content-Type")).hasValue("application/json");
            assertThat(headJson.header("Content-Length")).hasValue(String.valueOf(getJson.body().length));
            TestResponse getText = raw.readResponse("GET");
            assertThat(getText.text()).isEqualTo("Hello, World!");
            assertThat(raw.awaitClosed(Duration.ofSeconds(5))).isTrue();
            assertThat(raw.readAllUntilClose()).as("stray bytes after the last response").isEmpty();
        }
    }

    @Test
    void headOnAStreamingRouteSendsTheHeadOnly() {
        TestResponse get = client.get("/stream");
        assertThat(get.text()).isEqualTo("one,two");
        try (RawConnection raw = client.raw()) {
            raw.write("HEAD /stream HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /text HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            TestResponse head = raw.readResponse("HEAD");
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("Content-Type")).hasValue("text/plain; charset=utf-8");
            TestResponse next = raw.readResponse("GET");
            assertThat(next.status()).as("%s", next).isEqualTo(200);
            assertThat(next.text()).isEqualTo("Hello, World!");
            assertThat(raw.awaitClosed(Duration.ofSeconds(5))).isTrue();
            assertThat(raw.readAllUntilClose()).as("stray bytes after the last response").isEmpty();
        }
    }

    @Test
    void headToAnUnknownPathIs404WithoutBody() {
        try (RawConnection raw = client.raw()) {
            raw.write("HEAD /missing HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /text HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            TestResponse head = raw.readResponse("HEAD");
            assertThat(head.status()).isEqualTo(404);
            assertThat(head.header("Content-Type")).hasValue("application/problem+json");
            TestResponse next = raw.readResponse("GET");
            assertThat(next.status()).as("%s", next).isEqualTo(200);
            assertThat(next.text()).isEqualTo("Hello, World!");
            assertThat(raw.awaitClosed(Duration.ofSeconds(5))).isTrue();
            assertThat(raw.readAllUntilClose()).as("stray bytes after the last response").isEmpty();
        }
    }

    private static List<Map.Entry<String, String>> withoutDate(TestResponse r) {
        return r.headerList().stream()
                .filter(e -> !e.getKey().equalsIgnoreCase("Date"))
                .map(e -> Map.entry(e.getKey().toLowerCase(java.util.Locale.ROOT), e.getValue()))
                .sorted(Map.Entry.comparingByKey())
                .toList();
    }
}
