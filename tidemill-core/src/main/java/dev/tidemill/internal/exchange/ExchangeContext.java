package dev.tidemill.internal.exchange;

import dev.tidemill.Config;
import dev.tidemill.Cors;
import dev.tidemill.RateLimit;
import dev.tidemill.Route;
import dev.tidemill.RouteGroup;
import dev.tidemill.internal.proxy.ClientAddresses;
import dev.tidemill.internal.ratelimit.Limiter;
import java.util.IdentityHashMap;
import java.util.List;
import dev.tidemill.internal.codec.BodyBinder;
import dev.tidemill.internal.dispatch.LoopGroup;
import dev.tidemill.internal.routing.Router;
import io.netty.buffer.ByteBufAllocator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What every exchange of one server shares, whatever protocol carries it: the configuration, the
 * gate (routing and checks), the dispatcher (concurrency limit, worker loops, invoker), the reply
 * builder and the body binder. Built once at start; transports receive it and hand it to each
 * {@link Exchange} they open.
 */
public final class ExchangeContext {
    private final java.util.concurrent.atomic.LongAdder bodyBytesHeld = new java.util.concurrent.atomic.LongAdder();
    private final Config config;
    private final RouteGate gate;
    /** Every route resolved, in registration order. */
    private final List<Endpoint> endpoints;
    /** Who is calling, for routes with a requirement; fetches token keys in the background. */
    private final dev.tidemill.internal.auth.Authenticator authenticator;
    private final Dispatcher dispatcher;
    private final Replies replies;
    private final BodyBinder binder;
    private final List<Limiter> limiters;
    /** The app's CORS policy, for answers to requests no route took; null if none. */
    private final Cors appCors;
    private final ClientAddresses clients;
    private final ServerObserver observer;
    private final RouteObserver unmatched;
    private final boolean timed;
    private volatile boolean draining;
    /** Open event streams and WebSocket connections: a graceful stop ends them (they never end by themselves). */
    private final Set<OpenStream> streams = ConcurrentHashMap.newKeySet();
    /** One batcher per event loop: the replies of all its connections, HTTP/1.1 and HTTP/2, share one drain task. */
    private final Map<io.netty.channel.EventLoop, dev.tidemill.internal.dispatch.ResponseBatcher> batchers = new ConcurrentHashMap<>();

    /**
     * @param app the app, frozen
     * @param alloc the buffer allocator replies are encoded with
     * @param webSocket the WebSocket handshake, for answers that switch to it
     */
    public ExchangeContext(AppSnapshot app, ByteBufAllocator alloc, ProtocolSwitch webSocket) {
        this.config = app.config();
        this.observer = app.observer();
        this.unmatched = observer.unmatched();
        this.timed = observer.timed();
        Map<RateLimit, Limiter> limiters = new IdentityHashMap<>(); // one object, one budget
        List<Endpoint> endpoints = new java.util.ArrayList<>(app.routes().size());
        Map<Route, Endpoint> byRoute = new IdentityHashMap<>(app.routes().size());
        for (Route r : app.routes()) {
            Endpoint e = Endpoint.resolve(r, app.filters(), config, app.cors(), app.rateLimit(), app.requirement(),
                    l -> limiters.computeIfAbsent(l, k -> new Limiter(k, System::nanoTime)), observer);
            endpoints.add(e);
            byRoute.put(r, e);
        }
        Router<Endpoint> router;
        if (app.table() != null) {
            router = app.table().map(byRoute::get);
        } else {
            router = new Router<>();
            for (Route r : app.routes()) router.add(r.method(), r.pattern(), byRoute.get(r));
        }
        this.endpoints = List.copyOf(endpoints);
        this.limiters = List.copyOf(limiters.values());
        this.appCors = app.cors().enabled() ? app.cors() : null;
        boolean anyCors = appCors != null;
        for (Route r : app.routes()) anyCors |= r.cors().or(() -> r.group().flatMap(RouteGroup::cors)).isPresent();
        this.clients = new ClientAddresses(config.trustedProxies());
        this.authenticator = new dev.tidemill.internal.auth.Authenticator(config.auth(), loopback(config.host()), app.login());
        this.gate = new RouteGate(router, config.limits(), anyCors, appCors, authenticator);
        authenticator.start();
        this.replies = new Replies(app.json(), alloc, config.compression(), webSocket);
        int loops = config.effectiveWorkerLoops();
        int perLoop = config.limits().concurrencyPerLoop();
        this.dispatcher = new Dispatcher(new LoopGroup(loops, perLoop, config.assignment()),
                Math.multiplyExact(loops, perLoop), new Invoker(replies, app.mappers(), config.debug()), observer);
        this.binder = new BodyBinder(app.json(), config.limits().maxQueryPairs());
    }

