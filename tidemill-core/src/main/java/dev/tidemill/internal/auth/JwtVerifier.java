package dev.tidemill.internal.auth;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.tidemill.BearerTokens;
import dev.tidemill.Principal;
import java.text.ParseException;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Bearer tokens verified by nimbus-jose-jwt under RFC 8725's rules (see {@link BearerTokens}): the
 * size before parsing; a JWS with an allowed algorithm (a JWT with {@code alg: none} does not parse
 * as one); the key chosen from our key set only, by {@code kid} and by the algorithm's key type
 * (never a {@code jku}, {@code x5u}, {@code x5c} or embedded {@code jwk}); nimbus's verifiers refuse
 * any {@code crit} parameter and ECDSA signatures with r or s out of range (the r = s = 0 forgery,
 * CVE-2022-21449); then {@code typ}, {@code iss}, {@code aud}, {@code exp} and {@code nbf}.
 */
final class JwtVerifier implements TokenVerifier {
    private final BearerTokens settings;
    private final KeyRing keys;
    private final Set<JWSAlgorithm> algorithms;
    private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
    private final String[] rolesPath;
    /**
     * Tokens verified already, by the whole token, each until its {@code exp} (never past it), at most
     * {@link #MAX_REMEMBERED}: a client sends the same token with every request, and an ES256
     * verification costs far more CPU than the rest of a small request.
     */
    private final java.util.concurrent.ConcurrentHashMap<String, Remembered> remembered = new java.util.concurrent.ConcurrentHashMap<>();
    static final int MAX_REMEMBERED = 10_000;

    private record Remembered(Principal principal, long expiresAtMillis) { }

    JwtVerifier(BearerTokens settings) {
        this.settings = settings;
        this.keys = new KeyRing(settings);
        this.algorithms = settings.algorithms().stream().map(JWSAlgorithm::parse).collect(Collectors.toUnmodifiableSet());
        this.rolesPath = settings.rolesClaim().split("\\.");
        // The key source reads the ring's current set and never fetches: a fetch is decided before (verify).
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(algorithms, (selector, ctx) -> {
            JWKSet set = keys.current();
            return set == null ? List.of() : selector.select(set);
        }));
        processor.setJWSTypeVerifier(settings.requiredType()
                .map(t -> new DefaultJOSEObjectTypeVerifier<SecurityContext>(new JOSEObjectType(t)))
                .orElse(new DefaultJOSEObjectTypeVerifier<>(JOSEObjectType.JWT, null, new JOSEObjectType("at+jwt"),
                        new JOSEObjectType("application/at+jwt"))));
        Set<String> required = new HashSet<>(Set.of("exp"));
        JWTClaimsSet.Builder exact = new JWTClaimsSet.Builder();
        settings.issuer().ifPresent(iss -> {
            exact.issuer(iss);
            required.add("iss");
        });
        DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(
                settings.audience().map(Set::of).orElse(null), exact.build(), required, null);
        claims.setMaxClockSkew((int) settings.leeway().toSeconds());
        processor.setJWTClaimsSetVerifier(claims);
    }

    @Override
    public void start() {
        keys.start();
    }

    @Override
    public long fetches() {
        return keys.fetches();
    }

    @Override
    public Outcome verify(String token) {
        if (token.length() > settings.maxTokenBytes()) {
            return Authenticator.invalid("longer than " + settings.maxTokenBytes() + " bytes (maxTokenBytes), not parsed");
        }
        Remembered r = remembered.get(token);
        if (r != null) {
            if (System.currentTimeMillis() < r.expiresAtMillis) return new Outcome.Admitted(r.principal);
            remembered.remove(token, r);
        }
        SignedJWT jwt;
        try {
            jwt = SignedJWT.parse(token);
        } catch (ParseException | RuntimeException e) {
            return Authenticator.invalid("not a signed JWT (" + e.getMessage() + ")");
        }
        JWSHeader header = jwt.getHeader();
        if (!algorithms.contains(header.getAlgorithm())) {
            return Authenticator.invalid("algorithm " + header.getAlgorithm() + " is not allowed");
        }
        if (hasKey(keys.current(), header)) return process(jwt, token);
        return new Outcome.Pending(keys.unknownKey().thenApply(set -> {
            if (set == null) return Authenticator.keysUnavailable();
            if (!hasKey(set, header)) return Authenticator.invalid("no key of the key set has kid " + header.getKeyID());
            return process(jwt, token);
        }));
    }

    private static boolean hasKey(JWKSet set, JWSHeader header) {
        return set != null && !new JWKSelector(JWKMatcher.forJWSHeader(header)).select(set).isEmpty();
    }

    private Outcome process(SignedJWT jwt, String token) {
        JWTClaimsSet claims;
        try {
            claims = processor.process(jwt, null);
        } catch (BadJOSEException | com.nimbusds.jose.JOSEException e) {
            return Authenticator.invalid(e.getMessage());
        }
        String subject = claims.getSubject();
        if (subject == null || subject.isBlank()) return Authenticator.invalid("no sub claim");
        Map<String, Object> json = new java.util.LinkedHashMap<>(claims.toJSONObject());
        json.values().removeIf(java.util.Objects::isNull);
        Principal p = new Principal(subject, scopes(claims), roles(claims), Principal.Via.BEARER, json);
        // Remembered until exp itself: the leeway lets a token in late once, never for longer.
        if (remembered.size() >= MAX_REMEMBERED) remembered.clear();
        remembered.put(token, new Remembered(p, claims.getExpirationTime().getTime()));
        return new Outcome.Admitted(p);
    }

    /** RFC 8693 4.2 / RFC 9068 2.2.3: {@code scope}, space-separated; else {@code scp}, a list or a string. */
    private static Set<String> scopes(JWTClaimsSet claims) {
        Object v = claims.getClaim("scope");
        if (v == null) v = claims.getClaim("scp");
        return strings(v, true);
    }

    private Set<String> roles(JWTClaimsSet claims) {
        Object v = claims.toJSONObject();
        for (String step : rolesPath) v = v instanceof Map<?, ?> m ? m.get(step) : null;
        return strings(v, false);
    }

    private static Set<String> strings(Object v, boolean split) {
        Set<String> out = new LinkedHashSet<>();
        if (v instanceof String s) {
            for (String part : split ? s.trim().split(" +") : new String[] {s}) if (!part.isEmpty()) out.add(part);
        } else if (v instanceof Collection<?> c) {
            for (Object o : c) if (o instanceof String s && !s.isEmpty()) out.add(s);
        }
        return out;
    }

    @Override
    public void close() {
        keys.close();
    }
}
