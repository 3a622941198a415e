package dev.tidemill;

import dev.tidemill.internal.codec.BodyBinder;
import dev.tidemill.internal.codec.JacksonCodec;
import dev.tidemill.internal.ops.Operational;
import dev.tidemill.internal.routing.Router;
import dev.tidemill.internal.exchange.AppSnapshot;
import dev.tidemill.internal.server.HttpServer;
import dev.tidemill.internal.server.SignalShutdown;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A Tidemill application: routes, filters, exception mappers, JSON codec and configuration.
 *
 * <pre>{@code
 * public static void main(String[] args) {
 *     Tidemill app = Tidemill.create(Config.fromEnvironment());
 *     app.get("/hello", req -> "Hello, World!");
 *     app.get("/items/{id}", req -> new Item(req.param(ID))).params(ID);
 *     app.run();
 * }
 * }</pre>
 */
public final class Tidemill implements Routes {
    private final Config config;
    private final List<Route> routes = new ArrayList<>();
    private final Router<Route> shapes = new Router<>();
    private final List<Filter> filters = new ArrayList<>();
    private final Map<Class<? extends Throwable>, ExceptionMapper<?>> mappers = new LinkedHashMap<>();
    private final Map<String, ReadinessCheck> readiness = new LinkedHashMap<>();
    private final List<ConsumerRoute<?>> consumers = new ArrayList<>();
    private JsonCodec json;
    private OpenApiRoutes openApi;
    private McpRoutes mcp;
    private final Controllers controllers = new Controllers();
    private Cors cors = Cors.none();
    private RateLimit rateLimit;
    private Requirement requirement;
    private volatile boolean started;

