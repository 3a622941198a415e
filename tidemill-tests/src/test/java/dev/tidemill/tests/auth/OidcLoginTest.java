package dev.tidemill.tests.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tidemill.Auth;
import dev.tidemill.Config;
import dev.tidemill.ExecutionMode;
import dev.tidemill.OidcLogin;
import dev.tidemill.Principal;
import dev.tidemill.Requirement;
import dev.tidemill.Response;
import dev.tidemill.Session;
import dev.tidemill.Sessions;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * OpenID Connect sign-in (OpenID Connect Core 1.0 section 3.1, the authorization code flow) against
 * a provider that misbehaves on purpose, each case with the rule it breaks: state (RFC 6749 10.12),
 * PKCE S256 (RFC 7636 4.6), the nonce (OIDC Core 3.1.3.7 step 11), the ID token's signature, aud and
 * exp (3.1.3.7 steps 2-9), mix-up by iss (RFC 9207 2.4), an open redirect through next (RFC 9700
 * 4.11), the refresh (RFC 6749 6) and RP-initiated logout. The test plays the browser, with a cookie
 * jar of its own; the real browser and a real provider are in the demo's Chromium test.
 */
class OidcLoginTest {
    static final byte[] KEY = "oidc-0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    static final String REDIRECT = "http://app.test/auth/callback";

    private final TestProvider provider = new TestProvider();

    @AfterEach
    void stopProvider() {
        provider.close();
    }

    /** A browser: a cookie jar over a client. */
    static final class Browser implements AutoCloseable {
        final TestClient client;
        private final boolean owns;
        final Map<String, String> jar = new LinkedHashMap<>();

        Browser(TestClient client) {
            this(client, true);
        }

        /** @param owns whether closing this browser stops the server (a second browser on one server does not) */
        Browser(TestClient client, boolean owns) {
            this.client = client;
            this.owns = owns;
        }

        @Override
        public void close() {
            if (owns) client.close();
        }

        TestResponse send(TestRequest r) {
            if (!jar.isEmpty()) r = r.header("Cookie", String.join("; ", jar.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList()));
            TestResponse answer = client.send(r);
            for (String set : answer.headers("Set-Cookie")) {
                String pair = set.substring(0, set.indexOf(';'));
                String name = pair.substring(0, pair.indexOf('='));
                if (set.contains("Max-Age=0")) jar.remove(name);
                else jar.put(name, pair.substring(pair.indexOf('=') + 1));
            }
            return answer;
        }

        TestResponse get(String path) {
            return send(TestRequest.get(path).header("Accept", "application/json"));
        }

        /** @return the provider's authorization request this browser is sent to, with the code it gave */
        Map<String, String> startAt(TestProvider provider, String next) {
            TestResponse r = get("/login" + (next == null ? "" : "?next=" + URLEncoder.encode(next, StandardCharsets.UTF_8)));
            assertThat(r.status()).as(r.toString()).isEqualTo(303);
            String location = r.header("Location").orElseThrow();
            assertThat(location).startsWith(provider.issuer + "/authorize?");
            return provider.approve(location, "alice");
        }

        TestResponse callback(Map<String, String> answer) {
            StringBuilder q = new StringBuilder();
            answer.forEach((k, v) -> q.append(q.isEmpty() ? "" : "&").append(k).append('=').append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
            return get("/auth/callback?" + q);
        }

        /** @return the callback's answer, given what the provider sends back: the code, the state and the iss */
        TestResponse finish(Map<String, String> authorize, String issuer) {
            Map<String, String> back = new LinkedHashMap<>();
            back.put("code", authorize.get("code"));
            back.put("state", authorize.get("state"));
            if (issuer != null) back.put("iss", issuer);
            return callback(back);
        }
    }

    OidcLogin.Builder login() {
        return OidcLogin.builder().issuer(provider.issuer).clientId(TestProvider.CLIENT_ID).clientSecret(TestProvider.SECRET)
                .redirectUri(URI.create(REDIRECT)).scopes("openid", "profile");
    }

