package dev.tidemill.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Response;
import dev.tidemill.SseEvent;
import dev.tidemill.Tidemill;
import dev.tidemill.Topic;
import dev.tidemill.testing.EventStream;
import dev.tidemill.testing.EventStream.Event;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two Tidemill nodes over real sockets, one Redis: a message posted on node A reaches an event stream
 * on node B with the stream id as its SSE id, and a client that comes back to either node with
 * {@code Last-Event-ID} gets what it missed from Redis, then the live messages, nothing twice. The
 * post publishes with {@code publishAsync}, which may run on an event loop, in every mode.
 */
class RedisEventStreamTest {
    @TempDir
    static Path dir;
    static RedisServer redis;
    static RedisTopics backendA;
    static RedisTopics backendB;

    @BeforeAll
    static void start() {
        redis = RedisServer.start(dir.resolve("redis"));
        backendA = RedisTopics.connect(redis.url());
        backendB = RedisTopics.connect(redis.url());
    }

    @AfterAll
    static void stop() {
        if (backendA != null) backendA.close();
        if (backendB != null) backendB.close();
        if (redis != null) redis.close();
    }

    record Post(String text) {}

    static Tidemill node(Topic<String> rooms, ExecutionMode mode) {
        Tidemill app = Tidemill.create(TestClient.config().executionMode(mode).build());
        app.post("/rooms/{room}/messages", req -> rooms.publishAsync("room." + req.pathParam("room"), req.body(Post.class).text())
                .thenApply(id -> Response.status(202).json(Map.of("id", id))));
        app.get("/rooms/{room}/events", req -> Response.sse(rooms, "room." + req.pathParam("room"), m -> SseEvent.data(m.value())));
        return app;
    }

    @ParameterizedTest
    @EnumSource(value = ExecutionMode.class, names = {"IO", "LOOP", "VIRTUAL"})
    void aStreamOnOneNodeCarriesWhatIsPostedOnTheOtherAndResumesOnEither(ExecutionMode mode) {
        Topic<String> roomsA = backendA.<String>builder("rooms-" + mode).build();
        Topic<String> roomsB = backendB.<String>builder("rooms-" + mode).build();
        try (TestClient a = TestClient.start(node(roomsA, mode)); TestClient b = TestClient.start(node(roomsB, mode))) {
            String first;
            try (EventStream onB = b.events(TestRequest.get("/rooms/1/events"))) {
                await("subscribed on B").atMost(Duration.ofSeconds(10)).until(() -> roomsB.stats().subscriptions() == 1);
                TestResponse posted = a.post("/rooms/1/messages", "application/json", "{\"text\":\"hello\"}");
                assertThat(posted.status()).isEqualTo(202);
                first = posted.jsonTree().get("id").asString();
                assertThat(first).matches("\\d{13}-\\d+");
                a.post("/rooms/2/messages", "application/json", "{\"text\":\"other room\"}");
                assertThat(onB.next()).hasValue(new Event("message", "hello", first));
            }
            await("B's stream ended").atMost(Duration.ofSeconds(10)).until(() -> roomsB.stats().subscriptions() == 0);
            String missed = a.post("/rooms/1/messages", "application/json", "{\"text\":\"while away\"}").jsonTree().get("id").asString();
            try (EventStream back = a.events(TestRequest.get("/rooms/1/events").header("Last-Event-ID", first))) {
                assertThat(back.next()).as("what it missed, from Redis, on the other node").hasValue(new Event("message", "while away", missed));
                await("subscribed on A").atMost(Duration.ofSeconds(10)).until(() -> roomsA.stats().subscriptions() == 1);
                String live = b.post("/rooms/1/messages", "application/json", "{\"text\":\"live\"}").jsonTree().get("id").asString();
                assertThat(back.next()).as("then live, nothing twice").hasValue(new Event("message", "live", live));
            }
        } finally {
            roomsA.close();
            roomsB.close();
        }
    }
}
