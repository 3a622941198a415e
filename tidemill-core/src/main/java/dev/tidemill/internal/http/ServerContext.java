package dev.tidemill.internal.http;

import dev.tidemill.Config;
import dev.tidemill.ExecutionMode;
import dev.tidemill.Problem;
import dev.tidemill.Route;
import dev.tidemill.internal.codec.BodyBinder;
import dev.tidemill.internal.dispatch.LoopGroup;
import dev.tidemill.internal.dispatch.ResponseBatcher;
import dev.tidemill.internal.dispatch.WorkerLoop;
import dev.tidemill.internal.routing.Router;
import dev.tidemill.internal.server.AppSnapshot;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Everything connections share: the router, the worker loops, the admission limit, the reply
 * builder, the per-event-loop response batchers and the set of open connections. Built once at
 * start; its {@link #dispatch} is the "dispatch" stage of the request path.
 */
public final class ServerContext {
    final Config config;
    final Router<Endpoint> router = new Router<>();
    final LoopGroup loops;
    final Admission admission;
    final Replies replies;
    final Invoker invoker;
    private final BodyBinder binder;
    private final ExecutorService virtualThreads;
    private final Map<EventLoop, ResponseBatcher> batchers = new IdentityHashMap<>();
    final ChannelGroup connections = new DefaultChannelGroup("tidemill-connections", GlobalEventExecutor.INSTANCE);
    /** Set when a graceful stop begins. */
    public volatile boolean draining;

    /**
     * @param app the app
     * @param ioGroup the event loops connections run on
     */
    public ServerContext(AppSnapshot app, EventLoopGroup ioGroup) {
        this.config = app.config();
        for (Route r : app.routes()) router.add(r.method(), r.pattern(), Endpoint.resolve(r, app.filters(), config));
        int loopCount = config.effectiveWorkerLoops();
        this.loops = new LoopGroup(loopCount, config.limits().concurrencyPerLoop(), config.assignment());
        this.admission = new Admission(Math.multiplyExact(loopCount, config.limits().concurrencyPerLoop()));
        this.replies = new Replies(app.json(), config.serverHeader(), PooledByteBufAllocator.DEFAULT);
        this.invoker = new Invoker(replies, app.mappers(), config.debug());
        this.binder = new BodyBinder(app.json());
        this.virtualThreads = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("tidemill-virtual-", 0).factory());
        for (EventExecutor e : ioGroup) batchers.put((EventLoop) e, new ResponseBatcher((EventLoop) e));
    }

    BodyBinder binder() {
        return binder;
    }

    ResponseBatcher batcher(EventLoop loop) {
        return batchers.get(loop);
    }

    /** @return the worker loops, for diagnostics and tests */
    public LoopGroup loops() {
        return loops;
    }

    /** @return reply drain tasks run so far, summed over every event loop's {@link ResponseBatcher#drains()} */
    public long replyDrains() {
        long total = 0;
        for (ResponseBatcher b : batchers.values()) total += b.drains();
        return total;
    }

    /** @return requests admitted in IO and VIRTUAL modes and not yet finished */
    public int admittedOutsideLoops() {
        return admission.inFlight();
    }

    /** @return the open connections, at this moment */
    public java.util.List<io.netty.channel.Channel> connectionsSnapshot() {
        return new java.util.ArrayList<>(connections);
    }

    /** Closes every open connection and waits for them to close. */
    public void closeConnections() {
        connections.close().awaitUninterruptibly(5, java.util.concurrent.TimeUnit.SECONDS);
    }

    /** @return open connections */
    public int openConnections() {
        return connections.size();
    }

    /**
     * Admits the exchange under its mode's concurrency limit and runs its handler where the mode
     * says. Called on the connection's event loop once the request is complete; coercion has
     * already succeeded. Full: 503 with {@code Retry-After: 1}.
     */
    void dispatch(Exchange ex) {
        ExecutionMode mode = ex.endpoint.mode();
        switch (mode) {
            case IO -> {
                if (!admission.tryAcquire()) {
                    overloaded(ex);
                    return;
                }
                ex.holdAdmissionSlot(admission);
                invoker.run(ex, false);
            }
            case LOOP -> {
                WorkerLoop loop = loops.reserve();
                if (loop == null) {
                    overloaded(ex);
                    return;
                }
                ex.holdLoopSlot(loop);
                loop.execute(() -> invoker.run(ex, true));
            }
            case VIRTUAL -> {
                if (!admission.tryAcquire()) {
                    overloaded(ex);
                    return;
                }
                ex.holdAdmissionSlot(admission);
                virtualThreads.execute(() -> {
                    ex.virtualThread = Thread.currentThread();
                    try {
                        invoker.run(ex, false);
                    } finally {
                        ex.virtualThread = null;
                        Thread.interrupted(); // an interrupt aimed at this request must not leak
                    }
                });
            }
        }
    }

    private void overloaded(Exchange ex) {
        ex.state(Exchange.RESPONDED);
        ex.connection.deliver(ex, replies.problem(ex, Problem.of(503, "Service Unavailable",
                "every worker is at its concurrency limit; retry shortly"), false, "Retry-After", "1"));
    }

    /** Stops the worker loops and virtual-thread executor (after connections are closed). */
    public void close() {
        loops.close();
        virtualThreads.shutdownNow();
    }
}
