package dev.tidemill.tests.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ApiKeys;
import dev.tidemill.Auth;
import dev.tidemill.BearerTokens;
import dev.tidemill.Config;
import dev.tidemill.Principal;
import dev.tidemill.Requirement;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * API keys: sent as {@code Authorization: ApiKey} or in a configured header, matched by digest,
 * the caller {@code via api_key} with the key's name and scopes; a wrong, malformed or doubled key
 * is refused; read from a keys file by {@code TIDEMILL_API_KEYS_FILE}; beside bearer tokens on one
 * app, over HTTP/1.1 and h2c in every mode.
 */
class ApiKeysTest {
    private static final ApiKeys.Generated BILLING = ApiKeys.generate("billing", Set.of("invoices:read"));
    private static final ApiKeys.Generated ADMIN = ApiKeys.generate("ops-bot", Set.of("admin"));

    static TestClient start(Setup setup, Auth auth) {
        return setup.start(b -> b.auth(auth), app -> {
            app.get("/me", req -> {
                Principal p = req.principal().orElseThrow();
                return Map.of("subject", p.subject(), "scopes", List.copyOf(p.scopes()), "via", p.via().toString());
            }).requires(Requirement.authenticated());
            app.get("/admin", req -> "admin").requires(Requirement.scope("admin"));
        });
    }

