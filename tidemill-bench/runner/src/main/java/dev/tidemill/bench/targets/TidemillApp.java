package dev.tidemill.bench.targets;

import static dev.tidemill.html.Tags.div;
import static dev.tidemill.html.Tags.id;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.tidemill.Config;
import dev.tidemill.ExecutionMode;
import dev.tidemill.Param;
import dev.tidemill.ParamType;
import dev.tidemill.Response;
import dev.tidemill.Server;
import dev.tidemill.SseEvent;
import dev.tidemill.datastar.Datastar;
import dev.tidemill.Tidemill;
import dev.tidemill.Topic;
import dev.tidemill.bench.common.PageData;
import dev.tidemill.bench.common.Scenario;
import dev.tidemill.bench.common.TidemillPages;
import dev.tidemill.bench.common.StreamContract;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;

/**
 * Tidemill's benchmark target: every endpoint of {@link Scenario}, configured only by
 * {@code TIDEMILL_*} variables ({@code TIDEMILL_MODE}, {@code TIDEMILL_PORT},
 * {@code TIDEMILL_IO_THREADS}, {@code TIDEMILL_LOOPS}), as a user would write it. Plus
 * {@value #DIAGNOSTICS_PATH}, which the runner reads before and after each measured window (no
 * scenario or check asks for it).
 *
 * <p>{@code /page} is written with {@code dev.tidemill.html} ({@link TidemillPages}): a baked
 * template by default, the builder when started with the argument {@value #BUILDER_PAGE} (a
 * program argument, because Tidemill refuses {@code TIDEMILL_*} variables it does not know). The
 * handler returns the {@code Html}, which renders straight into the response's buffer.
 */
public final class TidemillApp {
    /** Answers {@link Server#diagnostics()} as a JSON object; in IO mode, so reading it wakes no worker. */
    public static final String DIAGNOSTICS_PATH = "/_diagnostics";

    /** The rate-limit suite's route without a limit. */
    public static final String UNLIMITED_PATH = "/unlimited";
    /** The rate-limit suite's limited route: {@link #LIMIT}. */
    public static final String LIMITED_PATH = "/limited";
    /** 10 requests per second per client address, at most 50,000 addresses held. */
    public static final dev.tidemill.RateLimit LIMIT = dev.tidemill.RateLimit.builder("bench").requests(10)
            .per(java.time.Duration.ofSeconds(1)).maxKeys(50_000).build();

    /** Set once the server listens; {@value #DIAGNOSTICS_PATH} answers an empty object before that. */
    private static final java.util.concurrent.atomic.AtomicReference<Server> SERVER =
            new java.util.concurrent.atomic.AtomicReference<>();

    static final Param<Integer> ID = Param.path("id", ParamType.INT);
    static final Param<Long> MICROS = Param.query("us", ParamType.LONG).withDefault(0L);
    static final Param<Long> MILLIS = Param.query("ms", ParamType.LONG).withDefault(2L);
    static final Param<Integer> EVENTS = Param.query("events", ParamType.INT);
    static final Param<Integer> RATE = Param.query("rate", ParamType.INT).withDefault(0);

