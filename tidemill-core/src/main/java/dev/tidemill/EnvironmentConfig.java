package dev.tidemill;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.ObjIntConsumer;
import java.util.function.ObjLongConsumer;

/**
 * Reads {@code TIDEMILL_*} environment variables into a {@link Config.Builder}; the public entry is
 * {@link Config#fromEnvironment(Map)}. Each variable is declared once below with the field it sets;
 * a numeric one takes its allowed range from the record that owns the field ({@link Limits},
 * {@link Timeouts}, {@link Config}), so the range the reader enforces and prints is the one the
 * record's constructor checks. A bad value throws an {@link IllegalArgumentException} naming the
 * variable and the expectation but never the value, which could be a secret pasted into the wrong
 * variable.
 *
 * <p>Package-private and in the public package so that {@code Config} and its reader do not import
 * each other across packages (it used to live in {@code internal.server} and import {@code Config}
 * back).
 */
final class EnvironmentConfig {

    /**
     * One variable: its name, the record field it sets, what it expects (for the error message)
     * and how it applies; {@code apply} parses, checks and sets, throwing on a bad value.
     */
    private record Variable(String name, String field, String expects, BiConsumer<Config.Builder, String> apply) {}

    private static final Map<String, Variable> VARIABLES = new LinkedHashMap<>();

