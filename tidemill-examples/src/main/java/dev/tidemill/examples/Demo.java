package dev.tidemill.examples;

import dev.tidemill.Auth;
import dev.tidemill.Config;
import dev.tidemill.Cors;
import dev.tidemill.RateLimit;
import dev.tidemill.ExecutionMode;
import dev.tidemill.OpenApi;
import dev.tidemill.Param;
import dev.tidemill.ParamType;
import dev.tidemill.Problem;
import dev.tidemill.Requirement;
import dev.tidemill.Response;
import dev.tidemill.Route;
import dev.tidemill.RouteGroup;
import dev.tidemill.Server;
import dev.tidemill.StaticAssets;
import dev.tidemill.SseEvent;
import dev.tidemill.Subscription;
import dev.tidemill.Topic;
import dev.tidemill.WebSocket;
import dev.tidemill.WebSocketHandler;
import dev.tidemill.WebSocketMessage;
import dev.tidemill.Tidemill;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The demo app that {@code ./tidemill demo} runs: one route per feature, on embedded defaults (no
 * external service). {@code TIDEMILL_*} environment variables change its settings.
 */
public final class Demo {
    static final Param<Long> MICROS = Param.query("us", ParamType.LONG).withDefault(100L);
    static final Param<Long> MILLIS = Param.query("ms", ParamType.LONG).withDefault(10L);
    static final Param<Integer> COUNT = Param.query("n", ParamType.INT).withDefault(5);
    static final Param<Long> TICK_MILLIS = Param.query("ms", ParamType.LONG).withDefault(1000L);
    static final Param<String> ROOM = Param.path("room");
    /** The chat rooms' topic: one subject per room ({@code room.<name>}), the last 256 messages kept for resuming clients. */
    static final String ROOMS_TOPIC = "demo.rooms";
    /** The origin the demo's {@code /api} group lets scripts read from (a typical local dev server). */
    static final String CORS_ORIGIN = "http://localhost:5173";
    /** {@code GET /limited}: 5 requests per second per client address. */
    static final RateLimit LIMITED = RateLimit.builder("limited").requests(5).per(Duration.ofSeconds(1)).build();

    /** A JSON greeting. */
    public record Message(String message) {}

    /** An item with its query options echoed back. */
    public record Item(int id, boolean verbose, List<String> tags) {}

    /** A validated request body. */
    public record NewUser(@NotBlank String name, @Min(0) @Max(150) int age) {}

    /** A chat message posted to a room. */
    public record ChatMessage(@NotBlank @Size(max = 1000) String text) {}

    /** What POST /users answers. */
    public record User(long id, String name, int age) {}

    private Demo() {}

