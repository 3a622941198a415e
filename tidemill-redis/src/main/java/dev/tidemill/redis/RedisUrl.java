package dev.tidemill.redis;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;

/**
 * Where Redis is: {@code redis://[user[:password]@]host[:port][/db]}, or {@code rediss://} for TLS,
 * as {@code TIDEMILL_REDIS_URL} takes it. The user (an ACL user) and the password are never printed:
 * {@link #toString()} shows the scheme, the user's presence, host, port and database only.
 */
public final class RedisUrl {
    /** The environment variable that switches topics to Redis. */
    public static final String VARIABLE = "TIDEMILL_REDIS_URL";
    /** Redis's port when the URL names none. */
    public static final int DEFAULT_PORT = 6379;

    private final String text;
    private final boolean tls;
    private final String host;
    private final int port;
    private final int database;
    private final boolean credentials;

    private RedisUrl(String text, boolean tls, String host, int port, int database, boolean credentials) {
        this.text = text;
        this.tls = tls;
        this.host = host;
        this.port = port;
        this.database = database;
        this.credentials = credentials;
    }

    /**
     * @param url {@code redis://} or {@code rediss://} with a host
     * @return the parsed URL
     * @throws IllegalArgumentException naming what is wrong, never the URL itself (it may hold a password)
     */
    public static RedisUrl parse(String url) {
        if (url == null || url.isBlank()) throw new IllegalArgumentException(VARIABLE + ": empty");
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException(VARIABLE + ": not a URL (redis://[user:password@]host[:port][/db])");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("redis") && !scheme.equals("rediss")) {
            throw new IllegalArgumentException(VARIABLE + ": the scheme must be redis or rediss (TLS)");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) throw new IllegalArgumentException(VARIABLE + ": no host");
        int db = 0;
        String path = uri.getPath() == null ? "" : uri.getPath();
        if (!path.isEmpty() && !path.equals("/")) {
            try {
                db = Integer.parseInt(path.substring(1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(VARIABLE + ": the path must be a database number (/0)");
            }
            if (db < 0) throw new IllegalArgumentException(VARIABLE + ": the database number must be 0 or more");
        }
        return new RedisUrl(url.strip(), scheme.equals("rediss"), uri.getHost(), uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort(), db,
                uri.getRawUserInfo() != null);
    }

    /**
     * @return the URL of {@value #VARIABLE}, if it is set and not empty
     * @throws IllegalArgumentException if it is set to something that is not a Redis URL
     */
    public static Optional<RedisUrl> fromEnvironment() {
        String v = System.getenv(VARIABLE);
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(parse(v));
    }

    /** @return the URL as given, credentials included: for the client only, never to print */
    String secretText() {
        return text;
    }

    /** @return whether it is {@code rediss://} */
    public boolean tls() {
        return tls;
    }

    /** @return the host */
    public String host() {
        return host;
    }

    /** @return the port ({@value #DEFAULT_PORT} when the URL names none) */
    public int port() {
        return port;
    }

    /** @return the database number (0 when the URL names none) */
    public int database() {
        return database;
    }

    /** @return {@code redis://host:port/db}, with {@code ***@} where the URL has a user or password */
    @Override
    public String toString() {
        return (tls ? "rediss://" : "redis://") + (credentials ? "***@" : "") + host + ":" + port + "/" + database;
    }
}
