package dev.tidemill.internal.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.tidemill.BearerTokens;
import java.util.Date;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What verifying a bearer token costs Tidemill, per call of the verifier the server calls on the I/O
 * thread ({@link JwtVerifier#verify}): an RS256 (RSA-2048) or ES256 (P-256) token with the same claims
 * the server suite sends, {@code cached} (the same token again, answered from the verified-token
 * cache) or {@code uncached} (a new token each call: {@value #UNCACHED_TOKENS} distinct tokens in
 * turn, one more than the cache holds, so every call verifies the signature and the claims).
 *
 * <p>It lives in the verifier's package, on the class path, because the verifier is internal: the
 * public way in is a whole request, which the server suite measures.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class VerifyBenchmark {
    /** The issuer and audience of every token, and what the verifier checks. */
    public static final String ISSUER = "https://issuer.bench.tidemill.dev";
    /** The audience. */
    public static final String AUDIENCE = "bench-api";
    /** Distinct tokens of the uncached case: one more than the cache holds, taken in turn. */
    public static final int UNCACHED_TOKENS = JwtVerifier.MAX_REMEMBERED + 1;

    /** {@code RS256} or {@code ES256}. */
    @Param({"ES256", "RS256"})
    public String alg;

    /** {@code cached} or {@code uncached}. */
    @Param({"cached", "uncached"})
    public String cache;

    private JwtVerifier verifier;
    private String[] tokens;
    private int next;

    /** Makes the key, the verifier and the tokens, and checks that the verifier admits one. */
    @Setup(Level.Trial)
    public void setUp() {
        JWK key = key(alg);
        verifier = verifier(key);
        int n = cache.equals("cached") ? 1 : UNCACHED_TOKENS;
        tokens = tokens(key, alg, n);
        Outcome o = verifier.verify(tokens[0]);
        if (!(o instanceof Outcome.Admitted a) || !a.principal().subject().equals("user-0")) {
            throw new IllegalStateException(alg + " " + cache + ": the verifier did not admit the token: " + o);
        }
    }

    /** @return the outcome (admitted), so JMH consumes it */
    @Benchmark
    public Outcome verify() {
        String t = tokens[next];
        if (++next == tokens.length) next = 0;
        return verifier.verify(t);
    }

    /** Closes the verifier. */
    @TearDown(Level.Trial)
    public void tearDown() {
        verifier.close();
    }

    /** @return a new signing key of the algorithm's type, with a kid */
    static JWK key(String alg) {
        try {
            return switch (alg) {
                case "ES256" -> new ECKeyGenerator(Curve.P_256).keyID("bench-es256").generate();
                case "RS256" -> new RSAKeyGenerator(2048).keyID("bench-rs256").generate();
                default -> throw new IllegalArgumentException("alg: ES256 or RS256, not " + alg);
            };
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return a verifier of the key's public half, checking {@link #ISSUER} and {@link #AUDIENCE} */
    static JwtVerifier verifier(JWK key) {
        JwtVerifier v = new JwtVerifier(BearerTokens.builder().issuer(ISSUER).audience(AUDIENCE)
                .jwks(new JWKSet(key.toPublicJWK()).toString()).algorithms("RS256", "ES256").build());
        v.start();
        return v;
    }

    /** @return n distinct tokens (subjects {@code user-0} on), valid for an hour, signed in parallel */
    static String[] tokens(JWK key, String alg, int n) {
        Date exp = new Date(System.currentTimeMillis() + 3_600_000L);
        return IntStream.range(0, n).parallel().mapToObj(i -> sign(key, alg, new JWTClaimsSet.Builder().issuer(ISSUER)
                .audience(List.of(AUDIENCE)).subject("user-" + i).claim("scope", "read write").expirationTime(exp)
                .issueTime(new Date()).build())).toArray(String[]::new);
    }

    private static String sign(JWK key, String alg, JWTClaimsSet claims) {
        try {
            JWSSigner signer = alg.equals("ES256") ? new ECDSASigner(key.toECKey()) : new RSASSASigner(key.toRSAKey());
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.parse(alg)).keyID(key.getKeyID()).build(), claims);
            jwt.sign(signer);
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }
}
