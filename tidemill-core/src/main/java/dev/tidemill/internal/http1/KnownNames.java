package dev.tidemill.internal.http1;

import io.netty.handler.codec.http.HttpMethod;
import java.nio.charset.StandardCharsets;

/**
 * The header names and methods most requests carry, as constant strings, so that the decoder's
 * fast path does not make a new String for each ({@code Host}, {@code Content-Type},
 * {@code Content-Length} and the method were 4 of the 5 Strings a request head cost). A name is
 * only taken from here when its bytes are exactly the constant's, case included: a handler that
 * logs or echoes header names sees what the client sent.
 */
final class KnownNames {
    private KnownNames() {}

    private static final String[] NAMES = {
        "Host", "host", "Accept", "accept", "Cookie", "cookie", "Origin", "origin", "Expect", "expect",
        "Referer", "referer", "Upgrade", "upgrade", "Connection", "connection", "User-Agent", "user-agent",
        "Content-Type", "content-type", "Authorization", "authorization", "Cache-Control", "cache-control",
        "Content-Length", "content-length", "Accept-Encoding", "accept-encoding", "Accept-Language",
        "accept-language", "Content-Encoding", "content-encoding", "If-None-Match", "if-none-match",
        "If-Modified-Since", "if-modified-since", "Sec-WebSocket-Key", "Sec-WebSocket-Version", "X-Forwarded-For",
    };
    private static final int LONGEST = 24;
    /** The names by length, each with its bytes. */
    private static final String[][] BY_LENGTH = new String[LONGEST + 1][];
    private static final byte[][][] BYTES_BY_LENGTH = new byte[LONGEST + 1][][];

    static {
        for (int len = 0; len <= LONGEST; len++) {
            int length = len;
            String[] names = java.util.Arrays.stream(NAMES).filter(n -> n.length() == length).toArray(String[]::new);
            BY_LENGTH[len] = names;
            BYTES_BY_LENGTH[len] = java.util.Arrays.stream(names).map(n -> n.getBytes(StandardCharsets.US_ASCII)).toArray(byte[][]::new);
        }
    }

    /**
     * @param h a head's bytes
     * @param from a name's first byte
     * @param to after its last
     * @return the name as a String, a shared constant when it is a known one
     */
    static String name(byte[] h, int from, int to) {
        int length = to - from;
        if (length <= LONGEST) {
            byte[][] candidates = BYTES_BY_LENGTH[length];
            for (int i = 0; i < candidates.length; i++) {
                if (java.util.Arrays.equals(h, from, to, candidates[i], 0, length)) return BY_LENGTH[length][i];
            }
        }
        return new String(h, from, length, StandardCharsets.ISO_8859_1);
    }

    /**
     * @param h a head's bytes
     * @param from the method's first byte
     * @param to after its last
     * @return the method, Netty's constant for the common ones
     */
    static HttpMethod method(byte[] h, int from, int to) {
        int length = to - from;
        if (length == 3 && h[from] == 'G' && h[from + 1] == 'E' && h[from + 2] == 'T') return HttpMethod.GET;
        if (length == 4 && h[from] == 'P' && h[from + 1] == 'O' && h[from + 2] == 'S' && h[from + 3] == 'T') return HttpMethod.POST;
        if (length == 3 && h[from] == 'P' && h[from + 1] == 'U' && h[from + 2] == 'T') return HttpMethod.PUT;
        return HttpMethod.valueOf(new String(h, from, length, StandardCharsets.ISO_8859_1));
    }
}
