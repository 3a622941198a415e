package dev.tidemill.internal.ops;

import dev.tidemill.internal.exchange.ExchangeContext;
import dev.tidemill.internal.integration.OptionalDependency;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;

/**
 * What {@code /metrics} reads: the one seam between the server and a metrics library. The request
 * path never reaches it: it records into its own cells ({@link RouteMeters}, {@link LoopWait}),
 * which an implementation reads at scrape time. {@link MicrometerMeters} is the only class that
 * references Micrometer, and is loaded only by {@link #create} when Micrometer is present; without
 * it the server uses {@link #NONE} and, metrics being off, records nothing per request.
 */
interface Meters {
    /**
     * Latency histogram buckets, in seconds: fixed rather than Micrometer's percentile histogram
     * (about 70 buckets per series), because a route has a series per method and 14 cover what a
     * web request spans, from a cached answer to a slow one.
     */
    List<Duration> LATENCY_BUCKETS = List.of(
            Duration.ofNanos(500_000), Duration.ofMillis(1), Duration.ofNanos(2_500_000), Duration.ofMillis(5),
            Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
            Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2_500),
            Duration.ofSeconds(5), Duration.ofSeconds(10));

    /** {@link #LATENCY_BUCKETS} in nanoseconds, for {@link #bucket}. */
    long[] BUCKET_NANOS = LATENCY_BUCKETS.stream().mapToLong(Duration::toNanos).toArray();
    String LATENCY = "tidemill_request_latency_seconds";

    /** The text format Prometheus scrapes by default. */
    String TEXT_004 = "text/plain; version=0.0.4; charset=utf-8";
    /** OpenMetrics 1.0, served when the scrape's {@code Accept} asks for it. */
    String OPENMETRICS = "application/openmetrics-text; version=1.0.0; charset=utf-8";

    /** No meters: metrics are off, or Micrometer is absent. A scrape is empty. */
    Meters NONE = new Meters() {
        @Override
        public Scrape scrape(String accept) {
            return new Scrape(TEXT_004, "");
        }

        @Override
        public void close() {}
    };

    /** @return the latency bucket of {@code nanos}: the first bound at or above it, or the last (+Inf) */
    static int bucket(long nanos) {
        long[] bounds = BUCKET_NANOS;
        for (int i = 0; i < bounds.length; i++) if (nanos <= bounds[i]) return i;
        return bounds.length;
    }

    /**
     * The meters over what the server records itself: Micrometer's when it is present, else
     * {@link #NONE}. Slow with Micrometer (its classes and the JVM binders' load here, about 100 ms
     * on the bench machine), so {@link Operational} calls it off the start-up path.
     *
     * @param routes every route's cells, and the unmatched requests'
     * @param shed requests shed so far
     * @param timeouts requests timed out so far
     * @param context the running server's shared state (limits, worker loops)
     * @param openConnections connections open now
     * @param queueWaits each worker loop's queue waits, by loop index
     * @param probes each watched loop's probe waits
     * @return the meters
     */
    static Meters create(List<RouteMeters> routes, LongAdder shed, LongAdder timeouts, ExchangeContext context,
            IntSupplier openConnections, LoopWait[] queueWaits, List<Heartbeats.Watched> probes) {
        if (!OptionalDependency.METRICS.present()) return NONE;
        return new MicrometerMeters(routes, shed, timeouts, context, openConnections, queueWaits, probes);
    }

    /**
     * @param accept the scrape's {@code Accept} header, or null
     * @return content type and body of the scrape
     */
    Scrape scrape(String accept);

    /** Releases what the meters hold (the registry, the GC listener). */
    void close();

    /** @param contentType what the body is @param body the exposition */
    record Scrape(String contentType, String body) {}
}
