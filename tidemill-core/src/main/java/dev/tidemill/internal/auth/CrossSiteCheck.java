package dev.tidemill.internal.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * CSRF protection for requests that carry an ambient credential (the session cookie, Basic, a TLS
 * client certificate) and may change something (any method but GET, HEAD, OPTIONS and TRACE), by
 * Fetch Metadata, as OWASP recommends and Go's {@code CrossOriginProtection} does: an {@code Origin}
 * on the trusted list passes; else {@code Sec-Fetch-Site} decides ({@code same-origin} or
 * {@code none} pass, anything else is refused); without it, {@code Origin} must be the request's
 * own; with neither, only the session's synchronizer token passes, in {@code X-CSRF-Token} or, for
 * a URL-encoded form, in its {@value #FORM_FIELD} field ({@link FormToken}, checked once the body
 * is read). A second tab of the same site sends {@code same-origin}, so nothing here depends on
 * per-page state.
 */
final class CrossSiteCheck {
    /** The header that carries the synchronizer token. */
    static final String TOKEN_HEADER = "X-CSRF-Token";
    /** The form field that carries the synchronizer token (what {@code Tags.csrfField} writes). */
    static final String FORM_FIELD = dev.tidemill.Session.CSRF_FIELD;
    /** The refusal when no header says where the request came from and no token came in a header. */
    static final String NO_SIGNAL = "neither Sec-Fetch-Site nor Origin, and no valid " + TOKEN_HEADER + " or " + FORM_FIELD + " form field";
    private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS", "TRACE");

    private CrossSiteCheck() {}

    /**
     * @param method the request's method
     * @param fields the request's header fields
     * @param secure whether the request came over TLS (its own origin's scheme)
     * @param trusted origins that always pass
     * @param token the session's synchronizer token, or null without a session
     * @return null when the request passes, else why it is refused
     */
    static String refusal(String method, Function<String, List<String>> fields, boolean secure, Set<String> trusted, String token) {
        if (SAFE.contains(method)) return null;
        String origin = first(fields, "Origin");
        if (origin != null && trusted.contains(origin)) return null;
        String site = first(fields, "Sec-Fetch-Site");
        if (site != null) {
            String s = site.trim().toLowerCase(Locale.ROOT);
            return s.equals("same-origin") || s.equals("none") ? null : "a " + s + " request (Sec-Fetch-Site)";
        }
        if (origin != null) {
            String host = first(fields, "Host");
            String own = (secure ? "https://" : "http://") + (host == null ? "" : host.trim().toLowerCase(Locale.ROOT));
            return origin.trim().toLowerCase(Locale.ROOT).equals(own) ? null : "a request from another origin (Origin)";
        }
        String sent = first(fields, TOKEN_HEADER);
        if (token != null && sent != null
                && MessageDigest.isEqual(sent.trim().getBytes(StandardCharsets.US_ASCII), token.getBytes(StandardCharsets.US_ASCII))) {
            return null;
        }
        return NO_SIGNAL;
    }

    /** @return whether the request's body is a URL-encoded form, which may carry the token in {@value #FORM_FIELD} */
    static boolean urlEncodedForm(Function<String, List<String>> fields) {
        String type = first(fields, "Content-Type");
        return type != null && type.trim().toLowerCase(Locale.ROOT).startsWith("application/x-www-form-urlencoded");
    }

    private static String first(Function<String, List<String>> fields, String name) {
        List<String> v = fields.apply(name);
        return v.isEmpty() ? null : v.get(0);
    }
}