    private Tidemill(Config config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    /** @return an app on {@link Config#defaults()} */
    public static Tidemill create() {
        return new Tidemill(Config.defaults());
    }

    /** @param config configuration @return an app on that configuration */
    public static Tidemill create(Config config) {
        return new Tidemill(config);
    }

    /** @return the configuration */
    public Config config() {
        return config;
    }

    @Override
    public Route route(String method, String pattern, Handler handler) {
        return register(method, pattern, handler, null);
    }

    @Override
    public RouteGroup group(String prefix) {
        return new RouteGroup(this, null, checkPrefix(prefix));
    }

    @Override
    public Tidemill filter(Filter filter) {
        checkNotStarted();
        filters.add(Objects.requireNonNull(filter, "filter"));
        return this;
    }

    /**
     * Maps an exception type to a response. The most specific registered type wins.
     *
     * @param type exception type
     * @param mapper builds the response value
     * @param <E> exception type
     * @return this
     */
    public <E extends Throwable> Tidemill exception(Class<E> type, ExceptionMapper<? super E> mapper) {
        checkNotStarted();
        mappers.put(Objects.requireNonNull(type, "type"), Objects.requireNonNull(mapper, "mapper"));
        return this;
    }

    /** @param codec replaces the default Jackson 3 codec @return this */
    public Tidemill json(JsonCodec codec) {
        checkNotStarted();
        json = Objects.requireNonNull(codec, "codec");
        return this;
    }

    /**
     * @param policy the app's CORS policy: routes and groups without their own use it, and so do
     *     the server's own answers to requests no route took (404, 405, 501)
     * @return this
     */
    public Tidemill cors(Cors policy) {
        checkNotStarted();
        cors = Objects.requireNonNull(policy, "cors");
        return this;
    }

    /** @param limit the app's rate limit, for routes and groups without their own @return this */
    public Tidemill rateLimit(RateLimit limit) {
        checkNotStarted();
        rateLimit = Objects.requireNonNull(limit, "rateLimit");
        return this;
    }

    /** @param who who may call the routes and groups that do not say otherwise @return this */
    public Tidemill requires(Requirement who) {
        checkNotStarted();
        requirement = Objects.requireNonNull(who, "requires");
        return this;
    }

    /**
     * Serves this app's OpenAPI 3.1 document and Swagger UI, as {@code settings} say (by default
     * {@code /openapi.json} and {@code /docs}). The document is built at {@link #start()} from every
     * route registered by then; two operations with one operationId make {@code start} throw. The
     * UI needs {@code org.webjars:swagger-ui} on the class path. See docs/openapi.md.
     *
     * @param settings title, version, paths
     * @return this
     * @throws IllegalStateException if called twice, or the UI is on and its jar is missing
     */
    public Tidemill openApi(OpenApi settings) {
        checkNotStarted();
        Objects.requireNonNull(settings, "settings");
        if (openApi != null) throw new IllegalStateException("openApi(...) was already called on this app");
        openApi = OpenApiRoutes.register(this, settings);
        return this;
    }

    /**
     * Serves the Model Context Protocol at {@code /mcp} with {@link Mcp#DEFAULTS}: the routes marked
     * with {@link Route#tool} become tools. See docs/mcp.md.
     *
     * @return this
     */
    public Tidemill mcp() {
        return mcp(Mcp.DEFAULTS);
    }

    /**
     * Serves the Model Context Protocol as {@code settings} say. Session-era sessions live in the
     * app's session store ({@link Auth#sessions}; Redis when shared), else in one of the endpoint's own
     * in memory, bounded by {@link Mcp#maxSessions()}.
     *
     * @param settings path, server name, session bounds
     * @return this
     * @throws IllegalStateException if called twice, or bearer tokens are taken without an audience
     *     ({@link BearerTokens#audience()}: an MCP server takes only tokens issued for it, RFC 8707)
     */
    public Tidemill mcp(Mcp settings) {
        checkNotStarted();
        Objects.requireNonNull(settings, "settings");
        if (mcp != null) throw new IllegalStateException("mcp(...) was already called on this app");
        if (config.auth().bearerTokens().filter(t -> t.audience().isEmpty()).isPresent()) {
            // 2025-11-25 basic/authorization "Token Audience Binding and Validation" (RFC 8707)
            throw new IllegalStateException("the MCP endpoint takes only tokens issued for it: set BearerTokens.audience "
                    + "(TIDEMILL_AUTH_AUDIENCE), e.g. to the endpoint's URL");
        }
        SessionStore store = config.auth().sessions().map(Sessions::store).orElseGet(() -> SessionStore.inMemory(settings.maxSessions()));
        mcp = McpRoutes.register(this, settings, store);
        return this;
    }

    /**
     * Registers the routes of controllers: objects of {@code @Controller} classes
     * ({@link dev.tidemill.controller}) that the application constructed, with any injector or none.
     * Their routes were generated at compile time by {@code tidemill-processor}; nothing is scanned
     * or reflected on. At start, every other controller of a module that gave one must have been
     * given too. See docs/controllers.md.
     *
     * @param given the controllers, each of a different class
     * @return this
     * @throws IllegalArgumentException for an object of a class no {@link ControllerIndex} knows,
     *     naming what the build lacks
     */
    public Tidemill controllers(Object... given) {
        checkNotStarted();
        controllers.register(this, given);
        return this;
    }

    /** @return the OpenAPI document as {@code openapi} prints it: the app's settings, else {@link OpenApi#DEFAULTS} */
    byte[] openApiDocument() {
        return OpenApiRoutes.document(openApi == null ? OpenApi.DEFAULTS : openApi.settings(), routes, requirement, config.auth());
    }

    /**
     * Runs the command line of an app's {@code main}: {@code serve} (the default: {@link #run()}),
     * {@code routes}, {@code openapi} (the document on stdout, no server started), {@code settings}
     * (every {@code TIDEMILL_*} variable, its default and whether it is set, never its value) and
     * {@code --help}. A bad argument prints one line on stderr and exits with status 2. See docs/cli.md.
     *
     * @param args the arguments of {@code main}
     */
    public void run(String[] args) {
        run(args, server -> { });
    }

    /**
     * Like {@link #run(String[])}, calling {@code started} once {@code serve} listens.
     *
     * @param args the arguments of {@code main}
     * @param started called with the running server, on the calling thread
     */
    public void run(String[] args, java.util.function.Consumer<Server> started) {
        int status = AppCommand.execute(this, args, System.out, System.err, started);
        if (status != 0) System.exit(status);
    }

    /**
     * Registers a readiness check that {@code /readyz} runs ({@link Operations#readinessPath()}):
     * the server is ready when every check is healthy within {@link Operations#readinessTimeout()}
     * and it is not stopping.
     *
     * @param name shown in the {@code /readyz} body, unique in the app
     * @param check the check
     * @return this
     */
    public Tidemill readiness(String name, ReadinessCheck check) {
        checkNotStarted();
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(check, "check");
        if (readiness.putIfAbsent(name, check) != null) throw new IllegalArgumentException("readiness check " + name + " registered twice");
        return this;
    }

    /**
     * Declares a consumer of a consumer group, started and stopped with the server (see {@link ConsumerRoute}).
     *
     * @param topic the topic
     * @param group the group and this consumer's settings
     * @param worker called once per delivery, in the consumer's mode
     * @param <T> the message type
     * @return the declaration, for its {@link ConsumerRoute#mode mode}
     */
    public <T> ConsumerRoute<T> consume(Topic<T> topic, ConsumerGroup group, Topic.Worker<T> worker) {
        checkNotStarted();
        ConsumerRoute<T> c = new ConsumerRoute<>(topic, group, worker);
        consumers.add(c);
        return c;
    }

    /** @return every registered route, in registration order */
    public List<Route> routes() {
        return Collections.unmodifiableList(routes);
    }

    /**
     * Binds and starts serving. Configuration problems (a bad route, an unavailable transport that
     * was explicitly asked for, a port in use) throw here.
     *
     * @return the running server
     */
    public Server start() {
        Operational ops;
        dev.tidemill.internal.auth.OidcFlow login;
        synchronized (this) {
            if (started) throw new IllegalStateException("this app was already started");
            Map<String, ReadinessCheck> checks = new LinkedHashMap<>(readiness);
            // Topics shared through an outside store (Redis) make the app unready while it is gone; nothing is checked in process.
            if (!checks.containsKey("topics") && config.operations().health()) {
                TopicBackends.backend().readiness().ifPresent(check -> checks.put("topics", check));
            }
            ops = Operational.create(config, checks);
            operationalRoutes(ops);
            login = LoginRoutes.register(this, config);
            started = true;
        }
        controllers.checkComplete();
        if (openApi != null) openApi.build(routes, requirement, config.auth()); // before binding: a duplicate operationId fails the start
        if (mcp != null) mcp.build(routes, requirement); // a duplicate tool, or one without an auth decision, fails the start
        for (Route r : routes) {
            r.body().ifPresent(type -> BodyBinder.requireValidator(type, "is the body of " + r.method() + " " + r.pattern()));
        }
        JsonCodec codec = json != null ? json : new JacksonCodec(config.limits());
        return HttpServer.start(new AppSnapshot(config, List.copyOf(routes), List.copyOf(filters), Map.copyOf(mappers), codec,
                cors, rateLimit, requirement, ops, login, List.copyOf(consumers), shapes));
    }

    /**
     * Serves the app without a socket, for fast tests of handlers: every
     * {@link InMemoryServer#connect()} gets the HTTP/1.1 pipeline a socket connection gets, on an
     * in-memory channel, and handlers run in their execution modes. Like {@link #start()}, once per
     * app.
     *
     * @return the app, served in memory; close it to stop its worker loops
     */
    public InMemoryServer inMemory() {
        dev.tidemill.internal.auth.OidcFlow login;
        synchronized (this) {
            if (started) throw new IllegalStateException("this app was already started");
            login = LoginRoutes.register(this, config);
            started = true;
        }
        controllers.checkComplete();
        JsonCodec codec = json != null ? json : new JacksonCodec(config.limits());
        return dev.tidemill.internal.inmemory.InMemoryHost.start(
                new AppSnapshot(config, List.copyOf(routes), List.copyOf(filters), Map.copyOf(mappers), codec,
                cors, rateLimit, requirement, dev.tidemill.internal.exchange.ServerObserver.NONE, login, List.of(), shapes));
    }

    /**
     * {@code /livez}, {@code /readyz} and {@code /metrics} as {@link Route#operational operational}
     * routes, where {@link Operations} puts them. Liveness runs on the I/O thread (it must answer
     * when every worker loop is stuck) and readiness there too (it only awaits its checks, which
     * run on virtual threads); a scrape formats every meter, so it runs on a virtual thread.
     */
    private void operationalRoutes(Operational ops) {
        Operations o = config.operations();
        if (o.health()) {
            operational(o.livenessPath(), ops.liveness(), ExecutionMode.IO);
            operational(o.readinessPath(), ops.readiness(), ExecutionMode.IO);
        }
        if (o.metrics()) operational(o.metricsPath(), ops.metrics(), ExecutionMode.VIRTUAL);
    }

    private void operational(String path, Handler handler, ExecutionMode mode) {
        try {
            register("GET", path, handler, null).operational(true).mode(mode);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + "; the operational endpoint at " + path
                    + " can be moved or turned off with Config.builder().operations(...)", e);
        }
    }

