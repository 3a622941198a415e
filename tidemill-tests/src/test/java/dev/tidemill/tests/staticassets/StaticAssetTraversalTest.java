package dev.tidemill.tests.staticassets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ExecutionMode;
import dev.tidemill.StaticAssets;
import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile paths against static assets (docs/static-assets.md, "Refusals";
 * cases SF-01 to SF-10): each raw request target gets the status in its row, never a byte
 * of a file outside the root, of a dotfile or of a link that leaves the root, and the server
 * serves the next client. 400 is the gate's (dot segments in any encoding, NUL, malformed
 * percent-encoding or UTF-8: refused before routing, for every route); 404 is the assets'
 * (anything that is not the name of an asset, including encoded separators and backslashes).
 */
@Timeout(60)
class StaticAssetTraversalTest {
    private static final List<String> SECRETS = List.of("TOP-SECRET", "DOTENV-SECRET", "GIT-SECRET", "root:x:0:0");

    @TempDir
    static Path dir;
    private static StaticAssets assets;
    private static TestClient client;

    @BeforeAll
    static void start() throws Exception {
        Path root = Files.createDirectories(dir.resolve("site"));
        Files.writeString(dir.resolve("secret.txt"), "TOP-SECRET");
        Files.createDirectories(root.resolve("inner"));
        Files.writeString(root.resolve("inner/ok.txt"), "fine");
        Files.writeString(root.resolve(".env"), "DOTENV-SECRET");
        Files.createDirectories(root.resolve(".git"));
        Files.writeString(root.resolve(".git/config"), "GIT-SECRET");
        Files.createSymbolicLink(root.resolve("link-out.txt"), dir.resolve("secret.txt"));
        Files.createSymbolicLink(root.resolve("link-up"), dir);
        Files.createSymbolicLink(root.resolve("link-in.txt"), root.resolve("inner/ok.txt"));
        Files.createSymbolicLink(root.resolve("link-dot.txt"), root.resolve(".env"));
        assets = StaticAssets.builder().directory(root).build();
        client = Setup.onDefaultTransport(ExecutionMode.IO).start(app -> app.assets("/assets", assets));
    }

    @AfterAll
    static void stop() {
        client.close();
    }

    static Stream<Arguments> hostile() {
        return Stream.of(
                row("/assets/../secret.txt", 400, "SF-01 dot segment"),
                row("/assets/../../../../etc/passwd", 400, "SF-01"),
                row("/assets/%2e%2e/secret.txt", 400, "SF-02 encoded dots"),
                row("/assets/%2E%2e/secret.txt", 400, "SF-02 mixed case"),
                row("/assets/.%2e/secret.txt", 400, "SF-02 half encoded"),
                row("/assets/%2e/inner/ok.txt", 400, "SF-02 encoded single dot"),
                row("/assets/./inner/ok.txt", 400, "single dot"),
                row("/assets/inner/ok.txt/..", 400, "trailing dot segment"),
                row("/assets/%u002e/secret.txt", 400, "SF-03 %u is not percent-encoding"),
                row("/assets/.%00/secret.txt", 400, "SF-03 NUL"),
                row("/assets/%252e%252e/secret.txt", 404, "SF-04 double encoding: the literal name %2e%2e"),
                row("/assets/.%%32%65/secret.txt", 400, "SF-04 malformed percent"),
                row("/assets/..%2fsecret.txt", 404, "SF-05 encoded slash"),
                row("/assets/..%2Fsecret.txt", 404, "SF-05 encoded slash, upper case"),
                row("/assets/..%5csecret.txt", 404, "SF-05 encoded backslash"),
                row("/assets/..%5C..%5Cetc%5Cpasswd", 404, "SF-05"),
                row("/assets/inner%2fok.txt", 404, "an encoded slash is never a separator"),
                row("/assets/link-up/secret.txt", 404, "SF-06 a link to a directory is not walked"),
                row("/assets/link-up/%2e%2e/secret.txt", 400, "SF-06"),
                row("/assets;/../secret.txt", 400, "SF-07 parameter hiding a dot segment"),
                row("/assets/inner;/ok.txt", 404, "SF-07 ';' is part of the name"),
                row("/assets/inner/bar%2F..%2Fok.txt", 404, "SF-08"),
                row("/assets/inner/ok.txt%00.js", 400, "SF-09 NUL"),
                row("/assets/%c0%ae%c0%ae/secret.txt", 400, "SF-09 overlong UTF-8"),
                row("/assets/.git/config", 404, "SF-10 dot-directory"),
                row("/assets/.env", 404, "SF-10 dotfile"),
                row("/assets/%2eenv", 404, "SF-10 encoded dotfile"),
                row("/assets/inner/", 404, "SF-10 no listing"),
                row("/assets/inner", 404, "a directory"),
                row("/assets//etc/passwd", 404, "absolute path after the prefix"),
                row("/assets/%2fetc%2fpasswd", 404, "encoded absolute path"),
                row("/assets/C:%5cWindows%5cwin.ini", 404, "a drive letter"),
                row("/assets/link-out.txt", 404, "a link out of the root"),
                row("/assets/link-dot.txt", 404, "a link to a dotfile"),
                row("http://localhost/assets/../secret.txt", 400, "absolute-form with a dot segment"),
                row("/assets/%2e%2e%2fsecret.txt", 404, "one segment that decodes to ../secret.txt"));
    }

