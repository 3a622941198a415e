package dev.tidemill.internal.topic;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.ToDoubleFunction;

/**
 * Readings of topics' consumers and backends that {@code /metrics} shows beside the topics' own
 * counters: consumer groups' deliveries, claims, dead letters and pending messages, and (from an
 * add-on backend such as Redis) how far each node's reader is behind and how often it reconnected.
 * A reading holds what it reads weakly, so a closed consumer or topic is not kept alive by it; the
 * metrics side binds each reading once, at the first scrape after it was made.
 */
public final class TopicReadings {
    /** Whether a reading only grows (a counter) or goes up and down (a gauge). */
    public enum Kind { COUNTER, GAUGE }

    /**
     * One reading.
     *
     * @param name the meter's name, dotted ({@code tidemill.consumer.claimed})
     * @param description what it counts
     * @param kind counter or gauge
     * @param tags its tags
     * @param source what it reads, held weakly
     * @param read reads it
     */
    public record Reading(String name, String description, Kind kind, Map<String, String> tags, WeakReference<Object> source,
                          ToDoubleFunction<Object> read) { }

    private static final List<Reading> READINGS = new CopyOnWriteArrayList<>();

    private TopicReadings() {}

    /**
     * Adds a reading.
     *
     * @param name the meter's name
     * @param description what it counts
     * @param kind counter or gauge
     * @param tags its tags
     * @param source what it reads
     * @param read reads it
     * @param <S> the source's type
     */
    @SuppressWarnings("unchecked")
    public static <S> void add(String name, String description, Kind kind, Map<String, String> tags, S source, ToDoubleFunction<S> read) {
        READINGS.removeIf(r -> r.source().get() == null);
        READINGS.add(new Reading(name, description, kind, Map.copyOf(tags), new WeakReference<>(source), (ToDoubleFunction<Object>) read));
    }

    /** @return the readings whose source is still alive */
    public static List<Reading> all() {
        List<Reading> out = new ArrayList<>();
        for (Reading r : READINGS) if (r.source().get() != null) out.add(r);
        return out;
    }

    /**
     * Adds a consumer's readings: deliveries done and failed, claims, dead letters (counters),
     * messages in its worker and messages of its group not yet done (gauges), tagged with the topic,
     * group and consumer.
     *
     * @param topic the topic's name
     * @param group the group's name
     * @param consumption the consumer
     */
    public static void consumer(String topic, String group, dev.tidemill.Topic.Consumption consumption) {
        Map<String, String> tags = Map.of("topic", topic, "group", group, "consumer", consumption.consumer());
        add("tidemill.consumer.done", "deliveries whose worker returned", Kind.COUNTER, tags, consumption, c -> c.stats().done());
        add("tidemill.consumer.failed", "deliveries whose worker threw", Kind.COUNTER, tags, consumption, c -> c.stats().failed());
        add("tidemill.consumer.claimed", "messages taken over from consumers that left them unfinished", Kind.COUNTER, tags,
                consumption, c -> c.stats().claimed());
        add("tidemill.consumer.dead_lettered", "messages moved to the group's dead letters", Kind.COUNTER, tags, consumption,
                c -> c.stats().deadLettered());
        add("tidemill.consumer.in_flight", "messages in this consumer's worker now", Kind.GAUGE, tags, consumption,
                c -> c.stats().inFlight());
        add("tidemill.consumer.pending", "messages of the group delivered or waiting, not yet done (on Redis: XPENDING, as of the "
                + "consumer's last claim check)", Kind.GAUGE, tags, consumption, c -> c.stats().pending());
    }
}