    Browser start(Setup setup, Consumer<OidcLogin.Builder> tweak) {
        OidcLogin.Builder b = login();
        tweak.accept(b);
        return new Browser(setup.start(c -> c.auth(Auth.sessions(Sessions.builder().key(KEY).build()).withLogin(b.build())), OidcLoginTest::routes));
    }

    Browser start() {
        return start(Setup.onDefaultTransport(ExecutionMode.IO), b -> { });
    }

    static void routes(Tidemill app) {
        app.get("/me", req -> {
            Principal p = req.principal().orElseThrow();
            return p.subject() + " via " + p.via();
        }).requires(Requirement.authenticated());
        app.get("/token", req -> req.session().flatMap(Session::accessToken).orElse("none")).requires(Requirement.authenticated());
        app.get("/page", req -> Response.ok().html("<p>private</p>")).requires(Requirement.authenticated());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aSignInWithPkceStateAndNonceEndsInASessionAtTheReturnPath(Setup setup) {
        try (Browser b = start(setup, l -> { })) {
            Map<String, String> asked = b.startAt(provider, "/page?x=1");
            // OIDC Core 3.1.2.1 and RFC 7636 4.3: what the browser carries to the provider.
            assertThat(asked).containsEntry("response_type", "code").containsEntry("client_id", TestProvider.CLIENT_ID)
                    .containsEntry("redirect_uri", REDIRECT).containsEntry("scope", "openid profile").containsEntry("code_challenge_method", "S256");
            assertThat(asked.get("state")).hasSize(22);
            assertThat(asked.get("nonce")).hasSize(22).isNotEqualTo(asked.get("state"));
            assertThat(asked.get("code_challenge")).hasSize(43);
            assertThat(b.jar.keySet()).as("one attempt cookie, no session yet").hasSize(1).allMatch(n -> n.startsWith("__Host-tidemill_login_"));

            TestResponse done = b.finish(asked, provider.issuer);
            assertThat(done.status()).as(done.toString()).isEqualTo(303);
            assertThat(done.header("Location")).contains("/page?x=1");
            assertThat(b.jar.keySet()).as("the attempt's cookie went; the session's came").containsExactly("__Host-tidemill_session");
            assertThat(b.jar.get("__Host-tidemill_session").length()).as("an id, not the provider's tokens").isLessThan(200);
            Map<String, String> form = provider.tokenRequests.get(0);
            assertThat(form).containsEntry("grant_type", "authorization_code").containsEntry("redirect_uri", REDIRECT)
                    .doesNotContainKey("client_secret");
            assertThat(TestProvider.challenge(form.get("code_verifier"))).as("RFC 7636 4.6: the verifier matches the challenge")
                    .isEqualTo(asked.get("code_challenge"));

            assertThat(b.get("/me").text()).isEqualTo("alice via session");
            assertThat(b.get("/token").text()).startsWith("access-");
        }
    }

    @Test
    void twoAttemptsInOneBrowserFinishInEitherOrder() {
        try (Browser b = start()) {
            Map<String, String> first = b.startAt(provider, "/first");
            Map<String, String> second = b.startAt(provider, "/second");
            assertThat(first.get("state")).isNotEqualTo(second.get("state"));
            assertThat(b.finish(second, provider.issuer).header("Location")).contains("/second");
            // The first tab finishes after the second signed in: already signed in, it goes where it was going.
            TestResponse r = b.finish(first, provider.issuer);
            assertThat(r.status()).as(r.toString()).isEqualTo(303);
            assertThat(r.header("Location")).contains("/first");
            assertThat(b.get("/me").text()).isEqualTo("alice via session");
        }
    }

    @Test
    void aBrowserKeepsAtMostFourOpenAttempts() {
        try (Browser b = start()) {
            for (int i = 0; i < 6; i++) b.startAt(provider, "/" + i);
            assertThat(b.jar.keySet()).as("the oldest attempts' cookies are cleared").hasSize(4);
        }
    }

    @Test
    void aCallbackWithoutStateIsRefused() {
        try (Browser b = start()) {
            Map<String, String> asked = b.startAt(provider, null);
            TestResponse r = b.callback(Map.of("code", asked.get("code")));
            assertProblem(r, 400, "no state");
        }
    }

    @Test
    void aStateThisBrowserDidNotStartIsRefused() {
        // RFC 6749 10.12: a code injected into the victim's browser (the attacker's own code and state).
        try (Browser attacker = start(); Browser victim = new Browser(attacker.client, false)) {
            Map<String, String> asked = attacker.startAt(provider, null);
            TestResponse r = victim.finish(asked, provider.issuer);
            assertProblem(r, 400, "not started in this browser");
            assertThat(provider.exchanges.get()).as("the code was never exchanged").isZero();
            assertThat(attacker.finish(asked, provider.issuer).status()).as("the attacker's own attempt is intact").isEqualTo(303);
        }
    }

    @Test
    void aTamperedAttemptCookieIsRefused() {
        try (Browser b = start()) {
            Map<String, String> asked = b.startAt(provider, "/page");
            String name = b.jar.keySet().iterator().next();
            String v = b.jar.get(name);
            b.jar.put(name, v.substring(0, v.lastIndexOf('.') + 1) + "AAAA" + v.substring(v.lastIndexOf('.') + 5));
            assertProblem(b.finish(asked, provider.issuer), 400, "not started in this browser");
        }
    }

    @Test
    void anAttemptIsGoodOnce() {
        try (Browser b = start()) {
            Map<String, String> asked = b.startAt(provider, null);
            String name = b.jar.keySet().iterator().next();
            String attempt = b.jar.get(name);
            assertThat(b.finish(asked, provider.issuer).status()).isEqualTo(303);
            // A replay of the same answer with the attempt's cookie put back (a captured request).
            b.jar.put(name, attempt);
            assertProblem(b.finish(asked, provider.issuer), 400, "finished already");
            assertThat(provider.exchanges.get()).isEqualTo(1);
        }
    }

    @Test
    void anAttemptExpires() {
        try (Browser b = start(Setup.onDefaultTransport(ExecutionMode.IO), l -> l.attemptTimeout(Duration.ofSeconds(10)))) {
            Map<String, String> asked = b.startAt(provider, null);
            Map<String, String> jar = Map.copyOf(b.jar);
            await().pollDelay(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(500)).atMost(Duration.ofSeconds(30)).until(() -> {
                b.jar.clear();
                b.jar.putAll(jar);
                TestResponse r = b.finish(asked, provider.issuer);
                return r.status() == 400 && r.text().contains("took too long");
            });
            assertThat(provider.exchanges.get()).isZero();
        }
    }

    @Test
    void anIssFromAnotherProviderIsRefused() {
        // RFC 9207 2.4: the mix-up attack, answered by a provider other than the one asked.
        try (Browser b = start()) {
            Map<String, String> asked = b.startAt(provider, null);
            assertProblem(b.finish(asked, "https://evil.test"), 400, "another issuer");
            assertThat(provider.exchanges.get()).isZero();
        }
    }

    @Test
    void aMissingIssIsRefusedWhenTheProviderPromisesIt() {
        provider.promisesIss = true;
        try (Browser b = start()) {
            Map<String, String> asked = b.startAt(provider, null);
            assertProblem(b.finish(asked, null), 400, "another issuer");
        }
    }

    @Test
    void aMissingIssPassesWhenTheProviderDoesNotSendIt() {
        try (Browser b = start()) {
            assertThat(b.finish(b.startAt(provider, null), null).status()).isEqualTo(303);
            assertThat(b.get("/me").text()).isEqualTo("alice via session");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nonce", "aud", "iss", "exp", "azp", "signature"})
    void anIdTokenThatDoesNotHoldIsRefused(String broken) {
        // OIDC Core 3.1.3.7: signature (6), iss (2), aud (3), azp (5), exp (9), nonce (11).
        switch (broken) {
            case "nonce" -> provider.idTokenTweak = c -> c.claim("nonce", "another-attempts-nonce");
            case "aud" -> provider.idTokenTweak = c -> c.audience("another-client");
            case "iss" -> provider.idTokenTweak = c -> c.issuer("https://evil.test");
            case "exp" -> provider.idTokenTweak = c -> c.expirationTime(java.util.Date.from(java.time.Instant.now().minusSeconds(3600)));
            case "azp" -> provider.idTokenTweak = c -> c.claim("azp", "another-client");
            default -> provider.signWithStranger = true;
        }
        try (Browser b = start()) {
            TestResponse r = b.finish(b.startAt(provider, null), provider.issuer);
            assertProblem(r, 401, "ID token was not valid");
            assertThat(b.jar).doesNotContainKey("__Host-tidemill_session");
            assertThat(b.get("/me").status()).isEqualTo(401);
        }
    }

    @Test
    void theProvidersRefusalIsA401NamingIt() {
        try (Browser b = start()) {
            Map<String, String> asked = b.startAt(provider, null);
            TestResponse r = b.callback(Map.of("error", "access_denied", "state", asked.get("state")));
            assertProblem(r, 401, "access_denied");
            assertThat(b.get("/me").status()).isEqualTo(401);
        }
    }

    @Test
    void aTokenEndpointThatFailsIsA502() {
        provider.tokenEndpointFails = true;
        try (Browser b = start()) {
            assertProblem(b.finish(b.startAt(provider, null), provider.issuer), 502, "did not give tokens");
            assertThat(b.get("/me").status()).isEqualTo(401);
        }
    }

    @Test
    void aProviderThatCannotBeReachedIsA503AndTheNextSignInWorks() {
        provider.discoveryDown = true;
        try (Browser b = start()) {
            assertProblem(b.get("/login"), 503, "cannot be reached");
            provider.discoveryDown = false;
            assertThat(b.finish(b.startAt(provider, null), provider.issuer).status()).isEqualTo(303);
        }
    }

    @ParameterizedTest(name = "next={0}")
    @ValueSource(strings = {"//evil.test/x", "https://evil.test/", "/\\evil.test", "evil", "/ok\r\nSet-Cookie: x=y", "javascript:alert(1)"})
    void theReturnPathIsLocalOnly(String next) {
        try (Browser b = start()) {
            TestResponse r = b.finish(b.startAt(provider, next), provider.issuer);
            assertThat(r.status()).isEqualTo(303);
            assertThat(r.header("Location")).hasValue("/");
        }
    }

    @Test
    void anExpiredAccessTokenIsRefreshedOnTheNextGuardedRequest() {
        provider.accessSeconds = 1;
        try (Browser b = start()) {
            b.finish(b.startAt(provider, null), provider.issuer);
            String first = b.get("/token").text();
            await().atMost(Duration.ofSeconds(20)).until(() -> !b.get("/token").text().equals(first));
            assertThat(provider.refreshes.get()).isPositive();
            assertThat(provider.tokenRequests).anySatisfy(f -> assertThat(f).containsEntry("grant_type", "refresh_token")
                    .containsEntry("refresh_token", "refresh-1"));
            assertThat(b.get("/me").text()).isEqualTo("alice via session");
        }
    }

    @Test
    void aRefusedRefreshEndsTheSession() {
        provider.accessSeconds = 1;
        try (Browser b = start()) {
            b.finish(b.startAt(provider, null), provider.issuer);
            provider.refreshRefused = true;
            await().atMost(Duration.ofSeconds(20)).until(() -> b.get("/me").status() == 401);
            assertThat(b.get("/me").status()).isEqualTo(401);
        }
    }

    @Test
    void logoutEndsTheSessionThenSendsTheBrowserToTheProvidersLogout() {
        try (Browser b = start()) {
            b.finish(b.startAt(provider, null), provider.issuer);
            TestResponse r = b.send(TestRequest.of("POST", "/logout").header("Sec-Fetch-Site", "same-origin"));
            assertThat(r.status()).as(r.toString()).isEqualTo(303);
            URI to = URI.create(r.header("Location").orElseThrow());
            assertThat(to.getScheme() + "://" + to.getRawAuthority() + to.getPath()).isEqualTo(provider.issuer + "/session/end");
            assertThat(TestProvider.query(to.getRawQuery())).containsEntry("client_id", TestProvider.CLIENT_ID)
                    .containsEntry("post_logout_redirect_uri", "http://app.test/").containsKey("id_token_hint");
            assertThat(b.get("/me").status()).isEqualTo(401);
        }
    }

    @Test
    void logoutWithoutAProviderLogoutReturnsHome() {
        provider.endSession = false;
        try (Browser b = start()) {
            b.finish(b.startAt(provider, null), provider.issuer);
            TestResponse r = b.send(TestRequest.of("POST", "/logout").header("Sec-Fetch-Site", "same-origin"));
            assertThat(r.header("Location")).hasValue("http://app.test/");
            assertThat(b.get("/me").status()).isEqualTo(401);
        }
    }

    @Test
    void aCrossSiteLogoutIsRefused() {
        try (Browser b = start()) {
            b.finish(b.startAt(provider, null), provider.issuer);
            TestResponse r = b.send(TestRequest.of("POST", "/logout").header("Sec-Fetch-Site", "cross-site"));
            assertThat(r.status()).isEqualTo(403);
            assertThat(b.get("/me").text()).isEqualTo("alice via session");
        }
    }

    @Test
    void theEnvironmentConfiguresTheSameSignIn() {
        Config c = Config.fromEnvironment(Map.of("TIDEMILL_AUTH_ISSUER", provider.issuer, "TIDEMILL_OIDC_CLIENT_ID", TestProvider.CLIENT_ID,
                "TIDEMILL_OIDC_CLIENT_SECRET", TestProvider.SECRET, "TIDEMILL_OIDC_REDIRECT_URI", REDIRECT,
                "TIDEMILL_SESSION_KEYS", java.util.Base64.getUrlEncoder().encodeToString(KEY)));
        OidcLogin l = c.auth().login().orElseThrow();
        assertThat(l.clientSecret()).hasValue(TestProvider.SECRET);
        assertThat(l.toString()).doesNotContain(TestProvider.SECRET);
        assertThat(c.toString()).doesNotContain(TestProvider.SECRET);
        assertThat(l.callbackPath()).isEqualTo("/auth/callback");
        Tidemill app = Tidemill.create(c.toBuilder().port(0).build());
        routes(app);
        try (Browser b = new Browser(TestClient.start(app))) {
            assertThat(b.finish(b.startAt(provider, "/me"), provider.issuer).header("Location")).hasValue("/me");
            assertThat(b.get("/me").text()).isEqualTo("alice via session");
        }
    }

    @Test
    void aClientIdWithoutAnIssuerFailsNamingIt() {
        assertThatThrownBy(() -> Config.fromEnvironment(Map.of("TIDEMILL_OIDC_CLIENT_ID", "app", "TIDEMILL_OIDC_REDIRECT_URI", REDIRECT)))
                .hasMessageContaining("TIDEMILL_AUTH_ISSUER");
        assertThatThrownBy(() -> Config.fromEnvironment(Map.of("TIDEMILL_AUTH_ISSUER", provider.issuer, "TIDEMILL_OIDC_CLIENT_ID", "app",
                "TIDEMILL_OIDC_REDIRECT_URI", "/auth/callback"))).hasMessageContaining("TIDEMILL_OIDC_REDIRECT_URI");
    }

    @Test
    void settingsAreCheckedAtBuild() {
        assertThatThrownBy(() -> login().scopes("profile").build()).hasMessageContaining("openid");
        assertThatThrownBy(() -> login().redirectUri(URI.create("https://app.test/cb?x=1")).build()).hasMessageContaining("redirectUri");
        assertThatThrownBy(() -> login().attemptTimeout(Duration.ofSeconds(1)).build()).hasMessageContaining("attemptTimeout");
        assertThatThrownBy(() -> login().issuer("issuer.test").build()).hasMessageContaining("issuer");
    }

    static void assertProblem(TestResponse r, int status, String detail) {
        assertThat(r.status()).as(r.toString()).isEqualTo(status);
        assertThat(r.header("Content-Type")).hasValue("application/problem+json");
        assertThat(r.text()).contains(detail);
    }
}