    /** Completes the awaiting handler's stages: one timer thread, as an async client library would. */
    private static final java.util.concurrent.ScheduledExecutorService TIMER =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "bench-timer");
                t.setDaemon(true);
                return t;
            });

    /** The JSON greeting, serialised per request. */
    public record Message(String message) {}

    /** What {@code /user/{id}} answers. */
    public record User(int id, String name) {}

    /** The validated body of {@code POST /validate}; echoed in declaration order. */
    @JsonPropertyOrder({"name", "age"})
    public record Person(@NotBlank String name, @Min(0) @Max(150) int age) {}

    /** The program argument that serves {@code /page} with the builder instead of the baked template. */
    public static final String BUILDER_PAGE = "--page=builder";

    private TidemillApp() {}

    /**
     * Builds the app with the baked page.
     *
     * @param config the configuration
     * @return the app, not started
     */
    public static Tidemill create(Config config) {
        return create(config, false);
    }

    /**
     * Builds the app.
     *
     * @param config the configuration
     * @param builderPage serve {@code /page} with the HTML builder (else with the baked template)
     * @return the app, not started
     */
    public static Tidemill create(Config config, boolean builderPage) {
        Tidemill app = Tidemill.create(config);
        app.get(Scenario.PLAINTEXT_PATH, req -> Scenario.PLAINTEXT_BODY);
        app.get(Scenario.JSON_PATH, req -> new Message(Scenario.PLAINTEXT_BODY));
        app.get(Scenario.USER_PATH_PREFIX + "{id}", req -> {
            int id = req.param(ID);
            return new User(id, "user-" + id);
        }).params(ID);
        app.post(Scenario.VALIDATE_PATH, req -> req.body(Person.class));
        if (builderPage) {
            app.get(Scenario.PAGE_PATH, req -> TidemillPages.builder(PageData.TITLE, PageData.rows()));
        } else {
            app.get(Scenario.PAGE_PATH, req -> TidemillPages.baked(PageData.TITLE, PageData.rows()));
        }
        // The rate-limit suite: the same handler with and without a limit keyed by client address
        // (the runner sends X-Forwarded-For from loopback, trusted with TIDEMILL_TRUSTED_PROXIES=127.0.0.1).
        app.get(UNLIMITED_PATH, req -> Scenario.PLAINTEXT_BODY);
        app.get(LIMITED_PATH, req -> Scenario.PLAINTEXT_BODY).rateLimit(LIMIT);
        app.get(DIAGNOSTICS_PATH, req -> {
            Server server = SERVER.get();
            return server == null ? java.util.Map.of() : server.diagnostics();
        }).mode(ExecutionMode.IO);
        // Handler-cost sweep, blocking, awaiting and imbalance endpoints (Tidemill-only suites).
        app.get("/cost", req -> "spun " + spin(req.param(MICROS) * 1_000L)).params(MICROS);
        app.get("/hold", req -> "held " + spin(req.param(MILLIS) * 1_000_000L)).params(MILLIS);
        app.get("/block", req -> {
            Thread.sleep(req.param(MILLIS));
            return "blocked";
        }).params(MILLIS);
        app.get("/await", req -> {
            java.util.concurrent.CompletableFuture<String> f = new java.util.concurrent.CompletableFuture<>();
            TIMER.schedule(() -> f.complete("awaited"), req.param(MILLIS), java.util.concurrent.TimeUnit.MILLISECONDS);
            return f;
        }).params(MILLIS);
        // Streams suite (StreamContract): a lossless topic, and a lossy one for the slow-subscriber scenario.
        stream(app, StreamContract.FANOUT, topic("bench.fanout", Topic.Overflow.BLOCK));
        stream(app, StreamContract.LOSSY, topic("bench.lossy", Topic.Overflow.DROP_OLDEST));
        stream(app, StreamContract.DATASTAR, topic("bench.datastar", Topic.Overflow.BLOCK), TidemillApp::datastarPatch);
        // A trivial non-blocking handler, so IO mode, as the README advises (the peers echo on their event loops too).
        app.ws(StreamContract.ECHO, (ws, msg) -> ws.send(msg)).mode(ExecutionMode.IO);
        return app;
    }

    /**
     * A topic as an SSE stream, its publish endpoint and its subscriber count. The publisher is a
     * virtual thread of its own: a {@code BLOCK} topic refuses a publish on an I/O or worker loop,
     * and it may wait for a slow subscriber there.
     */
    static void stream(Tidemill app, String path, Topic<String> topic) {
        stream(app, path, topic, SseEvent::data);
    }

    /** The same, each message sent as the event {@code toEvent} makes of it. */
    static void stream(Tidemill app, String path, Topic<String> topic, java.util.function.Function<String, SseEvent> toEvent) {
        app.get(path, req -> Response.sse(topic, "events", m -> toEvent.apply(m.value())));
        app.post(path + StreamContract.PUBLISH, req -> {
            int events = req.param(EVENTS), rate = req.param(RATE);
            Thread.ofVirtual().name("bench-publisher").start(() ->
                    StreamContract.publish(events, rate, (seq, data) -> topic.publish("events", data)));
            return Response.status(202).text("publishing " + events);
        }).params(EVENTS, RATE);
        app.get(path + StreamContract.SUBSCRIBERS, req -> Integer.toString(topic.stats().subscriptions()));
    }

    /**
     * The one place the Datastar fan-out's event is built: a Datastar 1.0 {@code patch-elements}
     * event ({@code event: datastar-patch-elements}, {@code data: elements <fragment>}) around the
     * publisher's {@code <seq> <nanos>}, the bytes {@link StreamContract#datastarEvent} fixes for every
     * target. Written with {@link SseEvent} until a {@code dev.tidemill.datastar} API exists; switching
     * to it changes this method only, and the bytes stay the protocol's.
     *
     * @param data the publisher's {@code <seq> <nanos>}
     * @return the event
     */
    static SseEvent datastarPatch(String data) {
        return DATASTAR.patchElements(div(id("tick"), data)).sse(); // the builder escapes the text; the contract's is digits and a space
    }

    /** Datastar's 1.0 protocol, the one the contract's bytes are. */
    private static final Datastar DATASTAR = Datastar.v1();

    /** The open topic of that name (topics are process-wide, and tests build the app more than once), or a new one. */
    @SuppressWarnings("unchecked")
    static Topic<String> topic(String name, Topic.Overflow overflow) {
        return Topic.find(name).map(t -> (Topic<String>) t)
                .orElseGet(() -> Topic.<String>builder(name).capacity(StreamContract.QUEUE).overflow(overflow).build());
    }

    /** Burns CPU for about {@code nanos}; @return nanos, so the work cannot be optimised away */
    static long spin(long nanos) {
        long end = System.nanoTime() + Math.min(nanos, 1_000_000_000L);
        long n = 0;
        while (System.nanoTime() < end) n++;
        return nanos + (n & 0);
    }

    /** @param args {@value #BUILDER_PAGE} or nothing; configure the rest with TIDEMILL_* variables */
    public static void main(String[] args) {
        boolean builder = java.util.List.of(args).contains(BUILDER_PAGE);
        Tidemill app = create(Config.fromEnvironment(), builder);
        app.run(server -> {
            SERVER.set(server);
            System.out.println("tidemill bench app on http://" + server.host() + ":" + server.port()
                    + " mode " + app.config().executionMode() + ", page " + (builder ? "builder" : "baked"));
            server.startupReport().forEach(line -> System.out.println("startup: " + line));
        });
    }
}
