package dev.tidemill.tests.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.tidemill.Auth;
import dev.tidemill.BearerTokens;
import dev.tidemill.Principal;
import dev.tidemill.Requirement;
import dev.tidemill.Response;
import dev.tidemill.SseEvent;
import dev.tidemill.Tidemill;
import dev.tidemill.WebSocketHandler;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.testing.WebSocketClient;
import dev.tidemill.tests.support.Setup;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bearer tokens (RFC 6750) verified by RFC 8725's rules, against keys a real JWKS endpoint serves
 * ({@link KeyServer}): a table of hostile tokens, each with the RFC or CVE it comes from and the
 * answer it must get; requirements on routes (authenticated, scope, role, anonymous, inherited),
 * on WebSocket and event-stream routes before they open; key rotation, a key set never loaded, and
 * a slow or absent JWKS endpoint.
 */
@Timeout(120)
class BearerTokensTest {
    private static KeyServer keys;
    private static TestClient client;
    private static KeyServer attacker;

    @BeforeAll
    static void start() {
        keys = new KeyServer();
        attacker = new KeyServer();
        client = startApp(Setup.onDefaultTransport(dev.tidemill.ExecutionMode.LOOP), b -> { });
    }

    @AfterAll
    static void stop() {
        client.close();
        keys.close();
        attacker.close();
    }

    static TestClient startApp(Setup setup, Consumer<BearerTokens.Builder> tweak) {
        BearerTokens.Builder tokens = BearerTokens.builder().issuer(KeyServer.ISSUER).audience(KeyServer.AUDIENCE)
                .jwksUri(keys.jwksUri());
        tweak.accept(tokens);
        return setup.start(b -> b.auth(Auth.bearer(tokens.build())), BearerTokensTest::routes);
    }

    static void routes(Tidemill app) {
        app.get("/me", req -> {
            Principal p = req.principal().orElseThrow();
            return Map.of("subject", p.subject(), "scopes", List.copyOf(p.scopes()), "via", p.via().toString());
        }).requires(Requirement.authenticated());
        app.get("/admin", req -> "admin").requires(Requirement.scope("admin"));
        app.get("/either", req -> "either").requires(Requirement.anyOf(Requirement.scope("a"), Requirement.role("ops")));
        app.get("/open", req -> "principal " + req.principal().isPresent());
        var ops = app.group("/ops").requires(Requirement.role("ops"));
        ops.get("/deploy", req -> "deploy");
        ops.get("/status", req -> "status").requires(Requirement.anonymous());
        app.get("/ws", req -> Response.webSocket((WebSocketHandler) (ws, message) -> ws.send(message.text())))
                .requires(Requirement.authenticated());
        app.get("/events", req -> Response.sse(stream -> {
            stream.send(SseEvent.data("hello " + req.principal().orElseThrow().subject()));
            stream.close();
        })).requires(Requirement.authenticated());
        app.post("/echo", req -> "got " + req.body().length).requires(Requirement.authenticated());
    }

    static String valid() {
        return keys.rs256(KeyServer.claims("alice", "read admin").build());
    }

    // ------------------------------------------------------------------ the table of hostile tokens

    /**
     * @param name what is wrong with the token
     * @param source the rule it breaks: RFC section or CVE
     * @param authorization the Authorization field value, made when the case runs
     * @param status the answer it must get
     * @param challenge what WWW-Authenticate must say, null for none
     */
    record TokenCase(String name, String source, Callable<String> authorization, int status, String challenge) {
        @Override
        public String toString() {
            return name + " (" + source + ")";
        }
    }

    static final String INVALID = "Bearer error=\"invalid_token\"";