    /** @return whether {@code host} names only loopback addresses (then browsers treat plain HTTP to it as secure) */
    private static boolean loopback(String host) {
        try {
            for (java.net.InetAddress a : java.net.InetAddress.getAllByName(host)) if (!a.isLoopbackAddress()) return false;
            return true;
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    /** @return authentication's outcomes, counted for the metrics */
    public dev.tidemill.internal.auth.AuthOutcomes authOutcomes() {
        return authenticator.outcomes();
    }

    /** @return what the startup report says of authentication (sessions signed with a development key, say) */
    public List<String> authReport() {
        return authenticator.report();
    }

    /** @return the configuration */
    public Config config() {
        return config;
    }

    /** @return routing and the checks that need no handler */
    public RouteGate gate() {
        return gate;
    }

    /**
     * Admits and dispatches a complete, routed exchange (the "dispatch" stage); on the transport's
     * thread.
     *
     * @param ex the exchange, its body read
     */
    public void dispatch(Exchange ex) {
        dispatcher.dispatch(ex);
    }

    /**
     * @param loop an event loop
     * @return the batcher that hands replies from other threads to that loop (made on first use)
     */
    public dev.tidemill.internal.dispatch.ResponseBatcher batcher(io.netty.channel.EventLoop loop) {
        return batchers.computeIfAbsent(loop, dev.tidemill.internal.dispatch.ResponseBatcher::new);
    }

    /** @return reply drain tasks run so far, over every event loop */
    public long replyDrains() {
        long n = 0;
        for (dev.tidemill.internal.dispatch.ResponseBatcher b : batchers.values()) n += b.drains();
        return n;
    }

    /** @return whether a graceful stop has begun: new requests get {@code Connection: close} */
    public boolean draining() {
        return draining;
    }

    /** @return every route's mode now, in registration order */
    public List<dev.tidemill.RouteMode> routeModes() {
        List<dev.tidemill.RouteMode> out = new java.util.ArrayList<>(endpoints.size());
        for (Endpoint e : endpoints) {
            AutoMode a = e.auto();
            out.add(a == null
                    ? new dev.tidemill.RouteMode(e.route().method(), e.route().pattern(), e.mode(), e.mode(), "explicit", 0)
                    : new dev.tidemill.RouteMode(e.route().method(), e.route().pattern(), e.mode(), a.current(), a.why(), a.moves()));
        }
        return out;
    }

    /** @return the routes in {@link dev.tidemill.ExecutionMode#AUTO}: their state, by "METHOD pattern", in registration order */
    public Map<String, AutoMode> autoModes() {
        Map<String, AutoMode> out = new LinkedHashMap<>();
        for (Endpoint e : endpoints) if (e.auto() != null) out.put(e.route().method() + " " + e.route().pattern(), e.auto());
        return out;
    }

    /** Marks the start of a graceful stop; open event streams get a final event and end. */
    public void startDraining() {
        draining = true;
        for (OpenStream s : streams) s.serverStopping();
    }

    /** @param s a stream that opened; it is ended at once if a stop has begun */
    public void streamOpened(OpenStream s) {
        streams.add(s);
        if (draining) s.serverStopping();
    }

    /** @param s a stream that ended */
    public void streamEnded(OpenStream s) {
        streams.remove(s);
    }

    /** @return the app's JSON codec (WebSocket messages are encoded and bound with it too) */
    public dev.tidemill.JsonCodec json() {
        return replies.json();
    }

    /** @return the binder that binds and validates JSON bodies */
    public BodyBinder bodyBinder() {
        return binder;
    }

    /**
     * @param task a consumer's call ({@code Tidemill.consume}, LOOP mode)
     * @return false when every worker loop is full; else it runs on one, with a reserved slot
     */
    public boolean runOnWorkerLoop(Runnable task) {
        return dispatcher.runOnLoop(task);
    }

    /** @return worker loops running */
    public int workerLoops() {
        return dispatcher.loops().size();
    }

    /**
     * @return counters for diagnostics and tests: {@code requests.in_flight} (concurrency slots
     *     held), {@code worker.wakeups}, {@code worker.loops_running} (loop threads alive),
     *     {@code server.draining} (1 once a stop began) and {@code loop.<i>.load} (queued + in
     *     flight) per worker loop
     */
    /** @return the bytes every streamed body of this server holds between transport and reader, as they change */
    public java.util.concurrent.atomic.LongAdder bodyBytesHeld() {
        return bodyBytesHeld;
    }

    public Map<String, Long> diagnostics() {
        Map<String, Long> out = new LinkedHashMap<>();
        out.put("requests.in_flight", (long) dispatcher.limit().inFlight());
        out.put("bodies.held_bytes", bodyBytesHeld.sum());
        LoopGroup loops = dispatcher.loops();
        out.put("worker.wakeups", loops.wakeups());
        out.put("worker.loops_running", (long) loops.running());
        out.put("server.draining", draining ? 1L : 0L);
        for (int i = 0; i < loops.size(); i++) out.put("loop." + i + ".load", (long) loops.loops().get(i).load());
        out.put("ratelimit.failed_open", RateLimits.FAILED_OPEN.sum());
        for (Limiter l : limiters) {
            out.put("ratelimit." + l.limit().name() + ".keys", (long) l.keys());
            out.put("ratelimit." + l.limit().name() + ".overflowed", l.overflowed());
        }
        return out;
    }

    /** @return the app's CORS policy (for answers no route's policy covers), or null */
    Cors appCors() {
        return appCors;
    }

    /** @return who the client is, given the peer and the forwarding headers */
    ClientAddresses clients() {
        return clients;
    }

    /** @return who watches this server's exchanges */
    public ServerObserver observer() {
        return observer;
    }

    /** @return the worker loops */
    public LoopGroup loops() {
        return dispatcher.loops();
    }

    RouteObserver unmatchedObserver() {
        return unmatched;
    }

    boolean timed() {
        return timed;
    }

    Dispatcher dispatcher() {
        return dispatcher;
    }

    Replies replies() {
        return replies;
    }

    Invoker invoker() {
        return dispatcher.invoker();
    }

    BodyBinder binder() {
        return binder;
    }

    /** Stops the worker loops and the virtual-thread executor (after connections are closed). */
    public void close() {
        authenticator.close();
        dispatcher.close();
    }
}
