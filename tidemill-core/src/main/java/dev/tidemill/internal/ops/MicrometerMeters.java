package dev.tidemill.internal.ops;

import dev.tidemill.internal.dispatch.WorkerLoop;
import dev.tidemill.internal.exchange.ExchangeContext;
import dev.tidemill.internal.topic.LocalTopic;
import dev.tidemill.internal.topic.TopicReadings;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;

/**
 * The server's meters when Micrometer is present, the only class that references it: one
 * {@link PrometheusMeterRegistry} per server (never the
 * global registry: two servers in one JVM, as in tests, keep their counts apart). The names and
 * tags are the table of docs/operations.md. What the request path records it records in its own
 * per-thread cells ({@link RouteMeters}, {@link LoopWait}); the registry reads them at scrape time
 * through function counters and timers, and the latency histogram, which Micrometer can only
 * build from its own recorded timer, is written here from those cells in the same format, after
 * the registry's families. Gauges read the server's own state at scrape time too, so nothing here
 * costs anything between scrapes.
 */
final class MicrometerMeters implements Meters {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private final List<RouteMeters> routes;
    /** Request counters already registered, by route, slot and status. */
    private final Set<String> requestsBound = ConcurrentHashMap.newKeySet();
    private final Set<String> topicsBound = ConcurrentHashMap.newKeySet();
    private final Set<String> modesBound = ConcurrentHashMap.newKeySet();
    private final ExchangeContext context;

    /**
     * Builds the registry over what the server records itself. Slow (Micrometer's and the JVM
     * binders' classes load here, about 100 ms on the bench machine), so {@link Operational}
     * builds it off the start-up path; nothing is lost meanwhile, since everything it reads is
     * kept in the server's own cells.
     *
     * @param routes every route's cells, and the unmatched requests'
     * @param shed requests shed so far
     * @param timeouts requests timed out so far
     * @param context the running server's shared state (limits, worker loops)
     * @param openConnections connections open now
     * @param queueWaits each worker loop's queue waits, by loop index
     * @param probes each watched loop's probe waits
     */
    MicrometerMeters(List<RouteMeters> routes, LongAdder shed, LongAdder timeouts, ExchangeContext context,
            IntSupplier openConnections, LoopWait[] queueWaits, List<Heartbeats.Watched> probes) {
        this.routes = routes;
        this.context = context;
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        FunctionCounter.builder("tidemill.requests.shed", shed, LongAdder::sum)
                .description("requests refused with 503 because every worker was at its concurrency limit").register(registry);
        FunctionCounter.builder("tidemill.requests.timeouts", timeouts, LongAdder::sum)
                .description("requests answered 504 because the handler did not answer within its request timeout").register(registry);
        // Every 429, whoever wrote it (a rate limiter, a handler): read from the status counts.
        FunctionCounter.builder("tidemill.requests.rate_limited", routes, all -> {
                    long n = 0;
                    for (RouteMeters r : all) for (int slot = 0; slot < r.methods.length; slot++) n += r.count(slot, 429);
                    return n;
                }).description("responses with status 429 Too Many Requests").register(registry);
        dev.tidemill.internal.auth.AuthOutcomes auth = context.authOutcomes();
        for (dev.tidemill.Principal.Via via : dev.tidemill.Principal.Via.values()) {
            FunctionCounter.builder("tidemill.auth", auth, a -> a.admitted(via.ordinal())).tag("outcome", "admitted")
                    .tag("via", via.toString()).description("requests to routes with a requirement, by outcome and credential")
                    .register(registry);
        }
        for (int i = 1; i < dev.tidemill.internal.auth.AuthOutcomes.OUTCOMES.size(); i++) {
            int index = i;
            FunctionCounter.builder("tidemill.auth", auth, a -> a.refused(index))
                    .tag("outcome", dev.tidemill.internal.auth.AuthOutcomes.OUTCOMES.get(i)).tag("via", "none")
                    .description("requests to routes with a requirement, by outcome and credential").register(registry);
        }
        Gauge.builder("tidemill.connections.open", openConnections, IntSupplier::getAsInt)
                .description("connections open now").strongReference(true).register(registry); // a lambda: held weakly it would be collected
        int max = context.config().limits().maxConnections();
        Gauge.builder("tidemill.connections.max", () -> max)
                .description("the connection limit (maxConnections)").strongReference(true).register(registry);
        for (WorkerLoop loop : context.loops().loops()) {
            String name = loop.name();
            Gauge.builder("tidemill.loop.queued", loop, WorkerLoop::queued).tag("loop", name)
                    .description("requests queued on the worker loop, not yet started").register(registry);
            Gauge.builder("tidemill.loop.in_flight", loop, l -> Math.max(0, l.load() - l.queued())).tag("loop", name)
                    .description("requests the worker loop has started and not finished (running, awaiting, streaming)")
                    .register(registry);
            FunctionTimer.builder("tidemill.loop.queue.wait", queueWaits[loop.index()], LoopWait::count, LoopWait::nanos,
                            TimeUnit.NANOSECONDS).tag("loop", name)
                    .description("a request's wait for its worker loop, from the read that brought it to its handler's start")
                    .register(registry);
        }
        for (Heartbeats.Watched w : probes) {
            FunctionTimer.builder("tidemill.loop.wake.latency", w.wake, LoopWait::count, LoopWait::nanos, TimeUnit.NANOSECONDS)
                    .tags("loop", w.name, "kind", w.kind)
                    .description("a probe task submitted to the loop, until it ran (one a second)").register(registry);
        }
    }

