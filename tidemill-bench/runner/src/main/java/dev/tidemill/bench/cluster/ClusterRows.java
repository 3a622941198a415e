package dev.tidemill.bench.cluster;

import java.util.List;
import org.HdrHistogram.Histogram;

/** The rows the cluster suite records, as they go into the result file. */
final class ClusterRows {
    /** A client loop busier than this (% of one CPU) may have delayed deliveries itself: the row says so. */
    static final double CLIENT_BOUND_PERCENT = 90;
    /**
     * Server CPUs busier than this over a window (by /proc/stat, or by the server processes' own CPU time against the
     * CPUs they have) were saturated: the row's latencies include queueing for them, and it says so.
     */
    static final double SATURATED_PERCENT = 90;
    /** A row whose last delivery came this long after its last publish did not keep up with its load: the row says so. */
    static final double BEHIND_MS = 1_000;

    private ClusterRows() {}

    /**
     * One fan-out row: a system at one load, over the measured window.
     *
     * @param target the system
     * @param subscribers SSE subscribers on node B (on the node, for one node)
     * @param rate messages per second asked of the publisher
     * @param seconds the measured window: the first to the last publish of it
     * @param drainMs from the window's last publish to the last delivery of its messages: a system that keeps up
     *     needs about one delivery latency; one that fell behind, the time its backlog took
     * @param published messages sent in the window
     * @param acked of those, answered 2xx
     * @param failedPublishes publishes of the whole row (warm-up included) not answered 2xx: 503s, other statuses, errors
     * @param expected acknowledged messages of the window times subscribers
     * @param delivered deliveries of the window's messages
     * @param lost acknowledged messages of the whole row a subscriber did not get, summed over subscribers (must be 0)
     * @param duplicates deliveries of a message the subscriber already had (must be 0)
     * @param outOfOrder deliveries numbered below one the subscriber already had
     * @param otherEvents data lines that were not a message (a server's lost notice)
     * @param closedSubscribers streams that ended or broke during the row
     * @param deliveriesPerSec delivered over the window's first publish to its last delivery
     * @param p50Ms delivery latency, publish (the runner writing the POST) to arrival on a subscriber, median
     * @param p90Ms 90th percentile
     * @param p99Ms 99th percentile
     * @param p999Ms 99.9th percentile
     * @param maxMs the highest
     * @param publishP50Ms the POST to its 2xx answer, median
     * @param publishP99Ms 99th percentile
     * @param nodeAMsPer1000 node A's CPU (utime + stime), milliseconds per 1,000 deliveries; for one node, that node's
     * @param nodeBMsPer1000 node B's; null for one node
     * @param redisMsPer1000 redis-server's; null when the system does not use Redis
     * @param nodesMsPer1000 the nodes' together
     * @param totalMsPer1000 the nodes' and Redis's together
     * @param nodeAPercent node A's CPU over the window, % of one CPU
     * @param nodeBPercent node B's; null for one node
     * @param redisPercent redis-server's; null when unused
     * @param serverCpusBusyPercent the server CPUs' busy share over the window (/proc/stat)
     * @param serverProcessesPercent the nodes' and Redis's CPU together over the window, % of one CPU (their own
     *     accounting, which on this kind of host can exceed what /proc/stat's sampling shows the CPUs busy)
     * @param subscriberLoopPercent the client's subscriber loop thread, % of one CPU
     * @param publisherLoopPercent the client's publisher loop thread, % of one CPU
     * @param notes what a reader must know about the row
     */
    record Row(String target, int subscribers, int rate, double seconds, double drainMs, long published, long acked, long failedPublishes,
               long expected, long delivered, long lost, long duplicates, long outOfOrder, long otherEvents, long closedSubscribers,
               double deliveriesPerSec, double p50Ms, double p90Ms, double p99Ms, double p999Ms, double maxMs, double publishP50Ms,
               double publishP99Ms, double nodeAMsPer1000, Double nodeBMsPer1000, Double redisMsPer1000, double nodesMsPer1000,
               double totalMsPer1000, double nodeAPercent, Double nodeBPercent, Double redisPercent, double serverCpusBusyPercent, double serverProcessesPercent,
               double subscriberLoopPercent, double publisherLoopPercent, List<String> notes) {}

    /**
     * The fault row: Redis killed with {@code kill -9} under load and started again on the same port
     * and directory, on the two-node Tidemill system.
     *
     * @param subscribers SSE subscribers on node B
     * @param rate messages per second published on node A throughout
     * @param published POSTs sent in all
     * @param acked answered 2xx
     * @param unavailable answered 503 (expected while Redis is down: the publish fails at once)
     * @param otherFailures other statuses, connection errors and timeouts
     * @param downMs from the kill to starting redis-server again
     * @param restartToPingMs from starting it again to its first PONG (it reads its append-only file back first)
     * @param pingToFirstAckMs from that PONG to the first 2xx of a publish sent after it
     * @param pingToFirstLiveMs from that PONG to the first delivery, on any subscriber of node B, of a message sent after it
     * @param pingToAllLiveMs from that PONG until every subscriber had such a delivery
     * @param expected acknowledged messages times subscribers
     * @param lost acknowledged messages a subscriber did not get, summed over subscribers (must be 0)
     * @param duplicates deliveries of a message the subscriber already had (must be 0)
     * @param outOfOrder deliveries numbered below one the subscriber already had
     * @param deliveredUnacked deliveries of a message whose publish was not answered 2xx (stored, but its answer lost)
     * @param otherEvents data lines that were not a message (a lost notice)
     * @param closedSubscribers streams that ended or broke during the row
     * @param notes what a reader must know about the row
     */
    record Fault(int subscribers, int rate, long published, long acked, long unavailable, long otherFailures, double downMs,
                 double restartToPingMs, Double pingToFirstAckMs, Double pingToFirstLiveMs, Double pingToAllLiveMs, long expected,
                 long lost, long duplicates, long outOfOrder, long deliveredUnacked, long otherEvents, long closedSubscribers,
                 List<String> notes) {}

    /** @return a percentile of a microsecond histogram, in milliseconds (NaN when empty) */
    static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1_000.0;
    }

    /** @return the highest value of a microsecond histogram, in milliseconds (NaN when empty) */
    static double maxMs(Histogram h) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getMaxValue() / 1_000.0;
    }

    /** @return milliseconds of CPU per 1,000 deliveries, from clock ticks */
    static double per1000(long ticks, long deliveries) {
        return deliveries <= 0 ? Double.NaN : dev.tidemill.bench.ProcessCpu.micros(ticks) / 1_000.0 / deliveries * 1_000.0;
    }

    /** @return CPU over a window as % of one CPU, from clock ticks */
    static double percent(long ticks, long nanos) {
        return nanos <= 0 ? Double.NaN : dev.tidemill.bench.ProcessCpu.micros(ticks) * 1_000.0 / nanos * 100.0;
    }
}
