package dev.tidemill.internal.server;

import io.netty.util.AsciiString;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The {@code Date} header value, formatted at most once per second rather than per request
 * (formatting an RFC 1123 date costs about a microsecond; a clock read costs nanoseconds).
 */
public final class DateHeader {
    private record Stamp(long second, AsciiString value) {}

    // IMF-fixdate (RFC 9110 5.6.7): two-digit day, unlike DateTimeFormatter.RFC_1123_DATE_TIME.
    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", java.util.Locale.US);

    private static volatile Stamp current = format(System.currentTimeMillis() / 1000);

    private DateHeader() {}

    /** @return the current date, e.g. {@code Mon, 30 Nov 2026 06:40:16 GMT} */
    public static AsciiString now() {
        long second = System.currentTimeMillis() / 1000;
        Stamp s = current;
        if (s.second != second) {
            // Racing threads may both format; the result is identical and the write is atomic.
            s = format(second);
            current = s;
        }
        return s.value;
    }

    private static Stamp format(long second) {
        String text = IMF_FIXDATE.format(Instant.ofEpochSecond(second).atOffset(ZoneOffset.UTC));
        return new Stamp(second, AsciiString.cached(text));
    }
}