    /**
     * Builds the demo app.
     *
     * @param config the configuration
     * @return the app, not yet started
     */
    public static Tidemill create(Config config) {
        Tidemill app = Tidemill.create(config);
        app.get("/", req -> Response.ok().text("Tidemill demo. Routes:\n" + describe(app.routes())));
        app.get("/hello", req -> "Hello, World!").returns(String.class);
        app.get("/json", req -> new Message("Hello, World!")).returns(Message.class);
        // items, search and users: controllers, compiled into routes by tidemill-processor (docs/controllers.md)
        app.controllers(new ItemsController(), new UsersController());
        app.get("/work", req -> {
            long us = Math.min(req.param(MICROS), 1_000_000L);
            return "worked " + burn(us) + " us\n";
        }).params(MICROS);
        app.get("/sleep", req -> {
            long ms = Math.min(req.param(MILLIS), 60_000L);
            Thread.sleep(ms);
            return "slept " + ms + " ms\n";
        }).params(MILLIS).mode(ExecutionMode.VIRTUAL);
        app.get("/async", req -> {
            long ms = Math.min(req.param(MILLIS), 60_000L);
            return CompletableFuture.supplyAsync(() -> new Message("answered after " + ms + " ms"),
                    CompletableFuture.delayedExecutor(ms, TimeUnit.MILLISECONDS));
        }).params(MILLIS);
        app.get("/stream", req -> {
            int n = Math.min(req.param(COUNT), 1_000);
            return Response.stream("text/plain; charset=utf-8", out -> {
                for (int i = 1; i <= n && out.isOpen(); i++) {
                    out.write("line " + i + " of " + n + "\n").toCompletableFuture().join();
                    Thread.sleep(200);
                }
                out.close();
            });
        }).params(COUNT).mode(ExecutionMode.VIRTUAL);
        app.get("/sse/ticks", req -> {
            int n = Math.min(req.param(COUNT), 1_000);
            long ms = Math.min(req.param(TICK_MILLIS), 60_000L);
            return Response.sse(events -> {
                for (int i = 1; i <= n && events.isOpen(); i++) {
                    events.send(SseEvent.data("tick " + i + " of " + n).id(Integer.toString(i))).toCompletableFuture().join();
                    if (i < n) Thread.sleep(ms);
                }
                events.close();
            });
        }).params(COUNT, TICK_MILLIS).mode(ExecutionMode.VIRTUAL);
        Topic<String> rooms = roomsTopic();
        app.post("/rooms/{room}/messages", req -> {
            ChatMessage m = req.body(ChatMessage.class);
            // completes once the message is stored (on Redis: once XADD is answered); 503 while Redis is away
            return rooms.publishAsync(roomSubject(req.param(ROOM)), m.text()).thenApply(id -> Response.status(202).json(Map.of("id", id)));
        }).params(ROOM).body(ChatMessage.class).summary("Post a message to a room").tags("rooms")
                .requires(Requirement.anonymous()).tool("post_message", "Posts a text to a chat room, live at /rooms/{room}/events");
        app.get("/rooms/{room}/events", req -> Response.sse(rooms, roomSubject(req.param(ROOM)), msg -> SseEvent.data(msg.value())))
                .params(ROOM);
        app.get("/rooms/{room}/ws", req -> Response.webSocket(new RoomSocket(rooms, roomSubject(req.param(ROOM)))))
                .params(ROOM);
        app.ws("/ws/echo", (ws, msg) -> ws.send(msg)).mode(ExecutionMode.IO); // text stays text, binary binary
        StaticAssets assets = StaticAssets.builder()
                .classpath(Demo.class, "/" + LiveBoard.DATASTAR_CLIENT, "/" + LiveBoard.STYLESHEET).build();
        app.assets("/assets", assets); // hashed names, immutable caching, br/zstd/gzip forms made at start
        LiveBoard.register(app, assets);
        Uploads.register(app); // PUT /files/{name}: a streamed body to a temporary directory
        app.openApi(OpenApi.builder().title("Tidemill demo").version("0.1.0").build()); // /openapi.json and /docs
        DemoMcp.register(app, rooms); // GET /admin/stats (scope admin), and the routes marked .tool(...) at /mcp
        // CORS: scripts on CORS_ORIGIN may call /api (preflights answered by the server); /limited is rate limited
        RouteGroup api = app.group("/api").cors(Cors.builder().allowOrigins(CORS_ORIGIN).allowMethods("GET", "POST")
                .allowHeaders("Content-Type").maxAge(Duration.ofMinutes(10)).build());
        api.get("/hello", req -> new Message("Hello, " + req.header("Origin").orElse("same origin") + "!"))
                .returns(Message.class).summary("Greets a cross-origin caller").tags("cors");
        Optional<DemoCluster> cluster = DemoCluster.get(); // TIDEMILL_REDIS_URL: shared with the other nodes
        app.get("/limited", req -> "within the limit").rateLimit(cluster.map(c -> c.shared(LIMITED)).orElse(LIMITED)).returns(String.class).summary("5 per second per client");
        DemoIdentity.register(app); // GET /me (any caller), GET /admin (scope admin)
        DemoJobs.register(app, cluster); // POST /jobs, GET /jobs/{id}, and a consumer of the jobs' group
        // /readyz runs this; a real app checks its database or broker here
        app.readiness("rooms", () -> dev.tidemill.Health.ok(rooms.stats().subscriptions() + " subscriptions"));
        return app;
    }

    /**
     * One WebSocket member of a chat room: what it sends ({@code {"text": ...}}) is published to
     * the room, and every message of the room (its own included) comes back as
     * {@code {"id": ..., "text": ...}}.
     */
    static final class RoomSocket implements WebSocketHandler {
        private final Topic<String> rooms;
        private final String subject;
        private volatile Subscription<String> subscription;

