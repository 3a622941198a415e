package dev.tidemill.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.testing.EventStream;
import dev.tidemill.testing.StreamingResponse;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/** Every route of the demo app, over a real socket, on the test configuration. */
@Timeout(60)
class DemoTest {
    private static TestClient client;

    @BeforeAll
    static void start() {
        client = TestClient.start(Demo.create(TestClient.config().build()));
    }

    @AfterAll
    static void stop() {
        if (client != null) client.close();
    }

    private static List<String> locs(JsonNode problem) {
        List<String> out = new ArrayList<>();
        for (JsonNode e : problem.get("errors")) {
            List<String> loc = new ArrayList<>();
            for (JsonNode part : e.get("loc")) loc.add(part.asString());
            out.add(String.join("/", loc));
        }
        return out;
    }

    @Test
    void theApiGroupAnswersPreflightsAndScriptsOnTheDocumentedOrigin() {
        TestResponse pre = client.send(dev.tidemill.testing.TestRequest.of("OPTIONS", "/api/hello")
                .header("Origin", Demo.CORS_ORIGIN).header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "content-type"));
        assertThat(pre.status()).isEqualTo(204);
        assertThat(pre.header("Access-Control-Allow-Origin")).hasValue(Demo.CORS_ORIGIN);
        TestResponse r = client.send(dev.tidemill.testing.TestRequest.get("/api/hello").header("Origin", Demo.CORS_ORIGIN));
        assertThat(r.header("Access-Control-Allow-Origin")).hasValue(Demo.CORS_ORIGIN);
        assertThat(r.text()).isEqualTo("{\"message\":\"Hello, " + Demo.CORS_ORIGIN + "!\"}");
        TestResponse other = client.send(dev.tidemill.testing.TestRequest.get("/api/hello").header("Origin", "https://evil.example"));
        assertThat(other.header("Access-Control-Allow-Origin")).isEmpty();
        assertThat(client.send(dev.tidemill.testing.TestRequest.get("/hello").header("Origin", Demo.CORS_ORIGIN))
                .header("Access-Control-Allow-Origin")).as("outside /api: no CORS").isEmpty();
    }

    @Test
    void limitedAdmitsFivePerSecondPerClient() {
        List<Integer> statuses = new ArrayList<>();
        try (dev.tidemill.testing.Connection c = client.connect()) {
            for (int i = 0; i < 20; i++) statuses.add(c.send(dev.tidemill.testing.TestRequest.get("/limited")).status());
        }
        assertThat(statuses.subList(0, 5)).containsOnly(200);
        assertThat(statuses).contains(429);
    }

    @Test
    void hello() {
        TestResponse r = client.get("/hello");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("Content-Type")).hasValue("text/plain; charset=utf-8");
        assertThat(r.text()).isEqualTo("Hello, World!");
    }

    @Test
    void operationsEndpointsAnswerAndTheBannerListsThem() {
        assertThat(client.get("/livez").status()).isEqualTo(200);
        JsonNode ready = client.get("/readyz").jsonTree();
        assertThat(ready.get("status").asString()).isEqualTo("up");
        assertThat(ready.get("checks").get(0).get("name").asString()).isEqualTo("rooms");
        client.get("/hello");
        TestResponse metrics = client.get("/metrics");
        assertThat(metrics.header("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(metrics.text()).contains("tidemill_requests_total{method=\"GET\",route=\"/hello\",status=\"200\"}");
        String banner = Demo.banner(Demo.create(TestClient.config().build()), client.server());
        assertThat(banner).contains("/livez").contains("/readyz").contains("/metrics");
    }

    @Test
    void json() {
        TestResponse r = client.get("/json");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("Content-Type")).hasValue("application/json");
        assertThat(r.text()).isEqualTo("{\"message\":\"Hello, World!\"}");
    }

    @Test
    void itemWithTypedPathAndQueryParameters() {
        TestResponse r = client.get("/items/42?verbose=yes&tag=a&tag=b");
        assertThat(r.status()).as("%s", r).isEqualTo(200);
        assertThat(r.json(Demo.Item.class)).isEqualTo(new Demo.Item(42, true, List.of("a", "b")));
        assertThat(client.get("/items/7").json(Demo.Item.class)).isEqualTo(new Demo.Item(7, false, List.of()));
    }

    @Test
    void itemWithANonIntegerIdIs422() {
        TestResponse r = client.get("/items/abc");
        assertThat(r.status()).as("%s", r).isEqualTo(422);
        assertThat(r.header("Content-Type")).hasValue("application/problem+json");
        JsonNode p = r.jsonTree();
        assertThat(p.get("status").asInt()).isEqualTo(422);
        assertThat(locs(p)).containsExactly("path/id");
        assertThat(p.get("errors").get(0).get("input").asString()).isEqualTo("abc");
    }

    @Test
    void searchFillsDefaults() {
        TestResponse r = client.get("/search?q=x");
        assertThat(r.status()).as("%s", r).isEqualTo(200);
        assertThat(r.json(Map.class)).isEqualTo(Map.of("q", "x", "limit", 10, "since", "any"));
        assertThat(client.get("/search?q=tide&limit=3&since=2026-11-01").json(Map.class))
                .isEqualTo(Map.of("q", "tide", "limit", 3, "since", "2026-11-01"));
        TestResponse missing = client.get("/search");
        assertThat(missing.status()).isEqualTo(422);
        assertThat(locs(missing.jsonTree())).containsExactly("query/q");
    }

    @Test
    void createUser() {
        TestResponse r = client.postJson("/users", Map.of("name", "Ada", "age", 36));
        assertThat(r.status()).as("%s", r).isEqualTo(201);
        assertThat(r.header("Content-Type")).hasValue("application/json");
        assertThat(r.json(Demo.User.class)).isEqualTo(new Demo.User(1, "Ada", 36));
    }

    @Test
    void invalidUserIs422PerField() {
        TestResponse r = client.postJson("/users", Map.of("name", " ", "age", 200));
        assertThat(r.status()).as("%s", r).isEqualTo(422);
        assertThat(r.header("Content-Type")).hasValue("application/problem+json");
        assertThat(locs(r.jsonTree())).containsExactly("body/age", "body/name");
    }

    @Test
    void work() {
        TestResponse r = client.get("/work?us=100");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.text()).isEqualTo("worked 100 us\n");
    }

    @Test
    void sleep() {
        TestResponse r = client.get("/sleep?ms=10");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.text()).isEqualTo("slept 10 ms\n");
    }

    @Test
    void async() {
        TestResponse r = client.get("/async?ms=10");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json(Demo.Message.class)).isEqualTo(new Demo.Message("answered after 10 ms"));
    }

    @Test
    void streamSendsOneChunkPerLine() {
        try (StreamingResponse s = client.stream(TestRequest.get("/stream?n=2"))) {
            assertThat(s.status()).isEqualTo(200);
            assertThat(s.chunked()).isTrue();
            assertThat(s.header("Content-Type")).hasValue("text/plain; charset=utf-8");
            assertThat(s.nextChunkText()).isEqualTo("line 1 of 2\n");
            assertThat(s.nextChunkText()).isEqualTo("line 2 of 2\n");
            assertThat(s.nextChunk()).isEqualTo(Optional.empty());
        }
    }

    @Test
    void ticksAreServerSentEventsThatEnd() {
        try (EventStream events = client.events(TestRequest.get("/sse/ticks?n=2&ms=10"))) {
            assertThat(events.response().header("Content-Type")).hasValue("text/event-stream; charset=utf-8");
            assertThat(events.next()).hasValue(new EventStream.Event("message", "tick 1 of 2", "1"));
            assertThat(events.next()).hasValue(new EventStream.Event("message", "tick 2 of 2", "2"));
            assertThat(events.next()).isEmpty();
        }
    }

    @Test
    void aRoomStreamsWhatIsPostedAndResumes() {
        try (EventStream room = client.events(TestRequest.get("/rooms/demo-test/events"))) {
            await("the room stream subscribed").atMost(Duration.ofSeconds(10)).until(() -> Demo.roomsTopic().stats().subscriptions() > 0);
            TestResponse posted = client.post("/rooms/demo-test/messages", "application/json", "{\"text\":\"hello\\nroom\"}");
            assertThat(posted.status()).isEqualTo(202);
            String id = posted.jsonTree().get("id").asString();
            assertThat(room.next()).hasValue(new EventStream.Event("message", "hello\nroom", id));
            client.post("/rooms/demo-test/messages", "application/json", "{\"text\":\"second\"}");
            assertThat(room.next().map(EventStream.Event::data)).hasValue("second");
            try (EventStream resumed = client.events(TestRequest.get("/rooms/demo-test/events").header("Last-Event-ID", id))) {
                assertThat(resumed.next().map(EventStream.Event::data)).as("the message after the one it saw").hasValue("second");
            }
        }
        assertThat(client.post("/rooms/demo-test/messages", "application/json", "{\"text\":\"\"}").status()).isEqualTo(422);
        assertThat(client.post("/rooms/a.b/messages", "application/json", "{\"text\":\"x\"}").status())
                .as("a room name that is not one subject segment").isEqualTo(422);
    }

    /** The job queue without Redis: the same routes on an in-process consumer group. */
    @Test
    void aJobIsQueuedOnceDoneByTheConsumerAndShownByItsId() {
        TestResponse queued = client.post("/jobs", "application/json", "{\"id\":\"demo-test-1\",\"workMs\":0}");
        assertThat(queued.status()).as("%s", queued).isEqualTo(202);
        assertThat(queued.header("Location")).hasValue("/jobs/demo-test-1");
        assertThat(queued.jsonTree().get("id").asString()).isEqualTo("demo-test-1");
        await("the job done").atMost(Duration.ofSeconds(10))
                .until(() -> client.get("/jobs/demo-test-1").jsonTree().get("state").asString().equals("done"));
        JsonNode job = client.get("/jobs/demo-test-1").jsonTree();
        assertThat(job.get("deliveries").asInt()).isEqualTo(1);
        assertThat(job.get("node").asString()).as("the consumer's node").isNotBlank();
        TestResponse again = client.post("/jobs", "application/json", "{\"id\":\"demo-test-1\"}");
        assertThat(again.status()).as("the same id again: the job as it is").isEqualTo(200);
        assertThat(again.jsonTree().get("state").asString()).isEqualTo("done");
        assertThat(client.get("/jobs/no-such-job").status()).isEqualTo(404);
        assertThat(client.post("/jobs", "application/json", "{\"id\":\"a b\"}").status()).as("an id with a space").isEqualTo(422);
        assertThat(client.post("/jobs", "application/json", "{\"id\":\"x\",\"workMs\":10001}").status()).isEqualTo(422);
    }

    @Test
    void rootListsEveryRoute() {
        TestResponse r = client.get("/");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.text()).startsWith("Tidemill demo. Routes:\n");
        for (String route : List.of("GET /", "GET /hello", "GET /json", "GET /items/{id}", "GET /search",
                "POST /users", "GET /work", "GET /sleep", "GET /async", "GET /stream", "GET /sse/ticks",
                "POST /rooms/{room}/messages", "GET /rooms/{room}/events")) {
            assertThat(r.text()).contains("  " + route + "\n");
        }
    }
}
