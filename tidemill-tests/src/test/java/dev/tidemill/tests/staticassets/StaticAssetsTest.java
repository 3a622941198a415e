package dev.tidemill.tests.staticassets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.Compression;
import dev.tidemill.ExecutionMode;
import dev.tidemill.StaticAssets;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Decoders;
import dev.tidemill.tests.support.Setup;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Static assets over a real socket: hashed names and their headers, the redirect from a logical
 * name, a precompressed variant per coding with its own entity-tag, variants dropped when not
 * smaller or for compressed types, HEAD. The route's own mode is IO (set by
 * {@code Routes.assets}); the app's default mode is varied anyway, since filters and the route's
 * mode come from it unless set, and one test sets the route to each mode itself.
 */
@Timeout(60)
class StaticAssetsTest {
    static final String CSS = "body { color: #333; margin: 0 auto; }\n".repeat(60);
    static final String JS = "export function greet(name) { return 'Hello, ' + name + '!'; }\n".repeat(40);

    static Path site(Path dir) throws Exception {
        Files.createDirectories(dir.resolve("css"));
        Files.writeString(dir.resolve("css/app.css"), CSS);
        Files.writeString(dir.resolve("app.js"), JS);
        byte[] noise = new byte[4096];
        new Random(7).nextBytes(noise);
        Files.write(dir.resolve("noise.js"), noise); // a compressible type whose bytes do not compress
        byte[] png = JS.getBytes(StandardCharsets.UTF_8); // compressible bytes under a compressed type
        Files.write(dir.resolve("logo.png"), png);
        Files.writeString(dir.resolve("LICENSE"), "MIT\n");
        return dir;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void hashedNameIsServedImmutable(Setup setup, @TempDir Path dir) throws Exception {
        StaticAssets assets = StaticAssets.builder().directory(site(dir)).build();
        try (TestClient c = setup.start(app -> app.assets("/assets", assets))) {
            String href = assets.href("css/app.css");
            assertThat(href).matches("/assets/css/app\\.[0-9a-f]{10}\\.css");
            TestResponse r = c.get(href);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.text()).isEqualTo(CSS);
            assertThat(r.header("Cache-Control")).contains("public, max-age=31536000, immutable");
            assertThat(r.header("Content-Type")).contains("text/css; charset=utf-8");
            assertThat(r.header("X-Content-Type-Options")).contains("nosniff");
            assertThat(r.header("Accept-Ranges")).contains("bytes");
            assertThat(r.header("ETag").orElseThrow()).matches("\"[0-9a-f]{16}\"");
            assertThat(r.header("Last-Modified").orElseThrow()).endsWith(" GMT");
            assertThat(r.header("Vary")).as("it has variants").contains("Accept-Encoding");
            assertThat(r.header("Content-Encoding")).isEmpty();
            assertThat(c.get(assets.href("LICENSE")).text()).isEqualTo("MIT\n");
            assertThat(assets.href("LICENSE")).matches("/assets/LICENSE\\.[0-9a-f]{10}");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void theRouteRunsInAnyModeItIsGiven(Setup setup, @TempDir Path dir) throws Exception {
        StaticAssets assets = StaticAssets.builder().directory(site(dir)).build();
        try (TestClient c = setup.start(app -> app.assets("/assets", assets).mode(setup.mode()))) {
            assertThat(c.get(assets.href("app.js")).text()).isEqualTo(JS);
            assertThat(c.send(TestRequest.get(assets.href("app.js")).header("Accept-Encoding", "gzip")).header("Content-Encoding"))
                    .contains("gzip");
        }
    }

    @Test
    void logicalNameRedirectsToTheHashedOne(@TempDir Path dir) throws Exception {
        StaticAssets assets = StaticAssets.builder().directory(site(dir)).build();
        try (TestClient c = Setup.onDefaultTransport(ExecutionMode.LOOP).start(app -> app.assets("/assets", assets))) {
            TestResponse r = c.get("/assets/css/app.css");
            assertThat(r.status()).isEqualTo(307);
            assertThat(r.header("Location")).contains(assets.href("css/app.css"));
            assertThat(r.header("Cache-Control")).contains("no-cache");
            assertThat(c.head("/assets/css/app.css").status()).isEqualTo(307);
            TestResponse stale = c.get("/assets/css/app.0123456789.css");
            assertThat(stale.status()).as("a hash that is not the content's").isEqualTo(404);
            assertThat(stale.header("Content-Type")).contains("application/problem+json");
            assertThat(c.get("/assets/missing.css").status()).isEqualTo(404);
            assertThat(c.get("/assets/css").status()).as("a directory: no listing").isEqualTo(404);
            assertThat(c.get("/assets/css/").status()).isEqualTo(404);
            assertThat(c.get("/assets/").status()).isEqualTo(404);
            assertThat(c.get("/assets").status()).isEqualTo(404);
        }
    }

    @Test
    void eachCodingHasItsVariantAndItsOwnEntityTag(@TempDir Path dir) throws Exception {
        StaticAssets assets = StaticAssets.builder().directory(site(dir)).build();
        try (TestClient c = Setup.onDefaultTransport(ExecutionMode.IO).start(app -> app.assets("/assets", assets))) {
            String href = assets.href("app.js");
            Set<String> etags = new HashSet<>();
            etags.add(c.get(href).header("ETag").orElseThrow());
            for (String coding : List.of("br", "zstd", "gzip")) {
                TestResponse r = c.send(TestRequest.get(href).header("Accept-Encoding", coding));
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.header("Content-Encoding")).as(coding).contains(coding);
                assertThat(r.header("Vary")).contains("Accept-Encoding");
                assertThat(r.header("Cache-Control")).contains("public, max-age=31536000, immutable");
                assertThat(r.header("Accept-Ranges")).as("ranges only of the identity form").isEmpty();
                assertThat(r.body().length).isLessThan(JS.length());
                assertThat(new String(Decoders.decode(coding, r.body()), StandardCharsets.UTF_8)).isEqualTo(JS);
                String etag = r.header("ETag").orElseThrow();
                assertThat(etag).as("strong").startsWith("\"").endsWith("-" + coding + "\"");
                etags.add(etag);
            }
            assertThat(etags).as("one entity-tag per representation").hasSize(4);
            // the client's order decides, br > zstd > gzip at equal q
            assertThat(c.send(TestRequest.get(href).header("Accept-Encoding", "gzip, deflate, br, zstd")).header("Content-Encoding"))
                    .contains("br");
            assertThat(c.send(TestRequest.get(href).header("Accept-Encoding", "br;q=0.5, gzip")).header("Content-Encoding"))
                    .contains("gzip");
            assertThat(c.send(TestRequest.get(href).header("Accept-Encoding", "identity")).header("Content-Encoding")).isEmpty();
            TestResponse refused = c.send(TestRequest.get(href).header("Accept-Encoding", "identity;q=0, deflate"));
            assertThat(refused.status()).isEqualTo(406);
        }
    }

    @Test
    void aVariantThatIsNotSmallerIsDroppedAndCompressedTypesGetNone(@TempDir Path dir) throws Exception {
        StaticAssets assets = StaticAssets.builder().directory(site(dir)).build();
        try (TestClient c = Setup.onDefaultTransport(ExecutionMode.IO).start(app -> app.assets("/assets", assets))) {
            for (String name : List.of("noise.js", "logo.png")) {
                TestResponse r = c.send(TestRequest.get(assets.href(name)).header("Accept-Encoding", "br, zstd, gzip"));
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.header("Content-Encoding")).as(name + ": identity, and not compressed on the fly either").isEmpty();
                assertThat(r.header("Vary")).as(name + ": nothing to choose from").isEmpty();
                assertThat(r.body()).isEqualTo(Files.readAllBytes(dir.resolve(name)));
            }
            assertThat(c.get(assets.href("logo.png")).header("Content-Type")).contains("image/png");
        }
    }

