package dev.tidemill.examples;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.tidemill.ApiKeys;
import dev.tidemill.Auth;
import dev.tidemill.BearerTokens;
import dev.tidemill.Config;
import dev.tidemill.Principal;
import dev.tidemill.Requirement;
import dev.tidemill.Sessions;
import dev.tidemill.Tidemill;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Who is calling, in the demo: {@code GET /me} for any authenticated caller, {@code GET /admin} for
 * one granted scope {@code admin}. Without {@code TIDEMILL_AUTH_*} settings the demo verifies tokens
 * with a development key of its own (an EC P-256 key in a file under the user's home, made on first
 * use and readable by the user alone), which {@code ./tidemill demo token NAME [SCOPE ...]} signs
 * with; with them, tokens from that issuer instead. Without {@code TIDEMILL_API_KEYS_FILE} it makes
 * one development API key per start, shown in the banner. Sessions (the board's sign-in) are signed
 * with {@code TIDEMILL_SESSION_KEYS}, else with a random key per start.
 */
final class DemoIdentity {
    /** The development tokens' issuer and audience. */
    static final String DEV_ISSUER = "tidemill-demo";
    /** How long a development token lasts. */
    static final Duration DEV_TOKEN_LIFETIME = Duration.ofHours(1);

    /** A caller, as {@code GET /me} shows it. */
    public record Me(String subject, List<String> scopes, String via) {}

    /** What the demo's auth is: the settings, and the development API key when it made one. */
    record Setup(Auth auth, boolean devTokens, Optional<String> devApiKey) {}

    private DemoIdentity() {}

    /** @return where the development signing key is kept: {@code .tidemill/demo-signing-key.json} in the user's home */
    static Path keyFile() {
        return Path.of(System.getProperty("user.home"), ".tidemill", "demo-signing-key.json");
    }

    /** @return the config's auth, completed with development keys where it names none */
    static Setup setup(Config config) {
        return setup(config, keyFile());
    }

    static Setup setup(Config config, Path keyFile) {
        Auth auth = config.auth();
        boolean devTokens = auth.bearerTokens().isEmpty();
        if (devTokens) {
            auth = auth.withBearer(BearerTokens.builder().issuer(DEV_ISSUER).audience(DEV_ISSUER)
                    .jwks(new JWKSet(devKey(keyFile).toPublicJWK()).toString()).build());
        }
        if (auth.sessions().isEmpty()) auth = auth.withSessions(Sessions.builder().build()); // a random key: development
        Optional<String> devApiKey = Optional.empty();
        if (auth.apiKeys().isEmpty()) {
            ApiKeys.Generated made = ApiKeys.generate("demo-client", Set.of("admin"));
            auth = auth.withApiKeys(ApiKeys.of(List.of(made.entry())));
            devApiKey = Optional.of(made.key());
        }
        return new Setup(auth, devTokens, devApiKey);
    }

    static void register(Tidemill app) {
        app.get("/me", req -> me(req.principal().orElseThrow()))
                .requires(Requirement.authenticated()).returns(Me.class).summary("Who is calling").tags("identity");
        app.get("/admin", req -> me(req.principal().orElseThrow()))
                .requires(Requirement.scope("admin")).returns(Me.class).summary("Needs scope admin").tags("identity");
    }

    static Me me(Principal p) {
        return new Me(p.subject(), p.scopes().stream().sorted().toList(), p.via().toString());
    }

    /**
     * @param subject who the token names
     * @param scopes what it grants
     * @return a development token, valid for {@link #DEV_TOKEN_LIFETIME}, that a demo without
     *     {@code TIDEMILL_AUTH_*} settings accepts
     */
    static String devToken(String subject, List<String> scopes) {
        return devToken(keyFile(), subject, scopes);
    }

    static String devToken(Path keyFile, String subject, List<String> scopes) {
        try {
            ECKey key = devKey(keyFile);
            JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer(DEV_ISSUER).audience(DEV_ISSUER).subject(subject)
                    .claim("scope", String.join(" ", scopes)).issueTime(new Date())
                    .expirationTime(Date.from(Instant.now().plus(DEV_TOKEN_LIFETIME))).jwtID(UUID.randomUUID().toString()).build();
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(key.getKeyID())
                    .type(new JOSEObjectType("at+jwt")).build(), claims);
            jwt.sign(new ECDSASigner(key));
            return jwt.serialize();
        } catch (com.nimbusds.jose.JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return the development signing key, made (readable by its owner only) on first use */
    static ECKey devKey(Path file) {
        try {
            if (Files.exists(file)) return ECKey.parse(Files.readString(file, StandardCharsets.UTF_8));
            ECKey key = new ECKeyGenerator(Curve.P_256).keyID("demo-" + UUID.randomUUID().toString().substring(0, 8)).generate();
            Files.createDirectories(file.getParent());
            Path tmp = Files.createTempFile(file.getParent(), "key", ".tmp");
            try {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException notPosix) {
                // another file system: the user's home is private enough
            }
            Files.writeString(tmp, key.toJSONString(), StandardCharsets.UTF_8);
            try {
                Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            } catch (java.nio.file.FileAlreadyExistsException raced) {
                Files.deleteIfExists(tmp);
            }
            return ECKey.parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("the demo's development key " + file, e);
        } catch (java.text.ParseException | com.nimbusds.jose.JOSEException e) {
            throw new IllegalStateException("the demo's development key " + file + " is not an EC key; delete it to make a new one", e);
        }
    }
}
