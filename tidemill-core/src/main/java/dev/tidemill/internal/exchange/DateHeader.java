package dev.tidemill.internal.exchange;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The {@code Date} response header, formatted at most once per second rather than per response,
 * and kept as the bytes of a whole header line so an encoder copies it without formatting or
 * charset work. A running server refreshes it from a timer on one of its event loops
 * ({@link #keepFresh}), so a response does not even read the clock; with no server keeping it
 * fresh (a test on an {@code EmbeddedChannel}), each read checks the clock instead.
 */
public final class DateHeader {
    private record Stamp(long second, String value, byte[] line) {}

    // IMF-fixdate (RFC 9110 5.6.7): two-digit day, unlike DateTimeFormatter.RFC_1123_DATE_TIME.
    private static final DateTimeFormatter IMF_FIXDATE = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);

    private static volatile Stamp current = format(System.currentTimeMillis() / 1000);
    /** Servers whose timer keeps {@link #current} fresh. */
    private static final java.util.concurrent.atomic.AtomicInteger KEEPERS = new java.util.concurrent.atomic.AtomicInteger();

    private DateHeader() {}

    /** @return the current date, e.g. {@code Mon, 30 Nov 2026 06:40:16 GMT} */
    public static String now() {
        return stamp().value;
    }

    /** @return {@code Date: <now>\r\n} as bytes; shared, never modify */
    public static byte[] line() {
        return stamp().line;
    }

    /**
     * Refreshes the stamp every second on {@code executor} until the returned handle is closed.
     *
     * @param executor an event loop of the server
     * @return stops the refreshing
     */
    public static AutoCloseable keepFresh(io.netty.util.concurrent.EventExecutor executor) {
        long now = System.currentTimeMillis();
        io.netty.util.concurrent.ScheduledFuture<?> task = executor.scheduleAtFixedRate(DateHeader::refresh,
                1000 - now % 1000, 1000, java.util.concurrent.TimeUnit.MILLISECONDS);
        KEEPERS.incrementAndGet();
        refresh();
        return () -> {
            if (task.cancel(false)) KEEPERS.decrementAndGet();
        };
    }

    private static void refresh() {
        long second = System.currentTimeMillis() / 1000;
        if (current.second != second) current = format(second);
    }

    private static Stamp stamp() {
        if (KEEPERS.get() > 0) return current; // a timer keeps it fresh (up to its scheduling delay)
        long second = System.currentTimeMillis() / 1000;
        Stamp s = current;
        if (s.second != second) {
            // Racing threads may both format; the result is identical and the write is atomic.
            s = format(second);
            current = s;
        }
        return s;
    }

    private static Stamp format(long second) {
        String text = IMF_FIXDATE.format(Instant.ofEpochSecond(second).atOffset(ZoneOffset.UTC));
        return new Stamp(second, text, ("Date: " + text + "\r\n").getBytes(StandardCharsets.US_ASCII));
    }
}
