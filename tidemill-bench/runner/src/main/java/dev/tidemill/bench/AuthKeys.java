package dev.tidemill.bench;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.sun.net.httpserver.HttpServer;
import dev.tidemill.bench.common.AuthContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

/**
 * The authentication suite's signing keys (ES256, P-256), the tokens it sends, and the JWKS endpoint
 * Tidemill's target fetches them from: the provider's side of a real deployment, in the runner.
 * Tokens carry {@link AuthContract#ISSUER}, {@link AuthContract#AUDIENCE}, a subject, a scope and an
 * expiry an hour away.
 */
final class AuthKeys implements AutoCloseable {
    private final HttpServer server;
    private final AtomicLong fetches = new AtomicLong();
    private volatile byte[] published;

    /** A signing key: private half here, public half published. */
    record Key(ECKey jwk) {
        /** @return a new P-256 key with this kid */
        static Key generate(String kid) {
            try {
                return new Key(new ECKeyGenerator(Curve.P_256).keyID(kid).keyUse(KeyUse.SIGNATURE).algorithm(JWSAlgorithm.ES256).generate());
            } catch (JOSEException e) {
                throw new IllegalStateException(e);
            }
        }

        /** @return a token for subject {@code sub}, signed with this key */
        String token(String sub) {
            Date now = new Date();
            JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer(AuthContract.ISSUER).audience(List.of(AuthContract.AUDIENCE))
                    .subject(sub).claim("scope", "read write").issueTime(now).expirationTime(new Date(now.getTime() + 3_600_000L)).build();
            try {
                com.nimbusds.jwt.SignedJWT jwt = new com.nimbusds.jwt.SignedJWT(
                        new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(jwk.getKeyID()).build(), claims);
                jwt.sign(new ECDSASigner(jwk));
                return jwt.serialize();
            } catch (JOSEException e) {
                throw new IllegalStateException(e);
            }
        }

        /** @return n distinct tokens (subjects {@code user-0}...), signed in parallel */
        List<String> tokens(int n) {
            return IntStream.range(0, n).parallel().mapToObj(i -> token("user-" + i)).toList();
        }
    }

    /** Starts the JWKS endpoint on 127.0.0.1, publishing {@code keys}. */
    AuthKeys(List<Key> keys) {
        publish(keys);
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/jwks", ex -> {
            fetches.incrementAndGet();
            byte[] body = published;
            ex.getResponseHeaders().add("Content-Type", "application/jwk-set+json");
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
    }

    /** From now on the endpoint publishes these keys' public halves. */
    void publish(List<Key> keys) {
        published = jwks(keys).getBytes(StandardCharsets.UTF_8);
    }

    /** @return the public halves as a JWK Set, each key with its kid, use and alg */
    static String jwks(List<Key> keys) {
        return new JWKSet(keys.stream().map(k -> (JWK) k.jwk().toPublicJWK()).toList()).toString();
    }

    /** @return the endpoint's URI */
    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/jwks");
    }

    /** @return GETs of the key set so far */
    long fetches() {
        return fetches.get();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
