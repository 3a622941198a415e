package dev.tidemill;

import dev.tidemill.internal.openapi.RouteKind;
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
    private boolean streamedBody;
    private final RouteDocs docs = new RouteDocs();
    private Cors cors;
    private RateLimit rateLimit;
    private Requirement requirement;

    Route(Tidemill app, String method, String pattern, Handler handler, RouteGroup group) {
        this.app = app;
        this.method = method;
        this.pattern = pattern;
        this.handler = Objects.requireNonNull(handler, "handler");
        this.group = group;
    }

    /**
     * Declares typed parameters. Path parameters must name a segment of the pattern; undeclared
     * segments are Strings. A name is declared once per location (a header's in any case).
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
                if (p.sameAs(q)) throw new IllegalArgumentException("route " + method + " " + pattern + " declares " + p + " twice");
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

    /**
     * Streams this route's request body: the handler runs as soon as the head has passed every
     * check (routing, parameters, rate limit, a declared length within {@link #maxBodyBytes}),
     * before a byte of body is read, and reads it with {@link Request#bodyStream()} as it arrives,
     * in at most {@link Limits#bodyHighWaterBytes()} of memory. Nothing is read, and no
     * {@code 100 Continue} sent, until the handler asks for the first bytes. The request timeout
     * counts from the last piece of body the handler took (from dispatch before the first), so a
     * long upload that keeps moving never times out while a handler that neither reads nor answers
     * does. {@link Request#body()} and {@link Request#body(Class)} still work, reading the stream
     * whole. Off by default: the body is read whole before the handler runs.
     *
     * @return this
     */
    public Route streamedBody() {
        app.checkNotStarted();
        streamedBody = true;
        return this;
    }

    /** @return whether the route streams its body, see {@link #streamedBody()} */
    public boolean streamsBody() {
        return streamedBody;
    }

    /**
     * Declares the route's request body as JSON of this type (a record or bean), for the OpenAPI
     * document and for {@link Request#body(Class)}: a request with another media type, a form
     * included, is answered 415. Without a declaration the binder takes JSON or a form (URL-encoded or multipart).
     *
     * @param type what the handler binds with {@link Request#body(Class)}
     * @return this
     */
    public Route body(Class<?> type) {
        app.checkNotStarted();
        docs.body(type, RouteDocs.JSON);
        return this;
    }

    /**
     * Declares the route's request body as a URL-encoded form ({@code application/x-www-form-urlencoded})
     * bound to this type; JSON is then answered 415. See {@link #body(Class)}.
     *
     * @param type what the handler binds with {@link Request#body(Class)}
     * @return this
     */
    public Route form(Class<?> type) {
        app.checkNotStarted();
        docs.body(type, RouteDocs.FORM);
        return this;
    }

    /**
     * Declares the route's request body as a multipart form ({@code multipart/form-data}, RFC 7578)
     * bound to this type: text fields as for {@link #form(Class)}, file parts into components of
     * type {@link Upload} or {@code List<Upload>}; another media type is answered 415. Without a
     * declaration the binder takes a multipart form as well. See {@link #body(Class)}.
     *
     * @param type what the handler binds with {@link Request#body(Class)}
     * @return this
     */
    public Route multipart(Class<?> type) {
        app.checkNotStarted();
        docs.body(type, RouteDocs.MULTIPART);
        return this;
    }

    /**
     * Declares what a successful response carries (status 200), for the OpenAPI document; a lambda
     * hides its return type. A record, enum or collection is JSON, a {@code String} text, a
     * {@code byte[]} octets. Nothing is checked at run time.
     *
     * @param type the returned value's type
     * @return this
     */
    public Route returns(Class<?> type) {
        return returns(200, type);
    }

    /**
     * Like {@link #returns(Class)} with another success status, e.g. 201.
     *
     * @param status 200-299
     * @param type the returned value's type ({@code Void.class} for no body)
     * @return this
     */
    public Route returns(int status, Class<?> type) {
        app.checkNotStarted();
        docs.returns(status, type);
        return this;
    }

    /**
     * @param mediaType {@code type/subtype[; name=value]}, e.g. {@code image/png}: the OpenAPI document's media type
     *     of a {@code String} or {@code byte[]} {@link #returns(Class) returns}. Nothing is checked at run time: the
     *     handler still sets the Content-Type itself, e.g. {@code Response.ok().bytes(b, "image/png")}
     * @return this
     */
    public Route produces(String mediaType) {
        app.checkNotStarted();
        docs.produces = RouteDocs.mediaType(mediaType);
        return this;
    }

    /** @param text one-line summary for the OpenAPI document @return this */
    public Route summary(String text) {
        app.checkNotStarted();
        docs.summary = RouteDocs.text("summary", text);
        return this;
    }

    /** @param text longer description (CommonMark) for the OpenAPI document @return this */
    public Route description(String text) {
        app.checkNotStarted();
        docs.description = RouteDocs.text("description", text);
        return this;
    }

    /** @param names tags grouping this operation in the OpenAPI document (added to earlier ones) @return this */
    public Route tags(String... names) {
        app.checkNotStarted();
        for (String n : names) docs.tags.add(RouteDocs.text("tag", n));
        return this;
    }

    /**
     * @param id the OpenAPI {@code operationId}, replacing the one derived from method and pattern
     *     ({@code GET /items/{id}} is {@code getItemsById}); letters, digits, {@code _ . -}; two
     *     operations with one id are refused when the document is built
     * @return this
     */
    public Route operationId(String id) {
        app.checkNotStarted();
        docs.operationId = RouteDocs.operationIdText(id);
        return this;
    }

    /** @return the declared request body type, if any ({@link #body(Class)}, {@link #form(Class)} or {@link #multipart(Class)}) */
    public Optional<Class<?>> body() {
        return Optional.ofNullable(docs.bodyType);
    }

    /** @return {@code application/json}, {@code application/x-www-form-urlencoded} or {@code multipart/form-data} when a body is declared */
    public Optional<String> bodyMediaType() {
        return Optional.ofNullable(docs.bodyMediaType);
    }

    /** @return the declared success response type, if any */
    public Optional<Class<?>> returns() {
        return Optional.ofNullable(docs.returnType);
    }

    /** @return the media type set with {@link #produces(String)}, if any */
    public Optional<String> produces() {
        return Optional.ofNullable(docs.produces);
    }

    /** @return the declared success status; 200 unless {@link #returns(int, Class)} said otherwise */
    public int returnStatus() {
        return docs.returnStatus;
    }

    /** @return the summary, if set */
    public Optional<String> summary() {
        return Optional.ofNullable(docs.summary);
    }

    /** @return the description, if set */
    public Optional<String> description() {
        return Optional.ofNullable(docs.description);
    }

    /** @return the tags, in order */
    public List<String> tags() {
        return List.copyOf(docs.tags);
    }

    /** @return the operationId set with {@link #operationId(String)}, if any */
    public Optional<String> operationId() {
        return Optional.ofNullable(docs.operationId);
    }

    /**
     * Makes this route a tool of the app's MCP endpoint ({@link Tidemill#mcp()}): its parameters and
     * body become the tool's input schema, and a call runs this route. It must have an auth decision
     * ({@link #requires}, on it, its group or the app). See docs/mcp.md.
     *
     * @param name the tool's name, 1 to 128 of A-Z, a-z, 0-9, '_', '-', '.'; unique in the app
     * @param description what it does, for the agent
     * @return this
     */
    public Route tool(String name, String description) {
        app.checkNotStarted();
        docs.tool(name, description);
        return this;
    }

    /**
     * Makes this GET route a resource of the app's MCP endpoint: {@code resources/read} of the URI
     * runs the route. A URI with {@code {name}} parts is a template whose parts are path variables.
     *
     * @param uri the resource's absolute URI or URI template, e.g. {@code docs://items/{id}}
     * @param description what it holds
     * @return this
     */
    public Route resource(String uri, String description) {
        app.checkNotStarted();
        docs.resource(uri, description, method, pattern);
        return this;
    }

    /**
     * Mirrors a tool argument into the request header {@code Mcp-Param-<header>} (2026-07-28
     * transports/streamable-http, "Custom Headers from Tool Parameters": its schema property gets
     * {@code x-mcp-header}), so a gateway can route on it; the endpoint checks the header matches
     * the argument. For a string, integer or boolean path or query parameter.
     *
     * @param argument the argument (a path or query parameter's name)
     * @param header the header's name after {@code Mcp-Param-}, a token, unique in the tool (case-insensitive)
     * @return this
     */
    public Route toolHeader(String argument, String header) {
        app.checkNotStarted();
        docs.toolHeader(argument, header);
        return this;
    }

    /** @return what the route declares for its description and for MCP */
    RouteDocs docs() {
        return docs;
    }

    /** What the route serves, for the OpenAPI document: set by {@link Routes#ws} and {@link Routes#assets}. */
    Route kind(RouteKind value) {
        docs.kind = value;
        return this;
    }

    RouteKind kind() {
        return docs.kind;
    }

    /** @param policy this route's CORS policy, over its group's and the app's ({@link Cors#none()} turns one off) @return this */
    public Route cors(Cors policy) {
        app.checkNotStarted();
        cors = Objects.requireNonNull(policy, "cors");
        return this;
    }

    /** @param limit this route's rate limit, over its group's and the app's (one object is one budget, shared) @return this */
    public Route rateLimit(RateLimit limit) {
        app.checkNotStarted();
        rateLimit = Objects.requireNonNull(limit, "rateLimit");
        return this;
    }

    /** @param who who may call this route, over its group's and the app's ({@link Requirement#anonymous()} lifts one) @return this */
    public Route requires(Requirement who) {
        app.checkNotStarted();
        requirement = Objects.requireNonNull(who, "requires");
        return this;
    }

    /** @return the requirement set on this route itself, if any */
    public Optional<Requirement> requirement() {
        return Optional.ofNullable(requirement);
    }

    /** @return the CORS policy set on this route itself, if any */
    public Optional<Cors> cors() {
        return Optional.ofNullable(cors);
    }

    /** @return the rate limit set on this route itself, if any */
    public Optional<RateLimit> rateLimit() {
        return Optional.ofNullable(rateLimit);
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
