package dev.tidemill;

import java.time.Duration;

/**
 * The allowed range of one setting, defined once: the record that holds the setting checks it in
 * its constructor, and the environment reader parses against the same range and prints it in its
 * error message. Messages name the field and the range, never the value (it could be a secret
 * pasted into the wrong place).
 */
final class Range {
    /** How a value is written: a plain integer, a size in bytes, or a duration. */
    enum Kind { COUNT, BYTES, DURATION }

    private final String field;
    private final Kind kind;
    /** Bounds, inclusive; nanoseconds for {@link Kind#DURATION}. */
    private final long min;
    private final long max;

    private Range(String field, Kind kind, long min, long max) {
        if (min > max) throw new IllegalArgumentException(field + ": empty range");
        this.field = field;
        this.kind = kind;
        this.min = min;
        this.max = max;
    }

    static Range count(String field, long min, long max) {
        return new Range(field, Kind.COUNT, min, max);
    }

    static Range bytes(String field, long min, long max) {
        return new Range(field, Kind.BYTES, min, max);
    }

    static Range duration(String field, Duration min, Duration max) {
        return new Range(field, Kind.DURATION, min.toNanos(), max.toNanos());
    }

    /** @return the record component this range belongs to, e.g. {@code maxPipelined} */
    String field() {
        return field;
    }

    Kind kind() {
        return kind;
    }

    long min() {
        return min;
    }

    long max() {
        return max;
    }

    boolean contains(long value) {
        return value >= min && value <= max;
    }

    boolean contains(Duration value) {
        // Compared without toNanos(), which overflows for durations over ~292 years.
        return value != null && value.compareTo(Duration.ofNanos(min)) >= 0 && value.compareTo(Duration.ofNanos(max)) <= 0;
    }

    /** Throws {@link IllegalArgumentException} naming the field and the range when {@code value} is outside. */
    void check(long value) {
        if (!contains(value)) throw outside();
    }

    /** Like {@link #check(long)}, for a duration; null is outside. */
    void check(Duration value) {
        if (!contains(value)) throw outside();
    }

    private IllegalArgumentException outside() {
        return new IllegalArgumentException(field + " must be " + describe());
    }

    /** @return what the range accepts, e.g. {@code an integer 1-65536}, {@code a size 1B-1MiB}, {@code a duration 1ms-24h} */
    String describe() {
        return switch (kind) {
            case COUNT -> "an integer ";
            case BYTES -> "a size ";
            case DURATION -> "a duration ";
        } + span();
    }

    /** @return the bounds as the README's range column writes them: {@code 1-65536}, {@code 1B-1MiB}, {@code 1ms-24h} */
    String span() {
        return switch (kind) {
            case COUNT -> min + "-" + max;
            case BYTES -> size(min) + "-" + size(max);
            case DURATION -> duration(min) + "-" + duration(max);
        };
    }

    @Override
    public String toString() {
        return field + " " + span();
    }

    /** Written the way the environment reader parses it: {@code 8KiB}, {@code 16MiB}, {@code 100B}. */
    static String size(long bytes) {
        if (bytes != 0 && bytes % (1L << 30) == 0) return bytes / (1L << 30) + "GiB";
        if (bytes != 0 && bytes % (1L << 20) == 0) return bytes / (1L << 20) + "MiB";
        if (bytes != 0 && bytes % (1L << 10) == 0) return bytes / (1L << 10) + "KiB";
        return bytes + "B";
    }

    /** Written the way the environment reader parses it: {@code 24h}, {@code 5m}, {@code 30s}, {@code 250ms}. */
    static String duration(long nanos) {
        Duration d = Duration.ofNanos(nanos);
        if (!d.isZero() && d.toHours() * 3_600_000_000_000L == nanos) return d.toHours() + "h";
        if (!d.isZero() && d.toMinutes() * 60_000_000_000L == nanos) return d.toMinutes() + "m";
        if (d.toSeconds() * 1_000_000_000L == nanos) return d.toSeconds() + "s";
        return d.toMillis() + "ms";
    }
}
