package dev.tidemill.internal.assets;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;

/**
 * The validators of RFC 9110 section 13 that a static asset answers: {@code If-None-Match} (weak
 * comparison, {@code *}, lists), {@code If-Modified-Since} (only without {@code If-None-Match}),
 * and {@code If-Range} (strong comparison of an entity-tag, or the exact {@code Last-Modified}
 * date). Pure functions of header values; a value that does not parse is treated as absent for
 * {@code If-Modified-Since} and as matching nothing for the entity-tag lists, so a broken
 * validator costs a full response, never a wrong 304.
 */
final class Preconditions {
    /** IMF-fixdate, what {@code Last-Modified} is sent as (RFC 9110 5.6.7). */
    static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private Preconditions() {}

    /**
     * RFC 9110 13.1.2 and 13.2.2, step 3 and 4, for GET and HEAD.
     *
     * @param ifNoneMatch every {@code If-None-Match} value
     * @param ifModifiedSince every {@code If-Modified-Since} value
     * @param etag the representation's strong entity-tag, quotes included
     * @param lastModified the representation's time, whole seconds
     * @return whether the answer is {@code 304 Not Modified}
     */
    static boolean notModified(List<String> ifNoneMatch, List<String> ifModifiedSince, String etag, Instant lastModified) {
        if (!ifNoneMatch.isEmpty()) {
            for (String v : ifNoneMatch) if (matches(v, etag, false)) return true;
            return false; // If-None-Match present: If-Modified-Since is ignored (13.1.3)
        }
        if (ifModifiedSince.size() != 1) return false;
        Instant since = parseDate(ifModifiedSince.get(0));
        return since != null && !lastModified.isAfter(since);
    }

    /**
     * RFC 9110 13.1.5.
     *
     * @param ifRange the {@code If-Range} value
     * @return whether the range request may be served as a range ({@code false}: the whole representation)
     */
    static boolean rangeStillValid(String ifRange, String etag, Instant lastModified) {
        String v = ifRange.strip();
        if (v.startsWith("\"") || v.startsWith("W/")) return matches(v, etag, true) && !v.contains(",");
        Instant date = parseDate(v);
        return date != null && date.equals(lastModified);
    }

    /**
     * @param list {@code *} or a comma-separated list of entity-tags
     * @param etag ours, strong, quotes included
     * @param strong strong comparison (a weak tag never matches) rather than weak (the {@code W/} is ignored)
     * @return whether the list names ours; a malformed list matches from its well-formed head only
     */
    static boolean matches(String list, String etag, boolean strong) {
        String v = list.strip();
        if (v.equals("*")) return !strong;
        int i = 0, n = v.length();
        while (i < n) {
            char c = v.charAt(i);
            if (c == ' ' || c == '\t' || c == ',') { i++; continue; }
            boolean weak = false;
            if (c == 'W' && i + 1 < n && v.charAt(i + 1) == '/') {
                weak = true;
                i += 2;
            }
            if (i >= n || v.charAt(i) != '"') return false;
            int close = v.indexOf('"', i + 1);
            if (close < 0) return false;
            if (!(weak && strong) && v.regionMatches(i, etag, 0, etag.length()) && close + 1 - i == etag.length()) return true;
            i = close + 1;
        }
        return false;
    }

    /** @return the IMF-fixdate, RFC 850 or asctime date, or null if it is none of them */
    static Instant parseDate(String value) {
        String v = value.strip();
        try {
            return ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            return null; // the obsolete forms (RFC 850, asctime) are not sent by any current client
        }
    }
}
