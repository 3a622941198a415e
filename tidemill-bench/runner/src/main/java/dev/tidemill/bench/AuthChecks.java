package dev.tidemill.bench;

import dev.tidemill.bench.common.AuthContract;
import dev.tidemill.bench.common.Scenario;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** What {@link AuthSuite} checks of a target before it times it. */
final class AuthChecks {
    private AuthChecks() {}

    /**
     * What every target must answer before it is timed: the anonymous route, the bearer route with the
     * token, and 401 without one and with a token whose signature is not the key's (same kid, another key).
     *
     * @return the problems, empty when it answers right
     */
    static List<String> check(int port, String token, AuthKeys.Key key) {
        List<String> problems = new ArrayList<>();
        String base = "http://127.0.0.1:" + port;
        String forged = AuthKeys.Key.generate(key.jwk().getKeyID()).token("bench-user");
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
            expect(client, base + AuthContract.ANONYMOUS_PATH, null, 200, problems);
            // the first bearer request may find the keys not loaded yet (Tidemill: 503 with Retry-After): wait for them
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (status(client, base + AuthContract.BEARER_PATH, token) == 503 && System.nanoTime() < deadline) sleep(100);
            expect(client, base + AuthContract.BEARER_PATH, token, 200, problems);
            expect(client, base + AuthContract.BEARER_PATH, null, 401, problems);
            expect(client, base + AuthContract.BEARER_PATH, forged, 401, problems);
        }
        return problems;
    }

    private static void expect(HttpClient client, String url, String token, int status, List<String> problems) {
        HttpResponse<String> r = send(client, url, token);
        String what = "GET " + url.substring(url.indexOf('/', 8)) + (token == null ? "" : " with a token");
        if (r == null) {
            problems.add(what + ": no answer");
        } else if (r.statusCode() != status) {
            problems.add(what + ": " + r.statusCode() + ", expected " + status);
        } else if (status == 200 && !r.body().equals(Scenario.PLAINTEXT_BODY)) {
            problems.add(what + ": body '" + r.body() + "', expected '" + Scenario.PLAINTEXT_BODY + "'");
        }
    }

    private static int status(HttpClient client, String url, String token) {
        HttpResponse<String> r = send(client, url, token);
        return r == null ? -1 : r.statusCode();
    }

    private static HttpResponse<String> send(HttpClient client, String url, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET();
        if (token != null) b.header("Authorization", "Bearer " + token);
        try {
            return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
