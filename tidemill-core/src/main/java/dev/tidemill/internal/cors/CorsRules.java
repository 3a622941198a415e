package dev.tidemill.internal.cors;

import dev.tidemill.Cors;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The server's side of the Fetch standard's CORS protocol (fetch.spec.whatwg.org, "CORS
 * protocol"), for one {@link Cors} policy: the answer to a preflight, and the headers an actual
 * response gets. Pure functions of the request's headers; the exchange applies them.
 *
 * <p>What Fetch asks of the server and where it is kept: {@code Access-Control-Allow-Origin} is
 * the request's {@code Origin} echoed exactly, or {@code *} only for a policy without credentials;
 * {@code Access-Control-Allow-Credentials} is only ever {@code true}; header names compare
 * case-insensitively; {@code *} never covers {@code Authorization}; a response whose
 * {@code Allow-Origin} depends on {@code Origin} says {@code Vary: Origin}, also when the origin
 * was refused or absent, so a cache never hands one origin's answer to another.
 */
public final class CorsRules {
    /** Methods a browser sends without asking first (Fetch: CORS-safelisted methods). */
    private static final Set<String> SAFELISTED_METHODS = Set.of("GET", "HEAD", "POST");

    private CorsRules() {}

    /**
     * The answer to a preflight.
     *
     * @param refused what was refused ({@code origin}, {@code method} or {@code header}), null if allowed
     * @param detail for a refusal, the sentence naming it
     * @param headers the response headers, name/value pairs
     */
    public record Preflight(String refused, String detail, List<String> headers) {}

    /**
     * @param policy the policy of the route the preflight is for (never {@link Cors#none()})
     * @param origin the {@code Origin}
     * @param method the {@code Access-Control-Request-Method}
     * @param requestHeaders every {@code Access-Control-Request-Headers} value, possibly empty
     * @return the answer: 204 with the {@code Access-Control-*} headers, or what was refused
     */
    public static Preflight preflight(Cors policy, String origin, String method, List<String> requestHeaders) {
        List<String> vary = List.of("Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers");
        if (!policy.allowsOrigin(origin)) {
            return new Preflight("origin", "the origin " + printable(origin) + " is not allowed (CORS)", vary);
        }
        boolean creds = policy.allowCredentials();
        if (!policy.allowedMethods().contains(method) && !SAFELISTED_METHODS.contains(method)
                && !(!creds && policy.allowedMethods().contains("*"))) {
            return new Preflight("method", "the method " + printable(method) + " is not allowed for cross-origin requests; "
                    + "allowed: " + String.join(", ", sorted(policy.allowedMethods())), vary);
        }
        List<String> asked = new ArrayList<>();
        for (String value : requestHeaders) {
            for (String part : value.split(",")) {
                String name = part.strip().toLowerCase(Locale.ROOT);
                if (name.isEmpty()) continue;
                boolean allowed = policy.allowedHeaders().contains(name)
                        || (!creds && policy.allowedHeaders().contains("*") && !name.equals("authorization"));
                if (!allowed) {
                    return new Preflight("header", "the request header " + printable(name)
                            + " is not allowed for cross-origin requests" + (policy.allowedHeaders().isEmpty() ? ""
                            : "; allowed: " + String.join(", ", sorted(policy.allowedHeaders()))), vary);
                }
                asked.add(name);
            }
        }
        List<String> h = new ArrayList<>(12);
        allowOrigin(policy, origin, h);
        h.add("Access-Control-Allow-Methods");
        h.add(method); // the one asked for: never '*', which means nothing to a credentialed preflight
        if (!asked.isEmpty()) {
            h.add("Access-Control-Allow-Headers");
            h.add(String.join(", ", asked));
        }
        h.add("Access-Control-Max-Age");
        h.add(Long.toString(policy.maxAge().toSeconds()));
        h.addAll(vary);
        return new Preflight(null, null, h);
    }

    /**
     * The headers an actual response (the handler's or the server's own) gains.
     *
     * @param policy the policy that applies (never {@link Cors#none()})
     * @param origin the request's {@code Origin}, or null if it sent none
     * @param headers the reply's headers, name/value pairs (not changed)
     * @return a new list: {@code headers} with {@code Access-Control-*} added for an allowed origin
     *     and {@code Origin} merged into {@code Vary}
     */
    public static List<String> actual(Cors policy, String origin, List<String> headers) {
        List<String> h = new ArrayList<>(headers.size() + 8);
        h.addAll(headers);
        boolean varies = !policy.anyOrigin() || policy.allowCredentials();
        if (origin != null && policy.allowsOrigin(origin)) {
            allowOrigin(policy, origin, h);
            if (!policy.exposedHeaders().isEmpty()) {
                h.add("Access-Control-Expose-Headers");
                h.add(String.join(", ", sorted(policy.exposedHeaders())));
            }
        }
        if (varies) mergeVary(h, "Origin");
        return h;
    }

    private static void allowOrigin(Cors policy, String origin, List<String> h) {
        h.add("Access-Control-Allow-Origin");
        // '*' only without credentials (the policy refuses the combination when built); else the exact echo
        h.add(policy.anyOrigin() && !policy.allowCredentials() ? "*" : origin);
        if (policy.allowCredentials()) {
            h.add("Access-Control-Allow-Credentials");
            h.add("true");
        }
    }

    /** Adds {@code token} to the first {@code Vary} header, or a new one; nothing if already there or {@code *}. */
    static void mergeVary(List<String> h, String token) {
        int first = -1;
        for (int i = 0; i < h.size(); i += 2) {
            if (!h.get(i).equalsIgnoreCase("Vary")) continue;
            if (first < 0) first = i;
            for (String part : h.get(i + 1).split(",")) {
                String p = part.strip();
                if (p.equals("*") || p.equalsIgnoreCase(token)) return;
            }
        }
        if (first < 0) {
            h.add("Vary");
            h.add(token);
        } else {
            String v = h.get(first + 1);
            h.set(first + 1, v.isBlank() ? token : v + ", " + token);
        }
    }

    private static List<String> sorted(Set<String> s) {
        return s.stream().sorted().toList();
    }

    private static String printable(String s) {
        String t = s.length() > 100 ? s.substring(0, 100) + "..." : s;
        return "'" + t.replaceAll("[^\\x20-\\x7e]", "?") + "'";
    }
}
