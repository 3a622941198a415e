package dev.tidemill;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Routes under a common prefix, with their own filters and defaults (execution mode, body limit,
 * request timeout). A route's own setting beats its group's, which beats the enclosing group's,
 * which beats the app's {@link Config}.
 */
public final class RouteGroup implements Routes {
    private final Tidemill app;
    private final RouteGroup parent;
    private final String prefix;
    private final List<Filter> filters = new ArrayList<>();
    private ExecutionMode mode;
    private Long maxBodyBytes;
    private Duration requestTimeout;
    private Cors cors;
    private RateLimit rateLimit;
    private Requirement requirement;

    RouteGroup(Tidemill app, RouteGroup parent, String prefix) {
        this.app = app;
        this.parent = parent;
        this.prefix = prefix;
    }

    @Override
    public Route route(String method, String pattern, Handler handler) {
        Objects.requireNonNull(pattern, "pattern");
        if (!pattern.isEmpty() && !pattern.startsWith("/")) {
            throw new IllegalArgumentException("pattern must start with '/' (or be empty for the prefix itself): " + pattern);
        }
        return app.register(method, prefix + pattern, handler, this);
    }

    @Override
    public RouteGroup group(String subPrefix) {
        app.checkNotStarted();
        return new RouteGroup(app, this, prefix + Tidemill.checkPrefix(subPrefix));
    }

    @Override
    public RouteGroup filter(Filter filter) {
        app.checkNotStarted();
        filters.add(Objects.requireNonNull(filter, "filter"));
        return this;
    }

    /** @param value default execution mode of the group's routes @return this */
    public RouteGroup mode(ExecutionMode value) {
        app.checkNotStarted();
        mode = Objects.requireNonNull(value);
        return this;
    }

    /** @param bytes default body limit of the group's routes @return this */
    public RouteGroup maxBodyBytes(long bytes) {
        app.checkNotStarted();
        if (bytes < 0) throw new IllegalArgumentException("maxBodyBytes must be >= 0");
        maxBodyBytes = bytes;
        return this;
    }

    /** @param value default request timeout of the group's routes @return this */
    public RouteGroup requestTimeout(Duration value) {
        app.checkNotStarted();
        if (value.isZero() || value.isNegative()) throw new IllegalArgumentException("requestTimeout must be positive");
        requestTimeout = value;
        return this;
    }

    /** @param policy default CORS policy of the group's routes ({@link Cors#none()}: none) @return this */
    public RouteGroup cors(Cors policy) {
        app.checkNotStarted();
        cors = Objects.requireNonNull(policy, "cors");
        return this;
    }

    /** @param limit default rate limit of the group's routes, one budget for all of them @return this */
    public RouteGroup rateLimit(RateLimit limit) {
        app.checkNotStarted();
        rateLimit = Objects.requireNonNull(limit, "rateLimit");
        return this;
    }

    /** @param who who may call the group's routes, unless a route says otherwise @return this */
    public RouteGroup requires(Requirement who) {
        app.checkNotStarted();
        requirement = Objects.requireNonNull(who, "requires");
        return this;
    }

    /** @return the requirement set on this group, or inherited from an enclosing group */
    public Optional<Requirement> requirement() {
        return requirement != null ? Optional.of(requirement) : parent().flatMap(RouteGroup::requirement);
    }

    /** @return the CORS policy set on this group, or inherited */
    public Optional<Cors> cors() {
        return cors != null ? Optional.of(cors) : parent().flatMap(RouteGroup::cors);
    }

    /** @return the rate limit set on this group, or inherited */
    public Optional<RateLimit> rateLimit() {
        return rateLimit != null ? Optional.of(rateLimit) : parent().flatMap(RouteGroup::rateLimit);
    }

    /** @return the full prefix */
    public String prefix() {
        return prefix;
    }

    /** @return the enclosing group, if nested */
    public Optional<RouteGroup> parent() {
        return Optional.ofNullable(parent);
    }

    /** @return this group's own filters, outermost first */
    public List<Filter> filters() {
        return Collections.unmodifiableList(filters);
    }

    /** @return the mode set on this group, or inherited from an enclosing group */
    public Optional<ExecutionMode> mode() {
        return mode != null ? Optional.of(mode) : parent().flatMap(RouteGroup::mode);
    }

    /** @return the body limit set on this group, or inherited */
    public Optional<Long> maxBodyBytes() {
        return maxBodyBytes != null ? Optional.of(maxBodyBytes) : parent().flatMap(RouteGroup::maxBodyBytes);
    }

    /** @return the request timeout set on this group, or inherited */
    public Optional<Duration> requestTimeout() {
        return requestTimeout != null ? Optional.of(requestTimeout) : parent().flatMap(RouteGroup::requestTimeout);
    }
}
