package dev.tidemill.tests.cors;

import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a browser does with a cross-origin {@code fetch()}, written from the Fetch standard's CORS
 * protocol (fetch.spec.whatwg.org, "CORS check", "CORS-preflight fetch"), for tests: decide
 * whether a preflight is needed, send it and check its answer, send the request, and run the
 * CORS check on the response. The outcome is what a script would see: the response, or a
 * network error with the rule that failed.
 */
final class FetchClient {
    private static final Set<String> SAFELISTED_METHODS = Set.of("GET", "HEAD", "POST");
    private static final Set<String> SAFELISTED_CONTENT_TYPES =
            Set.of("application/x-www-form-urlencoded", "multipart/form-data", "text/plain");

    /** What the script sees. */
    record Outcome(TestResponse response, String blocked, TestResponse preflight) {
        boolean ok() {
            return blocked == null;
        }
    }

    private final TestClient client;

    FetchClient(TestClient client) {
        this.client = client;
    }

    /**
     * @param origin the page's origin (the {@code Origin} the browser sends)
     * @param method the method
     * @param path the path on the server
     * @param credentials whether the fetch is {@code credentials: "include"}
     * @param headers request headers the script sets
     */
    Outcome fetch(String origin, String method, String path, boolean credentials, Map<String, String> headers) {
        List<String> unsafe = new ArrayList<>();
        for (Map.Entry<String, String> h : headers.entrySet()) {
            String name = h.getKey().toLowerCase(Locale.ROOT);
            boolean safe = switch (name) {
                case "accept", "accept-language", "content-language" -> true;
                case "content-type" -> SAFELISTED_CONTENT_TYPES.contains(h.getValue().toLowerCase(Locale.ROOT).split(";")[0].strip());
                default -> false;
            };
            if (!safe) unsafe.add(name);
        }
        TestResponse preflight = null;
        try (Connection c = client.connect()) {
            if (!SAFELISTED_METHODS.contains(method) || !unsafe.isEmpty()) {
                TestRequest p = TestRequest.of("OPTIONS", path).header("Origin", origin)
                        .header("Access-Control-Request-Method", method);
                if (!unsafe.isEmpty()) p = p.header("Access-Control-Request-Headers", String.join(",", new TreeSet<>(unsafe)));
                preflight = c.send(p); // never with credentials
                String failed = corsCheck(preflight, origin, credentials);
                if (failed == null && (preflight.status() < 200 || preflight.status() > 299)) failed = "preflight status " + preflight.status();
                if (failed == null) failed = preflightCheck(preflight, method, unsafe, credentials);
                if (failed != null) return new Outcome(null, "preflight: " + failed, preflight);
            }
            TestRequest r = TestRequest.of(method, path).header("Origin", origin);
            for (Map.Entry<String, String> h : headers.entrySet()) r = r.header(h.getKey(), h.getValue());
            if (credentials) r = r.header("Cookie", "session=1");
            TestResponse response = c.send(r);
            String failed = corsCheck(response, origin, credentials);
            return new Outcome(failed == null ? response : null, failed, preflight);
        }
    }

    Outcome get(String origin, String path) {
        return fetch(origin, "GET", path, false, Map.of());
    }

    /** Fetch "CORS check". @return null if it passes, else the rule that failed */
    static String corsCheck(TestResponse r, String origin, boolean credentials) {
        List<String> acao = r.headers("Access-Control-Allow-Origin");
        if (acao.isEmpty()) return "no Access-Control-Allow-Origin";
        if (acao.size() > 1) return "several Access-Control-Allow-Origin";
        if (!credentials && acao.get(0).equals("*")) return null;
        if (!acao.get(0).equals(origin)) return "Access-Control-Allow-Origin " + acao.get(0) + " is not " + origin;
        if (!credentials) return null;
        return "true".equals(r.header("Access-Control-Allow-Credentials").orElse(null))
                ? null : "Access-Control-Allow-Credentials is not true";
    }

    private static String preflightCheck(TestResponse r, String method, List<String> unsafe, boolean credentials) {
        Set<String> methods = list(r.header("Access-Control-Allow-Methods").orElse(""), false);
        Set<String> allowed = list(r.header("Access-Control-Allow-Headers").orElse(""), true);
        if (!methods.contains(method) && !SAFELISTED_METHODS.contains(method) && !(methods.contains("*") && !credentials)) {
            return "method " + method + " not in Access-Control-Allow-Methods";
        }
        for (String h : unsafe) {
            boolean ok = allowed.contains(h) || (allowed.contains("*") && !credentials && !h.equals("authorization"));
            if (!ok) return "header " + h + " not in Access-Control-Allow-Headers";
        }
        return null;
    }

    private static Set<String> list(String v, boolean lower) {
        Set<String> out = new TreeSet<>();
        for (String p : v.split(",")) {
            String s = p.strip();
            if (!s.isEmpty()) out.add(lower ? s.toLowerCase(Locale.ROOT) : s);
        }
        return out;
    }

    static List<String> tokens(String v) {
        return Arrays.stream(v.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }
}
