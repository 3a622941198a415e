package dev.tidemill.internal.exchange;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The {@code X-Request-Id} rule: a client's id is taken when it is 1-200 characters of
 * {@code [A-Za-z0-9._-]} (what tracing proxies and load balancers send: UUIDs, hex, base64url
 * without padding), else ignored; a missing or invalid one is replaced by a generated id of 16
 * lowercase hex digits (64 random bits). The characters are limited so the id can go into a log
 * line or a header unescaped, and cannot split either.
 */
final class RequestIds {
    static final int MAX_LENGTH = 200;

    private RequestIds() {}

    /** @return {@code value} if it is a valid id, else null */
    static String valid(String value) {
        if (value == null || value.isEmpty() || value.length() > MAX_LENGTH) return null;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-')) {
                return null;
            }
        }
        return value;
    }

    /** @return a new id: 16 lowercase hex digits */
    static String generate() {
        String hex = Long.toHexString(ThreadLocalRandom.current().nextLong());
        return hex.length() == 16 ? hex : "0".repeat(16 - hex.length()) + hex;
    }
}