    static {
        other("TIDEMILL_HOST", "host", "a host name or IP address", (b, v) -> b.host(nonEmpty(v)));
        count("TIDEMILL_PORT", Config.PORT, "", Config.Builder::port);
        other("TIDEMILL_TRANSPORT", "transport", "one of auto, epoll, io_uring, io_uring_buffer_ring, nio",
                (b, v) -> b.transport(enumValue(Transport.class, v)));
        count("TIDEMILL_IO_THREADS", Config.IO_THREADS, " (0 = one per CPU)", Config.Builder::ioThreads);
        count("TIDEMILL_LOOPS", Config.WORKER_LOOPS, " (0 = one per CPU)", Config.Builder::workerLoops);
        other("TIDEMILL_MODE", "executionMode", "one of io, loop, virtual, auto",
                (b, v) -> b.executionMode(enumValue(ExecutionMode.class, v)));
        other("TIDEMILL_ASSIGNMENT", "assignment", "one of least_loaded, round_robin",
                (b, v) -> b.assignment(enumValue(Assignment.class, v)));
        other("TIDEMILL_SERVER_HEADER", "serverHeader", "visible ASCII text (empty omits the header)",
                (b, v) -> b.serverHeader(Config.checkServerHeader(v)));
        other("TIDEMILL_DEBUG", "debug", "true or false", (b, v) -> b.debug(bool(v)));
        other("TIDEMILL_H2C_UPGRADE", "h2cUpgrade", "true or false", (b, v) -> b.h2cUpgrade(bool(v)));
        count("TIDEMILL_CONCURRENCY_PER_LOOP", Limits.CONCURRENCY_PER_LOOP, "", Config.Builder::concurrencyPerLoop);
        count("TIDEMILL_MAX_CONNECTIONS", Limits.MAX_CONNECTIONS, "", Config.Builder::maxConnections);
        intSize("TIDEMILL_MAX_REQUEST_LINE", Limits.MAX_REQUEST_LINE_BYTES, Config.Builder::maxRequestLineBytes);
        intSize("TIDEMILL_MAX_HEADER_SIZE", Limits.MAX_HEADER_BYTES, Config.Builder::maxHeaderBytes);
        count("TIDEMILL_MAX_HEADERS", Limits.MAX_HEADER_COUNT, "", Config.Builder::maxHeaderCount);
        longSize("TIDEMILL_MAX_BODY", Limits.MAX_BODY_BYTES, Config.Builder::maxBodyBytes);
        count("TIDEMILL_MAX_PIPELINED", Limits.MAX_PIPELINED, "", Config.Builder::maxPipelined);
        longSize("TIDEMILL_MAX_DRAIN_BYTES", Limits.MAX_DRAIN_BYTES, Config.Builder::maxDrainBytes);
        count("TIDEMILL_ACCEPT_BACKLOG", Limits.ACCEPT_BACKLOG, "", Config.Builder::acceptBacklog);
        intSize("TIDEMILL_WRITE_LOW_WATER_MARK", Limits.WRITE_BUFFER_LOW_WATER_MARK, Config.Builder::writeBufferLowWaterMark);
        intSize("TIDEMILL_WRITE_HIGH_WATER_MARK", Limits.WRITE_BUFFER_HIGH_WATER_MARK, Config.Builder::writeBufferHighWaterMark);
        duration("TIDEMILL_REQUEST_TIMEOUT", Timeouts.REQUEST, Config.Builder::requestTimeout);
        duration("TIDEMILL_HEADER_READ_TIMEOUT", Timeouts.HEADER_READ, Config.Builder::headerReadTimeout);
        duration("TIDEMILL_IDLE_TIMEOUT", Timeouts.IDLE, Config.Builder::idleTimeout);
        duration("TIDEMILL_BODY_STALL_TIMEOUT", Timeouts.BODY_STALL, Config.Builder::bodyStallTimeout);
        duration("TIDEMILL_WRITE_STALL_TIMEOUT", Timeouts.WRITE_STALL, Config.Builder::writeStallTimeout);
        duration("TIDEMILL_DRAIN_TIMEOUT", Timeouts.DRAIN, Config.Builder::drainTimeout);
        duration("TIDEMILL_LINGER_TIMEOUT", Timeouts.LINGER, Config.Builder::lingerTimeout);
        duration("TIDEMILL_SHUTDOWN_GRACE", Timeouts.SHUTDOWN_GRACE, Config.Builder::shutdownGrace);
        duration("TIDEMILL_SHUTDOWN_IDLE", Timeouts.SHUTDOWN_IDLE, Config.Builder::shutdownIdle);
        duration("TIDEMILL_SSE_PING", Timeouts.SSE_PING, Config.Builder::ssePing);
        other("TIDEMILL_COMPRESSION", "enabled", "true or false", (b, v) -> b.compression(bool(v)));
        intSize("TIDEMILL_COMPRESSION_MIN_SIZE", Compression.MIN_BYTES, Config.Builder::compressionMinBytes);
        other("TIDEMILL_COMPRESSION_REQUIRE", "require", "a comma-separated list of br, zstd", (b, v) -> {
            for (String coding : v.split(",")) {
                switch (coding.strip().toLowerCase(Locale.ROOT)) {
                    case "br" -> b.compressionBuilder().requireBrotli();
                    case "zstd" -> b.compressionBuilder().requireZstd();
                    case "" -> { }
                    default -> throw new IllegalArgumentException();
                }
            }
        });
        other("TIDEMILL_TRUSTED_PROXIES", "networks", "a comma-separated list of IP networks (10.0.0.0/8, 2001:db8::/32)",
                (b, v) -> b.trustedNetworks(java.util.Arrays.stream(v.split(",")).map(String::strip)
                        .filter(s -> !s.isEmpty()).toArray(String[]::new)));
        count("TIDEMILL_TRUSTED_HOPS", TrustedProxies.HOPS, " (0 = trust by networks)", Config.Builder::trustedHops);
        other("TIDEMILL_FORWARDED_HEADER", "header", "one of x-forwarded-for, forwarded",
                (b, v) -> b.forwardedHeader(enumValue(TrustedProxies.Header.class, v)));
        other("TIDEMILL_METRICS", "metrics", "true or false", (b, v) -> b.metrics(bool(v)));
        other("TIDEMILL_HEALTH", "health", "true or false", (b, v) -> b.health(bool(v)));
        other("TIDEMILL_ACCESS_LOG", "accessLog", "true or false", (b, v) -> b.accessLog(bool(v)));
        // HTTPS (Tls, docs/security.md "TLS"): on once TIDEMILL_TLS_CERT and _KEY (or _SELF_SIGNED) are set.
        other("TIDEMILL_TLS_CERT", "tls.certificate", "a PEM certificate file (the certificate, then intermediates)",
                (b, v) -> b.tls(t -> t.certificate(path(v))));
        other("TIDEMILL_TLS_KEY", "tls.key", "a PKCS#8 PEM key file", (b, v) -> b.tls(t -> t.key(path(v))));
        other("TIDEMILL_TLS_CHAIN", "tls.chain", "a PEM file of intermediate certificates", (b, v) -> b.tls(t -> t.chain(path(v))));
        other("TIDEMILL_TLS_KEY_PASSWORD", "tls.keyPassword", "the encrypted key's password (not empty)",
                (b, v) -> b.tls(t -> t.keyPassword(nonEmpty(v))));
        other("TIDEMILL_TLS_OCSP_RESPONSE", "tls.ocspResponse", "a DER OCSP response file for the certificate",
                (b, v) -> b.tls(t -> t.ocspResponse(path(v))));
        other("TIDEMILL_TLS_SELF_SIGNED", "tls.selfSigned", "true or false", (b, v) -> b.tls(t -> t.selfSigned(bool(v))));
        count("TIDEMILL_TLS_PORT", Tls.PORT, "", (b, n) -> b.tls(t -> t.port(n)));
        other("TIDEMILL_TLS_PROVIDER", "tls.provider", "one of auto, openssl, jdk",
                (b, v) -> b.tls(t -> t.provider(enumValue(Tls.Provider.class, v))));
        duration("TIDEMILL_TLS_RELOAD_INTERVAL", Tls.RELOAD_INTERVAL, (b, d) -> b.tls(t -> t.reloadInterval(d)));
        duration("TIDEMILL_TLS_HANDSHAKE_TIMEOUT", Tls.HANDSHAKE_TIMEOUT, (b, d) -> b.tls(t -> t.handshakeTimeout(d)));
        count("TIDEMILL_TLS_MAX_HANDSHAKES", Tls.MAX_HANDSHAKES, "", (b, n) -> b.tls(t -> t.maxHandshakes(n)));
        duration("TIDEMILL_TLS_TICKET_ROTATION", Tls.TICKET_KEY_ROTATION, (b, d) -> b.tls(t -> t.ticketKeyRotation(d)));
        other("TIDEMILL_TLS_CLIENT_AUTH", "tls.clientAuth", "one of none, optional, require",
                (b, v) -> b.tls(t -> t.clientAuth(enumValue(Tls.ClientAuth.class, v))));
        other("TIDEMILL_TLS_CLIENT_TRUST", "tls.clientTrust", "a PEM file of CA certificates",
                (b, v) -> b.tls(t -> t.clientTrust(path(v))));
        other("TIDEMILL_TLS_REDIRECT_HTTP", "tls.redirectHttp", "true or false", (b, v) -> b.tls(t -> t.redirectHttp(bool(v))));
        // Bearer tokens (BearerTokens, docs/auth.md): on once any TIDEMILL_AUTH_* naming keys is set.
        other("TIDEMILL_AUTH_ISSUER", "auth.issuer", "the issuer URL tokens name in iss (its discovery document names the keys)",
                (b, v) -> b.bearer(t -> t.issuer(nonEmpty(v))));
        other("TIDEMILL_AUTH_AUDIENCE", "auth.audience", "the audience tokens must name in aud", (b, v) -> b.bearer(t -> t.audience(nonEmpty(v))));
        other("TIDEMILL_AUTH_JWKS_URI", "auth.jwksUri", "an http or https URL of a JWK set",
                (b, v) -> b.bearer(t -> t.jwksUri(java.net.URI.create(nonEmpty(v)))));
        other("TIDEMILL_API_KEYS_FILE", "auth.apiKeys", "a file of API key digests, one 'name sha256:<hex> [scope ...]' per line",
                (b, v) -> b.apiKeys(ApiKeys.read(path(v))));
        other("TIDEMILL_API_KEY_HEADER", "auth.apiKeys.header", "a header name that carries an API key alone, such as X-API-Key",
                (b, v) -> b.apiKeyHeader(nonEmpty(v)));
        other("TIDEMILL_SESSION_KEYS", "auth.sessions.keys",
                "comma-separated base64url keys of at least 32 bytes each; the first signs session cookies, all verify",
                (b, v) -> b.sessionKeys(Sessions.parseKeys(v)));
        // OpenID Connect sign-in (OidcLogin): on once the client id is set; the issuer is TIDEMILL_AUTH_ISSUER's.
        other("TIDEMILL_OIDC_CLIENT_ID", "auth.login.clientId", "this app's client id at the OpenID Connect provider",
                (b, v) -> b.login(l -> l.clientId(nonEmpty(v))));
        other("TIDEMILL_OIDC_CLIENT_SECRET", "auth.login.clientSecret", "the client secret (never printed)",
                (b, v) -> b.login(l -> l.clientSecret(nonEmpty(v))));
        other("TIDEMILL_OIDC_REDIRECT_URI", "auth.login.redirectUri", "this app's callback URL as registered, such as https://app.example.com/auth/callback",
                (b, v) -> {
                    java.net.URI uri = java.net.URI.create(nonEmpty(v));
                    if (!uri.isAbsolute()) throw new IllegalArgumentException("not an absolute URL");
                    b.login(l -> l.redirectUri(uri));
                });
        duration("TIDEMILL_AUTH_LEEWAY", BearerTokens.LEEWAY, (b, d) -> b.bearer(t -> t.leeway(d)));
        intSize("TIDEMILL_AUTH_MAX_TOKEN_SIZE", BearerTokens.MAX_TOKEN_BYTES, (b, n) -> b.bearer(t -> t.maxTokenBytes(n)));
        duration("TIDEMILL_TLS_HSTS_MAX_AGE", Tls.HSTS_MAX_AGE, (b, d) -> b.tls(t -> t.hstsMaxAge(d)));
        // Read by the tidemill-redis module (docs/cluster.md), checked here so a typo fails at start like any other.
        other("TIDEMILL_REDIS_URL", "redis.url", "a redis:// or rediss:// URL with a host (the user and password in it are never printed)",
                (b, v) -> {
                    java.net.URI uri = java.net.URI.create(nonEmpty(v).strip());
                    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
                    if (!(scheme.equals("redis") || scheme.equals("rediss")) || uri.getHost() == null) throw new IllegalArgumentException();
                });
        other("TIDEMILL_NODE_ID", "redis.nodeId", "1 to 64 letters, digits, '.', '_' or '-' naming this node as a consumer of groups "
                + "(default: <host>-<port>)", (b, v) -> {
                    if (!v.matches("[A-Za-z0-9._-]{1,64}")) throw new IllegalArgumentException();
                });
    }

