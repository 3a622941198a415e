package dev.tidemill;

import dev.tidemill.internal.server.EnvironmentConfig;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Immutable server configuration. Build one with {@link #builder()} or read the environment with
 * {@link #fromEnvironment()}; every default is defined once, in this record's {@code DEFAULT_*}
 * constants, {@link Limits#DEFAULTS} and {@link Timeouts#DEFAULTS}.
 *
 * @param host address to bind. Default {@code 127.0.0.1} (set {@code 0.0.0.0} to listen on every
 *     interface; loopback by default so nothing is exposed by accident).
 * @param port TCP port; 0 picks a free one. Default 8080.
 * @param transport Netty transport. Default {@link Transport#AUTO}.
 * @param ioThreads Netty event-loop threads; 0 means one per available processor. Default 0.
 * @param workerLoops worker loops for {@link ExecutionMode#LOOP}; 0 means one per available
 *     processor ({@code Runtime.availableProcessors()}, which honours cgroup quotas and CPU
 *     affinity). Default 0.
 * @param executionMode where handlers run unless a group or route says otherwise. Default
 *     {@link ExecutionMode#LOOP}.
 * @param assignment how LOOP requests pick a loop. Default {@link Assignment#LEAST_LOADED}.
 * @param serverHeader value of the {@code Server} response header; empty omits it. Default
 *     {@code Tidemill}.
 * @param debug when true, 500 problems carry {@code Type: message} in {@code detail}. Default false.
 * @param limits request and connection limits
 * @param timeouts timeouts
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
        Limits limits,
        Timeouts timeouts) {

    /** Default bind address: loopback. */
    public static final String DEFAULT_HOST = "127.0.0.1";
    /** Default port. */
    public static final int DEFAULT_PORT = 8080;
    /** Default {@code Server} header. */
    public static final String DEFAULT_SERVER_HEADER = "Tidemill";

    /** Checks every field; throws {@link IllegalArgumentException} naming the first bad one. */
    public Config {
        Objects.requireNonNull(host, "host");
        if (port < 0 || port > 65_535) throw new IllegalArgumentException("port must be 0-65535");
        Objects.requireNonNull(transport, "transport");
        if (ioThreads < 0) throw new IllegalArgumentException("ioThreads must be >= 0");
        if (workerLoops < 0) throw new IllegalArgumentException("workerLoops must be >= 0");
        Objects.requireNonNull(executionMode, "executionMode");
        Objects.requireNonNull(assignment, "assignment");
        Objects.requireNonNull(serverHeader, "serverHeader");
        if (serverHeader.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw new IllegalArgumentException("serverHeader must not contain control characters");
        }
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(timeouts, "timeouts");
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

    /** Builder for {@link Config}; starts from the defaults. */
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
        private int concurrencyPerLoop = Limits.DEFAULTS.concurrencyPerLoop();
        private int maxConnections = Limits.DEFAULTS.maxConnections();
        private int maxRequestLineBytes = Limits.DEFAULTS.maxRequestLineBytes();
        private int maxHeaderBytes = Limits.DEFAULTS.maxHeaderBytes();
        private int maxHeaderCount = Limits.DEFAULTS.maxHeaderCount();
        private long maxBodyBytes = Limits.DEFAULTS.maxBodyBytes();
        private int maxPipelined = Limits.DEFAULTS.maxPipelined();
        private long maxDrainBytes = Limits.DEFAULTS.maxDrainBytes();
        private Duration requestTimeout = Timeouts.DEFAULTS.request();
        private Duration headerReadTimeout = Timeouts.DEFAULTS.headerRead();
        private Duration idleTimeout = Timeouts.DEFAULTS.idle();
        private Duration bodyStallTimeout = Timeouts.DEFAULTS.bodyStall();
        private Duration writeStallTimeout = Timeouts.DEFAULTS.writeStall();
        private Duration drainTimeout = Timeouts.DEFAULTS.drain();
        private Duration lingerTimeout = Timeouts.DEFAULTS.linger();
        private Duration shutdownGrace = Timeouts.DEFAULTS.shutdownGrace();

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
            concurrencyPerLoop = c.limits.concurrencyPerLoop();
            maxConnections = c.limits.maxConnections();
            maxRequestLineBytes = c.limits.maxRequestLineBytes();
            maxHeaderBytes = c.limits.maxHeaderBytes();
            maxHeaderCount = c.limits.maxHeaderCount();
            maxBodyBytes = c.limits.maxBodyBytes();
            maxPipelined = c.limits.maxPipelined();
            maxDrainBytes = c.limits.maxDrainBytes();
            requestTimeout = c.timeouts.request();
            headerReadTimeout = c.timeouts.headerRead();
            idleTimeout = c.timeouts.idle();
            bodyStallTimeout = c.timeouts.bodyStall();
            writeStallTimeout = c.timeouts.writeStall();
            drainTimeout = c.timeouts.drain();
            lingerTimeout = c.timeouts.linger();
            shutdownGrace = c.timeouts.shutdownGrace();
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
        /** @param v see {@link Limits#concurrencyPerLoop()} @return this */
        public Builder concurrencyPerLoop(int v) { concurrencyPerLoop = v; return this; }
        /** @param v see {@link Limits#maxConnections()} @return this */
        public Builder maxConnections(int v) { maxConnections = v; return this; }
        /** @param v see {@link Limits#maxRequestLineBytes()} @return this */
        public Builder maxRequestLineBytes(int v) { maxRequestLineBytes = v; return this; }
        /** @param v see {@link Limits#maxHeaderBytes()} @return this */
        public Builder maxHeaderBytes(int v) { maxHeaderBytes = v; return this; }
        /** @param v see {@link Limits#maxHeaderCount()} @return this */
        public Builder maxHeaderCount(int v) { maxHeaderCount = v; return this; }
        /** @param v see {@link Limits#maxBodyBytes()} @return this */
        public Builder maxBodyBytes(long v) { maxBodyBytes = v; return this; }
        /** @param v see {@link Limits#maxPipelined()} @return this */
        public Builder maxPipelined(int v) { maxPipelined = v; return this; }
        /** @param v see {@link Limits#maxDrainBytes()} @return this */
        public Builder maxDrainBytes(long v) { maxDrainBytes = v; return this; }
        /** @param v see {@link Timeouts#request()} @return this */
        public Builder requestTimeout(Duration v) { requestTimeout = v; return this; }
        /** @param v see {@link Timeouts#headerRead()} @return this */
        public Builder headerReadTimeout(Duration v) { headerReadTimeout = v; return this; }
        /** @param v see {@link Timeouts#idle()} @return this */
        public Builder idleTimeout(Duration v) { idleTimeout = v; return this; }
        /** @param v see {@link Timeouts#bodyStall()} @return this */
        public Builder bodyStallTimeout(Duration v) { bodyStallTimeout = v; return this; }
        /** @param v see {@link Timeouts#writeStall()} @return this */
        public Builder writeStallTimeout(Duration v) { writeStallTimeout = v; return this; }
        /** @param v see {@link Timeouts#drain()} @return this */
        public Builder drainTimeout(Duration v) { drainTimeout = v; return this; }
        /** @param v see {@link Timeouts#linger()} @return this */
        public Builder lingerTimeout(Duration v) { lingerTimeout = v; return this; }
        /** @param v see {@link Timeouts#shutdownGrace()} @return this */
        public Builder shutdownGrace(Duration v) { shutdownGrace = v; return this; }

        /** @return the configuration; throws {@link IllegalArgumentException} naming a bad field */
        public Config build() {
            return new Config(host, port, transport, ioThreads, workerLoops, executionMode, assignment,
                    serverHeader, debug,
                    new Limits(concurrencyPerLoop, maxConnections, maxRequestLineBytes, maxHeaderBytes,
                            maxHeaderCount, maxBodyBytes, maxPipelined, maxDrainBytes),
                    new Timeouts(requestTimeout, headerReadTimeout, idleTimeout, bodyStallTimeout,
                            writeStallTimeout, drainTimeout, lingerTimeout, shutdownGrace));
        }
    }
}
