package dev.tidemill.internal.websocket;

import java.nio.charset.StandardCharsets;

/** Close reasons as a close frame can carry them. */
final class CloseReason {
    private CloseReason() {}

    /** @return {@code reason} cut to the 123 bytes a close frame has room for (RFC 6455 5.5), on a character boundary */
    static String fit(String reason) {
        if (reason.length() <= 41) return reason; // 41 chars are at most 123 bytes
        byte[] b = reason.getBytes(StandardCharsets.UTF_8);
        if (b.length <= 123) return reason;
        int end = 123;
        while (end > 0 && (b[end] & 0xC0) == 0x80) end--; // do not split a code point
        return new String(b, 0, end, StandardCharsets.UTF_8);
    }
}
