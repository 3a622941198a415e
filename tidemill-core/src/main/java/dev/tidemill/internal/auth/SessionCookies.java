package dev.tidemill.internal.auth;

import dev.tidemill.Sessions;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The session cookie: a random id and its HMAC-SHA256 (the first key signs, every key verifies),
 * {@code <32 chars of id>.<22 chars of MAC>}, 55 characters whatever the session holds. A value
 * that does not verify is no session at all: the store is never asked about it.
 */
final class SessionCookies {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final int ID_BYTES = 24, MAC_BYTES = 16;

    private final List<SecretKeySpec> keys;
    /** The cookie's name as set: with {@code __Host-} where the prefix applies. */
    final String name;
    /** Whether cookies are {@code Secure} and {@code __Host-} (TLS, or a loopback host). */
    final boolean secure;
    private final String attributes;

    /**
     * @param settings the session settings
     * @param secure whether the cookie may be {@code Secure} and {@code __Host-} (TLS, or a loopback host)
     */
    SessionCookies(Sessions settings, boolean secure) {
        List<SecretKeySpec> k = new ArrayList<>();
        for (byte[] key : settings.keys()) k.add(new SecretKeySpec(key, "HmacSHA256"));
        if (k.isEmpty()) {
            byte[] random = new byte[32];
            RANDOM.nextBytes(random);
            k.add(new SecretKeySpec(random, "HmacSHA256"));
        }
        keys = List.copyOf(k);
        this.secure = secure;
        name = (secure ? "__Host-" : "") + settings.cookieName();
        attributes = "; Path=/" + (secure ? "; Secure" : "") + "; HttpOnly; SameSite=Lax";
    }

    /** @return a new session id */
    static String newId() {
        byte[] id = new byte[ID_BYTES];
        RANDOM.nextBytes(id);
        return B64.encodeToString(id);
    }

    /** @return a new CSRF synchronizer token */
    static String newToken() {
        return newId();
    }

    /** @return the {@code Set-Cookie} value that gives the browser this id */
    String set(String id) {
        return name + "=" + id + "." + mac(keys.get(0), id) + attributes;
    }

    /** @return the {@code Set-Cookie} value that removes the cookie */
    String clear() {
        return name + "=" + attributes + "; Max-Age=0";
    }

    /** @return the id a cookie value carries, or null when it does not verify under any key */
    String verify(String value) {
        int dot = value.indexOf('.');
        if (dot != ID_BYTES * 4 / 3 || value.length() > 80) return null;
        String id = value.substring(0, dot);
        byte[] sent = value.substring(dot + 1).getBytes(StandardCharsets.US_ASCII);
        boolean ok = false;
        for (SecretKeySpec key : keys) ok |= MessageDigest.isEqual(sent, mac(key, id).getBytes(StandardCharsets.US_ASCII));
        return ok ? id : null;
    }

    /** @return {@code payload}'s MAC under the signing key: for other values the server hands a browser (sign-in attempts) */
    String sign(String payload) {
        return mac(keys.get(0), payload);
    }

    /** @return whether {@code sent} is {@code payload}'s MAC under any key */
    boolean signed(String payload, String sent) {
        boolean ok = false;
        byte[] given = sent.getBytes(StandardCharsets.US_ASCII);
        for (SecretKeySpec key : keys) ok |= MessageDigest.isEqual(given, mac(key, payload).getBytes(StandardCharsets.US_ASCII));
        return ok;
    }

    /** @return the named cookie's value among the request's {@code Cookie} fields, or null */
    String find(List<String> cookieFields) {
        for (String field : cookieFields) {
            for (String pair : field.split(";")) {
                String p = pair.strip();
                if (p.startsWith(name) && p.length() > name.length() && p.charAt(name.length()) == '=') {
                    return p.substring(name.length() + 1);
                }
            }
        }
        return null;
    }

    private static String mac(SecretKeySpec key, String id) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return B64.encodeToString(Arrays.copyOf(mac.doFinal(id.getBytes(StandardCharsets.UTF_8)), MAC_BYTES));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