    @Override
    public Scrape scrape(String accept) {
        bindTopics();
        bindRequests();
        bindModes();
        boolean openMetrics = accept != null && accept.contains("application/openmetrics-text");
        String type = openMetrics ? OPENMETRICS : TEXT_004;
        String body = registry.scrape(type);
        StringBuilder latency = latency();
        if (openMetrics && body.endsWith("# EOF\n")) {
            return new Scrape(type, body.substring(0, body.length() - "# EOF\n".length()) + latency + "# EOF\n");
        }
        return new Scrape(type, body + latency);
    }

    /**
     * Where each route in AUTO runs and why: a gauge per (route, mode, reason) seen so far, 1 for the
     * current pair and 0 for the others (an info-style series: the reason is a bounded set of kinds,
     * the full text with its measurement is in Server.routeModes() and the log).
     */
    private void bindModes() {
        context.autoModes().forEach((name, auto) -> {
            String mode = auto.current().name(), reason = auto.reason();
            if (!modesBound.add(name + ' ' + mode + ' ' + reason)) return;
            int space = name.indexOf(' ');
            Gauge.builder("tidemill.route.mode", auto, a -> a.current().name().equals(mode) && a.reason().equals(reason) ? 1 : 0)
                    .tags("method", name.substring(0, space), "route", name.substring(space + 1), "mode", mode, "reason", reason)
                    .description("routes in AUTO: 1 for the mode the route runs in now and the reason, 0 for those it ran in before")
                    .register(registry);
            if (modesBound.add(name)) {
                FunctionCounter.builder("tidemill.route.mode.moves", auto, dev.tidemill.internal.exchange.AutoMode::moves)
                        .tags("method", name.substring(0, space), "route", name.substring(space + 1))
                        .description("times AUTO moved the route to another mode").register(registry);
            }
        });
    }

    /** A request counter per route, method and status seen so far, reading the cells at scrape time. */
    private void bindRequests() {
        for (RouteMeters r : routes) {
            for (int slot = 0; slot < r.methods.length; slot++) {
                if (!r.used(slot)) continue;
                for (int status = 100; status < 600; status++) {
                    if (r.count(slot, status) == 0 || !requestsBound.add(r.route + ' ' + slot + ' ' + status)) continue;
                    int s = slot, st = status;
                    FunctionCounter.builder("tidemill.requests", r, x -> x.count(s, st))
                            .tags("method", r.methods[slot], "route", r.route, "status", Integer.toString(status))
                            .description("responses, by method, route pattern and status").register(registry);
                }
            }
        }
    }

    /**
     * The latency histogram, one series per route and method seen: written here, in the format
     * the registry uses (the same lines in text 0.0.4 and OpenMetrics), from the per-thread cells.
     */
    private StringBuilder latency() {
        StringBuilder b = new StringBuilder(1024);
        b.append("# HELP ").append(LATENCY).append(" arrival of the request head to the response head being written\n");
        b.append("# TYPE ").append(LATENCY).append(" histogram\n");
        for (RouteMeters r : routes) {
            for (int slot = 0; slot < r.methods.length; slot++) {
                if (!r.used(slot)) continue;
                StringBuilder labels = new StringBuilder("method=\"").append(r.methods[slot]).append("\",route=\"");
                escape(labels, r.route).append('"');
                long cumulative = 0;
                for (int i = 0; i < RouteMeters.BUCKETS; i++) {
                    cumulative += r.bucket(slot, i);
                    String le = i < BUCKET_NANOS.length ? seconds(BUCKET_NANOS[i]) : "+Inf";
                    b.append(LATENCY).append("_bucket{").append(labels).append(",le=\"").append(le).append("\"} ").append(cumulative).append('\n');
                }
                b.append(LATENCY).append("_count{").append(labels).append("} ").append(cumulative).append('\n');
                b.append(LATENCY).append("_sum{").append(labels).append("} ").append(seconds(r.sumNanos(slot))).append('\n');
            }
        }
        return b;
    }

    /** Seconds as a plain decimal (no exponent), e.g. {@code 0.0005}. */
    private static String seconds(long nanos) {
        return new java.math.BigDecimal(nanos).movePointLeft(9).stripTrailingZeros().toPlainString();
    }

    /** A label value in the exposition formats: backslash, double quote and line feed escaped. */
    private static StringBuilder escape(StringBuilder b, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> b.append("\\\\");
                case '"' -> b.append("\\\"");
                case '\n' -> b.append("\\n");
                default -> b.append(c);
            }
        }
        return b;
    }

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
        for (TopicReadings.Reading r : TopicReadings.all()) {
            Object source = r.source().get();
            if (source == null || !topicsBound.add(r.name() + r.tags())) continue;
            List<io.micrometer.core.instrument.Tag> tags = new java.util.ArrayList<>();
            r.tags().forEach((k, v) -> tags.add(io.micrometer.core.instrument.Tag.of(k, v)));
            if (r.kind() == TopicReadings.Kind.COUNTER) {
                FunctionCounter.builder(r.name(), source, r.read()).tags(tags).description(r.description()).register(registry);
            } else {
                Gauge.builder(r.name(), source, r.read()).tags(tags).description(r.description()).register(registry);
            }
        }
    }

    @Override
    public void close() {
        gc.close();
        registry.close();
    }
}