    /**
     * Starts, then blocks until SIGTERM or SIGINT, then stops gracefully within
     * {@link Timeouts#shutdownGrace()}; a second signal cuts the grace short. Returns after the stop,
     * so {@code main} can simply end (exit status 0).
     */
    public void run() {
        run(server -> { });
    }

    /**
     * Like {@link #run()}, calling {@code started} once the server listens (to print a banner, say).
     *
     * @param started called with the running server, on the calling thread
     */
    public void run(java.util.function.Consumer<Server> started) {
        SignalShutdown signals = SignalShutdown.install();
        Server server = start();
        started.accept(server);
        signals.awaitAndStop(server, config.timeouts().shutdownGrace());
    }

    Route register(String method, String pattern, Handler handler, RouteGroup group) {
        checkNotStarted();
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(pattern, "pattern");
        String m = method.toUpperCase(java.util.Locale.ROOT);
        if (m.isEmpty() || !Param.isToken(m)) throw new IllegalArgumentException("method must be a token: " + method);
        if ("HEAD".equals(m)) {
            throw new IllegalArgumentException("HEAD is answered wherever GET is; register GET " + pattern);
        }
        Route route = new Route(this, m, pattern, handler, group);
        shapes.add(m, pattern, route); // throws, naming both routes, when the shape is taken
        routes.add(route);
        return route;
    }

    static String checkPrefix(String prefix) {
        Objects.requireNonNull(prefix, "prefix");
        if (!prefix.startsWith("/") || prefix.endsWith("/")) {
            throw new IllegalArgumentException("group prefix must start with '/' and not end with one: " + prefix);
        }
        return prefix;
    }

    void checkNotStarted() {
        if (started) throw new IllegalStateException("routes and settings are fixed once the app has started");
    }
}