    @Test
    void precompressionCanBeTurnedOff(@TempDir Path dir) throws Exception {
        StaticAssets assets = StaticAssets.builder().directory(site(dir))
                .precompression(Compression.builder().enabled(false).build()).build();
        try (TestClient c = Setup.onDefaultTransport(ExecutionMode.IO).start(app -> app.assets("/assets", assets))) {
            TestResponse r = c.send(TestRequest.get(assets.href("app.js")).header("Accept-Encoding", "gzip"));
            assertThat(r.header("Content-Encoding")).as("no variant, and the generic compression stays off").isEmpty();
            assertThat(r.text()).isEqualTo(JS);
        }
    }

    @Test
    void headAnswersWhatGetWouldWithoutTheBody(@TempDir Path dir) throws Exception {
        StaticAssets assets = StaticAssets.builder().directory(site(dir)).build();
        try (TestClient c = Setup.onDefaultTransport(ExecutionMode.IO).start(app -> app.assets("/assets", assets))) {
            String href = assets.href("css/app.css");
            TestResponse get = c.get(href);
            TestResponse head = c.head(href);
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.body()).isEmpty();
            assertThat(head.header("Content-Length")).contains(String.valueOf(CSS.length()));
            assertThat(head.header("ETag")).isEqualTo(get.header("ETag"));
            TestResponse brHead = c.send(TestRequest.of("HEAD", href).header("Accept-Encoding", "br"));
            TestResponse brGet = c.send(TestRequest.get(href).header("Accept-Encoding", "br"));
            assertThat(brHead.header("Content-Length")).contains(String.valueOf(brGet.body().length));
            assertThat(brHead.header("Content-Encoding")).contains("br");
        }
    }

    @Test
    void resourcesAndClassPathResourcesAreAssetsToo() {
        StaticAssets assets = StaticAssets.builder().resource("js/client.js", JS.getBytes(StandardCharsets.UTF_8))
                .classpath(StaticAssetsTest.class, "/dev/tidemill/tests/staticassets/StaticAssetsTest.class").build();
        try (TestClient c = Setup.onDefaultTransport(ExecutionMode.IO).start(app -> app.group("/static").assets("/", assets))) {
            assertThat(assets.href("js/client.js")).matches("/static/js/client\\.[0-9a-f]{10}\\.js");
            assertThat(c.get(assets.href("js/client.js")).text()).isEqualTo(JS);
            String cls = "dev/tidemill/tests/staticassets/StaticAssetsTest.class";
            assertThat(assets.names()).contains("js/client.js", cls);
            assertThat(c.get(assets.href(cls)).header("Content-Type")).contains("application/octet-stream");
        }
    }

    @Test
    void mistakesAreRefusedWhenTheAppIsBuilt(@TempDir Path dir) throws Exception {
        StaticAssets assets = StaticAssets.builder().directory(site(dir)).build();
        assertThatThrownBy(() -> assets.href("app.js")).isInstanceOf(IllegalStateException.class);
        dev.tidemill.Tidemill app = dev.tidemill.Tidemill.create();
        app.assets("/assets", assets);
        assertThatThrownBy(() -> assets.href("nope.js")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> app.assets("/other", assets)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> StaticAssets.builder().resource("../x.js", new byte[1]).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StaticAssets.builder().resource(".env", new byte[1]).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StaticAssets.builder().directory(dir).resource("app.js", new byte[1]).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("two assets named app.js");
    }
}
