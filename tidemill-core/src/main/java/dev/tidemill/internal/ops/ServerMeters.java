package dev.tidemill.internal.ops;

import dev.tidemill.internal.dispatch.WorkerLoop;
import dev.tidemill.internal.exchange.ExchangeContext;
import dev.tidemill.internal.topic.LocalTopic;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * The server's meters, in one Micrometer {@link PrometheusMeterRegistry} per server (never the
 * global registry: two servers in one JVM, as in tests, keep their counts apart). The names and
 * tags are the table of docs/metrics.md. Meters the request path records are created here once
 * ({@link RouteMeters} caches them); gauges read the server's own counters at scrape time, so
 * they cost nothing between scrapes.
 */
final class ServerMeters {
    /**
     * Latency histogram buckets, in seconds: fixed rather than Micrometer's percentile histogram
     * (about 70 buckets per series), because a route has a series per method and 14 cover what a
     * web request spans, from a cached answer to a slow one.
     */
    static final List<Duration> LATENCY_BUCKETS = List.of(
            Duration.ofNanos(500_000), Duration.ofMillis(1), Duration.ofNanos(2_500_000), Duration.ofMillis(5),
            Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
            Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2_500),
            Duration.ofSeconds(5), Duration.ofSeconds(10));

    /** The text format Prometheus scrapes by default. */
    static final String TEXT_004 = "text/plain; version=0.0.4; charset=utf-8";
    /** OpenMetrics 1.0, served when the scrape's {@code Accept} asks for it. */
    static final String OPENMETRICS = "application/openmetrics-text; version=1.0.0; charset=utf-8";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private final Counter shed;
    private final Counter timeouts;
    private final Counter rateLimited;
    private final Set<String> topicsBound = ConcurrentHashMap.newKeySet();
    private volatile Timer[] queueWait = new Timer[0];

    ServerMeters() {
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        shed = Counter.builder("tidemill.requests.shed")
                .description("requests refused with 503 because every worker was at its concurrency limit")
                .register(registry);
        timeouts = Counter.builder("tidemill.requests.timeouts")
                .description("requests answered 504 because the handler did not answer within its request timeout")
                .register(registry);
        rateLimited = Counter.builder("tidemill.requests.rate_limited")
                .description("responses with status 429 Too Many Requests")
                .register(registry);
    }

    Timer latency(String method, String route) {
        return Timer.builder("tidemill.request.latency")
                .description("arrival of the request head to the response head being written")
                .tags("method", method, "route", route)
                .serviceLevelObjectives(LATENCY_BUCKETS.toArray(Duration[]::new))
                .register(registry);
    }

    Counter requests(String method, String route, int status) {
        return Counter.builder("tidemill.requests")
                .description("responses, by method, route pattern and status")
                .tags("method", method, "route", route, "status", Integer.toString(status))
                .register(registry);
    }

    void shed() {
        shed.increment();
    }

    void timedOut() {
        timeouts.increment();
    }

    void rateLimited() {
        rateLimited.increment();
    }

    void queueWait(WorkerLoop loop, long nanos) {
        Timer[] t = queueWait;
        if (loop.index() < t.length) t[loop.index()].record(nanos, TimeUnit.NANOSECONDS);
    }

    Timer wakeLatency(String loop, String kind) {
        return Timer.builder("tidemill.loop.wake.latency")
                .description("a probe task submitted to the loop, until it ran (sampled every second)")
                .tags("loop", loop, "kind", kind)
                .register(registry);
    }

    /** The server is up: connection and worker-loop gauges. */
    void bind(ExchangeContext context, IntSupplier openConnections) {
        Gauge.builder("tidemill.connections.open", openConnections, IntSupplier::getAsInt)
                .description("connections open now").strongReference(true).register(registry); // a lambda: held weakly it would be collected
        int max = context.config().limits().maxConnections();
        Gauge.builder("tidemill.connections.max", () -> max)
                .description("the connection limit (maxConnections)").strongReference(true).register(registry);
        List<WorkerLoop> loops = context.loops().loops();
        Timer[] waits = new Timer[loops.size()];
        for (WorkerLoop loop : loops) {
            String name = loop.name();
            Gauge.builder("tidemill.loop.queued", loop, WorkerLoop::queued).tag("loop", name)
                    .description("requests queued on the worker loop, not yet started").register(registry);
            Gauge.builder("tidemill.loop.in_flight", loop, l -> Math.max(0, l.load() - l.queued())).tag("loop", name)
                    .description("requests the worker loop has started and not finished (running, awaiting, streaming)")
                    .register(registry);
            waits[loop.index()] = Timer.builder("tidemill.loop.queue.wait").tag("loop", name)
                    .description("a request's wait in the worker loop's queue, from dispatch to its handler's start")
                    .register(registry);
        }
        queueWait = waits;
    }

    /**
     * @param accept the scrape's {@code Accept} header, or null
     * @return content type and body of the scrape
     */
    Scrape scrape(String accept) {
        bindTopics();
        String type = accept != null && accept.contains("application/openmetrics-text") ? OPENMETRICS : TEXT_004;
        return new Scrape(type, registry.scrape(type));
    }

    /** @param contentType what the body is @param body the exposition */
    record Scrape(String contentType, String body) {}

    /**
     * Topics are created while the app runs, so their meters are bound when a scrape first sees
     * them; they read the topic's counters at scrape time and hold it weakly.
     */
    private void bindTopics() {
        for (LocalTopic<?> t : LocalTopic.open()) {
            if (!topicsBound.add(t.name())) continue;
            String name = t.name();
            FunctionCounter.builder("tidemill.topic.published", t, x -> x.stats().published()).tag("topic", name)
                    .description("messages published to the topic").register(registry);
            FunctionCounter.builder("tidemill.topic.delivered", t, x -> x.stats().delivered()).tag("topic", name)
                    .description("messages handed to a subscriber").register(registry);
            FunctionCounter.builder("tidemill.topic.dropped", t, x -> x.stats().dropped()).tag("topic", name)
                    .description("messages a full subscription dropped (its overflow policy)").register(registry);
            Gauge.builder("tidemill.topic.subscribers", t, x -> x.stats().subscriptions()).tag("topic", name)
                    .description("subscriptions open now").register(registry);
            Gauge.builder("tidemill.topic.pending", t, x -> x.stats().pending()).tag("topic", name)
                    .description("messages queued in subscriptions, not yet delivered").register(registry);
        }
    }

    void close() {
        gc.close();
        registry.close();
    }
}
