package dev.tidemill;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A consumer group: a work queue over a {@link Topic}. Every message published to the topic after
 * the group was first made, and matching its patterns, goes to one consumer of the group, at least
 * once: a message is done when its handler returns; one whose handler throws is delivered again
 * after {@link #claimAfter()}, to any consumer of the group, until it has failed
 * {@link #maxDeliveries()} times, when it goes to the group's dead letters with the reason. A
 * consumer that stops (closed, or its process gone) leaves its unfinished messages to be claimed by
 * the others after {@link #claimAfter()}; one that starts again under the same {@link #consumer()}
 * name takes up its own unfinished messages first. Each consumer has at most
 * {@link #maxInFlight()} messages in its handler at once.
 *
 * <pre>{@code
 * Topic.Consumption c = jobs.consume(ConsumerGroup.builder("mailer").claimAfter(Duration.ofMinutes(1)).build(),
 *         executor, (message, delivery) -> send(message.value()));
 * }</pre>
 *
 * In process the group lives in this JVM with the topic; on Redis it is a stream consumer group
 * that every node's consumers share (docs/cluster.md).
 */
public final class ConsumerGroup {
    /** Default {@link #claimAfter()}: 30 s. */
    public static final Duration DEFAULT_CLAIM_AFTER = Duration.ofSeconds(30);
    /** Default {@link #maxDeliveries()}: 5. */
    public static final int DEFAULT_MAX_DELIVERIES = 5;
    /** Default {@link #maxInFlight()}: 16. */
    public static final int DEFAULT_MAX_IN_FLIGHT = 16;
    static final Range CLAIM_AFTER = Range.duration("claimAfter", Duration.ofMillis(10), Duration.ofDays(1));
    static final Range MAX_DELIVERIES = Range.count("maxDeliveries", 1, 1_000);
    static final Range MAX_IN_FLIGHT = Range.count("maxInFlight", 1, 100_000);

    private final String name;
    private final String consumer;
    private final List<String> patterns;
    private final Duration claimAfter;
    private final int maxDeliveries;
    private final int maxInFlight;

    private ConsumerGroup(Builder b) {
        name = b.name;
        consumer = b.consumer;
        patterns = b.patterns;
        CLAIM_AFTER.check(b.claimAfter);
        claimAfter = b.claimAfter;
        MAX_DELIVERIES.check(b.maxDeliveries);
        maxDeliveries = (int) b.maxDeliveries;
        MAX_IN_FLIGHT.check(b.maxInFlight);
        maxInFlight = (int) b.maxInFlight;
    }

    /**
     * @param name the group's name: letters, digits, {@code . _ -}, 1 to 64 of them
     * @return a builder with the defaults
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** @return the group's name */
    public String name() {
        return name;
    }

    /** @return this consumer's name in the group, if set; else the backend names it (in process: one per consumption; Redis: the node id) */
    public Optional<String> consumer() {
        return Optional.ofNullable(consumer);
    }

    /** @return the subjects or patterns of the messages the group takes; default {@code *}, all */
    public List<String> patterns() {
        return patterns;
    }

    /** @return how long a message may stay unfinished before it is delivered again; default 30 s */
    public Duration claimAfter() {
        return claimAfter;
    }

    /** @return deliveries of a message before it goes to the dead letters; default 5 */
    public int maxDeliveries() {
        return maxDeliveries;
    }

    /** @return messages one consumer has in its handler at once, at most; default 16 */
    public int maxInFlight() {
        return maxInFlight;
    }

    @Override
    public String toString() {
        return "consumer group " + name + " (claimAfter " + claimAfter + ", maxDeliveries " + maxDeliveries + ", maxInFlight "
                + maxInFlight + ")";
    }

    /** Settings of a {@link ConsumerGroup}. */
    public static final class Builder {
        private final String name;
        private String consumer;
        private List<String> patterns = List.of("*");
        private Duration claimAfter = DEFAULT_CLAIM_AFTER;
        private long maxDeliveries = DEFAULT_MAX_DELIVERIES;
        private long maxInFlight = DEFAULT_MAX_IN_FLIGHT;

        private Builder(String name) {
            this.name = checkName(name, "group");
        }

        /** @param name this consumer's name in the group (letters, digits, {@code . _ -}, 1 to 64) @return this */
        public Builder consumer(String name) {
            this.consumer = checkName(name, "consumer");
            return this;
        }

        /** @param patterns subjects or patterns ({@code room.*}, {@code *}) @return this */
        public Builder patterns(String... patterns) {
            if (patterns.length == 0) throw new IllegalArgumentException("a consumer group needs at least one pattern");
            this.patterns = List.of(patterns);
            return this;
        }

        /** @param after how long a message may stay unfinished before it is delivered again, 10 ms to 1 day @return this */
        public Builder claimAfter(Duration after) {
            this.claimAfter = Objects.requireNonNull(after, "after");
            return this;
        }

        /** @param n deliveries of a message before it goes to the dead letters, 1 to 1,000 @return this */
        public Builder maxDeliveries(int n) {
            this.maxDeliveries = n;
            return this;
        }

        /** @param n messages one consumer has in its handler at once, 1 to 100,000 @return this */
        public Builder maxInFlight(int n) {
            this.maxInFlight = n;
            return this;
        }

        /** @return the settings @throws IllegalArgumentException for a value out of its range */
        public ConsumerGroup build() {
            return new ConsumerGroup(this);
        }
    }

    /**
     * @param consumer this consumer's name in the group (letters, digits, {@code . _ -}, 1 to 64)
     * @return these settings for a consumer of that name
     */
    public ConsumerGroup withConsumer(String consumer) {
        Builder b = new Builder(name).consumer(consumer).claimAfter(claimAfter).maxDeliveries(maxDeliveries).maxInFlight(maxInFlight);
        b.patterns = patterns;
        return b.build();
    }

    /**
     * The consumer name a server gives a group that names none ({@link Tidemill#consume}): the
     * environment variable {@code TIDEMILL_NODE_ID} when set, else this host's name and the port,
     * {@code <host>-<port>} (characters other than letters, digits, {@code . _ -} become {@code -}).
     * Stable across restarts on the same host and port, so a node started again takes up the
     * messages it had left unfinished before the others claim them.
     *
     * @param port the server's port
     * @return the name
     */
    public static String defaultConsumer(int port) {
        String id = System.getenv("TIDEMILL_NODE_ID");
        if (id != null && !id.isBlank()) return checkName(id.strip(), "node");
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            host = "node";
        }
        String suffix = "-" + port;
        String clean = host.replaceAll("[^A-Za-z0-9._-]", "-");
        return clean.substring(0, Math.min(clean.length(), 64 - suffix.length())) + suffix;
    }

    private static String checkName(String name, String what) {
        if (name == null || !name.matches("[A-Za-z0-9._-]{1,64}")) {
            throw new IllegalArgumentException("a " + what + " name is 1 to 64 letters, digits, '.', '_' or '-'");
        }
        return name;
    }
}
