package dev.tidemill;

import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * HTTP Basic (RFC 7617) for internal tools: users with PBKDF2-HMAC-SHA256 password hashes (the
 * JDK's; {@value #ITERATIONS} iterations, OWASP's figure for it), or a verifier the application
 * supplies. Verifying a password costs a hash of several hundred milliseconds of CPU, so it runs
 * on a small pool off the I/O threads and the request resumes afterwards; a success is remembered
 * for {@link #CACHE_SECONDS} s (by a salted SHA-256 of the credentials, never the password), so a
 * tool that sends its credentials with every request pays the hash once. Basic credentials over
 * plain HTTP are refused unless {@link #allowPlainHttp()} says otherwise: they are a password in
 * clear text. A caller is {@link Principal.Via#BASIC}, an ambient credential: unsafe requests pass
 * the CSRF check first.
 *
 * <p>A users file has one user per line: {@code name pbkdf2-sha256$<iterations>$<salt>$<hash>
 * [scope ...]}, salt and hash in base64; make the hash with {@link #hash(char[])}.
 */
public final class BasicUsers {
    /** PBKDF2 iterations of a new hash. */
    public static final int ITERATIONS = 600_000;
    /** How long a verified user and password are remembered, in seconds. */
    public static final int CACHE_SECONDS = 300;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String SCHEME = "pbkdf2-sha256";

    /**
     * @param name the user's name (no {@code :} or whitespace)
     * @param hash the password's hash, {@code pbkdf2-sha256$iterations$salt$hash}
     * @param scopes what the user is granted
     */
    public record User(String name, String hash, Set<String> scopes) {
        /** Checks the name and the hash's form. */
        public User {
            Objects.requireNonNull(name, "name");
            if (name.isEmpty() || name.chars().anyMatch(c -> c == ':' || c <= 0x20 || c == 0x7f)) {
                throw new IllegalArgumentException("a Basic user's name has no ':', space or control character");
            }
            Objects.requireNonNull(hash, "hash");
            String[] p = hash.split("\\$");
            if (p.length != 4 || !p[0].equals(SCHEME) || !p[1].matches("[1-9][0-9]{0,8}")) {
                throw new IllegalArgumentException("not a " + SCHEME + "$iterations$salt$hash hash for user " + name);
            }
            scopes = Set.copyOf(scopes);
        }
    }

    /** Verifies a user's password the application's way (a directory, a database); runs off the I/O threads and may block. */
    @FunctionalInterface
    public interface Verifier {
        /**
         * @param user the name sent
         * @param password the password sent (cleared after the call)
         * @return the caller, when the password is right
         */
        Optional<Principal> verify(String user, char[] password);
    }

    private final Map<String, User> users;
    private final Verifier verifier;
    private final boolean allowPlainHttp;

    private BasicUsers(Map<String, User> users, Verifier verifier, boolean allowPlainHttp) {
        this.users = users;
        this.verifier = verifier;
        this.allowPlainHttp = allowPlainHttp;
    }

    /** @param users the users @return them, verified by their hashes */
    public static BasicUsers of(List<User> users) {
        Map<String, User> byName = new java.util.LinkedHashMap<>();
        for (User u : users) if (byName.put(u.name(), u) != null) throw new IllegalArgumentException("two users named " + u.name());
        return new BasicUsers(Map.copyOf(byName), null, false);
    }

    /** @param verifier how passwords are checked @return users the application verifies */
    public static BasicUsers verifiedBy(Verifier verifier) {
        return new BasicUsers(Map.of(), Objects.requireNonNull(verifier, "verifier"), false);
    }

    /** @param text a users file's content @return its users */
    public static BasicUsers parse(String text) {
        List<User> users = new ArrayList<>();
        for (CredentialFile.Row r : CredentialFile.rows(text, "Basic users ('name hash [scope ...]')")) {
            users.add(new User(r.name(), r.secret(), r.scopes()));
        }
        return of(users);
    }

    /** @param file a users file @return its users */
    public static BasicUsers read(Path file) {
        return parse(CredentialFile.read(file, "Basic users"));
    }

    /** @return these users, accepted over plain HTTP too (a password in clear text on the wire: for a loopback-only tool) */
    public BasicUsers allowingPlainHttp() {
        return new BasicUsers(users, verifier, true);
    }

    /** @return whether credentials over plain HTTP are accepted; default false */
    public boolean allowPlainHttp() {
        return allowPlainHttp;
    }

    /** @param password a password @return its PBKDF2-HMAC-SHA256 hash with a random salt, for a users file */
    public static String hash(char[] password) {
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        return SCHEME + "$" + ITERATIONS + "$" + Base64.getEncoder().encodeToString(salt) + "$"
                + Base64.getEncoder().encodeToString(pbkdf2(password, salt, ITERATIONS));
    }

    /**
     * Checks a user's password; blocking and slow by design (run it off the I/O threads).
     *
     * @param user the name sent
     * @param password the password sent
     * @return the caller, {@link Principal.Via#BASIC}, when the password is right
     */
    public Optional<Principal> verify(String user, char[] password) {
        if (verifier != null) {
            return verifier.verify(user, password).map(p -> new Principal(p.subject(), p.scopes(), p.roles(), Principal.Via.BASIC, p.claims()));
        }
        User u = users.get(user);
        // An unknown user costs the same hash as a known one: the time says nothing about which names exist.
        String[] p = (u != null ? u.hash() : SCHEME + "$" + ITERATIONS + "$AAAAAAAAAAAAAAAAAAAAAA==$AAAA").split("\\$");
        byte[] expected = Base64.getDecoder().decode(p[3]);
        byte[] got = pbkdf2(password, Base64.getDecoder().decode(p[2]), Integer.parseInt(p[1]));
        boolean ok = MessageDigest.isEqual(expected, got) && u != null;
        return ok ? Optional.of(new Principal(u.name(), u.scopes(), Set.of(), Principal.Via.BASIC, Map.of())) : Optional.empty();
    }

    private static byte[] pbkdf2(char[] password, byte[] salt, int iterations) {
        try {
            PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, 256);
            try {
                return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
            } finally {
                spec.clearPassword();
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return "BasicUsers[" + (verifier != null ? "application verifier" : users.size() + " users")
                + (allowPlainHttp ? ", plain HTTP allowed" : "") + "]";
    }
}