    private EnvironmentConfig() {}

    private static void other(String name, String field, String expects, BiConsumer<Config.Builder, String> apply) {
        if (VARIABLES.put(name, new Variable(name, field, expects, apply)) != null) {
            throw new IllegalStateException(name + " defined twice");
        }
    }

    private static void count(String name, Range range, String note, ObjIntConsumer<Config.Builder> set) {
        other(name, range.field(), range.describe() + note, (b, v) -> set.accept(b, (int) within(range, Long.parseLong(v))));
    }

    private static void intSize(String name, Range range, ObjIntConsumer<Config.Builder> set) {
        other(name, range.field(), range.describe(), (b, v) -> set.accept(b, (int) within(range, size(v))));
    }

    private static void longSize(String name, Range range, ObjLongConsumer<Config.Builder> set) {
        other(name, range.field(), range.describe(), (b, v) -> set.accept(b, within(range, size(v))));
    }

    private static void duration(String name, Range range, BiConsumer<Config.Builder, Duration> set) {
        other(name, range.field(), range.describe(), (b, v) -> {
            Duration d = duration(v);
            if (!range.contains(d)) throw new IllegalArgumentException();
            set.accept(b, d);
        });
    }

    /** Range checked here, before the builder sees it, so an int field never gets a truncated long. */
    private static long within(Range range, long n) {
        if (!range.contains(n)) throw new IllegalArgumentException();
        return n;
    }

