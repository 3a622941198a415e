package dev.tidemill.tests.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Response;
import dev.tidemill.Tidemill;
import dev.tidemill.Tls;
import dev.tidemill.testing.TestClient;
import dev.tidemill.tests.support.TestCertificates;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The JDK's {@link HttpClient} as a real h2 client over TLS, with both TLS providers: ALPN selects
 * h2 (the response's version says so), and a request, a streamed request body (5 MB, digested as
 * it arrives), a streamed response and a Server-Sent Events response all work over it, several
 * streams sharing one connection.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class H2TlsClientTest {
    @TempDir
    Path dir;

    static Tidemill app(dev.tidemill.Config config) {
        Tidemill app = Tidemill.create(config);
        app.get("/hello", req -> "hello over tls");
        app.put("/digest", req -> {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            long n = 0;
            try (InputStream in = req.bodyStream().inputStream()) {
                byte[] buf = new byte[8192];
                for (int r; (r = in.read(buf)) > 0; n += r) md.update(buf, 0, r);
            }
            return n + " " + HexFormat.of().formatHex(md.digest());
        }).streamedBody();
        app.get("/lines", req -> Response.stream("text/plain", s -> {
            CompletionStage<Void> c = CompletableFuture.completedFuture(null);
            for (int i = 0; i < 5; i++) {
                int k = i;
                c = c.thenCompose(v -> s.write("line " + k + "\n"));
            }
            c.whenComplete((v, e) -> s.close());
        }));
        app.get("/events", req -> Response.sse(stream -> stream.send("e0")
                .thenCompose(v -> stream.send("e1"))
                .thenCompose(v -> stream.send("e2"))
                .whenComplete((v, e) -> stream.close())));
        return app;
    }

    @ParameterizedTest
    @EnumSource(value = Tls.Provider.class, names = {"OPENSSL", "JDK"})
    void javaHttpClientSpeaksH2OverTlsForRequestsStreamedBodiesAndSse(Tls.Provider provider) throws Exception {
        TestCertificates.Pair pair = TestCertificates.selfSigned(dir, "server", "DNS:localhost,IP:127.0.0.1");
        try (TestClient plain = TestClient.start(app(TestClient.config()
                .tls(t -> t.port(0).provider(provider).certificate(pair.certificate()).key(pair.key())).build()));
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                        .sslContext(TestClient.trusting(pair.certificate())).connectTimeout(Duration.ofSeconds(10)).build()) {
            String base = "https://localhost:" + plain.server().tlsPort().orElseThrow();

            HttpResponse<String> hello = http.send(HttpRequest.newBuilder(URI.create(base + "/hello")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(hello.version()).as("ALPN selected h2").isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(hello.statusCode()).isEqualTo(200);
            assertThat(hello.body()).isEqualTo("hello over tls");

            byte[] body = new byte[5_000_000];
            new Random(7).nextBytes(body);
            String digest = body.length + " " + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
            HttpResponse<String> put = http.send(HttpRequest.newBuilder(URI.create(base + "/digest"))
                    .PUT(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(put.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(put.body()).as("a streamed body over h2").isEqualTo(digest);

            HttpResponse<java.util.stream.Stream<String>> lines = http.send(
                    HttpRequest.newBuilder(URI.create(base + "/lines")).build(), HttpResponse.BodyHandlers.ofLines());
            assertThat(lines.body().toList()).containsExactly("line 0", "line 1", "line 2", "line 3", "line 4");

            HttpResponse<java.util.stream.Stream<String>> events = http.send(
                    HttpRequest.newBuilder(URI.create(base + "/events")).header("Accept", "text/event-stream").build(),
                    HttpResponse.BodyHandlers.ofLines());
            assertThat(events.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(events.headers().firstValue("content-type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));
            List<String> data = events.body().filter(l -> l.startsWith("data:")).toList();
            assertThat(data).containsExactly("data: e0", "data: e1", "data: e2");

            // several streams at once on the one connection
            List<CompletableFuture<HttpResponse<String>>> many = java.util.stream.IntStream.range(0, 20)
                    .mapToObj(i -> http.sendAsync(HttpRequest.newBuilder(URI.create(base + "/hello")).build(),
                            HttpResponse.BodyHandlers.ofString()))
                    .toList();
            for (CompletableFuture<HttpResponse<String>> f : many) {
                HttpResponse<String> r = f.get(30, TimeUnit.SECONDS);
                assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
                assertThat(r.body()).isEqualTo("hello over tls");
            }
        }
    }
}
