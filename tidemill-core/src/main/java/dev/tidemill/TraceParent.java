package dev.tidemill;

import java.util.Optional;

/**
 * A W3C Trace Context {@code traceparent} header (https://www.w3.org/TR/trace-context/), parsed
 * and validated: what a handler hands to a tracer (OpenTelemetry's
 * {@code SpanContext.createFromRemoteParent(traceId, parentId, ...)}, say) to continue the
 * caller's trace. Tidemill depends on no tracing library; it only reads the header.
 *
 * @param version two lowercase hex digits, never {@code ff}
 * @param traceId 32 lowercase hex digits, not all zero
 * @param parentId 16 lowercase hex digits, not all zero
 * @param flags two lowercase hex digits; bit 0 is "sampled"
 */
public record TraceParent(String version, String traceId, String parentId, String flags) {

    /** Checks each field's form; throws {@link IllegalArgumentException} naming the first bad one. */
    public TraceParent {
        if (version == null || version.length() != 2 || !hex(version, 0, 2) || version.equals("ff")) {
            throw new IllegalArgumentException("version must be two lowercase hex digits, not ff");
        }
        if (traceId == null || traceId.length() != 32 || !hex(traceId, 0, 32) || zero(traceId)) {
            throw new IllegalArgumentException("traceId must be 32 lowercase hex digits, not all zero");
        }
        if (parentId == null || parentId.length() != 16 || !hex(parentId, 0, 16) || zero(parentId)) {
            throw new IllegalArgumentException("parentId must be 16 lowercase hex digits, not all zero");
        }
        if (flags == null || flags.length() != 2 || !hex(flags, 0, 2)) {
            throw new IllegalArgumentException("flags must be two lowercase hex digits");
        }
    }

    /**
     * Parses a header value by the spec's rules: version {@code 00} must be exactly 55 characters;
     * a higher version may be longer if what follows the flags starts with {@code -}.
     *
     * @param header the header value
     * @return the parsed value, or empty if it is not a valid {@code traceparent}
     */
    public static Optional<TraceParent> parse(String header) {
        if (header == null || header.length() < 55) return Optional.empty();
        String v = header.substring(0, 2);
        if (!hex(header, 0, 2) || v.equals("ff") || header.charAt(2) != '-' || !hex(header, 3, 35)
                || header.charAt(35) != '-' || !hex(header, 36, 52) || header.charAt(52) != '-' || !hex(header, 53, 55)) {
            return Optional.empty();
        }
        if (v.equals("00") ? header.length() != 55 : header.length() > 55 && header.charAt(55) != '-') {
            return Optional.empty();
        }
        String trace = header.substring(3, 35);
        String parent = header.substring(36, 52);
        if (zero(trace) || zero(parent)) return Optional.empty();
        return Optional.of(new TraceParent(v, trace, parent, header.substring(53, 55)));
    }

    /** @return whether the caller sampled this trace (flags bit 0) */
    public boolean sampled() {
        return (Character.digit(flags.charAt(1), 16) & 1) == 1;
    }

    /** @return the header value, {@code version-traceId-parentId-flags} */
    @Override
    public String toString() {
        return version + "-" + traceId + "-" + parentId + "-" + flags;
    }

    private static boolean hex(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) return false;
        }
        return true;
    }

    private static boolean zero(String s) {
        for (int i = 0; i < s.length(); i++) if (s.charAt(i) != '0') return false;
        return true;
    }
}
