package dev.tidemill.bench.common;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * Checks a running target against every {@link Scenario} endpoint: status, media type and exact
 * bytes, the 422s, and a page rendered per request. Shared by every peer's test so that all peers
 * are held to the same check; plain Java (no test library) because this module has no dependencies.
 */
public final class EndpointCheck {
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();

    private final int port;

    private EndpointCheck(int port) {
        this.port = port;
    }

    /**
     * @param port where the target listens on 127.0.0.1
     * @throws AssertionError naming the first endpoint that differs
     * @throws Exception if a request fails
     */
    public static void verify(int port) throws Exception {
        EndpointCheck c = new EndpointCheck(port);
        c.check(c.get(Scenario.PLAINTEXT_PATH), "text/plain", Scenario.PLAINTEXT_BODY);
        c.check(c.get(Scenario.JSON_PATH), "application/json", Scenario.JSON_BODY);
        c.check(c.get(Scenario.USER_PATH_PREFIX + 42), "application/json", Scenario.userBody(42));
        c.check(c.get(Scenario.USER_PATH_PREFIX + 7), "application/json", Scenario.userBody(7));
        c.check(c.post(Scenario.VALIDATE_REQUEST), "application/json", Scenario.VALIDATE_RESPONSE);
        for (String invalid : new String[] {Scenario.VALIDATE_INVALID_REQUEST, "{\"name\":\"Ada\",\"age\":-1}",
                "{\"name\":\"  \",\"age\":1}", "{\"age\":1}"}) {
            expect(c.post(invalid).statusCode() == 422, "POST " + invalid + " must be 422");
        }
        HttpResponse<byte[]> page = c.get(Scenario.PAGE_PATH);
        c.check(page, "text/html", PageData.reference());
        String ct = page.headers().firstValue("content-type").orElse("").toLowerCase(Locale.ROOT).replace(" ", "");
        expect(ct.equals("text/html;charset=utf-8"), "page content type is " + ct);
        // Rendered per request: a second request gives the same bytes.
        c.check(c.get(Scenario.PAGE_PATH), "text/html", PageData.reference());
    }

    private HttpResponse<byte[]> send(HttpRequest.Builder b) throws Exception {
        return CLIENT.send(b.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private HttpResponse<byte[]> get(String path) throws Exception {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET());
    }

    private HttpResponse<byte[]> post(String body) throws Exception {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + Scenario.VALIDATE_PATH))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private void check(HttpResponse<byte[]> r, String media, String body) {
        expect(r.statusCode() == 200, "status of " + r.uri() + " is " + r.statusCode());
        String ct = r.headers().firstValue("content-type").orElse("");
        int semi = ct.indexOf(';');
        String actual = (semi < 0 ? ct : ct.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
        expect(actual.equals(media), "media type of " + r.uri() + " is " + actual + ", expected " + media);
        expect(Arrays.equals(r.body(), Scenario.utf8(body)), "body of " + r.uri() + " is\n"
                + new String(r.body(), StandardCharsets.UTF_8) + "\nexpected\n" + body);
    }

    private static void expect(boolean ok, String message) {
        if (!ok) throw new AssertionError(message);
    }
}