    private static Arguments row(String target, int status, String why) {
        return Arguments.of(target, status, why);
    }

    @ParameterizedTest(name = "{0} -> {1} ({2})")
    @MethodSource("hostile")
    void refusedAndTheServerGoesOn(String target, int status, String why) {
        TestResponse r;
        try (RawConnection raw = client.raw()) {
            raw.write("GET " + target + " HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
            r = raw.readResponse();
        }
        assertThat(r.status()).as(why).isEqualTo(status);
        String body = new String(r.body(), StandardCharsets.ISO_8859_1);
        for (String secret : SECRETS) assertThat(body).as(why).doesNotContain(secret);
        assertThat(r.header("Location").orElse("")).as("never redirected to a secret").doesNotContain("secret")
                .doesNotContain("env").doesNotContain("link");
        assertThat(client.get(assets.href("inner/ok.txt")).text()).as("the next client is served").isEqualTo("fine");
    }

    @Test
    void backslashesAreRefusedWhereverTheyArrive() {
        for (String target : List.of("/assets/..\\secret.txt", "/assets/..\\..\\etc\\passwd", "/assets/inner\\ok.txt")) {
            Optional<TestResponse> r;
            try (RawConnection raw = client.raw()) {
                raw.write("GET " + target + " HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
                r = raw.readResponseOrClose();
            }
            assertThat(r).as(target + ": answered (a refusal), not dropped").isPresent();
            TestResponse resp = r.orElseThrow();
            assertThat(resp.status()).as(target + ": not a URI character, refused by the head validator").isEqualTo(400);
            assertThat(new String(resp.body(), StandardCharsets.ISO_8859_1)).doesNotContain("SECRET").doesNotContain("fine");
        }
        assertThat(client.get(assets.href("inner/ok.txt")).text()).isEqualTo("fine");
    }

    @Test
    void onlyWhatTheScanAcceptedIsInTheCatalogue() {
        assertThat(assets.names()).containsExactlyInAnyOrder("inner/ok.txt", "link-in.txt");
        assertThat(client.get(assets.href("link-in.txt")).text()).as("a link inside the root is served").isEqualTo("fine");
    }

    @Test
    void dotfilesWhenEnabled() throws Exception {
        StaticAssets withDots = StaticAssets.builder().directory(dir.resolve("site")).dotfiles(true).build();
        try (TestClient c = Setup.onDefaultTransport(ExecutionMode.IO).start(app -> app.assets("/assets", withDots))) {
            assertThat(withDots.names()).contains(".env", ".git/config", "link-dot.txt").doesNotContain("link-out.txt");
            assertThat(c.get(withDots.href(".env")).text()).isEqualTo("DOTENV-SECRET");
            assertThat(c.get("/assets/.git/config").status()).isEqualTo(307);
            assertThat(c.get("/assets/../secret.txt").status()).as("dot segments stay refused").isEqualTo(400);
            assertThat(c.get("/assets/link-out.txt").status()).isEqualTo(404);
        }
    }
}
