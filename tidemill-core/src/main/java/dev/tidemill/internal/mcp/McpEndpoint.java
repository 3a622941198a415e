package dev.tidemill.internal.mcp;

import dev.tidemill.Mcp;
import dev.tidemill.Request;
import dev.tidemill.Requirement;
import dev.tidemill.Response;
import dev.tidemill.Route;
import dev.tidemill.SessionStore;
import java.net.URI;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The MCP endpoint (Streamable HTTP): the origin check and the choice of era, then {@link ModernRequests}
 * (2026-07-28, stateless: every request carries its version in {@code _meta} and headers) or
 * {@link SessionRequests} (2025-03-26 to 2025-11-25: {@code initialize}, then a session id). A dual-era
 * server chooses by what the client sends (2026-07-28 basic/versioning, "Backward Compatibility with
 * Initialization-Based Versions"): modern {@code _meta}, or a modern {@code MCP-Protocol-Version}
 * without a session, is the stateless path; {@code initialize} or a session id, the session path.
 * Neither era gets a server-initiated GET stream here: GET is 405, as both allow.
 */
public final class McpEndpoint {
    /** The stateless revision. */
    static final String MODERN = "2026-07-28";
    /** The session-based revisions, newest first. */
    static final List<String> LEGACY = List.of("2025-11-25", "2025-06-18", "2025-03-26");
    static final String VERSION_META = "io.modelcontextprotocol/protocolVersion";

    private final Mcp settings;
    private final McpSessions sessions;
    /** The server listens on a loopback address only: every Host and Origin must name the loopback. */
    private final boolean loopback;
    private volatile Map<String, Tool> tools = Map.of();
    private volatile Map<String, McpResource> resources = Map.of();

    /**
     * @param settings the endpoint's settings
     * @param store where session-era sessions live: the app's session store, else one of the endpoint's own
     * @param bindAddress the address the server listens on ({@code Config.host()})
     */
    public McpEndpoint(Mcp settings, SessionStore store, String bindAddress) {
        this.settings = settings;
        this.loopback = loopbackName(bindAddress);
        this.sessions = new McpSessions(store, settings.sessionIdle());
    }

    /**
     * Collects the tools and resources; called at start, once every route is known.
     *
     * @param marked the routes marked as tools or resources
     * @throws IllegalStateException for a tool or resource that cannot be served, naming it
     */
    public void start(List<Marking> marked) {
        tools = Tool.of(marked);
        resources = McpResource.of(marked);
    }

    /** @return the tools' names, in registration order */
    public List<String> toolNames() {
        return List.copyOf(tools.keySet());
    }

    Map<String, Tool> tools() {
        return tools;
    }

    /** @return whether some tool or resource is not for anyone: lists then depend on the caller */
    boolean anyGuarded() {
        for (Tool t : tools.values()) {
            if (t.requirement() != Requirement.anonymous()) return true;
        }
        for (McpResource r : resources.values()) {
            if (r.requirement() != Requirement.anonymous()) return true;
        }
        return false;
    }

    Map<String, McpResource> resources() {
        return resources;
    }

    Mcp settings() {
        return settings;
    }

    McpSessions sessions() {
        return sessions;
    }

    /** POST: one JSON-RPC message (or, on a 2025-03-26 session, a batch). */
    public CompletionStage<Response> post(Request req) {
        Response refused = foreignOrigin(req);
        if (refused != null) return done(refused);
        String type = req.header("Content-Type").orElse("").toLowerCase(Locale.ROOT);
        if (!type.startsWith(JsonRpc.JSON)) {
            return done(JsonRpc.fail(415, null, JsonRpc.INVALID_REQUEST, "a message is POSTed as application/json"));
        }
        if (!acceptsJson(req)) {
            return done(JsonRpc.fail(406, null, JsonRpc.INVALID_REQUEST, "Accept must list application/json and text/event-stream"));
        }
        JsonNode message;
        try {
            message = JsonRpc.MAPPER.readTree(req.body());
        } catch (RuntimeException e) {
            return done(JsonRpc.fail(400, null, JsonRpc.PARSE_ERROR, "the body is not JSON"));
        }
        if (message == null || message.isMissingNode()) return done(JsonRpc.fail(400, null, JsonRpc.PARSE_ERROR, "the body is empty"));
        String header = req.header("MCP-Protocol-Version").orElse(null);
        boolean hasSession = req.header("Mcp-Session-Id").isPresent();
        if (message.isObject()) {
            String method = message.path("method").isString() ? message.get("method").asString() : null;
            boolean modernMeta = message.path("params").path("_meta").has(VERSION_META);
            boolean modern = modernMeta || (!hasSession && !"initialize".equals(method)
                    && header != null && !LEGACY.contains(header));
            if (modern) return new ModernRequests(this).handle(req, (ObjectNode) message, header);
        }
        return new SessionRequests(this).handle(req, message, header);
    }

    /**
     * The endpoint's OAuth protected resource metadata (RFC 9728 section 3; 2025-11-25
     * basic/authorization, "Authorization Server Discovery"): the resource (this endpoint's URL), the
     * authorization server that issues its tokens (the bearer tokens' issuer, when set), the scopes its
     * tools ask for, and that tokens go in the Authorization header only.
     *
     * @param req the request for the metadata
     * @param issuer the bearer tokens' issuer, if any
     * @return the document
     */
    public Response resourceMetadata(Request req, java.util.Optional<String> issuer) {
        ObjectNode doc = JsonRpc.NODES.objectNode().put("resource", origin(req) + settings.path());
        issuer.ifPresent(i -> doc.putArray("authorization_servers").add(i));
        java.util.Set<String> scopes = new java.util.TreeSet<>();
        for (Tool t : tools.values()) scopes.addAll(t.requirement().scopes());
        var s = doc.putArray("scopes_supported");
        scopes.forEach(s::add);
        doc.putArray("bearer_methods_supported").add("header");
        doc.put("resource_name", settings.name());
        return Response.ok().bytes(JsonRpc.MAPPER.writeValueAsBytes(doc), JsonRpc.JSON).header("Cache-Control", "max-age=300");
    }

    /** @return scheme, host and port as the request reached this server */
    static String origin(Request req) {
        boolean tls = req instanceof dev.tidemill.internal.exchange.Exchange ex && ex.overTls();
        return (tls ? "https://" : "http://") + req.header("Host").orElse("localhost");
    }

    /** @return where the metadata of the endpoint at {@code path} is (RFC 9728 section 3.1: the well-known prefix before the path) */
    static String metadataUrl(Request req, String path) {
        return origin(req) + WELL_KNOWN + path;
    }

    /** The well-known path of protected resource metadata (RFC 9728 section 3). */
    public static final String WELL_KNOWN = "/.well-known/oauth-protected-resource";

    /**
     * GET: no stream the server starts of its own, in either era (405), but a session's streamed
     * answer that broke is resumed: with {@code Mcp-Session-Id} and {@code Last-Event-ID}, the
     * events after that one, then the rest as they come, until the answer (2025-11-25
     * basic/transports, "Resumability and Redelivery"). An id naming no stream of the session is 404.
     */
    public CompletionStage<Response> get(Request req) {
        Response refused = foreignOrigin(req);
        if (refused != null) return done(refused);
        String id = req.header("Mcp-Session-Id").orElse(null);
        String last = req.header("Last-Event-ID").orElse(null);
        if (id == null || last == null) {
            return done(JsonRpc.fail(405, null, JsonRpc.INVALID_REQUEST, "this server opens no stream of its own: POST requests to "
                    + settings.path()).header("Allow", "POST, DELETE"));
        }
        return sessions.find(id, req.principal()).thenCompose(found -> found.isEmpty()
                ? done(JsonRpc.fail(404, null, JsonRpc.INVALID_REQUEST, "no such session"))
                : sessions.eventsAfter(id, last).thenApply(read -> read.isEmpty()
                        ? JsonRpc.fail(404, null, JsonRpc.INVALID_REQUEST, "no stream of this session has event " + printable(last))
                        : Response.sse(events -> replay(events, id, read.get(), RESUME_WAITS)).header("X-Accel-Buffering", "no")));
    }

    /** How many times a resumed stream looks for more events, {@link #RESUME_POLL} apart, before it gives up: 60 s. */
    static final int RESUME_WAITS = 600;
    static final java.time.Duration RESUME_POLL = java.time.Duration.ofMillis(100);

    private void replay(dev.tidemill.SseStream events, String session, EventLog.Read read, int waits) {
        for (Map.Entry<String, String> e : read.events()) events.send(dev.tidemill.SseEvent.data(e.getValue()).id(e.getKey()));
        if (read.done() || waits == 0 || !events.isOpen()) {
            events.close();
            return;
        }
        CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(RESUME_POLL.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS))
                .thenCompose(v -> sessions.eventsAfter(session, read.lastId()))
                .whenComplete((more, failed) -> {
                    if (failed != null || more.isEmpty()) events.close();
                    else replay(events, session, more.get(), waits - 1);
                });
    }

    /** DELETE: ends a session-era session; the stateless era has none to end (405). */
    public CompletionStage<Response> delete(Request req) {
        Response refused = foreignOrigin(req);
        if (refused != null) return done(refused);
        String id = req.header("Mcp-Session-Id").orElse(null);
        if (id == null) {
            return done(JsonRpc.fail(405, null, JsonRpc.INVALID_REQUEST, "DELETE ends a session, and none was named (Mcp-Session-Id)")
                    .header("Allow", "POST"));
        }
        return sessions.find(id, req.principal()).thenCompose(found -> found.isEmpty()
                ? done(JsonRpc.fail(404, null, JsonRpc.INVALID_REQUEST, "no such session"))
                : sessions.end(id).thenApply(v -> Response.noContent()));
    }

    /**
     * DNS rebinding (2025-11-25 and 2026-07-28 transports, "Security Warning"): a web page whose
     * name an attacker points at 127.0.0.1 reaches a local server with its own name in {@code Host}
     * and {@code Origin}, both consistent. So a server listening on the loopback only answers a
     * {@code Host} naming the loopback ({@code localhost}, {@code 127.0.0.1}, {@code [::1]}, any
     * port), and an {@code Origin} on the loopback or in {@link Mcp#allowedOrigins()}; a server on
     * other addresses answers an {@code Origin} whose host and port are the request's {@code Host},
     * or an allowed one. Anything else is 403. No {@code Origin}: not a browser.
     */
    private Response foreignOrigin(Request req) {
        String host = req.header("Host").orElse("");
        if (loopback && !loopbackName(hostName(host))) {
            return JsonRpc.fail(403, null, JsonRpc.INVALID_REQUEST, "this server answers requests to the loopback only, not to host "
                    + printable(host));
        }
        String origin = req.header("Origin").orElse(null);
        if (origin == null || settings.allowedOrigins().contains(origin)) return null;
        try {
            URI u = URI.create(origin);
            String authority = u.getRawAuthority();
            boolean web = "http".equals(u.getScheme()) || "https".equals(u.getScheme());
            if (web && authority != null && (loopback ? loopbackName(u.getHost()) : authority.equalsIgnoreCase(host))) return null;
        } catch (IllegalArgumentException e) {
            // not a URI: foreign
        }
        return JsonRpc.fail(403, null, JsonRpc.INVALID_REQUEST, "requests from origin " + printable(origin) + " are not accepted");
    }

    /** @return the host of a {@code Host} value, without its port */
    static String hostName(String hostHeader) {
        if (hostHeader.startsWith("[")) {
            int end = hostHeader.indexOf(']');
            return end < 0 ? hostHeader : hostHeader.substring(0, end + 1);
        }
        int colon = hostHeader.lastIndexOf(':');
        return colon < 0 ? hostHeader : hostHeader.substring(0, colon);
    }

    static boolean loopbackName(String host) {
        if (host == null) return false;
        String h = host.toLowerCase(Locale.ROOT);
        return h.equals("localhost") || h.equals("127.0.0.1") || h.equals("[::1]") || h.equals("::1")
                || h.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
    }

    private static String printable(String s) {
        String t = s.length() > 100 ? s.substring(0, 100) + "..." : s;
        return t.replaceAll("[^\\x20-\\x7e]", "?");
    }

    private static boolean acceptsJson(Request req) {
        List<String> accept = req.headers("Accept");
        if (accept.isEmpty()) return true; // lenient: a client that names nothing takes what it gets
        for (String a : accept) {
            String v = a.toLowerCase(Locale.ROOT);
            if (v.contains(JsonRpc.JSON) || v.contains("*/*")) return true;
        }
        return false;
    }

    static <T> CompletionStage<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }
}
