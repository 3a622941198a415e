package dev.tidemill.tests.auth;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * An OpenID Connect provider small enough to misbehave on purpose, on 127.0.0.1: discovery, a JWKS,
 * and a token endpoint that checks what a real one checks (the client's credentials, the code once,
 * the redirect URI, the PKCE verifier against the challenge) and answers codes and refresh tokens.
 * The test plays the browser: it reads the authorization request Tidemill sent the browser to
 * ({@link #approve}) and brings the code back to the callback itself. Each field below is a way the
 * provider (or an attacker between) can go wrong.
 */
final class TestProvider implements AutoCloseable {
    static final String CLIENT_ID = "app";
    static final String SECRET = "s3cret:with/odd chars";

    private final HttpServer http;
    private final RSAKey key;
    private final RSAKey stranger;
    final String issuer;

    /** A code the provider handed out: for whom, with which nonce and challenge. */
    private record Grant(String subject, String nonce, String challenge, String redirectUri) { }

    private final Map<String, Grant> codes = new ConcurrentHashMap<>();
    private final AtomicInteger serial = new AtomicInteger();
    final AtomicInteger exchanges = new AtomicInteger();
    final AtomicInteger refreshes = new AtomicInteger();
    /** Each token request's form, for the test to inspect. */
    final List<Map<String, String>> tokenRequests = new CopyOnWriteArrayList<>();

    volatile boolean discoveryDown;
    volatile boolean promisesIss;
    volatile boolean endSession = true;
    volatile boolean tokenEndpointFails;
    volatile boolean refreshRefused;
    volatile boolean signWithStranger;
    volatile long accessSeconds = 300;
    volatile Consumer<JWTClaimsSet.Builder> idTokenTweak = b -> { };

    TestProvider() {
        try {
            key = new RSAKeyGenerator(2048).keyID("idp-1").generate();
            stranger = new RSAKeyGenerator(2048).keyID("idp-1").generate();
            http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        issuer = "http://127.0.0.1:" + http.getAddress().getPort();
        http.createContext("/.well-known/openid-configuration", this::discovery);
        http.createContext("/jwks", x -> send(x, 200, new JWKSet(key.toPublicJWK()).toString(true)));
        http.createContext("/token", this::token);
        http.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        http.start();
    }

    private void discovery(HttpExchange x) throws IOException {
        if (discoveryDown) {
            send(x, 503, "{}");
            return;
        }
        StringBuilder doc = new StringBuilder("{\"issuer\":\"" + issuer + "\",\"authorization_endpoint\":\"" + issuer + "/authorize\","
                + "\"token_endpoint\":\"" + issuer + "/token\",\"jwks_uri\":\"" + issuer + "/jwks\","
                + "\"response_types_supported\":[\"code\"],\"code_challenge_methods_supported\":[\"S256\"]");
        if (endSession) doc.append(",\"end_session_endpoint\":\"").append(issuer).append("/session/end\"");
        if (promisesIss) doc.append(",\"authorization_response_iss_parameter_supported\":true");
        send(x, 200, doc.append('}').toString());
    }

    /**
     * Plays the provider's sign-in page: the user approves the authorization request Tidemill
     * redirected to.
     *
     * @param location the {@code Location} of Tidemill's answer to {@code /login}
     * @param subject who signs in
     * @return the authorization request's parameters, with the {@code code} the provider issued added
     */
    Map<String, String> approve(String location, String subject) {
        Map<String, String> q = query(URI.create(location).getRawQuery());
        String code = "code-" + serial.incrementAndGet();
        codes.put(code, new Grant(subject, q.get("nonce"), q.get("code_challenge"), q.get("redirect_uri")));
        q.put("code", code);
        return q;
    }

    private void token(HttpExchange x) throws IOException {
        Map<String, String> form = query(new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        tokenRequests.add(form);
        if (tokenEndpointFails) {
            send(x, 500, "{\"error\":\"server_error\"}");
            return;
        }
        if (!clientAuthenticated(x.getRequestHeaders().getFirst("Authorization"))) {
            send(x, 401, "{\"error\":\"invalid_client\"}");
            return;
        }
        if ("refresh_token".equals(form.get("grant_type"))) {
            refreshes.incrementAndGet();
            if (refreshRefused || !"refresh-1".equals(form.get("refresh_token"))) {
                send(x, 400, "{\"error\":\"invalid_grant\"}");
                return;
            }
            // No rotation: the refresh token stays, as oidc-provider does for confidential clients.
            send(x, 200, "{\"access_token\":\"access-" + serial.incrementAndGet() + "\",\"token_type\":\"Bearer\",\"expires_in\":" + accessSeconds + "}");
            return;
        }
        Grant g = "authorization_code".equals(form.get("grant_type")) ? codes.remove(form.getOrDefault("code", "")) : null;
        if (g == null || !g.redirectUri().equals(form.get("redirect_uri")) || !challenge(form.get("code_verifier")).equals(g.challenge())) {
            send(x, 400, "{\"error\":\"invalid_grant\"}");
            return;
        }
        exchanges.incrementAndGet();
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().issuer(issuer).audience(CLIENT_ID).subject(g.subject())
                .claim("nonce", g.nonce()).issueTime(new Date()).expirationTime(Date.from(Instant.now().plusSeconds(300)));
        idTokenTweak.accept(claims);
        String idToken = KeyServer.sign(signWithStranger ? stranger : key, JWSAlgorithm.RS256, h -> { }, claims.build());
        send(x, 200, "{\"access_token\":\"access-" + serial.incrementAndGet() + "\",\"token_type\":\"Bearer\",\"expires_in\":" + accessSeconds
                + ",\"refresh_token\":\"refresh-1\",\"id_token\":\"" + idToken + "\",\"scope\":\"openid profile\"}");
    }

    /** RFC 6749 2.3.1: Basic with the form-encoded client id and secret. */
    private static boolean clientAuthenticated(String authorization) {
        if (authorization == null || !authorization.startsWith("Basic ")) return false;
        String pair = new String(Base64.getDecoder().decode(authorization.substring(6)), StandardCharsets.UTF_8);
        int colon = pair.indexOf(':');
        return colon > 0 && URLDecoder.decode(pair.substring(0, colon), StandardCharsets.UTF_8).equals(CLIENT_ID)
                && URLDecoder.decode(pair.substring(colon + 1), StandardCharsets.UTF_8).equals(SECRET);
    }

    /** RFC 7636 4.2: BASE64URL(SHA256(verifier)). */
    static String challenge(String verifier) {
        if (verifier == null) return "";
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(d);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static Map<String, String> query(String raw) {
        Map<String, String> q = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) return q;
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            q.put(URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8),
                    eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return q;
    }

    private static void send(HttpExchange x, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().add("Content-Type", "application/json");
        x.sendResponseHeaders(status, body.length);
        x.getResponseBody().write(body);
        x.close();
    }

    @Override
    public void close() {
        http.stop(0);
    }
}
