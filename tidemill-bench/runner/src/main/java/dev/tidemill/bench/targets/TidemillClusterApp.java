package dev.tidemill.bench.targets;

import dev.tidemill.Config;
import dev.tidemill.Response;
import dev.tidemill.SseEvent;
import dev.tidemill.Tidemill;
import dev.tidemill.Topic;

/**
 * Tidemill's node of the cluster suite ({@code ./tidemill bench cluster}), written as an application
 * would be: {@code POST /publish} publishes its body (text) to the topic {@value #TOPIC} with
 * {@code publishAsync} and answers 202 once the topic has stored it; {@code GET /events} is the
 * topic as an SSE stream, each message's value as the event's data; {@code GET /subscribers} says
 * how many streams are open on this node. With {@code TIDEMILL_REDIS_URL} set and tidemill-redis
 * on the class path the topic is a Redis stream every node shares; without it, it is in process.
 * Nothing here names the backend: the variable alone switches it. A publish Redis does not take
 * fails with {@code TopicUnavailableException}, which the route lets escape: 503 with Retry-After.
 */
public final class TidemillClusterApp {
    /** The topic's name. */
    public static final String TOPIC = "bench.cluster";
    /** The one subject every message goes to, and the stream's pattern. */
    public static final String SUBJECT = "events";

    private TidemillClusterApp() {}

    /**
     * @param config the configuration
     * @return the app, not started
     */
    @SuppressWarnings("unchecked")
    public static Tidemill create(Config config) {
        Tidemill app = Tidemill.create(config);
        // Default capacity and overflow (1,024 per subscriber, DROP_OLDEST): a subscriber that fell that far
        // behind would get a "lost" event, which the runner counts; BLOCK is refused on the event loop.
        Topic<String> topic = Topic.find(TOPIC).map(t -> (Topic<String>) t).orElseGet(() -> Topic.<String>builder(TOPIC).build());
        app.post("/publish", req -> topic.publishAsync(SUBJECT, req.bodyText())
                .thenApply(id -> Response.status(202).text(id.toString())));
        app.get("/events", req -> Response.sse(topic, SUBJECT, m -> SseEvent.data(m.value())));
        app.get("/subscribers", req -> Integer.toString(topic.stats().subscriptions()));
        return app;
    }

    /** @param args none; configure with TIDEMILL_* variables */
    public static void main(String[] args) {
        Tidemill app = create(Config.fromEnvironment());
        app.run(server -> {
            System.out.println("tidemill cluster bench node on http://" + server.host() + ":" + server.port() + " mode "
                    + app.config().executionMode() + ", topics " + (System.getenv("TIDEMILL_REDIS_URL") == null ? "in process" : "on Redis"));
            server.startupReport().forEach(line -> System.out.println("startup: " + line));
        });
    }
}
