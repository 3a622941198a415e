package dev.tidemill.internal.codec;

import java.util.List;

/**
 * Picks a response's content coding from the request's {@code Accept-Encoding} (RFC 9110
 * 12.5.3). Pure logic, no state.
 *
 * <ul>
 *   <li>The coding with the highest q-value wins; {@code *} stands for every coding not named;
 *       {@code x-gzip} is {@code gzip} (RFC 9110 8.4.1.3); names are case-insensitive.
 *   <li>Ties go br, then zstd, then gzip (smallest output first on text, see docs/compression.md),
 *       and a coding beats {@code identity} at equal q: compressing is why the client sent the
 *       header.
 *   <li>{@code identity} is acceptable unless the header says {@code identity;q=0}, or
 *       {@code *;q=0} without naming {@code identity}. An unnamed {@code identity} ranks below
 *       every acceptable coding.
 *   <li>No header, an empty one, or one that does not parse (a bad q-value, a bad token): identity.
 *       A malformed header is the client's bug; refusing it with 406 would punish its users for
 *       nothing the server needs.
 * </ul>
 */
public final class AcceptEncoding {
    /** A coding {@link #negotiate} can pick. */
    public enum Choice { BR, ZSTD, GZIP, IDENTITY, NONE_ACCEPTABLE }

    /**
     * What {@link #negotiate} found.
     *
     * @param choice the coding to send
     * @param identityAcceptable whether the client takes the body as it is (a body under the
     *     minimum size is sent compressed only when it does not)
     */
    public record Result(Choice choice, boolean identityAcceptable) {}

    private static final Result IDENTITY = new Result(Choice.IDENTITY, true);

    // q-values in thousandths; UNSET: not named.
    private static final int UNSET = -1;

    private AcceptEncoding() {}

    /**
     * @param values every {@code Accept-Encoding} field of the request, in order (several fields
     *     are one comma-separated list, RFC 9110 5.3)
     * @param brotli whether br can be sent (its native library loaded); when not, the client's
     *     next preference wins
     * @return the coding to send ({@link Choice#NONE_ACCEPTABLE} when neither a coding of ours nor
     *     identity is acceptable) and whether identity is
     */
    public static Result negotiate(List<String> values, boolean brotli) {
        return negotiate(values, brotli, true, true);
    }

    /**
     * The same negotiation over the codings one representation has (a static asset keeps only the
     * precompressed variants that came out smaller): a coding it lacks counts as not acceptable,
     * so the client's next preference wins.
     *
     * @param values every {@code Accept-Encoding} field of the request, in order
     * @param brotli whether a br form can be sent
     * @param zstdAvailable whether a zstd form can be sent
     * @param gzipAvailable whether a gzip form can be sent
     * @return the coding to send and whether identity is acceptable
     */
    public static Result negotiate(List<String> values, boolean brotli, boolean zstdAvailable, boolean gzipAvailable) {
        if (values.isEmpty()) return IDENTITY;
        int br = UNSET, zstd = UNSET, gzip = UNSET, identity = UNSET, star = UNSET;
        for (String value : values) {
            int i = 0, n = value.length();
            while (i < n) {
                i = skipOws(value, i);
                if (i < n && value.charAt(i) == ',') { i++; continue; } // empty list element (RFC 9110 5.6.1)
                int start = i;
                while (i < n && isTchar(value.charAt(i))) i++;
                if (i == start) return IDENTITY;
                String name = value.substring(start, i);
                int q = 1000;
                i = skipOws(value, i);
                if (i < n && value.charAt(i) == ';') {
                    i = skipOws(value, i + 1);
                    if (i + 1 >= n || (value.charAt(i) | 0x20) != 'q' || value.charAt(i + 1) != '=') return IDENTITY;
                    i += 2;
                    int end = i;
                    while (end < n && (Character.isDigit(value.charAt(end)) || value.charAt(end) == '.')) end++;
                    q = qvalue(value, i, end);
                    if (q < 0) return IDENTITY;
                    i = skipOws(value, end);
                }
                if (i < n && value.charAt(i) != ',') return IDENTITY;
                if (name.equalsIgnoreCase("br")) br = Math.max(br, q);
                else if (name.equalsIgnoreCase("zstd")) zstd = Math.max(zstd, q);
                else if (name.equalsIgnoreCase("gzip") || name.equalsIgnoreCase("x-gzip")) gzip = Math.max(gzip, q);
                else if (name.equalsIgnoreCase("identity")) identity = Math.max(identity, q);
                else if (name.equals("*")) star = Math.max(star, q);
                // any other coding (deflate, compress, ...) is one we do not send: ignored
            }
        }
        int starOrZero = star == UNSET ? 0 : star;
        if (br == UNSET || !brotli) br = brotli ? starOrZero : 0;
        if (zstd == UNSET || !zstdAvailable) zstd = zstdAvailable ? starOrZero : 0;
        if (gzip == UNSET || !gzipAvailable) gzip = gzipAvailable ? starOrZero : 0;
        // An unnamed identity is acceptable (unless *;q=0) but below every acceptable coding: 0.5 of a thousandth.
        int identityRank = identity != UNSET ? identity * 2 : (star == 0 ? 0 : 1);
        int best = Math.max(br, Math.max(zstd, gzip));
        boolean identityAcceptable = identityRank > 0;
        if (best > 0 && best * 2 >= identityRank) {
            return new Result(br == best ? Choice.BR : zstd == best ? Choice.ZSTD : Choice.GZIP, identityAcceptable);
        }
        return identityAcceptable ? IDENTITY : new Result(Choice.NONE_ACCEPTABLE, false);
    }

    /** @return {@code qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )} in thousandths, or -1 */
    private static int qvalue(String s, int from, int to) {
        int len = to - from;
        if (len < 1 || len > 5) return -1;
        char first = s.charAt(from);
        if (first != '0' && first != '1') return -1;
        if (len == 1) return first == '1' ? 1000 : 0;
        if (s.charAt(from + 1) != '.') return -1;
        int frac = 0;
        for (int k = 0; k < 3; k++) {
            int at = from + 2 + k;
            int d = 0;
            if (at < to) {
                char c = s.charAt(at);
                if (c < '0' || c > '9') return -1;
                d = c - '0';
            }
            frac = frac * 10 + d;
        }
        if (first == '1') return frac == 0 ? 1000 : -1;
        return frac;
    }

    private static int skipOws(String s, int i) {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) i++;
        return i;
    }

    /** RFC 9110 5.6.2 tchar. */
    private static boolean isTchar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }
}
