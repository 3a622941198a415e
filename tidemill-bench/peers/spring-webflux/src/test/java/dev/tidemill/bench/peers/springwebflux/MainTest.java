package dev.tidemill.bench.peers.springwebflux;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.bench.common.PageData;
import dev.tidemill.bench.common.Scenario;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Starts the peer in-process and checks every scenario endpoint against the reference bytes. */
class MainTest {
    private static int port;
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void start() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Main.main(new String[] {Integer.toString(port), "2"}); // returns once listening
    }

    private static HttpResponse<byte[]> send(HttpRequest.Builder b) throws Exception {
        return CLIENT.send(b.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static HttpResponse<byte[]> get(String path) throws Exception {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET());
    }

    private static HttpResponse<byte[]> post(String path, String body) throws Exception {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static String mediaType(HttpResponse<?> r) {
        String ct = r.headers().firstValue("content-type").orElse("");
        int semi = ct.indexOf(';');
        return (semi < 0 ? ct : ct.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
    }

    private static void check(HttpResponse<byte[]> r, String media, String body) {
        assertThat(r.statusCode()).as("status of %s", r.uri()).isEqualTo(200);
        assertThat(mediaType(r)).as("media type of %s", r.uri()).isEqualTo(media);
        assertThat(new String(r.body(), java.nio.charset.StandardCharsets.UTF_8)).as("body of %s", r.uri()).isEqualTo(body);
        assertThat(r.body()).as("bytes of %s", r.uri()).isEqualTo(Scenario.utf8(body));
    }

    @Test
    void servesEveryScenarioEndpointWithTheReferenceBytes() throws Exception {
        check(get(Scenario.PLAINTEXT_PATH), "text/plain", Scenario.PLAINTEXT_BODY);
        check(get(Scenario.JSON_PATH), "application/json", Scenario.JSON_BODY);
        check(get(Scenario.USER_PATH_PREFIX + 42), "application/json", Scenario.userBody(42));
        check(get(Scenario.USER_PATH_PREFIX + 7), "application/json", Scenario.userBody(7));
        check(post(Scenario.VALIDATE_PATH, Scenario.VALIDATE_REQUEST), "application/json", Scenario.VALIDATE_RESPONSE);
        assertThat(post(Scenario.VALIDATE_PATH, Scenario.VALIDATE_INVALID_REQUEST).statusCode()).isEqualTo(422);
        assertThat(post(Scenario.VALIDATE_PATH, "{\"name\":\"Ada\",\"age\":-1}").statusCode()).isEqualTo(422);
        assertThat(post(Scenario.VALIDATE_PATH, "{\"name\":\"  \",\"age\":1}").statusCode()).isEqualTo(422);
        assertThat(post(Scenario.VALIDATE_PATH, "{\"age\":1}").statusCode()).isEqualTo(422);

        HttpResponse<byte[]> page = get(Scenario.PAGE_PATH);
        check(page, "text/html", PageData.reference());
        String ct = page.headers().firstValue("content-type").orElseThrow().toLowerCase(Locale.ROOT).replace(" ", "");
        assertThat(ct).isEqualTo("text/html;charset=utf-8");
        // rendered per request: a second request gives the same bytes
        check(get(Scenario.PAGE_PATH), "text/html", PageData.reference());
    }
}
