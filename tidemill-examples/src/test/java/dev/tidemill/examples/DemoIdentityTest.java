package dev.tidemill.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Config;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's identity routes as a new user meets them: {@code /me} refuses without credentials,
 * takes a development token ({@code ./tidemill demo token}) and the development API key the banner
 * shows; {@code /admin} needs scope admin; the banner prints the lines that show it.
 */
class DemoIdentityTest {
    @TempDir
    Path dir;

    @Test
    void meAndAdminWithADevelopmentTokenAndKey() throws Exception {
        Path keyFile = dir.resolve("demo-signing-key.json");
        Config base = TestClient.config().build();
        DemoIdentity.Setup identity = DemoIdentity.setup(base, keyFile);
        assertThat(Files.getPosixFilePermissions(keyFile)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        Tidemill app = Demo.create(base.toBuilder().auth(identity.auth()).build());
        try (TestClient client = TestClient.start(app)) {
            TestResponse anonymous = client.get("/me");
            assertThat(anonymous.status()).isEqualTo(401);
            assertThat(anonymous.header("WWW-Authenticate")).hasValue("Bearer, ApiKey");
            String ada = DemoIdentity.devToken(keyFile, "ada", List.of("admin"));
            TestResponse me = client.send(TestRequest.get("/me").header("Authorization", "Bearer " + ada));
            assertThat(me.jsonTree().get("subject").asString()).isEqualTo("ada");
            assertThat(me.jsonTree().get("via").asString()).isEqualTo("bearer");
            assertThat(client.send(TestRequest.get("/admin").header("Authorization", "Bearer " + ada)).status()).isEqualTo(200);
            String bob = DemoIdentity.devToken(keyFile, "bob", List.of());
            TestResponse forbidden = client.send(TestRequest.get("/admin").header("Authorization", "Bearer " + bob));
            assertThat(forbidden.status()).isEqualTo(403);
            assertThat(forbidden.header("WWW-Authenticate")).hasValue("Bearer error=\"insufficient_scope\", scope=\"admin\"");
            String key = identity.devApiKey().orElseThrow();
            TestResponse byKey = client.send(TestRequest.get("/me").header("Authorization", "ApiKey " + key));
            assertThat(byKey.jsonTree().get("via").asString()).isEqualTo("api_key");
            assertThat(client.get("/hello").status()).as("the other routes stay anonymous").isEqualTo(200);
            String banner = Demo.banner(app, client.server(), identity);
            assertThat(banner).contains("./tidemill demo token ada admin", "ApiKey " + key, "/me", "/admin",
                    "curl -c jar.txt -d name=ada", "-H 'Sec-Fetch-Site: cross-site'");
            // The banner's two CSRF lines: the development sign-in, then a cross-site POST with its cookie.
            TestResponse signedIn = client.send(TestRequest.of("POST", "/login").body("application/x-www-form-urlencoded", "name=ada"));
            assertThat(signedIn.status()).isEqualTo(303);
            String set = signedIn.header("Set-Cookie").orElseThrow();
            String cookie = set.substring(0, set.indexOf(';'));
            TestResponse crossSite = client.send(TestRequest.of("POST", "/board/notes").header("Cookie", cookie)
                    .header("Sec-Fetch-Site", "cross-site").body("application/json", "{\"draft\":\"hi\"}"));
            assertThat(crossSite.status()).isEqualTo(403);
            assertThat(crossSite.header("Content-Type")).hasValue("application/problem+json");
            TestResponse sameOrigin = client.send(TestRequest.of("POST", "/board/notes").header("Cookie", cookie)
                    .header("Sec-Fetch-Site", "same-origin").body("application/json", "{\"draft\":\"hi\"}"));
            assertThat(sameOrigin.status()).isEqualTo(200);
        }
        assertThat(DemoIdentity.setup(base, keyFile).auth().bearerTokens().orElseThrow().jwks())
                .as("the same key next time").isEqualTo(identity.auth().bearerTokens().orElseThrow().jwks());
    }
}