    static Stream<Setup> cells() {
        return Setup.modesAndProtocols();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cells")
    void aKeyIdentifiesItsHolderByNameWithItsScopes(Setup setup) {
        ApiKeys keys = ApiKeys.of(List.of(BILLING.entry(), ADMIN.entry())).header("X-API-Key");
        try (TestClient c = start(setup, Auth.apiKeys(keys))) {
            TestResponse me = c.send(TestRequest.get("/me").header("Authorization", "ApiKey " + BILLING.key()));
            assertThat(me.status()).as("%s", me).isEqualTo(200);
            assertThat(me.jsonTree().get("subject").asString()).isEqualTo("billing");
            assertThat(me.jsonTree().get("via").asString()).isEqualTo("api_key");
            assertThat(me.jsonTree().get("scopes").toString()).isEqualTo("[\"invoices:read\"]");
            assertThat(c.send(TestRequest.get("/me").header("X-API-Key", ADMIN.key())).jsonTree().get("subject").asString())
                    .isEqualTo("ops-bot");
            assertThat(c.send(TestRequest.get("/admin").header("X-API-Key", ADMIN.key())).text()).isEqualTo("admin");
            TestResponse forbidden = c.send(TestRequest.get("/admin").header("Authorization", "apikey " + BILLING.key()));
            assertThat(forbidden.status()).as("%s", forbidden).isEqualTo(403);
            assertThat(forbidden.header("WWW-Authenticate")).as("no bearer token, no insufficient_scope").isEmpty();
        }
    }

    @Test
    void wrongMalformedOrDoubledKeysAreRefused() {
        ApiKeys keys = ApiKeys.of(List.of(BILLING.entry())).header("X-API-Key");
        try (TestClient c = start(Setup.onDefaultTransport(dev.tidemill.ExecutionMode.LOOP), Auth.apiKeys(keys))) {
            String almost = BILLING.key().substring(0, BILLING.key().length() - 1) + (BILLING.key().endsWith("A") ? "B" : "A");
            for (String bad : List.of(almost, ADMIN.key(), "tdm_", "not-a-key", BILLING.key() + BILLING.key())) {
                TestResponse r = c.send(TestRequest.get("/me").header("Authorization", "ApiKey " + bad));
                assertThat(r.status()).as("%s: %s", bad, r).isEqualTo(401);
                assertThat(r.header("WWW-Authenticate")).hasValue("ApiKey");
                assertThat(r.header("Content-Type")).hasValue("application/problem+json");
                assertThat(r.text()).doesNotContain(bad.length() > 8 ? bad.substring(4) : "\u0000");
            }
            TestResponse none = c.send(TestRequest.get("/me"));
            assertThat(none.status()).isEqualTo(401);
            assertThat(none.header("WWW-Authenticate")).hasValue("ApiKey");
            TestResponse both = c.send(TestRequest.get("/me").header("Authorization", "ApiKey " + BILLING.key())
                    .header("X-API-Key", BILLING.key()));
            assertThat(both.status()).as("two credentials: %s", both).isEqualTo(400);
            assertThat(c.send(TestRequest.get("/me").header("Authorization", "Bearer " + BILLING.key())).status())
                    .as("a key under the Bearer scheme, on an app without bearer tokens").isEqualTo(401);
        }
    }

    @Test
    void keysAndBearerTokensServeOneAppAndA401AsksForEither() {
        try (KeyServer idp = new KeyServer(); TestClient c = start(Setup.onDefaultTransport(dev.tidemill.ExecutionMode.LOOP),
                Auth.bearer(BearerTokens.builder().issuer(KeyServer.ISSUER).audience(KeyServer.AUDIENCE).jwks(idp.jwksJson()).build())
                        .withApiKeys(ApiKeys.of(List.of(BILLING.entry()))))) {
            assertThat(c.send(TestRequest.get("/me").header("Authorization", "ApiKey " + BILLING.key())).status()).isEqualTo(200);
            String token = idp.rs256(KeyServer.claims("alice", null).build());
            assertThat(c.send(TestRequest.get("/me").header("Authorization", "Bearer " + token)).jsonTree().get("via").asString())
                    .isEqualTo("bearer");
            assertThat(c.get("/me").header("WWW-Authenticate")).hasValue("Bearer, ApiKey");
        }
    }

    @Test
    void theKeysFileIsReadFromTheEnvironment(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("keys.txt");
        Files.writeString(file, "# service keys\n" + BILLING.entry().line() + "\n\n" + ADMIN.entry().line() + "\n");
        Config config = Config.fromEnvironment(Map.of("TIDEMILL_API_KEYS_FILE", file.toString(), "TIDEMILL_API_KEY_HEADER", "X-Key"));
        ApiKeys keys = config.auth().apiKeys().orElseThrow();
        assertThat(keys.entries()).extracting(ApiKeys.Entry::name).containsExactly("billing", "ops-bot");
        assertThat(keys.header()).hasValue("X-Key");
        assertThat(keys.find(ADMIN.key()).map(ApiKeys.Entry::scopes)).hasValue(Set.of("admin"));
        assertThat(Files.readString(file)).as("the file holds digests, never keys").doesNotContain(BILLING.key(), ADMIN.key());
        try (TestClient c = Setup.onDefaultTransport(dev.tidemill.ExecutionMode.IO).start(b -> b.auth(config.auth()), app ->
                app.get("/me", req -> req.principal().orElseThrow().subject()).requires(Requirement.authenticated()))) {
            assertThat(c.send(TestRequest.get("/me").header("X-Key", BILLING.key())).text()).isEqualTo("billing");
        }
    }

    @Test
    void outcomesAreCountedByReasonAndCredential() {
        ApiKeys keys = ApiKeys.of(List.of(BILLING.entry()));
        try (TestClient c = start(Setup.onDefaultTransport(dev.tidemill.ExecutionMode.LOOP), Auth.apiKeys(keys))) {
            for (int i = 0; i < 3; i++) c.send(TestRequest.get("/me").header("Authorization", "ApiKey " + BILLING.key()));
            c.get("/me");
            c.send(TestRequest.get("/admin").header("Authorization", "ApiKey " + BILLING.key()));
            String scrape = c.get("/metrics").text();
            assertThat(sample(scrape, "admitted", "api_key")).as(scrape).isEqualTo(3.0);
            assertThat(sample(scrape, "unauthorized", "none")).isEqualTo(1.0);
            assertThat(sample(scrape, "forbidden", "none")).isEqualTo(1.0);
            assertThat(sample(scrape, "cross_site", "none")).isEqualTo(0.0);
        }
    }

    private static double sample(String scrape, String outcome, String via) {
        return scrape.lines().filter(l -> l.startsWith("tidemill_auth_total{") && l.contains("outcome=\"" + outcome + "\"")
                && l.contains("via=\"" + via + "\"")).mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .findFirst().orElseThrow(() -> new AssertionError("no tidemill_auth_total for " + outcome + "/" + via));
    }
}
