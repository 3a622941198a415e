package dev.tidemill.internal.server;

import dev.tidemill.Assignment;
import dev.tidemill.Config;
import dev.tidemill.ExecutionMode;
import dev.tidemill.Transport;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Reads {@code TIDEMILL_*} environment variables into a {@link Config.Builder}. Each variable is
 * declared once below with what it expects; a bad value throws an {@link IllegalArgumentException}
 * naming the variable and the expectation but never the value, which could be a secret pasted into
 * the wrong variable.
 */
public final class EnvironmentConfig {

    /** One variable: its name, what it expects (for the error message) and how it applies. */
    private record Variable(String name, String expects, BiConsumer<Config.Builder, String> apply) {}

    private static final Map<String, Variable> VARIABLES = new LinkedHashMap<>();

    static {
        define("TIDEMILL_HOST", "a host name or IP address", (b, v) -> b.host(nonEmpty(v)));
        define("TIDEMILL_PORT", "an integer 0-65535", (b, v) -> b.port(intIn(v, 0, 65_535)));
        define("TIDEMILL_TRANSPORT", "one of auto, epoll, io_uring, nio",
                (b, v) -> b.transport(enumValue(Transport.class, v)));
        define("TIDEMILL_IO_THREADS", "an integer 0-1024 (0 = one per CPU)", (b, v) -> b.ioThreads(intIn(v, 0, 1024)));
        define("TIDEMILL_LOOPS", "an integer 0-1024 (0 = one per CPU)", (b, v) -> b.workerLoops(intIn(v, 0, 1024)));
        define("TIDEMILL_MODE", "one of io, loop, virtual", (b, v) -> b.executionMode(enumValue(ExecutionMode.class, v)));
        define("TIDEMILL_ASSIGNMENT", "one of least_loaded, round_robin",
                (b, v) -> b.assignment(enumValue(Assignment.class, v)));
        define("TIDEMILL_SERVER_HEADER", "visible ASCII text (empty omits the header)", Config.Builder::serverHeader);
        define("TIDEMILL_DEBUG", "true or false", (b, v) -> b.debug(bool(v)));
        define("TIDEMILL_CONCURRENCY_PER_LOOP", "a positive integer", (b, v) -> b.concurrencyPerLoop(intIn(v, 1, 1 << 24)));
        define("TIDEMILL_MAX_CONNECTIONS", "a positive integer", (b, v) -> b.maxConnections(intIn(v, 1, 1 << 24)));
        define("TIDEMILL_MAX_REQUEST_LINE", "a size such as 8KiB", (b, v) -> b.maxRequestLineBytes(intSize(v)));
        define("TIDEMILL_MAX_HEADER_SIZE", "a size such as 16KiB", (b, v) -> b.maxHeaderBytes(intSize(v)));
        define("TIDEMILL_MAX_HEADERS", "a positive integer", (b, v) -> b.maxHeaderCount(intIn(v, 1, 10_000)));
        define("TIDEMILL_MAX_BODY", "a size such as 16MiB", (b, v) -> b.maxBodyBytes(size(v)));
        define("TIDEMILL_MAX_PIPELINED", "a positive integer", (b, v) -> b.maxPipelined(intIn(v, 1, 1 << 16)));
        define("TIDEMILL_REQUEST_TIMEOUT", "a duration such as 30s or 500ms", (b, v) -> b.requestTimeout(duration(v)));
        define("TIDEMILL_HEADER_READ_TIMEOUT", "a duration such as 15s", (b, v) -> b.headerReadTimeout(duration(v)));
        define("TIDEMILL_IDLE_TIMEOUT", "a duration such as 15s", (b, v) -> b.idleTimeout(duration(v)));
        define("TIDEMILL_BODY_STALL_TIMEOUT", "a duration such as 30s", (b, v) -> b.bodyStallTimeout(duration(v)));
        define("TIDEMILL_WRITE_STALL_TIMEOUT", "a duration such as 30s", (b, v) -> b.writeStallTimeout(duration(v)));
        define("TIDEMILL_LINGER_TIMEOUT", "a duration such as 5s", (b, v) -> b.lingerTimeout(duration(v)));
        define("TIDEMILL_SHUTDOWN_GRACE", "a duration such as 10s", (b, v) -> b.shutdownGrace(duration(v)));
    }

    private EnvironmentConfig() {}

