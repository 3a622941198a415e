package dev.tidemill.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Config;
import dev.tidemill.Requirement;
import dev.tidemill.Server;
import dev.tidemill.Session;
import dev.tidemill.Tidemill;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * OpenID Connect sign-in against a real provider: npm's {@code oidc-provider} (the one
 * {@code ./tidemill demo --idp} starts), driven in headless Chromium as a user would, on the demo
 * wired as {@code --idp} wires it. Two tabs start signing in at once and both finish (a state, nonce
 * and PKCE verifier per attempt); the app asked for the code with S256 PKCE, a state and a nonce;
 * the session cookie stays small and host-only while the provider's tokens stay on the server; an
 * expired access token is refreshed on the next guarded request without signing the user out;
 * signing out ends the session here and, through RP-initiated logout, at the provider.
 */
@Timeout(180)
class OidcLoginBrowserTest {
    /** The provider's access tokens last this long, so the test sees one refreshed. */
    private static final int ACCESS_SECONDS = 3;

    @Test
    void twoTabsSignInAtOnceThenRefreshAndSignOut() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        String base = "http://127.0.0.1:" + port;
        try (LocalProvider provider = LocalProvider.start(base, ACCESS_SECONDS)) {
            Config config = Config.builder().port(port).build();
            DemoIdentity.Setup identity = DemoIdentity.setup(config);
            Tidemill app = Demo.create(config.toBuilder().auth(identity.auth().withLogin(provider.login())).build());
            // What the access token is, without showing it: its digest's first bytes.
            app.get("/test/token", req -> fingerprint(req.session().flatMap(Session::accessToken).orElse("")))
                    .requires(Requirement.authenticated());
            Server server = app.start();
            try {
                Map<String, Object> seen = BrowserScript.run("oidc.mjs", base, "/test/token", Integer.toString((ACCESS_SECONDS + 2) * 1000));
                assertThat(seen.get("error")).as("the script's failure").isNull();

                assertThat(seen.get("aAtProvider")).isEqualTo(provider.issuer());
                assertThat(seen.get("bAtProvider")).isEqualTo(provider.issuer());
                assertThat(seen.get("openAttempts")).as("one attempt cookie per tab").isEqualTo(2);
                List<Map<String, String>> asked = cast(seen.get("authorize"));
                assertThat(asked).hasSize(2);
                for (Map<String, String> q : asked) {
                    assertThat(q).containsEntry("response_type", "code").containsEntry("code_challenge_method", "S256")
                            .containsEntry("client_id", LocalProvider.CLIENT_ID).containsEntry("redirect_uri", base + "/auth/callback");
                    assertThat(q.get("code_challenge")).hasSize(43);
                    assertThat(q.get("state")).hasSize(22);
                    assertThat(q.get("nonce")).hasSize(22);
                }
                assertThat(asked.get(0).get("state")).isNotEqualTo(asked.get(1).get("state"));
                assertThat(asked.get(0).get("nonce")).isNotEqualTo(asked.get(1).get("nonce"));

                assertThat((List<?>) seen.get("aSteps")).asList().contains("login");
                assertThat(seen.get("aUrl")).isEqualTo(base + "/board");
                assertThat(seen.get("aWho")).isEqualTo("alice");
                assertThat(seen.get("bUrl")).as("the second tab returns where it started").isEqualTo(base + "/me");
                assertThat((String) seen.get("bBody")).contains("\"subject\":\"alice\"", "\"via\":\"session\"");
                List<Map<String, Object>> cookies = cast(seen.get("cookies"));
                assertThat(cookies).as("only the session cookie is left: each attempt's went at its callback").hasSize(1);
                assertThat(cookies.get(0)).containsEntry("name", "__Host-tidemill_session").containsEntry("secure", true)
                        .containsEntry("httpOnly", true).containsEntry("sameSite", "Lax");
                assertThat((Integer) cookies.get(0).get("size")).as("an id, not the provider's tokens").isLessThan(200);

                Map<String, Object> before = cast(seen.get("tokenBefore"));
                Map<String, Object> after = cast(seen.get("tokenAfter"));
                assertThat(before.get("status")).isEqualTo(200);
                assertThat(after.get("status")).as("still signed in once the access token expired").isEqualTo(200);
                assertThat(after.get("body")).as("a new access token, from the refresh token").isNotEqualTo(before.get("body"));
                assertThat(((Map<?, ?>) seen.get("meAfterRefresh")).get("status")).isEqualTo(200);

                assertThat(seen.get("logoutAt")).as("the provider's end_session_endpoint").isEqualTo(provider.issuer() + "/session/end");
                assertThat(seen.get("afterLogoutUrl")).isEqualTo(base + "/board");
                assertThat(((Map<?, ?>) seen.get("meAfterLogout")).get("status")).isEqualTo(401);
                assertThat(seen.get("providerAsksAgain")).as("the provider's session ended too").isEqualTo(true);
                assertThat((List<?>) seen.get("pageErrors")).isEmpty();
            } finally {
                server.close();
            }
        }
    }

    private static String fingerprint(String token) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)), 0, 8);
    }

    @SuppressWarnings("unchecked")
    private static <T> T cast(Object o) {
        return (T) o;
    }
}
