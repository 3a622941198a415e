package dev.tidemill.internal.ops;

import dev.tidemill.internal.codec.JsonString;
import dev.tidemill.Config;
import dev.tidemill.Handler;
import dev.tidemill.Operations;
import dev.tidemill.ReadinessCheck;
import dev.tidemill.Response;
import dev.tidemill.Route;
import dev.tidemill.internal.dispatch.WorkerLoop;
import dev.tidemill.internal.exchange.ExchangeContext;
import dev.tidemill.internal.exchange.RouteObserver;
import dev.tidemill.internal.exchange.ServerObserver;
import io.netty.channel.EventLoopGroup;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;

/**
 * The operational side of one server, built when the app starts: the handlers of
 * {@code /livez}, {@code /readyz} and {@code /metrics}, and the {@link ServerObserver} that gives
 * each route its {@link RouteMeters}. Operational routes get no observer: they are neither counted
 * nor logged. With metrics and the access log both off, no route has an observer and exchanges
 * are not timed, so the request path pays one null check.
 */
public final class Operational implements ServerObserver {
    private static final String JSON = "application/json";

    private final Operations settings;
    private final boolean metrics;
    /** Built off the start-up path once the server is up ({@link #started}); a scrape awaits it. */
    private final CompletableFuture<Meters> meters = new CompletableFuture<>();
    /**
     * Filled by {@link #route} while the server's routes are resolved, one thread, before {@link #started}
     * hands it to the thread that builds the meters (a copy-on-write list copied itself once per route:
     * quadratic in the routes at start).
     */
    private final List<RouteMeters> routeMeters = new ArrayList<>();
    private final LongAdder shed = new LongAdder();
    private final LongAdder timeouts = new LongAdder();
    private volatile LoopWait[] queueWaits = new LoopWait[0];
    private final AccessLog log;
    private final RouteMeters unmatched;
    private final Heartbeats heartbeats;
    private final Readiness readiness;

    private Operational(Operations settings, Map<String, ReadinessCheck> checks) {
        this.settings = settings;
        this.metrics = settings.metrics();
        this.log = settings.accessLog() ? new AccessLog() : null;
        this.unmatched = metrics || log != null ? RouteMeters.unmatched(metrics, log) : null;
        if (metrics) routeMeters.add(unmatched);
        this.heartbeats = new Heartbeats(settings.stuckAfter());
        this.readiness = new Readiness(checks, settings.readinessTimeout());
    }

    /**
     * @param config the app's configuration
     * @param checks readiness checks by name, in registration order
     * @return the operational side of a server about to start
     */
    public static Operational create(Config config, Map<String, ReadinessCheck> checks) {
        return new Operational(config.operations(), checks);
    }

    /** @return the {@code /livez} handler: 200, or 503 naming the stuck loops */
    public Handler liveness() {
        return request -> {
            List<Heartbeats.Stuck> stuck = heartbeats.stuck();
            StringBuilder b = new StringBuilder(96).append("{\"status\":").append(stuck.isEmpty() ? "\"up\"" : "\"down\"");
            b.append(",\"stuckAfterMs\":").append(heartbeats.stuckAfterMillis()).append(",\"stuck\":[");
            for (int i = 0; i < stuck.size(); i++) {
                Heartbeats.Stuck s = stuck.get(i);
                if (i > 0) b.append(',');
                JsonString.append(b.append("{\"loop\":"), s.loop());
                JsonString.append(b.append(",\"kind\":"), s.kind());
                b.append(",\"unansweredMs\":").append(s.unansweredMillis()).append('}');
            }
            return json(stuck.isEmpty() ? 200 : 503, b.append("]}"));
        };
    }

    /** @return the {@code /readyz} handler: 200 when every check is up and the server is not draining, else 503 */
    public Handler readiness() {
        return request -> readiness.run().thenApply(answer -> {
            StringBuilder b = new StringBuilder(96).append("{\"status\":").append(answer.ready() ? "\"up\"" : "\"down\"");
            b.append(",\"draining\":").append(answer.draining()).append(",\"checks\":[");
            for (int i = 0; i < answer.checks().size(); i++) {
                Readiness.Outcome o = answer.checks().get(i);
                if (i > 0) b.append(',');
                JsonString.append(b.append("{\"name\":"), o.name());
                JsonString.append(b.append(",\"status\":"), o.status());
                JsonString.append(b.append(",\"detail\":"), o.detail());
                b.append(",\"durationMs\":").append(o.millis()).append('}');
            }
            return json(answer.ready() ? 200 : 503, b.append("]}"));
        });
    }

    /** @return the {@code /metrics} handler: the Prometheus text format, or OpenMetrics when {@code Accept} asks for it */
    public Handler metrics() {
        return request -> meters.thenApply(m -> {
            Meters.Scrape s = m.scrape(request.header("Accept").orElse(null));
            return Response.ok().header("Cache-Control", "no-store").bytes(s.body().getBytes(StandardCharsets.UTF_8), s.contentType());
        });
    }

    private static Response json(int status, CharSequence body) {
        return Response.status(status).header("Cache-Control", "no-store")
                .bytes(body.toString().getBytes(StandardCharsets.UTF_8), JSON);
    }

    /** @return the settings it was built from */
    public Operations settings() {
        return settings;
    }

    // ---- ServerObserver ----

    @Override
    public RouteObserver route(Route route) {
        if (route.operational() || unmatched == null) return null;
        RouteMeters m = RouteMeters.forRoute(metrics, log, route.method(), route.pattern());
        if (metrics) routeMeters.add(m);
        return m;
    }

    @Override
    public RouteObserver unmatched() {
        return unmatched;
    }

    @Override
    public boolean timed() {
        return metrics; // the access log needs only the arrival, which the transport always stamps
    }

    @Override
    public void shed() {
        shed.increment();
    }

    @Override
    public void timedOut() {
        timeouts.increment();
    }

    @Override
    public void queueWait(WorkerLoop loop, long nanos) {
        LoopWait[] w = queueWaits;
        if (loop.index() < w.length) w[loop.index()].record(nanos);
    }

    @Override
    public void started(EventLoopGroup io, ExchangeContext context, IntSupplier openConnections) {
        LoopWait[] waits = new LoopWait[context.workerLoops()];
        for (int i = 0; i < waits.length; i++) waits[i] = new LoopWait();
        queueWaits = waits;
        readiness.draining(context::draining);
        if (settings.health() || metrics) heartbeats.start(io, context.loops().loops());
        if (!metrics) return;
        // Off the start-up path: the registry and the JVM binders take about 100 ms to load, and
        // the server is already accepting. A scrape that comes first waits for them.
        List<RouteMeters> routes = List.copyOf(routeMeters);
        Thread.ofPlatform().daemon().name("tidemill-metrics-init").start(() -> {
            try {
                meters.complete(Meters.create(routes, shed, timeouts, context, openConnections, waits, heartbeats.watched()));
            } catch (Throwable t) {
                meters.completeExceptionally(t);
            }
        });
    }

    @Override
    public void stopped() {
        heartbeats.close();
        meters.thenAccept(Meters::close);
    }
}