        RoomSocket(Topic<String> rooms, String subject) {
            this.rooms = rooms;
            this.subject = subject;
        }

        @Override
        public void onOpen(WebSocket ws) {
            // Delivered on the publisher's thread: sendJson only queues the frame, it never blocks.
            subscription = rooms.subscribe(Runnable::run, m -> ws.sendJson(Map.of("id", m.id(), "text", m.value())), subject);
        }

        @Override
        public void onMessage(WebSocket ws, WebSocketMessage message) {
            rooms.publishAsync(subject, message.json(ChatMessage.class).text()).exceptionally(e -> {
                ws.sendJson(Map.of("error", "not posted: " + e.getMessage()));
                return null;
            });
        }

        @Override
        public void onClose(WebSocket ws, WebSocket.CloseStatus status) {
            Subscription<String> s = subscription;
            if (s != null) s.close();
        }
    }

    /** @return the room's subject; 422 unless the name is 1-64 letters, digits, '-' or '_' (no dots or wildcards) */
    static String roomSubject(String room) {
        if (!room.matches("[A-Za-z0-9_-]{1,64}")) {
            throw Problem.of(422, "Unprocessable Content", "a room name is 1-64 letters, digits, '-' or '_'").toException();
        }
        return "room." + room;
    }

    /** @return the rooms' topic: created by the first demo app in this process, shared by later ones */
    @SuppressWarnings("unchecked")
    static Topic<String> roomsTopic() {
        synchronized (Demo.class) {
            return (Topic<String>) Topic.find(ROOMS_TOPIC)
                    .orElseGet(() -> Topic.<String>builder(ROOMS_TOPIC).replay(256, Duration.ofMinutes(5)).build());
        }
    }

    /** Spins for about {@code micros} microseconds of CPU; @return the microseconds spent */
    static long burn(long micros) {
        long end = System.nanoTime() + micros * 1_000;
        long x = 0;
        while (System.nanoTime() < end) x++;
        return micros + (x & 0); // keeps the loop from being optimised away
    }

    static String describe(List<Route> routes) {
        StringBuilder b = new StringBuilder();
        for (Route r : routes) b.append("  ").append(r.method()).append(' ').append(r.pattern()).append('\n');
        return b.toString();
    }

