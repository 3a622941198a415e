package dev.tidemill.internal.routing;

/**
 * The slow path, for a path holding {@code %}: the text to match, with each segment that holds
 * {@code %} replaced by its decoded form, and the raw index of each segment boundary. A segment
 * that does not decode, or decodes to text holding {@code /}, becomes {@link RoutePattern#NO_MATCH}
 * (a character no literal may hold): it can still fill a parameter, but no literal. Used by
 * {@link Router} only; the common path without {@code %} is matched in place, without this.
 */
final class DecodedPath {
    /** The path as sent. */
    final String raw;
    /** The text to match: same slashes as {@code raw}, segments holding {@code %} decoded. */
    final String text;
    /** For each segment start and end in {@code text}, the same position in {@code raw}. */
    final int[] rawIndex;

    private DecodedPath(String raw, String text, int[] rawIndex) {
        this.raw = raw;
        this.text = text;
        this.rawIndex = rawIndex;
    }

    /** @param raw a path starting with {@code /} @return its decoded view */
    static DecodedPath of(String raw) {
        int n = raw.length();
        StringBuilder text = new StringBuilder(n);
        // Decoding never lengthens a segment, so text is at most as long as raw.
        int[] rawIndex = new int[n + 1];
        int i = 0; // raw[i] == '/'
        while (true) {
            text.append('/');
            int start = i + 1;
            int end = raw.indexOf('/', start);
            if (end < 0) end = n;
            rawIndex[text.length()] = start;
            if (raw.indexOf('%', start, end) < 0) {
                text.append(raw, start, end);
            } else {
                text.append(decodeSegment(raw, start, end));
            }
            rawIndex[text.length()] = end;
            if (end == n) break;
            i = end;
        }
        return new DecodedPath(raw, text.toString(), rawIndex);
    }

    private static String decodeSegment(String raw, int start, int end) {
        try {
            String d = PathDecoder.decode(raw.substring(start, end));
            return d.indexOf('/') < 0 ? d : RoutePattern.NO_MATCH_TEXT;
        } catch (MalformedEncodingException e) {
            return RoutePattern.NO_MATCH_TEXT;
        }
    }
}