    static Stream<TokenCase> cases() throws Exception {
        RSAKey other = new RSAKeyGenerator(2048).keyID("rsa-1").generate(); // our kid, not our key
        ECKey evil = new ECKeyGenerator(Curve.P_256).keyID("evil").generate();
        Instant now = Instant.now();
        List<TokenCase> c = new ArrayList<>();
        c.add(new TokenCase("a valid RS256 token", "RFC 7518 3.3", () -> "Bearer " + valid(), 200, null));
        c.add(new TokenCase("a valid ES256 token", "RFC 7518 3.4",
                () -> "Bearer " + keys.es256(KeyServer.claims("alice", "read").build()), 200, null));
        c.add(new TokenCase("the scheme in lower case", "RFC 9110 11.1", () -> "bearer " + valid(), 200, null));
        c.add(new TokenCase("no Authorization field", "RFC 6750 3.1", () -> null, 401, "Bearer"));
        c.add(new TokenCase("an empty Bearer credential", "RFC 6750 2.1", () -> "Bearer ", 401, INVALID));
        c.add(new TokenCase("not a JWT", "RFC 7519 7.2", () -> "Bearer abc.def", 401, INVALID));
        c.add(new TokenCase("random bytes", "RFC 7515 5.2", () -> "Bearer !!!!", 401, INVALID));
        c.add(new TokenCase("alg none, unsigned", "RFC 8725 2.1, 3.1; CVE-2015-9235", () -> "Bearer "
                + b64("{\"alg\":\"none\",\"typ\":\"JWT\"}") + "." + payload(KeyServer.claims("alice", "admin").build()) + ".", 401, INVALID));
        c.add(new TokenCase("alg None, unsigned", "RFC 8725 3.1", () -> "Bearer "
                + b64("{\"alg\":\"None\"}") + "." + payload(KeyServer.claims("alice", "admin").build()) + ".", 401, INVALID));
        c.add(new TokenCase("HS256 keyed with the RSA public key", "RFC 8725 2.1, 3.1; CVE-2016-10555", () -> {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("rsa-1").build(),
                    KeyServer.claims("alice", "admin").build());
            jwt.sign(new MACSigner(keys.rsa.toPublicKey().getEncoded()));
            return "Bearer " + jwt.serialize();
        }, 401, INVALID));
        c.add(new TokenCase("RS256 named, signed by another key with our kid", "RFC 7515 5.2", () -> "Bearer "
                + KeyServer.sign(other, JWSAlgorithm.RS256, h -> { }, KeyServer.claims("alice", "admin").build()), 401, INVALID));
        c.add(new TokenCase("RS256 named on the EC key's kid", "RFC 8725 3.1", () -> "Bearer "
                + KeyServer.sign(keys.rsa, JWSAlgorithm.RS256, h -> h.keyID("ec-1"), KeyServer.claims("alice", "admin").build()),
                401, INVALID));
        c.add(new TokenCase("payload changed after signing", "RFC 7515 5.2", () -> {
            String[] parts = valid().split("\\.");
            return "Bearer " + parts[0] + "." + payload(KeyServer.claims("mallory", "admin").build()) + "." + parts[2];
        }, 401, INVALID));
        c.add(new TokenCase("signature stripped", "RFC 7515 5.2", () -> {
            String[] parts = valid().split("\\.");
            return "Bearer " + parts[0] + "." + parts[1] + ".";
        }, 401, INVALID));
        c.add(new TokenCase("ES256 with r = s = 0", "CVE-2022-21449", () -> {
            String[] parts = keys.es256(KeyServer.claims("alice", "admin").build()).split("\\.");
            return "Bearer " + parts[0] + "." + parts[1] + "." + Base64URL.encode(new byte[64]);
        }, 401, INVALID));
        c.add(new TokenCase("expired two minutes ago", "RFC 7519 4.1.4", () -> "Bearer " + keys.rs256(
                KeyServer.claims("alice", null).expirationTime(Date.from(now.minusSeconds(120))).build()), 401, INVALID));
        c.add(new TokenCase("expired 30 s ago, within the 60 s leeway", "RFC 7519 4.1.4", () -> "Bearer " + keys.rs256(
                KeyServer.claims("alice", null).expirationTime(Date.from(Instant.now().minusSeconds(30))).build()), 200, null));
        c.add(new TokenCase("no exp", "RFC 8725 3.10", () -> "Bearer " + keys.rs256(
                KeyServer.claims("alice", null).expirationTime(null).build()), 401, INVALID));
        c.add(new TokenCase("nbf two minutes ahead", "RFC 7519 4.1.5", () -> "Bearer " + keys.rs256(
                KeyServer.claims("alice", null).notBeforeTime(Date.from(Instant.now().plusSeconds(120))).build()), 401, INVALID));
        c.add(new TokenCase("another issuer", "RFC 8725 3.8", () -> "Bearer " + keys.rs256(
                KeyServer.claims("alice", null).issuer("https://evil.test").build()), 401, INVALID));
        c.add(new TokenCase("issuer with a trailing slash", "RFC 8725 3.8 (exact match)", () -> "Bearer " + keys.rs256(
                KeyServer.claims("alice", null).issuer(KeyServer.ISSUER + "/").build()), 401, INVALID));
        c.add(new TokenCase("no iss", "RFC 8725 3.8", () -> "Bearer " + keys.rs256(
                KeyServer.claims("alice", null).issuer(null).build()), 401, INVALID));
        c.add(new TokenCase("another audience", "RFC 8725 3.9", () -> "Bearer " + keys.rs256(
                KeyServer.claims("alice", null).audience("other").build()), 401, INVALID));
        c.add(new TokenCase("no aud", "RFC 8725 3.9", () -> "Bearer " + keys.rs256(
                KeyServer.claims("alice", null).audience((String) null).build()), 401, INVALID));
        c.add(new TokenCase("our audience among others", "RFC 7519 4.1.3", () -> "Bearer " + keys.rs256(
                KeyServer.claims("alice", null).audience(List.of("other", KeyServer.AUDIENCE)).build()), 200, null));
        c.add(new TokenCase("no sub", "RFC 9068 2.2", () -> "Bearer " + keys.rs256(
                KeyServer.claims("alice", null).subject(null).build()), 401, INVALID));
        c.add(new TokenCase("an unknown crit parameter", "RFC 7515 4.1.11", () -> "Bearer " + KeyServer.sign(keys.rsa,
                JWSAlgorithm.RS256, h -> h.criticalParams(Set.of("x-policy")).customParam("x-policy", "1"),
                KeyServer.claims("alice", null).build()), 401, INVALID));
        c.add(new TokenCase("an embedded jwk of the signer's own", "RFC 8725 3.10; CVE-2018-0114", () -> "Bearer "
                + KeyServer.sign(evil, JWSAlgorithm.ES256, h -> h.jwk(evil.toPublicJWK()), KeyServer.claims("alice", "admin").build()),
                401, INVALID));
        c.add(new TokenCase("a jku naming another key set", "RFC 8725 3.10", () -> "Bearer "
                + KeyServer.sign(attacker.ec, JWSAlgorithm.ES256, h -> h.jwkURL(attacker.jwksUri()),
                        KeyServer.claims("alice", "admin").build()), 401, INVALID));
        c.add(new TokenCase("an x5u naming a certificate", "RFC 8725 3.10", () -> "Bearer "
                + KeyServer.sign(evil, JWSAlgorithm.ES256, h -> h.x509CertURL(URI.create("http://127.0.0.1:1/cert.pem")),
                        KeyServer.claims("alice", "admin").build()), 401, INVALID));
        c.add(new TokenCase("RS512, on the default allow-list", "RFC 7518 3.3", () -> "Bearer "
                + KeyServer.sign(keys.rsa, JWSAlgorithm.RS512, h -> { }, KeyServer.claims("alice", null).build()), 200, null));
        c.add(new TokenCase("a token over 8 KiB", "RFC 8725 3.x (resource use); maxTokenBytes", () -> "Bearer " + keys.rs256(
                KeyServer.claims("alice", null).claim("pad", "p".repeat(9000)).build()), 401, INVALID));
        c.add(new TokenCase("a token just under 8 KiB", "maxTokenBytes", () -> {
            String t = keys.rs256(KeyServer.claims("alice", null).claim("pad", "p".repeat(5500)).build());
            assertThat(t.length()).isLessThan(8192);
            return "Bearer " + t;
        }, 200, null));
        c.add(new TokenCase("Basic instead of Bearer", "RFC 7617; RFC 6750 3.1", () -> "Basic YWxpY2U6c2VjcmV0", 401, "Bearer"));
        c.add(new TokenCase("the token without a scheme", "RFC 6750 2.1, 3.1", () -> valid(), 401, "Bearer"));
        c.add(new TokenCase("a token from another issuer's keys, unknown kid", "RFC 8725 3.10", () -> "Bearer "
                + KeyServer.sign(attacker.rsa, JWSAlgorithm.RS256, h -> h.keyID("attacker-1"), KeyServer.claims("alice", "admin").build()),
                401, INVALID));
        c.add(new TokenCase("a JWE (five parts)", "RFC 7516 7.1", () -> "Bearer a.b.c.d.e", 401, INVALID));
        c.add(new TokenCase("typ at+jwt passes when no typ is required", "RFC 9068 2.1", () -> "Bearer "
                + KeyServer.sign(keys.rsa, JWSAlgorithm.RS256, h -> h.type(new com.nimbusds.jose.JOSEObjectType("at+jwt")),
                        KeyServer.claims("alice", null).build()), 200, null));
        c.add(new TokenCase("typ of another kind", "RFC 8725 3.11", () -> "Bearer "
                + KeyServer.sign(keys.rsa, JWSAlgorithm.RS256, h -> h.type(new com.nimbusds.jose.JOSEObjectType("secevent+jwt")),
                        KeyServer.claims("alice", null).build()), 401, INVALID));
        c.add(new TokenCase("alg nOnE, unsigned", "RFC 8725 3.1; CVE-2015-9235", () -> "Bearer "
                + b64("{\"alg\":\"nOnE\"}") + "." + payload(KeyServer.claims("alice", "admin").build()) + ".", 401, INVALID));
        c.add(new TokenCase("HS512 keyed with the RSA public key's PEM text", "RFC 8725 3.1; CVE-2016-10555", () -> {
            String pem = "-----BEGIN PUBLIC KEY-----\n" + java.util.Base64.getMimeEncoder().encodeToString(keys.rsa.toPublicKey().getEncoded())
                    + "\n-----END PUBLIC KEY-----\n";
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS512).keyID("rsa-1").build(),
                    KeyServer.claims("alice", "admin").build());
            jwt.sign(new MACSigner(pem.repeat(2).getBytes(StandardCharsets.US_ASCII)));
            return "Bearer " + jwt.serialize();
        }, 401, INVALID));
        c.add(new TokenCase("HS256 on a kid no key has", "RFC 8725 3.1", () -> {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("hmac-1").build(),
                    KeyServer.claims("alice", "admin").build());
            jwt.sign(new MACSigner(new byte[32]));
            return "Bearer " + jwt.serialize();
        }, 401, INVALID));
        c.add(new TokenCase("ES256 with r = s = n, the curve's order", "CVE-2022-21449", () -> {
            String[] parts = keys.es256(KeyServer.claims("alice", "admin").build()).split("\\.");
            byte[] n = java.util.HexFormat.of().parseHex("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551");
            byte[] sig = new byte[64];
            System.arraycopy(n, 0, sig, 0, 32);
            System.arraycopy(n, 0, sig, 32, 32);
            return "Bearer " + parts[0] + "." + parts[1] + "." + Base64URL.encode(sig);
        }, 401, INVALID));
        c.add(new TokenCase("ES384 named on the P-256 key's signature", "RFC 7518 3.4", () -> {
            String[] parts = keys.es256(KeyServer.claims("alice", "admin").build()).split("\\.");
            return "Bearer " + b64("{\"alg\":\"ES384\",\"kid\":\"ec-1\"}") + "." + parts[1] + "." + parts[2];
        }, 401, INVALID));
        c.add(new TokenCase("exp as a string, signed", "RFC 7519 4.1.4, 2 (NumericDate)", () -> "Bearer " + signedRaw(
                "{\"iss\":\"" + KeyServer.ISSUER + "\",\"aud\":\"" + KeyServer.AUDIENCE + "\",\"sub\":\"alice\",\"exp\":\"9999999999\"}"),
                401, INVALID));
        c.add(new TokenCase("a signed payload that is not JSON", "RFC 7519 7.2 step 10", () -> "Bearer " + signedRaw("alice is admin"),
                401, INVALID));
        c.add(new TokenCase("a header that is a JSON array", "RFC 7515 5.2 step 3", () -> {
            String[] parts = valid().split("\\.");
            return "Bearer " + b64("[\"RS256\"]") + "." + parts[1] + "." + parts[2];
        }, 401, INVALID));
        c.add(new TokenCase("a kid that is a path", "RFC 8725 3.10 (kid never used as a path or query)", () -> "Bearer "
                + KeyServer.sign(keys.rsa, JWSAlgorithm.RS256, h -> h.keyID("../../../../dev/null"), KeyServer.claims("alice", "admin").build()),
                401, INVALID));
        c.add(new TokenCase("the token followed by more text", "RFC 6750 2.1 (b64token)", () -> "Bearer " + valid() + " admin", 401, INVALID));
        c.add(new TokenCase("an empty aud list", "RFC 8725 3.9", () -> "Bearer " + keys.rs256(
                KeyServer.claims("alice", null).audience(List.of()).build()), 401, INVALID));
        return c.stream();
    }

    /** @return an RS256 JWS by our key over any payload text: a good signature on a bad claims set */
    private static String signedRaw(String payload) throws Exception {
        com.nimbusds.jose.JWSObject jws = new com.nimbusds.jose.JWSObject(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("rsa-1").build(),
                new com.nimbusds.jose.Payload(payload));
        jws.sign(new com.nimbusds.jose.crypto.RSASSASigner(keys.rsa));
        return jws.serialize();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachTokenGetsItsAnswer(TokenCase c) throws Exception {
        String authorization = c.authorization().call();
        TestRequest req = TestRequest.get("/me");
        if (authorization != null) req = req.header("Authorization", authorization);
        TestResponse r = client.send(req);
        assertThat(r.status()).as("%s: %s", c, r).isEqualTo(c.status());
        if (c.status() == 200) {
            assertThat(r.jsonTree().get("via").asString()).isEqualTo("bearer");
            assertThat(r.jsonTree().get("subject").asString()).isEqualTo("alice");
            return;
        }
        assertThat(r.header("Content-Type")).as("%s", r).hasValue("application/problem+json");
        if (c.challenge() != null) assertThat(r.header("WWW-Authenticate")).as("%s", r).hasValue(c.challenge());
        if (authorization != null && authorization.length() > 30) {
            assertThat(r.text()).as("the body never echoes the credential").doesNotContain(authorization.substring(7, 27));
        }
        assertThat(client.get("/open").text()).as("the server serves on").isEqualTo("principal false");
    }

    @Test
    void aTokenKeyedFromAnotherKeySetNeverMakesUsFetchIt() throws Exception {
        int before = attacker.fetches.get();
        client.send(TestRequest.get("/me").header("Authorization", "Bearer " + KeyServer.sign(attacker.ec, JWSAlgorithm.ES256,
                h -> h.jwkURL(attacker.jwksUri()), KeyServer.claims("alice", "admin").build())));
        assertThat(attacker.fetches.get()).as("jku is never followed").isEqualTo(before);
    }

    // ------------------------------------------------------------------ requirements

    @Test
    void aScopeTheTokenLacksIs403WithInsufficientScope() {
        String readOnly = keys.rs256(KeyServer.claims("bob", "read").build());
        TestResponse r = client.send(TestRequest.get("/admin").header("Authorization", "Bearer " + readOnly));
        assertThat(r.status()).as("%s", r).isEqualTo(403);
        assertThat(r.header("WWW-Authenticate")).hasValue("Bearer error=\"insufficient_scope\", scope=\"admin\"");
        assertThat(r.header("Content-Type")).hasValue("application/problem+json");
        assertThat(client.send(TestRequest.get("/admin").header("Authorization", "Bearer " + valid())).text()).isEqualTo("admin");
        assertThat(client.get("/admin").status()).as("no token at all").isEqualTo(401);
    }

    @Test
    void scopesComeFromScopeOrScpAndRolesFromTheRolesClaim() {
        String scp = keys.rs256(KeyServer.claims("carol", null).claim("scp", List.of("a", "b")).build());
        TestResponse me = client.send(TestRequest.get("/me").header("Authorization", "Bearer " + scp));
        assertThat(me.jsonTree().get("scopes").toString()).contains("\"a\"", "\"b\"");
        assertThat(client.send(TestRequest.get("/either").header("Authorization", "Bearer " + scp)).status()).isEqualTo(200);
        String ops = keys.rs256(KeyServer.claims("dave", null).claim("roles", List.of("ops")).build());
        assertThat(client.send(TestRequest.get("/either").header("Authorization", "Bearer " + ops)).status()).isEqualTo(200);
        assertThat(client.send(TestRequest.get("/ops/deploy").header("Authorization", "Bearer " + ops)).text()).isEqualTo("deploy");
        String neither = keys.rs256(KeyServer.claims("erin", "read").build());
        assertThat(client.send(TestRequest.get("/either").header("Authorization", "Bearer " + neither)).status()).isEqualTo(403);
        assertThat(client.send(TestRequest.get("/ops/deploy").header("Authorization", "Bearer " + neither)).status())
                .as("the group's role requirement").isEqualTo(403);
    }

    @Test
    void anonymousLiftsAnInheritedRequirementAndARouteWithoutOneAuthenticatesNothing() {
        assertThat(client.get("/ops/status").text()).isEqualTo("status");
        assertThat(client.get("/ops/deploy").status()).isEqualTo(401);
        assertThat(client.send(TestRequest.get("/open").header("Authorization", "Bearer " + valid())).text())
                .as("no requirement: the token is not even read").isEqualTo("principal false");
        assertThat(client.send(TestRequest.get("/open").header("Authorization", "Bearer garbage")).status()).isEqualTo(200);
    }

    @Test
    void twoAuthorizationFieldsAre400InvalidRequest() {
        TestResponse r = client.send(TestRequest.get("/me").header("Authorization", "Bearer " + valid())
                .header("Authorization", "Bearer " + valid()));
        assertThat(r.status()).as("%s", r).isEqualTo(400);
        assertThat(r.header("WWW-Authenticate")).hasValue("Bearer error=\"invalid_request\"");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aWebSocketOrEventStreamRouteRefusesBeforeItOpens(Setup setup) {
        try (TestClient c = startApp(setup, b -> { })) {
            assertThatThrownBy(() -> c.webSocket("/ws")).isInstanceOfSatisfying(WebSocketClient.HandshakeException.class,
                    e -> {
                        assertThat(e.response().status()).isEqualTo(401);
                        assertThat(e.response().header("WWW-Authenticate")).hasValue("Bearer");
                    });
            try (WebSocketClient ws = c.webSocket("/ws", "Authorization", "Bearer " + valid())) {
                ws.send("hi");
                assertThat(ws.nextMessage().orElseThrow().text()).isEqualTo("hi");
            }
            assertThat(c.send(TestRequest.get("/events")).status()).isEqualTo(401);
            try (var events = c.events(TestRequest.get("/events").header("Authorization", "Bearer " + valid()))) {
                assertThat(events.next().orElseThrow().data()).isEqualTo("hello alice");
            }
            TestResponse posted = c.send(TestRequest.of("POST", "/echo").header("Authorization", "Bearer " + valid())
                    .body("application/octet-stream", new byte[100_000]));
            assertThat(posted.text()).isEqualTo("got 100000");
            TestResponse refused = c.send(TestRequest.of("POST", "/echo").body("application/octet-stream", new byte[100_000]));
            assertThat(refused.status()).as("refused before its body is read").isEqualTo(401);
        }
    }

    // ------------------------------------------------------------------ keys

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aRotatedKeyIsFetchedOnceForAThousandRequestsThatNeedIt(Setup setup) throws Exception {
        try (KeyServer idp = new KeyServer(); TestClient c = setup.start(b -> b.auth(Auth.bearer(BearerTokens.builder()
                .issuer(KeyServer.ISSUER).audience(KeyServer.AUDIENCE).jwksUri(idp.jwksUri()).refetchInterval(Duration.ZERO).build())),
                BearerTokensTest::routes)) {
            await("the first fetch").atMost(Duration.ofSeconds(10)).until(() -> idp.fetches.get() >= 1);
            assertThat(c.send(TestRequest.get("/me").header("Authorization", "Bearer " + idp.rs256(
                    KeyServer.claims("alice", null).build()))).status()).isEqualTo(200);
            int before = idp.fetches.get();
            RSAKey next = new RSAKeyGenerator(2048).keyID("rsa-2").generate();
            idp.publish(next);
            idp.delay(Duration.ofMillis(300)); // every request below arrives while the one fetch is in flight
            String token = KeyServer.sign(next, JWSAlgorithm.RS256, h -> { }, KeyServer.claims("alice", null).build());
            int n = setup.protocol() == TestClient.Protocol.H2C ? 100 : 200; // each request its own connection
            ExecutorService pool = Executors.newFixedThreadPool(50);
            try {
                List<Future<Integer>> answers = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    answers.add(pool.submit(() -> c.send(TestRequest.get("/me").header("Authorization", "Bearer " + token)).status()));
                }
                for (Future<Integer> a : answers) assertThat(a.get()).as("a valid token with the new key").isEqualTo(200);
            } finally {
                pool.shutdownNow();
            }
            assertThat(idp.fetches.get() - before).as("fetches for %d requests with the new kid", n).isEqualTo(1);
        }
    }

    @Test
    void aRotationJustAfterAFetchIsFetchedAndMadeUpKidsOnceAMinuteAtMost() throws Exception {
        // The default refetchInterval (1 minute) limits refetches for unknown kids only: the start's
        // fetch does not count, so a key published seconds later still gets its one fetch.
        try (KeyServer idp = new KeyServer(); TestClient c = Setup.onDefaultTransport(dev.tidemill.ExecutionMode.IO).start(b -> b.auth(
                Auth.bearer(BearerTokens.builder().issuer(KeyServer.ISSUER).audience(KeyServer.AUDIENCE).jwksUri(idp.jwksUri()).build())),
                BearerTokensTest::routes)) {
            await("the first fetch").atMost(Duration.ofSeconds(10)).until(() -> idp.fetches.get() >= 1);
            RSAKey next = new RSAKeyGenerator(2048).keyID("rsa-6").generate();
            idp.publish(next);
            String token = KeyServer.sign(next, JWSAlgorithm.RS256, h -> { }, KeyServer.claims("alice", null).build());
            assertThat(c.send(TestRequest.get("/me").header("Authorization", "Bearer " + token)).status()).isEqualTo(200);
            int after = idp.fetches.get();
            for (int i = 0; i < 20; i++) {
                String madeUp = KeyServer.sign(new RSAKeyGenerator(2048).keyID("made-up-" + i).generate(), JWSAlgorithm.RS256, h -> { },
                        KeyServer.claims("alice", null).build());
                assertThat(c.send(TestRequest.get("/me").header("Authorization", "Bearer " + madeUp)).status()).isEqualTo(401);
            }
            assertThat(idp.fetches.get()).as("made-up kids within the minute fetch nothing").isEqualTo(after);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aBodySentWhileItsKeyIsFetchedIsReadOnceTheVerdictIsIn(Setup setup) throws Exception {
        try (KeyServer idp = new KeyServer(); TestClient c = setup.start(b -> b.auth(Auth.bearer(BearerTokens.builder()
                .issuer(KeyServer.ISSUER).audience(KeyServer.AUDIENCE).jwksUri(idp.jwksUri()).refetchInterval(Duration.ZERO).build())),
                BearerTokensTest::routes)) {
            await("the first fetch").atMost(Duration.ofSeconds(10)).until(() -> idp.fetches.get() >= 1);
            RSAKey next = new RSAKeyGenerator(2048).keyID("rsa-4").generate();
            idp.publish(next);
            idp.delay(Duration.ofMillis(300));
            String token = KeyServer.sign(next, JWSAlgorithm.RS256, h -> { }, KeyServer.claims("alice", null).build());
            TestResponse whole = c.send(TestRequest.of("POST", "/echo").header("Authorization", "Bearer " + token)
                    .body("application/octet-stream", new byte[100_000]));
            assertThat(whole.status()).as("%s", whole).isEqualTo(200);
            assertThat(whole.text()).isEqualTo("got 100000");
            RSAKey later = new RSAKeyGenerator(2048).keyID("rsa-5").generate();
            idp.publish(later);
            String token2 = KeyServer.sign(later, JWSAlgorithm.RS256, h -> { }, KeyServer.claims("alice", null).build());
            TestResponse chunked = c.send(TestRequest.of("POST", "/echo").header("Authorization", "Bearer " + token2)
                    .chunked(List.of(new byte[30_000], new byte[30_000])));
            assertThat(chunked.text()).as("%s", chunked).isEqualTo("got 60000");
            // A kid the key set never gets: refused once the fetch is back, the body dropped, the server serving on.
            String stranger = KeyServer.sign(new RSAKeyGenerator(2048).keyID("nobody").generate(), JWSAlgorithm.RS256, h -> { },
                    KeyServer.claims("alice", null).build());
            TestResponse refused = c.send(TestRequest.of("POST", "/echo").header("Authorization", "Bearer " + stranger)
                    .body("application/octet-stream", new byte[50_000]));
            assertThat(refused.status()).as("%s", refused).isEqualTo(401);
            assertThat(c.get("/open").text()).isEqualTo("principal false");
        }
    }

    @Test
    void keysNeverLoadedGive503WithRetryAfterAndTheFirstGoodFetchEndsIt() throws Exception {
        try (KeyServer idp = new KeyServer()) {
            idp.down(true);
            try (TestClient c = Setup.onDefaultTransport(dev.tidemill.ExecutionMode.LOOP).start(b -> b.auth(Auth.bearer(
                    BearerTokens.builder().issuer(KeyServer.ISSUER).audience(KeyServer.AUDIENCE).jwksUri(idp.jwksUri())
                            .refetchInterval(Duration.ZERO).build())), BearerTokensTest::routes)) {
                String token = idp.rs256(KeyServer.claims("alice", null).build());
                TestResponse r = c.send(TestRequest.get("/me").header("Authorization", "Bearer " + token));
                assertThat(r.status()).as("%s", r).isEqualTo(503);
                assertThat(r.header("Retry-After")).isPresent();
                assertThat(r.header("Content-Type")).hasValue("application/problem+json");
                idp.down(false);
                assertThat(c.send(TestRequest.get("/me").header("Authorization", "Bearer " + token)).status()).isEqualTo(200);
                idp.down(true);
                assertThat(c.send(TestRequest.get("/me").header("Authorization", "Bearer " + token)).status())
                        .as("the endpoint down again, the keys held keep serving").isEqualTo(200);
            }
        }
    }

    @Test
    void aSlowKeyEndpointStallsNoOtherRequest() throws Exception {
        try (KeyServer idp = new KeyServer(); TestClient c = Setup.onDefaultTransport(dev.tidemill.ExecutionMode.IO).start(
                b -> b.ioThreads(1).auth(Auth.bearer(BearerTokens.builder().issuer(KeyServer.ISSUER).audience(KeyServer.AUDIENCE)
                        .jwksUri(idp.jwksUri()).refetchInterval(Duration.ZERO).build())), BearerTokensTest::routes)) {
            await("the first fetch").atMost(Duration.ofSeconds(10)).until(() -> idp.fetches.get() >= 1);
            RSAKey next = new RSAKeyGenerator(2048).keyID("rsa-3").generate();
            idp.publish(next);
            idp.delay(Duration.ofSeconds(2));
            String token = KeyServer.sign(next, JWSAlgorithm.RS256, h -> { }, KeyServer.claims("alice", null).build());
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<Integer> waiting = pool.submit(() -> c.send(TestRequest.get("/me").header("Authorization", "Bearer " + token)).status());
                await("the fetch began").atMost(Duration.ofSeconds(10)).until(() -> idp.fetches.get() >= 2);
                // One I/O thread: while the token waits for its keys, the loop still serves everyone else.
                for (int i = 0; i < 20; i++) assertThat(c.get("/open").text()).isEqualTo("principal false");
                assertThat(waiting.isDone()).as("the token still waits for the slow fetch").isFalse();
                assertThat(waiting.get()).isEqualTo(200);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void fixedKeysNeedNoEndpointAndATypCanBeRequired() throws Exception {
        try (TestClient c = Setup.onDefaultTransport(dev.tidemill.ExecutionMode.LOOP).start(b -> b.auth(Auth.bearer(
                BearerTokens.builder().issuer(KeyServer.ISSUER).audience(KeyServer.AUDIENCE).jwks(keys.jwksJson())
                        .requiredType("at+jwt").build())), BearerTokensTest::routes)) {
            String plain = valid();
            assertThat(c.send(TestRequest.get("/me").header("Authorization", "Bearer " + plain)).status())
                    .as("typ JWT where at+jwt is required (RFC 9068 2.1)").isEqualTo(401);
            String typed = KeyServer.sign(keys.rsa, JWSAlgorithm.RS256, h -> h.type(new com.nimbusds.jose.JOSEObjectType("at+jwt")),
                    KeyServer.claims("alice", null).build());
            assertThat(c.send(TestRequest.get("/me").header("Authorization", "Bearer " + typed)).status()).isEqualTo(200);
        }
    }

    @Test
    void aRememberedTokenIsNeverLetInPastItsExp() {
        try (TestClient c = Setup.onDefaultTransport(dev.tidemill.ExecutionMode.LOOP).start(b -> b.auth(Auth.bearer(
                BearerTokens.builder().issuer(KeyServer.ISSUER).audience(KeyServer.AUDIENCE).jwks(keys.jwksJson())
                        .leeway(Duration.ZERO).build())), BearerTokensTest::routes)) {
            String shortLived = keys.rs256(KeyServer.claims("alice", null)
                    .expirationTime(Date.from(Instant.now().plusSeconds(2))).build());
            for (int i = 0; i < 3; i++) {
                assertThat(c.send(TestRequest.get("/me").header("Authorization", "Bearer " + shortLived)).status()).isEqualTo(200);
            }
            await("the token's exp").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                    .until(() -> c.send(TestRequest.get("/me").header("Authorization", "Bearer " + shortLived)).status() == 401);
        }
    }

    @Test
    void settingsAreCheckedWhenBuilt() {
        assertThatThrownBy(() -> BearerTokens.builder().build()).hasMessageContaining("need keys");
        assertThatThrownBy(() -> BearerTokens.builder().jwksUri(URI.create("ftp://x/jwks")).build()).hasMessageContaining("http");
        assertThatThrownBy(() -> BearerTokens.builder().jwks("{}").algorithms("HS256").build()).hasMessageContaining("HS256");
        assertThatThrownBy(() -> BearerTokens.builder().jwks("{}").maxTokenBytes(10).build()).hasMessageContaining("maxTokenBytes");
        assertThatThrownBy(() -> BearerTokens.builder().jwks("{}").leeway(Duration.ofHours(1)).build()).hasMessageContaining("leeway");
        assertThat(BearerTokens.builder().jwks("{}").build().leeway()).isEqualTo(Duration.ofSeconds(60));
    }

    private static String b64(String json) {
        return Base64URL.encode(json.getBytes(StandardCharsets.UTF_8)).toString();
    }

    private static String payload(JWTClaimsSet claims) {
        return b64(claims.toString());
    }
}
