package dev.tidemill;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A registered route: method, full pattern, handler, declared parameters and per-route options.
 * Options may be changed until the server starts.
 */
public final class Route {
    private final String method;
    private final String pattern;
    private final Handler handler;
    private final RouteGroup group;
    private final Tidemill app;
    private final List<Param<?>> params = new ArrayList<>();
    private ExecutionMode mode;
    private Long maxBodyBytes;
    private Duration requestTimeout;
    private Boolean compress;
    private boolean operational;

    Route(Tidemill app, String method, String pattern, Handler handler, RouteGroup group) {
        this.app = app;
        this.method = method;
        this.pattern = pattern;
        this.handler = Objects.requireNonNull(handler, "handler");
        this.group = group;
    }

    /**
     * Declares typed parameters. Path parameters must name a segment of the pattern; undeclared
     * segments are Strings.
     *
     * @param declared the parameters
     * @return this
     */
    public Route params(Param<?>... declared) {
        app.checkNotStarted();
        for (Param<?> p : declared) {
            Objects.requireNonNull(p, "param");
            if (p.location() == Param.Location.PATH && !hasSegment(p.name())) {
                throw new IllegalArgumentException(
                        "route " + method + " " + pattern + " has no path segment {" + p.name() + "} for " + p);
            }
            for (Param<?> q : params) {
                if (q.location() == p.location() && q.name().equals(p.name())) {
                    throw new IllegalArgumentException("route " + method + " " + pattern + " declares " + p + " twice");
                }
            }
            params.add(p);
        }
        return this;
    }

    /** @param value where this route's handler runs @return this */
    public Route mode(ExecutionMode value) {
        app.checkNotStarted();
        mode = Objects.requireNonNull(value);
        return this;
    }

    /** @param bytes body limit for this route, see {@link Limits#maxBodyBytes()} @return this */
    public Route maxBodyBytes(long bytes) {
        app.checkNotStarted();
        if (bytes < 0) throw new IllegalArgumentException("maxBodyBytes must be >= 0");
        maxBodyBytes = bytes;
        return this;
    }

    /** @param value request timeout for this route, see {@link Timeouts#request()} @return this */
    public Route requestTimeout(Duration value) {
        app.checkNotStarted();
        if (value.isZero() || value.isNegative()) throw new IllegalArgumentException("requestTimeout must be positive");
        requestTimeout = value;
        return this;
    }

    /**
     * @param value whether this route's responses may be compressed; overrides
     *     {@link Compression#enabled()} (e.g. {@code false} for a route whose bodies are secrets
     *     mixed with attacker-controlled text, the BREACH pattern)
     * @return this
     */
    public Route compress(boolean value) {
        app.checkNotStarted();
        compress = value;
        return this;
    }

    /**
     * Marks this route as an operational endpoint, as {@code /livez}, {@code /readyz} and
     * {@code /metrics} are: it is left out of the OpenAPI document, of request metrics and of the
     * access log, rate limits never apply to it, and the concurrency limit never sheds it (a probe
     * must tell a busy server from a dead one). Off by default.
     *
     * @param value whether this route is operational
     * @return this
     */
    public Route operational(boolean value) {
        app.checkNotStarted();
        operational = value;
        return this;
    }

    /** @return whether this route is operational, see {@link #operational(boolean)} */
    public boolean operational() {
        return operational;
    }

    /** @return the method */
    public String method() {
        return method;
    }

    /** @return the full pattern, group prefixes included */
    public String pattern() {
        return pattern;
    }

    /** @return the handler */
    public Handler handler() {
        return handler;
    }

    /** @return the declared parameters, in order */
    public List<Param<?>> params() {
        return Collections.unmodifiableList(params);
    }

    /** @return the group it was registered on, if any */
    public Optional<RouteGroup> group() {
        return Optional.ofNullable(group);
    }

    /** @return the execution mode set on this route itself, if any */
    public Optional<ExecutionMode> mode() {
        return Optional.ofNullable(mode);
    }

    /** @return the body limit set on this route itself, if any */
    public Optional<Long> maxBodyBytes() {
        return Optional.ofNullable(maxBodyBytes);
    }

    /** @return the request timeout set on this route itself, if any */
    public Optional<Duration> requestTimeout() {
        return Optional.ofNullable(requestTimeout);
    }

    /** @return whether compression was turned on or off on this route itself, if it was */
    public Optional<Boolean> compress() {
        return Optional.ofNullable(compress);
    }

    private boolean hasSegment(String name) {
        return pattern.contains("{" + name + "}") || pattern.contains("{*" + name + "}");
    }

    @Override
    public String toString() {
        return method + " " + pattern;
    }
}
