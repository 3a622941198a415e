package dev.tidemill.internal.routing;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses query strings and {@code application/x-www-form-urlencoded} bodies: pairs split on
 * {@code &}, key and value split on the first {@code =}, {@code +} means a space, keys and values
 * percent-decoded. A key without {@code =} has the value {@code ""}; empty pairs ({@code a=1&&b=2})
 * are skipped. Repeated keys keep their values in order. The maps are read-only and keep the keys
 * in first-seen order.
 */
public final class QueryString {
    private QueryString() {}

    /**
     * @param rawQuery the query string without {@code ?}, still percent-encoded; may be null or empty
     * @return the parameters, decoded as UTF-8
     * @throws MalformedEncodingException {@code invalid percent-encoding in query}
     * @throws TooManyParametersException beyond {@link dev.tidemill.Limits#maxQueryPairs()} pairs (the default)
     */
    public static Map<String, List<String>> parse(String rawQuery) {
        return parse(rawQuery, dev.tidemill.Limits.DEFAULTS.maxQueryPairs());
    }

    /**
     * @param rawQuery the query string without {@code ?}, still percent-encoded; may be null or empty
     * @param maxPairs the most pairs accepted ({@link dev.tidemill.Limits#maxQueryPairs()}): every
     *     pair costs a map entry and a list, so past it parsing stops before it costs more
     * @return the parameters, decoded as UTF-8
     * @throws MalformedEncodingException {@code invalid percent-encoding in query}
     * @throws TooManyParametersException beyond {@code maxPairs} pairs
     */
    public static Map<String, List<String>> parse(String rawQuery, int maxPairs) {
        if (rawQuery == null || rawQuery.isEmpty()) return Map.of();
        return parse(rawQuery, false, StandardCharsets.UTF_8, "query", maxPairs);
    }

    /**
     * @param body a form body; may be null or empty
     * @param cs the charset of the percent-decoded bytes (from {@code Content-Type}, UTF-8 by
     *     default); must be ASCII-compatible, since {@code &}, {@code =}, {@code +} and {@code %} are
     *     recognised as ASCII bytes
     * @return the fields
     * @throws MalformedEncodingException {@code invalid percent-encoding in form body}
     * @throws TooManyParametersException beyond {@link dev.tidemill.Limits#maxQueryPairs()} pairs (the default)
     */
    public static Map<String, List<String>> parseForm(byte[] body, Charset cs) {
        return parseForm(body, cs, dev.tidemill.Limits.DEFAULTS.maxQueryPairs());
    }

    /**
     * Like {@link #parseForm(byte[], Charset)}, with the pair limit given.
     *
     * @param body a form body; may be null or empty
     * @param cs the charset of the percent-decoded bytes
     * @param maxPairs the most fields accepted
     * @return the fields
     */
    public static Map<String, List<String>> parseForm(byte[] body, Charset cs, int maxPairs) {
        if (body == null || body.length == 0) return Map.of();
        // ISO-8859-1 maps each byte to one char, so the parser sees the bytes unchanged and only the
        // decoded bytes of each key or value go through cs.
        return parse(new String(body, StandardCharsets.ISO_8859_1), true, cs, "form body", maxPairs);
    }

    private static Map<String, List<String>> parse(String s, boolean charsAreBytes, Charset cs, String where, int maxPairs) {
        Map<String, List<String>> map = new LinkedHashMap<>();
        int n = s.length();
        int pairs = 0;
        for (int i = 0; i <= n; ) {
            int amp = s.indexOf('&', i);
            if (amp < 0) amp = n;
            if (amp > i) {
                // Counted before decoding, so an oversized input stops before it costs anything more.
                if (++pairs > maxPairs) {
                    throw new TooManyParametersException("more than " + maxPairs + " parameters in " + where);
                }
                int eq = s.indexOf('=', i, amp);
                String key = PathDecoder.decode(s, i, eq < 0 ? amp : eq, true, charsAreBytes, cs, where);
                String value = eq < 0 ? "" : PathDecoder.decode(s, eq + 1, amp, true, charsAreBytes, cs, where);
                map.computeIfAbsent(key, k -> new ArrayList<>(1)).add(value);
            }
            i = amp + 1;
        }
        for (Map.Entry<String, List<String>> e : map.entrySet()) e.setValue(Collections.unmodifiableList(e.getValue()));
        return Collections.unmodifiableMap(map);
    }
}
