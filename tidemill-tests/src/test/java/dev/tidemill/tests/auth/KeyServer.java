package dev.tidemill.tests.auth;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * An identity provider's key side, on 127.0.0.1: signing keys (RSA and EC, made per instance), a
 * JWKS endpoint that counts its fetches and can be slowed, taken down or given a new key, and
 * tokens minted with those keys. The issuer is {@code https://issuer.test}, the audience {@code api}.
 */
final class KeyServer implements AutoCloseable {
    static final String ISSUER = "https://issuer.test";
    static final String AUDIENCE = "api";

    final RSAKey rsa;
    final ECKey ec;
    private final List<JWK> published = new CopyOnWriteArrayList<>();
    private final HttpServer http;
    final AtomicInteger fetches = new AtomicInteger();
    private volatile boolean down;
    private volatile Duration delay = Duration.ZERO;

    KeyServer() {
        try {
            rsa = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
            ec = new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate();
            published.add(rsa.toPublicJWK());
            published.add(ec.toPublicJWK());
            http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        http.createContext("/jwks", exchange -> {
            fetches.incrementAndGet();
            try {
                Thread.sleep(delay.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (down) {
                exchange.sendResponseHeaders(503, -1);
                exchange.close();
                return;
            }
            byte[] body = new JWKSet(List.copyOf(published)).toString(true).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        http.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        http.start();
    }

    URI jwksUri() {
        return URI.create("http://127.0.0.1:" + http.getAddress().getPort() + "/jwks");
    }

    /** @return the public key set as JSON, for a fixed-keys configuration */
    String jwksJson() {
        return new JWKSet(List.copyOf(published)).toString(true);
    }

    void down(boolean v) {
        down = v;
    }

    void delay(Duration d) {
        delay = d;
    }

    /** Publishes another key (a rotation: the provider's next key). */
    void publish(JWK key) {
        published.add(key.toPublicJWK());
    }

    /** @return the claims of a token that passes: iss, aud, sub, exp in 5 minutes, with the scopes given */
    static JWTClaimsSet.Builder claims(String subject, String scope) {
        JWTClaimsSet.Builder b = new JWTClaimsSet.Builder().issuer(ISSUER).audience(AUDIENCE).subject(subject)
                .expirationTime(Date.from(Instant.now().plusSeconds(300))).issueTime(new Date());
        if (scope != null) b.claim("scope", scope);
        return b;
    }

    String rs256(JWTClaimsSet claims) {
        return sign(rsa, JWSAlgorithm.RS256, h -> { }, claims);
    }

    String es256(JWTClaimsSet claims) {
        return sign(ec, JWSAlgorithm.ES256, h -> { }, claims);
    }

    /** Signs with any key (its kid in the header) and lets the test add header parameters. */
    static String sign(JWK key, JWSAlgorithm alg, Consumer<JWSHeader.Builder> header, JWTClaimsSet claims) {
        try {
            JWSHeader.Builder h = new JWSHeader.Builder(alg).keyID(key.getKeyID()).type(JOSEObjectType.JWT);
            header.accept(h);
            SignedJWT jwt = new SignedJWT(h.build(), claims);
            jwt.sign(key instanceof RSAKey r ? new RSASSASigner(r) : new ECDSASigner((ECKey) key));
            return jwt.serialize();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        http.stop(0);
    }
}
