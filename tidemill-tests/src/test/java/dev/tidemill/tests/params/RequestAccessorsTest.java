package dev.tidemill.tests.params;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Tidemill;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a handler reads from {@link dev.tidemill.Request}: headers, cookies, query, body as bytes and
 * text, method, raw path, route pattern and the client's address.
 */
@Timeout(60)
class RequestAccessorsTest {
    static TestClient client;

    @BeforeAll
    static void start() {
        Tidemill app = Tidemill.create(TestClient.config().workerLoops(2).ioThreads(1).build());
        app.get("/headers", req -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("lower", req.header("x-custom").orElse("absent"));
            m.put("upper", req.header("X-CUSTOM").orElse("absent"));
            m.put("first", req.header("X-Multi").orElse("absent"));
            m.put("all", req.headers("x-multi"));
            m.put("none", req.headers("X-None"));
            m.put("missing", req.header("X-None").orElse("absent"));
            return m;
        });
        app.get("/cookies", req -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("a", req.cookie("a").orElse("absent"));
            m.put("b", req.cookie("b").orElse("absent"));
            m.put("c", req.cookie("c").orElse("absent"));
            m.put("session", req.cookie("session").orElse("absent"));
            return m;
        });
        app.get("/query", req -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("q", req.query("q").orElse("absent"));
            m.put("e", req.query("e").orElse("absent"));
            m.put("empty", req.query("empty").orElse("absent"));
            m.put("rep", req.query("rep").orElse("absent"));
            m.put("missing", req.query("missing").orElse("absent"));
            m.put("café", req.query("café").orElse("absent"));
            return m;
        });
        app.post("/text", req -> Map.of("text", req.bodyText(), "hex", HexFormat.of().formatHex(req.body())));
        app.post("/bytes", req -> req.body());
        app.get("/no-body", req -> req.body().length + " '" + req.bodyText() + "'");
        app.route("PATCH", "/method", req -> req.method());
        app.route("PURGE", "/method", req -> req.method());
        app.get("/method", req -> req.method());
        app.get("/raw/{name}/{*rest}", req -> req.path() + " " + req.routePattern() + " " + req.pathParam("name")
                + " " + req.pathParam("rest"));
        app.get("/raw/fixed", req -> req.path() + " " + req.routePattern());
        app.get("/remote", req -> {
            var a = req.remoteAddress();
            return a.getAddress().getHostAddress() + " " + a.getAddress().isLoopbackAddress() + " " + a.getPort();
        });
        client = TestClient.start(app).timeout(Duration.ofSeconds(20));
    }

    @AfterAll
    static void stop() {
        if (client != null) client.close();
    }

    @Test
    @SuppressWarnings("unchecked")
    void headersAreCaseInsensitiveAndKeepEveryValue() {
        TestResponse r = client.send(TestRequest.get("/headers")
                .header("X-Custom", "v1")
                .header("x-multi", "a")
                .header("X-MULTI", "b, c")
                .header("X-Multi", "d"));
        assertThat(r.json(Map.class)).isEqualTo(Map.of(
                "lower", "v1", "upper", "v1", "first", "a",
                "all", List.of("a", "b, c", "d"), "none", List.of(), "missing", "absent"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void cookiesComeFromTheCookieHeader() {
        TestResponse r = client.send(TestRequest.get("/cookies").header("Cookie", "a=1; b=2"));
        assertThat(r.json(Map.class)).isEqualTo(Map.of("a", "1", "b", "2", "c", "absent", "session", "absent"));

        TestResponse two = client.send(TestRequest.get("/cookies")
                .header("Cookie", "a=1")
                .header("Cookie", "session=\"xyz\"; c=3"));
        assertThat(two.json(Map.class)).isEqualTo(Map.of("a", "1", "b", "absent", "c", "3", "session", "xyz"));

        TestResponse none = client.get("/cookies");
        assertThat(none.json(Map.class)).isEqualTo(Map.of("a", "absent", "b", "absent", "c", "absent", "session", "absent"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void queryValuesArePercentDecoded() {
        TestResponse r = client.get("/query?q=a+b%2Bc&e=%C3%A9t%C3%A9&empty=&rep=1&rep=2&caf%C3%A9=yes");
        assertThat(r.status()).as("%s", r).isEqualTo(200);
        assertThat(r.json(Map.class)).isEqualTo(Map.of(
                "q", "a b+c", "e", "été", "empty", "", "rep", "1", "missing", "absent", "café", "yes"));
        TestResponse none = client.get("/query");
        assertThat(none.json(Map.class)).containsEntry("q", "absent").containsEntry("empty", "absent");
        TestResponse bad = client.get("/query?q=%zz");
        assertThat(bad.status()).as("%s", bad).isEqualTo(400);
        assertThat(bad.header("Content-Type")).hasValue("application/problem+json");
    }

    @Test
    @SuppressWarnings("unchecked")
    void bodyTextUsesTheCharsetOfContentType() {
        TestResponse utf8 = client.post("/text", "text/plain; charset=utf-8", "héllo € 😀");
        assertThat(utf8.json(Map.class)).containsEntry("text", "héllo € 😀");

        TestResponse noCharset = client.post("/text", "text/plain", "naïve");
        assertThat(noCharset.json(Map.class)).as("UTF-8 by default").containsEntry("text", "naïve");

        byte[] latin1 = "café à la crème".getBytes(StandardCharsets.ISO_8859_1);
        TestResponse iso = client.post("/text", "text/plain; charset=ISO-8859-1", latin1);
        assertThat(iso.json(Map.class)).isEqualTo(Map.of("text", "café à la crème", "hex", HexFormat.of().formatHex(latin1)));

        TestResponse quoted = client.post("/text", "text/plain; charset=\"iso-8859-1\"", latin1);
        assertThat(quoted.json(Map.class)).containsEntry("text", "café à la crème");

        TestResponse noType = client.send(new TestRequest("POST", "/text", List.of(), "ünï".getBytes(StandardCharsets.UTF_8)));
        assertThat(noType.json(Map.class)).containsEntry("text", "ünï");
    }

    @Test
    void bodyIsTheExactBytesAndEmptyWithoutOne() {
        byte[] all = new byte[256];
        for (int i = 0; i < all.length; i++) all[i] = (byte) i;
        TestResponse r = client.post("/bytes", "application/octet-stream", all);
        assertThat(r.body()).isEqualTo(all);
        TestResponse chunked = client.send(TestRequest.of("POST", "/bytes")
                .body("application/octet-stream", all).chunked(List.of(
                        java.util.Arrays.copyOfRange(all, 0, 100), java.util.Arrays.copyOfRange(all, 100, 256))));
        assertThat(chunked.body()).isEqualTo(all);
        assertThat(client.get("/no-body").text()).isEqualTo("0 ''");
    }

    @Test
    void methodIsTheRequestMethod() {
        try (Connection c = client.connect()) {
            assertThat(c.send(TestRequest.get("/method")).text()).isEqualTo("GET");
            assertThat(c.send(TestRequest.of("PATCH", "/method")).text()).isEqualTo("PATCH");
            assertThat(c.send(TestRequest.of("PURGE", "/method")).text()).isEqualTo("PURGE");
            TestResponse head = c.send(TestRequest.of("HEAD", "/method"));
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("Content-Length")).as("HEAD runs the GET handler, which sees HEAD").hasValue("4");
        }
    }

    @Test
    void pathIsRawAndRoutePatternIsThePatternThatMatched() {
        assertThat(client.get("/raw/a%20b/x%2Fy/z?q=1").text()).isEqualTo("/raw/a%20b/x%2Fy/z /raw/{name}/{*rest} a b x/y/z");
        assertThat(client.get("/raw/fixed?x=%20").text()).isEqualTo("/raw/fixed /raw/fixed");
    }

    @Test
    void remoteAddressIsTheLoopbackClient() throws Exception {
        try (Connection c = client.connect()) {
            String[] first = c.send(TestRequest.get("/remote")).text().split(" ");
            String[] second = c.send(TestRequest.get("/remote")).text().split(" ");
            assertThat(InetAddress.getByName(first[0]).isLoopbackAddress()).isTrue();
            assertThat(first[1]).isEqualTo("true");
            assertThat(Integer.parseInt(first[2])).isBetween(1, 65_535);
            assertThat(second).as("same connection, same address").containsExactly(first);
        }
    }
}