    private static void define(String name, String expects, BiConsumer<Config.Builder, String> apply) {
        VARIABLES.put(name, new Variable(name, expects, apply));
    }

    /** @return every supported variable with what it expects, in documentation order */
    public static Map<String, String> variables() {
        Map<String, String> out = new LinkedHashMap<>();
        VARIABLES.forEach((k, v) -> out.put(k, v.expects()));
        return out;
    }

    /**
     * Applies the variables present in {@code env} to {@code builder}. An unknown {@code TIDEMILL_*}
     * variable is refused too: a typo must not silently fall back to a default.
     *
     * @param env the environment
     * @param builder the builder to change
     * @return the builder
     */
    public static Config.Builder apply(Map<String, String> env, Config.Builder builder) {
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (!e.getKey().startsWith("TIDEMILL_")) continue;
            Variable var = VARIABLES.get(e.getKey());
            if (var == null) {
                if (e.getKey().equals("TIDEMILL_JAVA_OPTS")) continue; // read by the launcher script, not here
                throw new IllegalArgumentException(e.getKey() + " is not a Tidemill setting; known: "
                        + String.join(", ", VARIABLES.keySet()));
            }
            try {
                var.apply().accept(builder, e.getValue().strip());
                builder.build(); // range checks of the records, attributed to this variable
            } catch (RuntimeException ex) {
                // Deliberately drops ex's message: it may quote the value.
                throw new IllegalArgumentException(var.name() + " must be " + var.expects(), null);
            }
        }
        try {
            builder.build();
        } catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException("TIDEMILL_* settings are inconsistent: " + ex.getMessage(), null);
        }
        return builder;
    }

    private static String nonEmpty(String v) {
        if (v.isEmpty()) throw new IllegalArgumentException();
        return v;
    }

    private static int intIn(String v, int min, int max) {
        long n = Long.parseLong(v);
        if (n < min || n > max) throw new IllegalArgumentException();
        return (int) n;
    }

    private static boolean bool(String v) {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes", "on" -> true;
            case "false", "0", "no", "off" -> false;
            default -> throw new IllegalArgumentException();
        };
    }

    private static <E extends Enum<E>> E enumValue(Class<E> type, String v) {
        return Enum.valueOf(type, v.toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    private static int intSize(String v) {
        long n = size(v);
        if (n <= 0 || n > Integer.MAX_VALUE) throw new IllegalArgumentException();
        return (int) n;
    }

    private static final java.util.regex.Pattern SIZE =
            java.util.regex.Pattern.compile("(\\d{1,18})\\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?");

    /** Parses {@code 123}, {@code 8KiB}, {@code 16MiB}, {@code 1GiB}; k/kb/KiB all mean 1,024. */
    static long size(String v) {
        java.util.regex.Matcher m = SIZE.matcher(v.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) throw new IllegalArgumentException();
        long unit = switch (m.group(2) == null ? "b" : m.group(2)) {
            case "k", "kb", "kib" -> 1L << 10;
            case "m", "mb", "mib" -> 1L << 20;
            case "g", "gb", "gib" -> 1L << 30;
            default -> 1L;
        };
        long n = Long.parseLong(m.group(1));
        if (n > Long.MAX_VALUE / unit) throw new IllegalArgumentException();
        return n * unit;
    }

    /** Parses {@code 30s}, {@code 500ms}, {@code 2m}, {@code 1h} or ISO-8601 {@code PT30S}. */
    static Duration duration(String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        if (s.startsWith("pt") || s.startsWith("p")) return Duration.parse(v.trim());
        Function<Long, Duration> unit;
        String num;
        if (s.endsWith("ms")) {
            unit = Duration::ofMillis;
            num = s.substring(0, s.length() - 2);
        } else if (s.endsWith("s")) {
            unit = Duration::ofSeconds;
            num = s.substring(0, s.length() - 1);
        } else if (s.endsWith("m")) {
            unit = Duration::ofMinutes;
            num = s.substring(0, s.length() - 1);
        } else if (s.endsWith("h")) {
            unit = Duration::ofHours;
            num = s.substring(0, s.length() - 1);
        } else {
            throw new IllegalArgumentException();
        }
        if (num.isEmpty() || !num.chars().allMatch(c -> c >= '0' && c <= '9')) throw new IllegalArgumentException();
        return unit.apply(Long.parseLong(num));
    }
}
