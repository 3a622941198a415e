package dev.tidemill.internal.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * One sign-in attempt: its {@code state}, {@code nonce} and PKCE verifier, when it expires, and
 * the local path to return to. It lives in a cookie of its own, named after its state and signed
 * with the session keys, so an attempt costs the server no memory before the provider sends the
 * browser back (a flood of {@code /login} requests fills nothing), works on any node with the same
 * keys, and several tabs each have theirs. The callback accepts a state only in the browser that
 * holds its cookie (RFC 6749 10.12: a code sent to another browser is refused).
 *
 * @param state 128 random bits, base64url
 * @param nonce 128 random bits, base64url
 * @param verifier the PKCE code verifier: 256 random bits, base64url (43 characters, RFC 7636 4.1)
 * @param expires when the attempt stops being good
 * @param next the local path to send the browser to afterwards
 */
record LoginAttempt(String state, String nonce, String verifier, Instant expires, String next) {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    /** Cookie names are this, after {@code __Host-} where it applies, then the state's first {@link #NAME_CHARS} characters. */
    static final String COOKIE = "tidemill_login_";
    static final int NAME_CHARS = 10;
    /** The most attempts a browser has open: older ones are dropped when it starts another. */
    static final int MAX_OPEN = 4;
    /** The longest path to return to that an attempt carries; a longer {@code next} returns to {@code /}. */
    static final int MAX_NEXT = 512;

    /** @return a new attempt, good until {@code expires}, returning to {@code next} */
    static LoginAttempt start(Instant expires, String next) {
        return new LoginAttempt(random(16), random(16), random(32), expires, next);
    }

    private static String random(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        return B64.encodeToString(b);
    }

    /** @return the S256 code challenge of the verifier (RFC 7636 4.2) */
    String challenge() {
        try {
            return B64.encodeToString(MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return the cookie's name for {@code state} */
    static String cookieName(SessionCookies keys, String state) {
        return (keys.secure ? "__Host-" : "") + COOKIE + state.substring(0, Math.min(NAME_CHARS, state.length()));
    }

    /** @return the {@code Set-Cookie} value that hands the browser this attempt, for as long as it is good */
    String setCookie(SessionCookies keys) {
        String payload = state + "." + nonce + "." + verifier + "." + expires.getEpochSecond() + "."
                + B64.encodeToString(next.getBytes(StandardCharsets.UTF_8));
        long maxAge = Math.max(1, expires.getEpochSecond() - Instant.now().getEpochSecond());
        return cookieName(keys, state) + "=" + payload + "." + keys.sign(payload) + attributes(keys) + "; Max-Age=" + maxAge;
    }

    /** @return the {@code Set-Cookie} value that removes the attempt's cookie */
    static String clearCookie(SessionCookies keys, String state) {
        return cookieName(keys, state) + "=" + attributes(keys) + "; Max-Age=0";
    }

    private static String attributes(SessionCookies keys) {
        return "; Path=/" + (keys.secure ? "; Secure" : "") + "; HttpOnly; SameSite=Lax";
    }

    /**
     * @param keys the session keys
     * @param value a cookie's value
     * @return the attempt it carries, or null when it is not one this server signed (or is malformed)
     */
    static LoginAttempt read(SessionCookies keys, String value) {
        if (value == null || value.length() > 1024) return null;
        int mac = value.lastIndexOf('.');
        if (mac < 0 || !keys.signed(value.substring(0, mac), value.substring(mac + 1))) return null;
        String[] p = value.substring(0, mac).split("\\.", -1);
        if (p.length != 5) return null;
        try {
            return new LoginAttempt(p[0], p[1], p[2], Instant.ofEpochSecond(Long.parseLong(p[3])),
                    new String(Base64.getUrlDecoder().decode(p[4]), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** @return the states of the attempt cookies among the request's {@code Cookie} fields, in the order sent */
    static List<String> openAttempts(SessionCookies keys, List<String> cookieFields) {
        String prefix = (keys.secure ? "__Host-" : "") + COOKIE;
        List<String> out = new ArrayList<>();
        for (String field : cookieFields) {
            for (String pair : field.split(";")) {
                String p = pair.strip();
                int eq = p.indexOf('=');
                if (p.startsWith(prefix) && eq > 0) {
                    LoginAttempt a = read(keys, p.substring(eq + 1));
                    if (a != null) out.add(a.state + " " + a.expires.getEpochSecond());
                }
            }
        }
        out.sort(java.util.Comparator.comparingLong(s -> Long.parseLong(s.substring(s.indexOf(' ') + 1))));
        return out.stream().map(s -> s.substring(0, s.indexOf(' '))).toList();
    }

    /** @return {@code next} when it is a local path (one slash, then no scheme or host), else {@code /} */
    static String localPath(String next) {
        if (next == null || next.length() > MAX_NEXT || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
        for (int i = 0; i < next.length(); i++) {
            char c = next.charAt(i);
            if (c <= 0x20 || c >= 0x7f || c == '\\') return "/";
        }
        return next;
    }
}