    /**
     * Runs the demo until SIGTERM or SIGINT.
     *
     * @param args a command: serve (the default), routes, openapi, settings, apikey, --help, or
     *     {@code token NAME [SCOPE ...]} (prints a development bearer token the demo accepts when no
     *     {@code TIDEMILL_AUTH_*} setting names another issuer); {@code --tls} anywhere also serves
     *     HTTPS on port 8443 with a self-signed development certificate (unless
     *     {@code TIDEMILL_TLS_CERT} names a real one); {@code --idp} also starts a local OpenID Connect
     *     provider (npm's oidc-provider, {@link LocalProvider}) and signs in through it; settings come
     *     from TIDEMILL_* variables
     */
    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("token")) {
            if (args.length < 2) {
                System.err.println("tidemill: token needs a name: token NAME [SCOPE ...]");
                System.exit(2);
            }
            System.out.println(DemoIdentity.devToken(args[1], List.of(args).subList(2, args.length)));
            return;
        }
        boolean tls = java.util.Arrays.asList(args).contains("--tls");
        boolean idp = java.util.Arrays.asList(args).contains("--idp");
        args = java.util.Arrays.stream(args).filter(a -> !a.equals("--tls") && !a.equals("--idp")).toArray(String[]::new);
        Config config;
        try {
            config = Config.fromEnvironment();
            if (tls && !config.tls().enabled()) config = config.toBuilder().tls(t -> t.selfSigned(true)).build();
        } catch (IllegalArgumentException e) {
            System.err.println("tidemill: " + e.getMessage());
            System.exit(2);
            return;
        }
        LocalProvider provider = null;
        if (idp) {
            try {
                String host = config.host().equals("0.0.0.0") || config.host().equals("::") ? "127.0.0.1" : config.host();
                provider = LocalProvider.start("http://" + host + ":" + config.port(), 3600);
            } catch (java.io.IOException e) {
                System.err.println("tidemill: demo --idp: " + e.getMessage());
                System.exit(1);
                return;
            } catch (InterruptedException e) {
                return;
            }
            LocalProvider started = provider;
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "tidemill-idp-stop"));
        }
        DemoIdentity.Setup identity = DemoIdentity.setup(config);
        Auth auth = provider != null ? identity.auth().withLogin(provider.login()) : identity.auth();
        try {
            Optional<DemoCluster> cluster = DemoCluster.get();
            if (cluster.isPresent()) auth = cluster.get().share(auth); // sessions in Redis, good on every node
        } catch (RuntimeException e) {
            System.err.println("tidemill: " + e.getMessage());
            System.exit(1);
            return;
        }
        Tidemill app = create(config.toBuilder().auth(auth).build());
        LocalProvider shown = provider;
        app.run(args, server -> System.out.println(banner(app, server, identity)
                + (shown == null ? "" : "Sign in through the local OpenID Connect provider at " + shown.issuer()
                        + " (development: any name, any password):\n  http://" + server.host() + ":" + server.port() + "/board\n")));
    }

    static String banner(Tidemill app, Server server) {
        return banner(app, server, null);
    }

    static String banner(Tidemill app, Server server, DemoIdentity.Setup identity) {
        String base = "http://" + server.host() + ":" + server.port();
        StringBuilder b = new StringBuilder("\nTidemill demo on ").append(base).append('\n');
        server.tlsPort().ifPresent(p -> b.append("Tidemill demo on https://").append(server.host()).append(':').append(p)
                .append(" (h2 and HTTP/1.1 over TLS, by ALPN; the certificate's SHA-256 fingerprint is below)\n"));
        for (String line : server.startupReport()) b.append("  ").append(line).append('\n');
        b.append("Routes:\n");
        for (Route r : app.routes()) {
            b.append("  ").append(String.format("%-6s %-14s %s", r.method(), r.pattern(),
                    r.mode().map(m -> "mode " + m).orElse("mode " + app.config().executionMode() + " (default)"))).append('\n');
        }
        b.append("Live page (open it in two browser tabs; what one posts, the other shows at once):\n");
        b.append("  ").append(base).append("/board\n");
        b.append("OpenAPI 3.1 document and Swagger UI:\n");
        b.append("  ").append(base).append("/openapi.json\n  ").append(base).append("/docs\n");
        b.append("Try:\n");
        for (String path : List.of("/hello", "/json", "/items/42?verbose=yes&tag=a&tag=b", "/items/abc",
                "/search?q=tide&limit=3&since=2026-11-01", "/work?us=500", "/sleep?ms=100", "/async?ms=50", "/stream?n=3")) {
            b.append("  curl -i '").append(base).append(path).append("'\n");
        }
        b.append("  curl -i -H 'Content-Type: application/json' -d '{\"name\":\"Ada\",\"age\":36}' ").append(base).append("/users\n");
        b.append("Server-Sent Events (-N: print each event as it arrives):\n");
        b.append("  curl -N '").append(base).append("/sse/ticks?n=5&ms=500'\n");
        b.append("  curl -N ").append(base).append("/rooms/lobby/events          # in one terminal: the room, live\n");
        b.append("  curl -H 'Content-Type: application/json' -d '{\"text\":\"hi\"}' ").append(base)
                .append("/rooms/lobby/messages   # in another\n");
        b.append("  curl -N -H 'Last-Event-ID: 1' ").append(base).append("/rooms/lobby/events   # resume after event 1\n");
        String ws = base.replaceFirst("^http", "ws");
        b.append("WebSocket (websocat, wscat, or new WebSocket(...) in a browser's console):\n");
        b.append("  websocat ").append(ws).append("/ws/echo                   # echoes text and binary\n");
        b.append("  websocat ").append(ws).append("/rooms/lobby/ws            # the same room; send {\"text\": \"hi\"}\n");
        b.append("CORS (/api allows ").append(CORS_ORIGIN).append(") and a rate limit (/limited: 5 per second per client):\n");
        b.append("  curl -i -X OPTIONS -H 'Origin: ").append(CORS_ORIGIN)
                .append("' -H 'Access-Control-Request-Method: POST' ").append(base).append("/api/hello\n");
        b.append("  for i in 1 2 3 4 5 6; do curl -s -o /dev/null -w '%{http_code} ' ").append(base).append("/limited; done\n");
        b.append("Uploads (streamed, up to 256 MiB; larger: 413, chunked too):\n");
        b.append("  head -c 100000000 /dev/urandom > big.bin\n");
        b.append("  curl -T big.bin ").append(base).append("/files/big.bin                         # size and SHA-256\n");
        b.append("  head -c 300000000 /dev/zero | curl -T - ").append(base).append("/files/too-big.bin   # chunked: 413\n");
        b.append("  curl -F title=Holiday -F file=@big.bin ").append(base).append("/upload   # multipart; or open ")
                .append(base).append("/upload in a browser\n");
        b.append("Jobs on a consumer group (docs/cluster.md; with TIDEMILL_REDIS_URL, on every node):\n");
        b.append("  curl -i -H 'Content-Type: application/json' -d '{\"id\":\"job-1\"}' ").append(base).append("/jobs   # 202; again: 200\n");
        b.append("  curl -i ").append(base).append("/jobs/job-1   # pending, then done: the node and the deliveries\n");
        if (identity != null) {
            b.append("Who is calling (docs/auth.md): /me for any caller, /admin for scope admin:\n");
            b.append("  curl -i ").append(base).append("/me                                  # 401: no credentials\n");
            if (identity.devTokens()) {
                b.append("  curl -i -H \"Authorization: Bearer $(./tidemill demo token ada admin)\" ").append(base)
                        .append("/admin   # a development token\n");
                b.append("  curl -i -H \"Authorization: Bearer $(./tidemill demo token bob)\" ").append(base)
                        .append("/admin         # 403: no scope admin\n");
            } else {
                b.append("  curl -i -H \"Authorization: Bearer $TOKEN\" ").append(base).append("/me   # a token from ")
                        .append(app.config().auth().bearerTokens().flatMap(t -> t.issuer()).orElse("the configured issuer")).append('\n');
            }
            identity.devApiKey().ifPresent(key -> b.append("  curl -i -H 'Authorization: ApiKey ").append(key).append("' ")
                    .append(base).append("/me   # development API key, new each start\n"));
            if (app.config().auth().sessions().isPresent() && app.config().auth().login().isEmpty()) {
                b.append("  curl -c jar.txt -d name=ada ").append(base).append("/login   # development sign-in: its session cookie in jar.txt\n");
                b.append("  curl -i -b jar.txt -H 'Sec-Fetch-Site: cross-site' -H 'Content-Type: application/json' -d '{\"draft\":\"hi\"}' ")
                        .append(base).append("/board/notes   # 403: a cross-site POST with the session's cookie (CSRF)\n");
            }
        }
        DemoMcp.banner(b, base);
        b.append("Operations (docs/operations.md):\n");
        b.append("  curl -i ").append(base).append("/livez      # 503 naming a stuck worker or I/O loop\n");
        b.append("  curl -i ").append(base).append("/readyz     # readiness checks; 503 while stopping\n");
        b.append("  curl ").append(base).append("/metrics      # Prometheus text format\n");
        b.append("HTTP/2 in cleartext (h2c, prior knowledge) on the same port (docs/http2.md):\n");
        b.append("  curl -i --http2-prior-knowledge ").append(base).append("/hello\n");
        b.append("  h2load -n 10000 -c 4 -m 32 ").append(base).append("/hello   # 4 connections x 32 streams\n");
        server.tlsPort().ifPresent(p -> {
            String https = "https://" + server.host() + ":" + p;
            b.append("HTTPS, h2 and HTTP/1.1 (self-signed: -k, or compare the fingerprint above with the one curl -v shows):\n");
            b.append("  curl -ik --http2 ").append(https).append("/hello\n");
            b.append("  curl -ik --http1.1 ").append(https).append("/hello\n");
            b.append("  curl -k -v --http2 ").append(https).append("/json 2>&1 | grep -E 'SSL connection|ALPN'\n");
            b.append("  h2load -n 10000 -c 4 -m 32 ").append(https).append("/hello   # h2 over TLS\n");
        });
        b.append("Stop with Ctrl-C (SIGINT) or SIGTERM.\n");
        return b.toString();
    }
}
