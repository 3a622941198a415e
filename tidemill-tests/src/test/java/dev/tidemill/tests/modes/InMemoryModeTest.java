package dev.tidemill.tests.modes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.Config;
import dev.tidemill.ExecutionMode;
import dev.tidemill.Response;
import dev.tidemill.Tidemill;
import dev.tidemill.Timeouts;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.StreamingResponse;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link TestClient#inMemory}: the real HTTP/1.1 pipeline without a socket, in every execution
 * mode (replies from worker loops and virtual threads are handed to the loop and waited for),
 * with keep-alive, pipelining, streamed bodies, the server's timers, refusals and many clients at once.
 */
@Timeout(60)
class InMemoryModeTest {
    record Message(String message) {}

    private static TestClient start(ExecutionMode mode) {
        return start(Config.builder().executionMode(mode).workerLoops(2));
    }

    private static TestClient start(Config.Builder config) {
        Tidemill app = Tidemill.create(config.build());
        app.get("/plaintext", req -> "Hello, World!");
        app.get("/json", req -> new Message("Hello, World!"));
        app.get("/items/{id}", req -> "item " + req.pathParam("id") + " on " + Thread.currentThread().isVirtual());
        app.post("/echo", req -> Response.ok().bytes(req.body(), req.header("Content-Type").orElse("text/plain")));
        app.get("/stream", req -> Response.stream("text/plain", s -> s.write("one")
                .thenCompose(v -> s.write("two")).thenCompose(v -> s.write("three")).whenComplete((v, e) -> s.close())));
        return TestClient.inMemory(app).timeout(Duration.ofSeconds(20));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ExecutionMode.class)
    void answersOverKeepAliveAndPipelinedInRequestOrder(ExecutionMode mode) {
        try (TestClient client = start(mode)) {
            assertThat(client.isInMemory()).isTrue();
            try (Connection c = client.connect()) {
                for (int i = 0; i < 3; i++) {
                    TestResponse text = c.send(TestRequest.get("/plaintext"));
                    assertThat(text.status()).isEqualTo(200);
                    assertThat(text.text()).isEqualTo("Hello, World!");
                    assertThat(text.header("Content-Length")).hasValue("13");
                    assertThat(text.header("Date")).hasValueSatisfying(d -> assertThat(d).endsWith(" GMT"));
                    assertThat(c.send(TestRequest.get("/json")).text()).isEqualTo("{\"message\":\"Hello, World!\"}");
                }
                List<TestRequest> burst = IntStream.range(0, 16).mapToObj(i -> TestRequest.get("/items/" + i)).toList();
                List<TestResponse> answers = c.pipeline(burst);
                boolean virtual = mode == ExecutionMode.VIRTUAL || mode == ExecutionMode.AUTO; // AUTO starts on VIRTUAL
                for (int i = 0; i < 16; i++) assertThat(answers.get(i).text()).isEqualTo("item " + i + " on " + virtual);
            }
            assertThat(client.post("/echo", "text/plain", "ping").text()).isEqualTo("ping");
            assertThat(client.get("/nowhere").status()).isEqualTo(404);
            assertThat(client.send(TestRequest.of("DELETE", "/plaintext")).status()).isEqualTo(405);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ExecutionMode.class)
    void aStreamedBodyArrivesChunkedAndEnds(ExecutionMode mode) {
        try (TestClient client = start(mode); StreamingResponse r = client.stream(TestRequest.get("/stream"))) {
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.chunked()).isTrue();
            StringBuilder body = new StringBuilder();
            for (java.util.Optional<byte[]> chunk; (chunk = r.nextChunk()).isPresent(); ) {
                body.append(new String(chunk.get(), StandardCharsets.UTF_8));
            }
            assertThat(body.toString()).isEqualTo("onetwothree");
            assertThat(r.ended()).isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ExecutionMode.class, names = {"LOOP", "VIRTUAL"})
    void manyClientsAtOnceGetEveryAnswerOnce(ExecutionMode mode) throws Exception {
        int clients = 8;
        int each = 50;
        Set<String> seen = ConcurrentHashMap.newKeySet();
        try (TestClient client = start(mode)) {
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            try {
                CountDownLatch go = new CountDownLatch(1);
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < clients; t++) {
                    int id = t;
                    done.add(pool.submit(() -> {
                        go.await();
                        try (Connection c = client.connect()) {
                            for (int i = 0; i < each; i++) {
                                String text = c.send(TestRequest.get("/items/" + id + "-" + i)).text();
                                assertThat(text).startsWith("item " + id + "-" + i + " on ");
                                assertThat(seen.add(text)).as("answered once: %s", text).isTrue();
                            }
                        }
                        return null;
                    }));
                }
                go.countDown();
                for (Future<?> f : done) f.get();
            } finally {
                pool.shutdownNow();
            }
            assertThat(seen).hasSize(clients * each);
            assertThat(client.inMemoryServer().diagnostics().get("reply.drains"))
                    .as("replies from the workers were handed to the loop, not written from the workers' threads").isPositive();
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(client.inMemoryServer().diagnostics()).containsEntry("requests.in_flight", 0L));
        }
    }

    @Test
    void theServersTimersRunAnUnfinishedHeadIsClosed() {
        Config.Builder config = Config.builder().executionMode(ExecutionMode.LOOP).workerLoops(1)
                .timeouts(Timeouts.builder().headerRead(Duration.ofMillis(300)).build());
        try (TestClient client = start(config); RawConnection raw = client.raw()) {
            raw.write("GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\nGET /plaintext HTTP/1.1\r\nHost: a\r\n");
            assertThat(raw.readResponse().text()).isEqualTo("Hello, World!");
            assertThat(raw.awaitClosed(Duration.ofSeconds(10))).as("closed by the header-read timer").isTrue();
            assertThat(raw.readAllUntilClose()).as("without an answer, as on a socket").isEmpty();
        }
    }

    @Test
    void aMalformedHeadIsRefusedAndTheNextClientIsServed() {
        try (TestClient client = start(ExecutionMode.LOOP)) {
            try (RawConnection raw = client.raw()) {
                raw.write("GET /plaintext HTTP/1.1\r\nHost: a\r\nBad Header: x\r\n\r\n");
                assertThat(raw.readResponse().status()).isEqualTo(400);
                assertThat(raw.awaitClosed(Duration.ofSeconds(10))).isTrue();
            }
            assertThat(client.get("/plaintext").text()).isEqualTo("Hello, World!");
        }
    }

    @Test
    void connectionCloseEndsTheConnectionAfterTheAnswer() {
        try (TestClient client = start(ExecutionMode.VIRTUAL); RawConnection raw = client.raw()) {
            raw.write("GET /plaintext HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
            String all = new String(raw.readAllUntilClose(), StandardCharsets.ISO_8859_1);
            assertThat(all).startsWith("HTTP/1.1 200 OK\r\n").contains("Connection: close\r\n").endsWith("Hello, World!");
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> client.inMemoryServer().openConnections() == 0);
        }
    }

    @Test
    void whatNeedsASocketSaysSo() {
        try (TestClient client = start(ExecutionMode.LOOP)) {
            assertThatThrownBy(() -> client.webSocket("/ws")).isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("TestClient.start");
            assertThatThrownBy(client::port).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(client::server).isInstanceOf(IllegalStateException.class).hasMessageContaining("inMemoryServer");
        }
    }
}
