package dev.tidemill.internal.ops;

import dev.tidemill.internal.exchange.Exchange;
import dev.tidemill.internal.exchange.RouteObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The meters of one route (or of every request no route matched), resolved so the request path
 * builds no tag and looks nothing up: the latency timer per method is created at start, the
 * request counter per method and status on the first response with that status, then read from an
 * array indexed by status. A race on that first response registers the same meter twice, which the
 * registry answers with the one instance, so both threads store the same counter.
 *
 * <p>Method labels: a route's own method, and {@code HEAD} for a GET route. Requests no route
 * matched carry a method anyone can type, so theirs is one of the nine RFC 9110 methods or
 * {@code other}: a client cannot grow the number of series.
 */
final class RouteMeters implements RouteObserver {
    static final String UNMATCHED = "unmatched";
    private static final String[] KNOWN = {"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"};
    private static final int OTHER = KNOWN.length;

    private final ServerMeters meters;
    private final AccessLog log;
    private final String route;
    /** Method labels, by slot: for a route, 0 = its method, 1 = HEAD; for unmatched, KNOWN then other. */
    private final String[] methods;
    private final Timer[] latency;
    /** Per method slot, a counter per status 100-599, filled on first use. */
    private final AtomicReferenceArray<Counter>[] requests;

    @SuppressWarnings("unchecked")
    private RouteMeters(ServerMeters meters, AccessLog log, String route, String[] methods) {
        this.meters = meters;
        this.log = log;
        this.route = route;
        this.methods = methods;
        this.latency = new Timer[methods.length];
        this.requests = new AtomicReferenceArray[methods.length];
        if (meters != null) {
            for (int i = 0; i < methods.length; i++) {
                latency[i] = meters.latency(methods[i], route);
                requests[i] = new AtomicReferenceArray<>(500);
            }
        }
    }

    /** @param meters null when metrics are off @param log null when the access log is off */
    static RouteMeters forRoute(ServerMeters meters, AccessLog log, String method, String pattern) {
        return new RouteMeters(meters, log, pattern, method.equals("GET") ? new String[] {"GET", "HEAD"} : new String[] {method});
    }

    static RouteMeters unmatched(ServerMeters meters, AccessLog log) {
        String[] methods = java.util.Arrays.copyOf(KNOWN, KNOWN.length + 1);
        methods[OTHER] = "other";
        return new RouteMeters(meters, log, UNMATCHED, methods);
    }

    @Override
    public void responded(Exchange ex, int status, long bodyBytes) {
        long nanos = System.nanoTime() - ex.arrivedAt();
        if (meters != null) {
            int slot = slot(ex);
            latency[slot].record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
            counter(slot, status).increment();
            if (status == 429) meters.rateLimited();
        }
        if (log != null) log.write(ex, ex.method(), route, status, bodyBytes, nanos);
    }

    private int slot(Exchange ex) {
        String m = ex.method();
        if (methods.length <= 2) return ex.isHead() ? methods.length - 1 : 0;
        for (int i = 0; i < KNOWN.length; i++) if (KNOWN[i].equals(m)) return i;
        return OTHER;
    }

    private Counter counter(int slot, int status) {
        AtomicReferenceArray<Counter> bySlot = requests[slot];
        int i = status - 100; // Reply guarantees 100-599
        Counter c = bySlot.getAcquire(i); // pairs with setRelease: a plain load on x86
        if (c == null) {
            c = meters.requests(methods[slot], route, status);
            bySlot.setRelease(i, c);
        }
        return c;
    }
}
