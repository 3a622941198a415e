package dev.tidemill;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Immutable server configuration. Build one with {@link #builder()} or read the environment with
 * {@link #fromEnvironment()}; every default is defined once, in this record's {@code DEFAULT_*}
 * constants, {@link Limits#DEFAULTS}, {@link Timeouts#DEFAULTS} and {@link Compression#DEFAULTS},
 * and every range once, next to the field it bounds (the environment reader uses the same ranges).
 *
 * @param host address to bind. Default {@code 127.0.0.1} (set {@code 0.0.0.0} to listen on every
 *     interface; loopback by default so nothing is exposed by accident).
 * @param port TCP port; 0 picks a free one. 0-65535; default 8080.
 * @param transport Netty transport. Default {@link Transport#AUTO}.
 * @param ioThreads Netty event-loop threads; 0 means one per available processor. 0-1024; default 0.
 * @param workerLoops worker loops for {@link ExecutionMode#LOOP}; 0 means one per available
 *     processor ({@code Runtime.availableProcessors()}, which honours cgroup quotas and CPU
 *     affinity). 0-1024; default 0.
 * @param executionMode where handlers run unless a group or route says otherwise. Default
 *     {@link ExecutionMode#LOOP}.
 * @param assignment how LOOP requests pick a loop. Default {@link Assignment#LEAST_LOADED}.
 * @param serverHeader value of the {@code Server} response header; empty omits it. Default
 *     {@code Tidemill}.
 * @param debug when true, 500 problems carry {@code Type: message} in {@code detail}. Default false.
 * @param h2cUpgrade when true, the plain port accepts HTTP/1.1's {@code Upgrade: h2c} (RFC 7540
 *     3.2) on a connection's first request, when that request has no body: 101, then the request is
 *     answered as HTTP/2 stream 1 and the connection speaks HTTP/2. Default false: prior knowledge
 *     gives cleartext HTTP/2 without turning an HTTP/1.1 request into a stream, the step request
 *     smuggling through proxies that do not know h2c relies on (docs/http2.md); RFC 9113 dropped the
 *     upgrade for the same reasons.
 * @param limits request and connection limits
 * @param timeouts timeouts
 * @param compression response compression (on by default; see {@link Compression})
 * @param trustedProxies which peers may name the client in {@code X-Forwarded-For}/{@code Forwarded};
 *     default {@link TrustedProxies#NONE} (trust nobody)
 * @param operations health endpoints, metrics and the access log (see {@link Operations})
 * @param tls HTTPS on a second port; off by default (see {@link Tls})
 * @param auth how callers prove who they are, for routes with a {@link Requirement}; none by
 *     default (see {@link Auth})
 */
public record Config(
        String host,
        int port,
        Transport transport,
        int ioThreads,
        int workerLoops,
        ExecutionMode executionMode,
        Assignment assignment,
        String serverHeader,
        boolean debug,
        boolean h2cUpgrade,
        Limits limits,
        Timeouts timeouts,
        Compression compression,
        TrustedProxies trustedProxies,
        Operations operations,
        Tls tls,
        Auth auth) {

    /** Default bind address: loopback. */
    public static final String DEFAULT_HOST = "127.0.0.1";
    /** Default port. */
    public static final int DEFAULT_PORT = 8080;
    /** Default {@code Server} header. */
    public static final String DEFAULT_SERVER_HEADER = "Tidemill";

    static final Range PORT = Range.count("port", 0, 65_535);
    static final Range IO_THREADS = Range.count("ioThreads", 0, 1_024);
    static final Range WORKER_LOOPS = Range.count("workerLoops", 0, 1_024);

    /** Checks every field; throws {@link IllegalArgumentException} naming the first bad one. */
    public Config {
        Objects.requireNonNull(host, "host");
        PORT.check(port);
        Objects.requireNonNull(transport, "transport");
        IO_THREADS.check(ioThreads);
        WORKER_LOOPS.check(workerLoops);
        Objects.requireNonNull(executionMode, "executionMode");
        Objects.requireNonNull(assignment, "assignment");
        checkServerHeader(serverHeader);
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(timeouts, "timeouts");
        Objects.requireNonNull(compression, "compression");
        Objects.requireNonNull(trustedProxies, "trustedProxies");
        Objects.requireNonNull(operations, "operations");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(auth, "auth");
    }

    /** The one check of a {@code Server} header value, shared with the environment reader. */
    static String checkServerHeader(String serverHeader) {
        Objects.requireNonNull(serverHeader, "serverHeader");
        if (serverHeader.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw new IllegalArgumentException("serverHeader must not contain control characters");
        }
        return serverHeader;
    }

    /** @return the defaults */
    public static Config defaults() {
        return builder().build();
    }

    /** @return a builder holding the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Reads {@code TIDEMILL_*} environment variables over the defaults (see the README for the
     * list). A bad value throws {@link IllegalArgumentException} naming the variable and what it
     * expects, never the value itself (it could be a secret pasted into the wrong variable).
     *
     * @return the configuration
     */
    public static Config fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    /**
     * Like {@link #fromEnvironment()}, from the given map.
     *
     * @param env variables, e.g. {@code System.getenv()}
     * @return the configuration
     */
    public static Config fromEnvironment(Map<String, String> env) {
        return EnvironmentConfig.apply(env, builder()).build();
    }

    /** @return a builder starting from this configuration */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** @return worker loops actually used: {@link #workerLoops()}, or one per available processor */
    public int effectiveWorkerLoops() {
        return workerLoops > 0 ? workerLoops : Runtime.getRuntime().availableProcessors();
    }

    /** @return I/O threads actually used: {@link #ioThreads()}, or one per available processor */
    public int effectiveIoThreads() {
        return ioThreads > 0 ? ioThreads : Runtime.getRuntime().availableProcessors();
    }

    /**
     * Builder for {@link Config}; starts from the defaults. The limits and timeouts are held in a
     * {@link Limits.Builder} and a {@link Timeouts.Builder}, which own their defaults; the setters
     * here for them only forward.
     */
    public static final class Builder {
        private String host = DEFAULT_HOST;
        private int port = DEFAULT_PORT;
        private Transport transport = Transport.AUTO;
        private int ioThreads;
        private int workerLoops;
        private ExecutionMode executionMode = ExecutionMode.LOOP;
        private Assignment assignment = Assignment.LEAST_LOADED;
        private String serverHeader = DEFAULT_SERVER_HEADER;
        private boolean debug;
        private boolean h2cUpgrade;
        private Limits.Builder limits = Limits.builder();
        private Timeouts.Builder timeouts = Timeouts.builder();
        private Compression.Builder compression = Compression.builder();
        private TrustedProxies trustedProxies = TrustedProxies.NONE;
        private Operations.Builder operations = Operations.builder();
        private Tls.Builder tls = Tls.builder();
        private Auth auth = Auth.NONE;
        /** Bearer-token settings gathered one at a time (the environment reader); replaces {@link #auth} when set. */
        private BearerTokens.Builder bearer;
        /** API keys and the header that carries them, set one at a time (the environment reader); added to {@link #auth}. */
        private ApiKeys apiKeys;
        private String apiKeyHeader;
        /** Session keys from the environment: sessions on, signed with them. */
        private java.util.List<byte[]> sessionKeys;
        private OidcLogin.Builder login;

        private Builder() {}

        private Builder(Config c) {
            host = c.host;
            port = c.port;
            transport = c.transport;
            ioThreads = c.ioThreads;
            workerLoops = c.workerLoops;
            executionMode = c.executionMode;
            assignment = c.assignment;
            serverHeader = c.serverHeader;
            debug = c.debug;
            h2cUpgrade = c.h2cUpgrade;
            limits = c.limits.toBuilder();
            timeouts = c.timeouts.toBuilder();
            compression = c.compression.toBuilder();
            trustedProxies = c.trustedProxies;
            operations = c.operations.toBuilder();
            tls = c.tls.toBuilder();
            auth = c.auth;
        }

        /** @param v bind address @return this */
        public Builder host(String v) { host = v; return this; }
        /** @param v TCP port, 0 for any free port @return this */
        public Builder port(int v) { port = v; return this; }
        /** @param v transport @return this */
        public Builder transport(Transport v) { transport = v; return this; }
        /** @param v I/O threads, 0 for one per processor @return this */
        public Builder ioThreads(int v) { ioThreads = v; return this; }
        /** @param v worker loops, 0 for one per processor @return this */
        public Builder workerLoops(int v) { workerLoops = v; return this; }
        /** @param v default execution mode @return this */
        public Builder executionMode(ExecutionMode v) { executionMode = v; return this; }
        /** @param v loop assignment policy @return this */
        public Builder assignment(Assignment v) { assignment = v; return this; }
        /** @param v {@code Server} header value, empty to omit @return this */
        public Builder serverHeader(String v) { serverHeader = v; return this; }
        /** @param v debug mode @return this */
        public Builder debug(boolean v) { debug = v; return this; }
        /** @param v see {@link Config#h2cUpgrade()} @return this */
        public Builder h2cUpgrade(boolean v) { h2cUpgrade = v; return this; }
        /** @param v every limit at once, replacing those set so far @return this */
        public Builder limits(Limits v) { limits = v.toBuilder(); return this; }
        /** @param v every timeout at once, replacing those set so far @return this */
        public Builder timeouts(Timeouts v) { timeouts = v.toBuilder(); return this; }
        /** @param v every compression setting at once, replacing those set so far @return this */
        public Builder compression(Compression v) { compression = v.toBuilder(); return this; }
        /** @param v see {@link Compression#enabled()} @return this */
        public Builder compression(boolean v) { compression.enabled(v); return this; }
        /** @param v every operations setting at once, replacing those set so far @return this */
        public Builder operations(Operations v) { operations = v.toBuilder(); return this; }
        /** @param v see {@link Operations#metrics()} @return this */
        public Builder metrics(boolean v) { operations.metrics(v); return this; }
        /** @param v see {@link Operations#health()} @return this */
        public Builder health(boolean v) { operations.health(v); return this; }
        /** @param v see {@link Operations#accessLog()} @return this */
        public Builder accessLog(boolean v) { operations.accessLog(v); return this; }
        /** @param v see {@link Compression#minBytes()} @return this */
        public Builder compressionMinBytes(int v) { compression.minBytes(v); return this; }
        /** @return the compression settings being built, for the environment reader's {@code TIDEMILL_COMPRESSION_REQUIRE} */
        Compression.Builder compressionBuilder() { return compression; }
        /** @param v see {@link Limits#concurrencyPerLoop()} @return this */
        public Builder concurrencyPerLoop(int v) { limits.concurrencyPerLoop(v); return this; }
        /** @param v see {@link Limits#maxConnections()} @return this */
        public Builder maxConnections(int v) { limits.maxConnections(v); return this; }
        /** @param v see {@link Limits#maxRequestLineBytes()} @return this */
        public Builder maxRequestLineBytes(int v) { limits.maxRequestLineBytes(v); return this; }
        /** @param v see {@link Limits#maxHeaderBytes()} @return this */
        public Builder maxHeaderBytes(int v) { limits.maxHeaderBytes(v); return this; }
        /** @param v see {@link Limits#maxHeaderCount()} @return this */
        public Builder maxHeaderCount(int v) { limits.maxHeaderCount(v); return this; }
        /** @param v see {@link Limits#maxBodyBytes()} @return this */
        public Builder maxBodyBytes(long v) { limits.maxBodyBytes(v); return this; }
        /** @param v see {@link Limits#maxPipelined()} @return this */
        public Builder maxPipelined(int v) { limits.maxPipelined(v); return this; }
        /** @param v see {@link Limits#maxDrainBytes()} @return this */
        public Builder maxDrainBytes(long v) { limits.maxDrainBytes(v); return this; }
        /** @param v see {@link Limits#maxQueryPairs()} @return this */
        public Builder maxQueryPairs(int v) { limits.maxQueryPairs(v); return this; }
        /** @param v see {@link Limits#maxLeadingEmptyLines()} @return this */
        public Builder maxLeadingEmptyLines(int v) { limits.maxLeadingEmptyLines(v); return this; }
        /** @param v see {@link Limits#maxContentCodings()} @return this */
        public Builder maxContentCodings(int v) { limits.maxContentCodings(v); return this; }
        /** @param v see {@link Limits#maxJsonNestingDepth()} @return this */
        public Builder maxJsonNestingDepth(int v) { limits.maxJsonNestingDepth(v); return this; }
        /** @param v see {@link Limits#maxJsonNumberLength()} @return this */
        public Builder maxJsonNumberLength(int v) { limits.maxJsonNumberLength(v); return this; }
        /** @param v see {@link Limits#maxJsonStringLength()} @return this */
        public Builder maxJsonStringLength(int v) { limits.maxJsonStringLength(v); return this; }
        /** @param v see {@link Limits#acceptBacklog()} @return this */
        public Builder acceptBacklog(int v) { limits.acceptBacklog(v); return this; }
        /** @param v see {@link Limits#writeBufferLowWaterMark()} @return this */
        public Builder writeBufferLowWaterMark(int v) { limits.writeBufferLowWaterMark(v); return this; }
        /** @param v see {@link Limits#writeBufferHighWaterMark()} @return this */
        public Builder writeBufferHighWaterMark(int v) { limits.writeBufferHighWaterMark(v); return this; }
        /** @param v see {@link Limits#decoderChunkBytes()} @return this */
        public Builder decoderChunkBytes(int v) { limits.decoderChunkBytes(v); return this; }
        /** @param v see {@link Limits#bodyHighWaterBytes()} @return this */
        public Builder bodyHighWaterBytes(int v) { limits.bodyHighWaterBytes(v); return this; }
        /** @param v see {@link Limits#maxParts()} @return this */
        public Builder maxParts(int v) { limits.maxParts(v); return this; }
        /** @param v see {@link Limits#maxPartHeaderBytes()} @return this */
        public Builder maxPartHeaderBytes(int v) { limits.maxPartHeaderBytes(v); return this; }
        /** @param v see {@link Limits#maxFieldBytes()} @return this */
        public Builder maxFieldBytes(int v) { limits.maxFieldBytes(v); return this; }
        /** @param v see {@link Limits#maxFileBytes()} @return this */
        public Builder maxFileBytes(long v) { limits.maxFileBytes(v); return this; }
        /** @param v see {@link Limits#uploadMemoryBytes()} @return this */
        public Builder uploadMemoryBytes(int v) { limits.uploadMemoryBytes(v); return this; }
        /** @param v see {@link Limits#maxConcurrentStreams()} @return this */
        public Builder maxConcurrentStreams(int v) { limits.maxConcurrentStreams(v); return this; }
        /** @param v see {@link Limits#streamWindowBytes()} @return this */
        public Builder streamWindowBytes(int v) { limits.streamWindowBytes(v); return this; }
        /** @param v see {@link Limits#maxFrameBytes()} @return this */
        public Builder maxFrameBytes(int v) { limits.maxFrameBytes(v); return this; }
        /** @param v see {@link Limits#maxQueuedControlFrames()} @return this */
        public Builder maxQueuedControlFrames(int v) { limits.maxQueuedControlFrames(v); return this; }
        /** @param v see {@link Limits#maxResetsPerWindow()} @return this */
        public Builder maxResetsPerWindow(int v) { limits.maxResetsPerWindow(v); return this; }
        /** @param v see {@link Timeouts#request()} @return this */
        public Builder requestTimeout(Duration v) { timeouts.request(v); return this; }
        /** @param v see {@link Timeouts#headerRead()} @return this */
        public Builder headerReadTimeout(Duration v) { timeouts.headerRead(v); return this; }
        /** @param v see {@link Timeouts#idle()} @return this */
        public Builder idleTimeout(Duration v) { timeouts.idle(v); return this; }
        /** @param v see {@link Timeouts#bodyStall()} @return this */
        public Builder bodyStallTimeout(Duration v) { timeouts.bodyStall(v); return this; }
        /** @param v see {@link Timeouts#writeStall()} @return this */
        public Builder writeStallTimeout(Duration v) { timeouts.writeStall(v); return this; }
        /** @param v see {@link Timeouts#drain()} @return this */
        public Builder drainTimeout(Duration v) { timeouts.drain(v); return this; }
        /** @param v see {@link Timeouts#linger()} @return this */
        public Builder lingerTimeout(Duration v) { timeouts.linger(v); return this; }
        /** @param v see {@link Timeouts#shutdownGrace()} @return this */
        public Builder shutdownGrace(Duration v) { timeouts.shutdownGrace(v); return this; }
        /** @param v see {@link Timeouts#shutdownIdle()} @return this */
        public Builder shutdownIdle(Duration v) { timeouts.shutdownIdle(v); return this; }
        /** @param v who may name the client in forwarding headers @return this */
        public Builder trustedProxies(TrustedProxies v) { trustedProxies = v; return this; }
        /** @param cidrs trusted proxy networks, see {@link TrustedProxies#networks()} @return this */
        public Builder trustedNetworks(String... cidrs) {
            trustedProxies = new TrustedProxies(java.util.List.of(cidrs), 0, trustedProxies.header());
            return this;
        }
        /** @param v proxies in front, see {@link TrustedProxies#hops()} @return this */
        public Builder trustedHops(int v) {
            trustedProxies = new TrustedProxies(java.util.List.of(), v, trustedProxies.header());
            return this;
        }
        /** @param v the header that carries the chain, see {@link TrustedProxies#header()} @return this */
        public Builder forwardedHeader(TrustedProxies.Header v) {
            trustedProxies = new TrustedProxies(trustedProxies.networks(), trustedProxies.hops(), v);
            return this;
        }
        /** @param v every TLS setting at once, replacing those set so far @return this */
        public Builder tls(Tls v) { tls = v.toBuilder(); return this; }
        /** @param change changes to the TLS settings held so far, e.g. {@code t -> t.port(0)} @return this */
        public Builder tls(java.util.function.Consumer<Tls.Builder> change) { change.accept(tls); return this; }
        /** @param v how callers prove who they are @return this */
        public Builder auth(Auth v) {
            auth = java.util.Objects.requireNonNull(v);
            bearer = null;
            apiKeys = null;
            login = null;
            return this;
        }
        /** @param v the API keys accepted, added to {@link #auth} @return this */
        public Builder apiKeys(ApiKeys v) { apiKeys = java.util.Objects.requireNonNull(v); return this; }
        /** Sessions signed with these keys ({@code TIDEMILL_SESSION_KEYS}), the app's other session settings kept. */
        Builder sessionKeys(java.util.List<byte[]> keys) { sessionKeys = keys; return this; }
        /** @param v a header that carries an API key alone, see {@link ApiKeys#header(String)} @return this */
        public Builder apiKeyHeader(String v) { apiKeyHeader = java.util.Objects.requireNonNull(v); return this; }
        /** @param change bearer-token settings, one at a time (the environment reader's way) @return this */
        public Builder bearer(java.util.function.Consumer<BearerTokens.Builder> change) {
            if (bearer == null) bearer = BearerTokens.builder();
            change.accept(bearer);
            return this;
        }
        /** OpenID Connect sign-in settings, one at a time (the environment reader's way); the issuer defaults to the bearer tokens'. */
        Builder login(java.util.function.Consumer<OidcLogin.Builder> change) {
            if (login == null) login = OidcLogin.builder();
            change.accept(login);
            return this;
        }
        /** @param v see {@link Timeouts#ssePing()} @return this */
        public Builder ssePing(Duration v) { timeouts.ssePing(v); return this; }

        /** @return the configuration; throws {@link IllegalArgumentException} naming a bad field */
        public Config build() {
            return new Config(host, port, transport, ioThreads, workerLoops, executionMode, assignment,
                    serverHeader, debug, h2cUpgrade, limits.build(), timeouts.build(), compression.build(), trustedProxies,
                    operations.build(), tls.build(), resolvedAuth());
        }

        private Auth resolvedAuth() {
            Auth a = bearer != null ? auth.withBearer(bearer.build()) : auth;
            ApiKeys keys = apiKeys != null ? apiKeys : a.apiKeys().orElse(null);
            if (apiKeyHeader != null) {
                if (keys == null) throw new IllegalArgumentException("apiKeyHeader needs API keys (TIDEMILL_API_KEYS_FILE)");
                keys = keys.header(apiKeyHeader);
            }
            if (keys != null) a = a.withApiKeys(keys);
            if (sessionKeys != null) {
                Sessions.Builder s = Sessions.builder();
                sessionKeys.forEach(s::key);
                a = a.withSessions(s.build());
            }
            if (login != null) {
                if (!login.hasIssuer()) {
                    login.issuer(a.bearerTokens().flatMap(BearerTokens::issuer).orElseThrow(() ->
                            new IllegalArgumentException("TIDEMILL_OIDC_CLIENT_ID needs TIDEMILL_AUTH_ISSUER, the provider's issuer URL")));
                }
                a = a.withLogin(login.build());
            }
            return a;
        }
    }
}