    /** @return every supported variable with what it expects, in documentation order */
    static Map<String, String> variables() {
        Map<String, String> out = new LinkedHashMap<>();
        VARIABLES.forEach((k, v) -> out.put(k, v.expects()));
        return out;
    }

    /** @return for each field that has a variable, the variable's name ({@code maxPipelined -> TIDEMILL_MAX_PIPELINED}) */
    static Map<String, String> variableByField() {
        Map<String, String> out = new LinkedHashMap<>();
        VARIABLES.forEach((k, v) -> out.put(v.field(), k));
        return out;
    }

    /**
     * Applies the variables present in {@code env} to {@code builder}. An unknown {@code TIDEMILL_*}
     * variable is refused too: a typo must not silently fall back to a default. Each value is parsed
     * and range-checked on its own; rules that tie two fields together (the write-buffer low mark
     * at most the high one) are checked once all are applied, so the order of the variables in
     * {@code env} does not matter.
     *
     * @param env the environment
     * @param builder the builder to change
     * @return the builder
     */
    static Config.Builder apply(Map<String, String> env, Config.Builder builder) {
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (!e.getKey().startsWith("TIDEMILL_")) continue;
            Variable var = VARIABLES.get(e.getKey());
            if (var == null) {
                if (e.getKey().equals("TIDEMILL_JAVA_OPTS")) continue; // read by the launcher script, not here
                throw new IllegalArgumentException(e.getKey() + " is not a Tidemill setting; known: "
                        + String.join(", ", VARIABLES.keySet()));
            }
            try {
                var.apply().accept(builder, e.getValue().strip());
            } catch (RuntimeException ex) {
                // Deliberately drops ex's message: it may quote the value.
                throw new IllegalArgumentException(var.name() + " must be " + var.expects(), null);
            }
        }
        try {
            builder.build();
        } catch (IllegalArgumentException ex) {
            // The records' messages name fields and ranges, never values.
            throw new IllegalArgumentException("TIDEMILL_* settings are inconsistent: " + ex.getMessage(), null);
        }
        return builder;
    }

    private static String nonEmpty(String v) {
        if (v.isEmpty()) throw new IllegalArgumentException();
        return v;
    }

    private static java.nio.file.Path path(String v) {
        return java.nio.file.Path.of(nonEmpty(v));
    }

    private static boolean bool(String v) {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes", "on" -> true;
            case "false", "0", "no", "off" -> false;
            default -> throw new IllegalArgumentException();
        };
    }

    private static <E extends Enum<E>> E enumValue(Class<E> type, String v) {
        return Enum.valueOf(type, v.toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    private static final java.util.regex.Pattern SIZE =
            java.util.regex.Pattern.compile("(\\d{1,18})\\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?");

    /** Parses {@code 123}, {@code 8KiB}, {@code 16MiB}, {@code 1GiB}; k/kb/KiB all mean 1,024. */
    static long size(String v) {
        java.util.regex.Matcher m = SIZE.matcher(v.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) throw new IllegalArgumentException();
        long unit = switch (m.group(2) == null ? "b" : m.group(2)) {
            case "k", "kb", "kib" -> 1L << 10;
            case "m", "mb", "mib" -> 1L << 20;
            case "g", "gb", "gib" -> 1L << 30;
            default -> 1L;
        };
        long n = Long.parseLong(m.group(1));
        if (n > Long.MAX_VALUE / unit) throw new IllegalArgumentException();
        return n * unit;
    }

    /** Parses {@code 30s}, {@code 500ms}, {@code 2m}, {@code 1h} or ISO-8601 {@code PT30S}. */
    static Duration duration(String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        if (s.startsWith("pt") || s.startsWith("p")) return Duration.parse(v.trim());
        Function<Long, Duration> unit;
        String num;
        if (s.endsWith("ms")) {
            unit = Duration::ofMillis;
            num = s.substring(0, s.length() - 2);
        } else if (s.endsWith("s")) {
            unit = Duration::ofSeconds;
            num = s.substring(0, s.length() - 1);
        } else if (s.endsWith("m")) {
            unit = Duration::ofMinutes;
            num = s.substring(0, s.length() - 1);
        } else if (s.endsWith("h")) {
            unit = Duration::ofHours;
            num = s.substring(0, s.length() - 1);
        } else {
            throw new IllegalArgumentException();
        }
        if (num.isEmpty() || !num.chars().allMatch(c -> c >= '0' && c <= '9')) throw new IllegalArgumentException();
        return unit.apply(Long.parseLong(num));
    }
}
