package dev.tidemill;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * API keys: long random secrets that identify a client (a service, a script) by name, with scopes.
 * A key is {@value #PREFIX} and 43 characters of base64url (256 bits from {@link SecureRandom}),
 * so secret scanners can recognise a leaked one; the server stores only its SHA-256 digest, and
 * compares digests in constant time. Make one with {@link #generate} or the app's {@code apikey}
 * command, give the key to the client once, and keep the digest line in a file read by
 * {@link #read(Path)} ({@code TIDEMILL_API_KEYS_FILE}).
 *
 * <p>A client sends {@code Authorization: ApiKey <key>}, or the key alone in {@link #header()} when
 * one is set (such as {@code X-API-Key}). The caller is then {@link Principal.Via#API_KEY}, its
 * subject the key's name, its scopes the key's.
 *
 * <p>The file has one key per line, {@code name sha256:<64 hex digits> [scope ...]}; blank lines and
 * lines starting with {@code #} are skipped.
 */
public final class ApiKeys {
    /** What every key starts with. */
    public static final String PREFIX = "tdm_";
    private static final int SECRET_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * One key as the server keeps it.
     *
     * @param name who holds it: the principal's subject; no whitespace
     * @param sha256 the SHA-256 digest of the key, 64 lower-case hex digits
     * @param scopes what it grants
     */
    public record Entry(String name, String sha256, Set<String> scopes) {
        /** Checks the name and the digest; copies the scopes. */
        public Entry {
            Objects.requireNonNull(name, "name");
            if (name.isEmpty() || name.chars().anyMatch(c -> c <= 0x20 || c == 0x7f)) {
                throw new IllegalArgumentException("an API key's name must be visible characters without spaces: " + name);
            }
            Objects.requireNonNull(sha256, "sha256");
            if (!sha256.matches("[0-9a-f]{64}")) throw new IllegalArgumentException("not a SHA-256 digest in hex for key " + name);
            scopes = Set.copyOf(scopes);
        }

        /** @return the entry as a line of a keys file */
        public String line() {
            return name + " sha256:" + sha256 + (scopes.isEmpty() ? "" : " " + String.join(" ", new java.util.TreeSet<>(scopes)));
        }
    }

    /**
     * A key just made: the secret for the client, the entry for the server.
     *
     * @param key the key; shown once, never stored
     * @param entry its digest and scopes
     */
    public record Generated(String key, Entry entry) { }

    private final List<Entry> entries;
    private final String header;

    private ApiKeys(List<Entry> entries, String header) {
        this.entries = List.copyOf(entries);
        Set<String> names = new java.util.HashSet<>();
        for (Entry e : this.entries) {
            if (!names.add(e.name())) throw new IllegalArgumentException("two API keys named " + e.name());
        }
        this.header = header;
    }

    /** @param entries the keys @return them, sent as {@code Authorization: ApiKey} */
    public static ApiKeys of(List<Entry> entries) {
        return new ApiKeys(entries, null);
    }

    /** @param text a keys file's content (see the class comment) @return its keys */
    public static ApiKeys parse(String text) {
        List<Entry> entries = new ArrayList<>();
        for (CredentialFile.Row r : CredentialFile.rows(text, "API keys ('name sha256:<hex digest> [scope ...]')")) {
            if (!r.secret().startsWith("sha256:")) {
                throw new IllegalArgumentException("API keys, line " + r.line() + ": expected 'name sha256:<hex digest> [scope ...]'");
            }
            entries.add(new Entry(r.name(), r.secret().substring("sha256:".length()).toLowerCase(Locale.ROOT), r.scopes()));
        }
        return of(entries);
    }

    /** @param file a keys file @return its keys @throws UncheckedIOException if it cannot be read */
    public static ApiKeys read(Path file) {
        return parse(CredentialFile.read(file, "API keys"));
    }

    /**
     * @param name who will hold it
     * @param scopes what it grants
     * @return a new key and its entry
     */
    public static Generated generate(String name, Set<String> scopes) {
        byte[] secret = new byte[SECRET_BYTES];
        RANDOM.nextBytes(secret);
        String key = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        return new Generated(key, new Entry(name, digest(key), scopes));
    }

    /** @param key a key as sent @return its SHA-256 digest, lower-case hex */
    public static String digest(String key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @param name a header that carries the key alone, such as {@code X-API-Key} @return keys also read from it */
    public ApiKeys header(String name) {
        Objects.requireNonNull(name, "header");
        if (name.isEmpty() || !name.chars().allMatch(c -> c > 0x20 && c < 0x7f && c != ':')) {
            throw new IllegalArgumentException("not a header name: " + name);
        }
        if (name.equalsIgnoreCase("authorization")) throw new IllegalArgumentException("Authorization is read already (ApiKey scheme)");
        return new ApiKeys(entries, name);
    }

    /** @return the keys */
    public List<Entry> entries() {
        return entries;
    }

    /** @return the header that carries a key alone, besides {@code Authorization: ApiKey} */
    public Optional<String> header() {
        return Optional.ofNullable(header);
    }

    /**
     * @param key a key as sent
     * @return its entry; every entry is compared (in constant time each), so the time taken says
     *     nothing about which, or whether, one matched
     */
    public Optional<Entry> find(String key) {
        byte[] sent = HexFormat.of().parseHex(digest(key));
        Entry found = null;
        for (Entry e : entries) {
            if (MessageDigest.isEqual(sent, HexFormat.of().parseHex(e.sha256())) && found == null) found = e;
        }
        return Optional.ofNullable(found);
    }

    @Override
    public String toString() {
        return "ApiKeys[" + entries.size() + " keys" + (header != null ? ", header " + header : "") + "]";
    }
}
