package dev.tidemill.internal.server;

import dev.tidemill.Config;
import dev.tidemill.Server;
import dev.tidemill.Transport;
import dev.tidemill.internal.exchange.AppSnapshot;
import dev.tidemill.internal.exchange.DateHeader;
import dev.tidemill.internal.exchange.ExchangeContext;
import dev.tidemill.internal.exchange.ServerEvents;
import dev.tidemill.internal.protocol.Protocols;
import dev.tidemill.internal.tls.HttpsRedirect;
import dev.tidemill.internal.tls.TlsListener;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running server: binds the socket ("accept" stage), owns the event loops, the open
 * connections and the {@link ExchangeContext}, and performs the graceful stop.
 */
public final class HttpServer implements Server {
    private static final Logger LOG = LoggerFactory.getLogger(HttpServer.class);

    /**
     * The one buffer allocator: set on the listening socket and every connection (reads, the
     * decoder's cumulation) and handed to the exchanges (replies), so one set of arenas serves all.
     * Netty 4.2's default, the adaptive allocator (unless {@code -Dio.netty.allocator.type} says
     * otherwise), shared with any other Netty user in the process. Before, replies came from
     * {@code PooledByteBufAllocator.DEFAULT} while the channels used this one: two sets of arenas.
     * Measured with {@code ./tidemill bench memory --quick --targets tidemill-io,baseline} (one
     * start, 2,000 idle connections, server on CPU 0 of this 2-CPU VM, 2026-12-01), both set as the
     * only allocator: pooled 100.6 MiB RSS idle (NMT outside the heap 71.0 MiB), 6.9 KiB RSS and
     * 2.9 KiB live heap per idle connection; adaptive 95.9 MiB (67.2 MiB), 7.0 and 2.9 KiB.
     */
    static final ByteBufAllocator ALLOCATOR = ByteBufAllocator.DEFAULT;

    private final Config config;
    private final EventLoopGroup group;
    private final ExchangeContext context;
    private final ChannelGroup connections;
    private final Protocols protocols;
    private final AutoCloseable dateRefresh;
    private final Channel serverChannel;
    private final Transport transport;
    private final List<String> report;
    /** The HTTPS port, or null when TLS is off. */
    private final TlsListener tls;
    private final Consumers consumers;
    private final CompletableFuture<Void> terminated = new CompletableFuture<>();
    private final Object stopLock = new Object();
    private volatile boolean stopNow;
    private boolean stopping;

    private HttpServer(Config config, EventLoopGroup group, ExchangeContext context, ChannelGroup connections,
            Protocols protocols, AutoCloseable dateRefresh, Channel serverChannel, Transport transport,
            List<String> report, TlsListener tls, Consumers consumers) {
        this.config = config;
        this.consumers = consumers;
        this.group = group;
        this.context = context;
        this.connections = connections;
        this.protocols = protocols;
        this.dateRefresh = dateRefresh;
        this.serverChannel = serverChannel;
        this.transport = transport;
        this.report = report;
        this.tls = tls;
    }

    /**
     * Starts a server for the app.
     *
     * @param app the app, frozen
     * @return the running server
     */
    public static HttpServer start(AppSnapshot app) {
        Config config = app.config();
        String leaks = LeakDetection.configure();
        int ioThreads = config.effectiveIoThreads();
        TransportSelector.Started transport = TransportSelector.start(config.transport(), ioThreads,
                new DefaultThreadFactory("tidemill-io", false));
        TransportSelector.Choice choice = transport.choice();
        EventLoopGroup group = transport.group();
        Channel channel = null;
        ExchangeContext context = null;
        TlsListener tls = null;
        try {
            // Bind first, build the rest after: the socket listens (clients' connects complete in the
            // kernel's backlog) while routes, worker loops and the rest are built, and accepting starts
            // once the pipeline exists (auto-read off on the listening socket until then).
            ChannelGroup connections = new DefaultChannelGroup("tidemill-connections", GlobalEventExecutor.INSTANCE);
            ConnectionLimiter limiter = new ConnectionLimiter(config.limits().maxConnections());
            Deferred pipeline = new Deferred();
            channel = choice.applyTo(new ServerBootstrap())
                    .group(group)
                    .option(ChannelOption.SO_BACKLOG, config.limits().acceptBacklog())
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .option(ChannelOption.AUTO_READ, false)
                    .option(ChannelOption.ALLOCATOR, ALLOCATOR)
                    .handler(limiter)
                    .childOption(ChannelOption.ALLOCATOR, ALLOCATOR)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true) // a client's FIN still gets its answers
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(
                            config.limits().writeBufferLowWaterMark(), config.limits().writeBufferHighWaterMark()))
                    .childHandler(pipeline)
                    .bind(config.host(), config.port())
                    .syncUninterruptibly()
                    .channel();
            context = new ExchangeContext(app, ALLOCATOR, Protocols.WEB_SOCKET);
            Protocols protocols = new Protocols(context, connections);
            pipeline.handler = protocols.cleartext();
            if (config.tls().enabled()) {
                tls = TlsListener.bind(config, group, choice::applyTo,
                        new ConnectionLimiter(config.limits().maxConnections()), ALLOCATOR,
                        protocols.overTls(TlsListener.constantHeaderLines(config.tls())));
                if (config.tls().redirectHttp()) pipeline.handler = new HttpsRedirect(config, tls::port, connections);
            }
            channel.config().setAutoRead(true); // after the volatile write: no child is accepted before it
            context.observer().started(group, context, connections::size);
            int cpus = Runtime.getRuntime().availableProcessors();
            List<String> report = new ArrayList<>();
            report.add("transport " + choice.transport() + " (" + choice.reason() + "); "
                    + TransportSelector.availability(choice.transport()));
            report.add(leaks);
            report.add("cpus: Runtime.availableProcessors() = " + cpus + " (honours cgroup quota and affinity); worker loops "
                    + context.workerLoops() + (config.workerLoops() > 0 ? " (configured)" : " (one per CPU)")
                    + ", I/O threads " + ioThreads + (config.ioThreads() > 0 ? " (configured)" : " (one per CPU)"));
            report.add("mode " + config.executionMode() + ", assignment " + config.assignment() + ", concurrency "
                    + config.limits().concurrencyPerLoop() + " per loop, " + config.limits().maxConnections() + " connections");
            autoModes(context).ifPresent(report::add);
            if (tls != null) report.addAll(tls.report());
            AbsentIntegrations.line(config).ifPresent(report::add);
            report.addAll(context.authReport());
            Consumers consumers = new Consumers(app.consumers(), config.executionMode(), group, context::runOnWorkerLoop,
                    ((java.net.InetSocketAddress) channel.localAddress()).getPort());
            report.addAll(consumers.report());
            HttpServer server = new HttpServer(config, group, context, connections, protocols,
                    DateHeader.keepFresh(channel.eventLoop()), channel, choice.transport(),
                    List.copyOf(report), tls, consumers);
            report.forEach(line -> LOG.info("{}", line));
            LOG.info("listening on http://{}:{}{}", config.host(), server.port(),
                    config.tls().redirectHttp() ? " (redirecting to HTTPS)" : "");
            if (tls != null) LOG.info("listening on https://{}:{}", config.host(), tls.port());
            return server;
        } catch (RuntimeException | Error e) {
            if (tls != null) tls.close();
            if (channel != null) channel.close().awaitUninterruptibly(1, TimeUnit.SECONDS);
            if (context != null) context.close();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    /**
     * The child handler the listening socket is bound with, before the HTTP/1.1 pipeline exists;
     * set before accepting starts, so every accepted connection finds it.
     */
    @ChannelHandler.Sharable
    private static final class Deferred extends ChannelInitializer<Channel> {
        /** The HTTP/1.1 pipeline, or the HTTPS redirect when {@code Tls.redirectHttp} is on. */
        volatile ChannelHandler handler;

        @Override
        protected void initChannel(Channel ch) {
            ch.pipeline().addLast(handler);
        }
    }

    @Override
    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    @Override
    public java.util.OptionalInt tlsPort() {
        return tls == null ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(tls.port());
    }

    @Override
    public String host() {
        return config.host();
    }

    @Override
    public Transport transport() {
        return transport;
    }

    @Override
    public int openConnections() {
        return connections.size();
    }

    @Override
    public int workerLoops() {
        return context.workerLoops();
    }

    @Override
    public Map<String, Long> diagnostics() {
        Map<String, Long> out = new LinkedHashMap<>(context.diagnostics());
        out.put("reply.drains", context.replyDrains());
        out.put("files.zero_copy", protocols.filesZeroCopy());
        out.put("files.read", protocols.filesRead());
        out.put("connections.open", (long) connections.size());
        if (tls != null) out.putAll(tls.diagnostics());
        return out;
    }

    @Override
    public List<String> startupReport() {
        return report;
    }

    /** @return the startup report's line on the routes in AUTO, if any */
    private static java.util.Optional<String> autoModes(ExchangeContext context) {
        List<String> names = new ArrayList<>(context.autoModes().keySet());
        if (names.isEmpty()) return java.util.Optional.empty();
        dev.tidemill.internal.exchange.AutoMode first = context.autoModes().values().iterator().next();
        String shown = names.size() <= 8 ? String.join(", ", names) : String.join(", ", names.subList(0, 8)) + " and " + (names.size() - 8) + " more";
        return java.util.Optional.of("mode AUTO for " + names.size() + " route(s) (" + shown + "): " + first.current() + " now ("
                + first.why() + "); each moves by what its calls measure (Server.routeModes(), tidemill.route.mode in /metrics)");
    }

    @Override
    public List<dev.tidemill.RouteMode> routeModes() {
        return context.routeModes();
    }

    @Override
    public void stop(Duration grace) {
        boolean second;
        synchronized (stopLock) {
            second = stopping;
            stopping = true;
        }
        if (second) { // waits outside the lock: the first stop needs it to wait for connections
            awaitTerminated();
            return;
        }
        long deadline = System.nanoTime() + grace.toNanos();
        consumers.close(); // no more messages taken; those in a worker finish below
        context.startDraining();
        serverChannel.close().syncUninterruptibly();
        if (tls != null) tls.stopAccepting();
        for (Channel c : new ArrayList<>(connections)) c.pipeline().fireUserEventTriggered(ServerEvents.DRAIN);
        synchronized (stopLock) {
            while (connections.size() > 0 && !stopNow) {
                long left = deadline - System.nanoTime();
                if (left <= 0) break;
                try {
                    stopLock.wait(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), 20)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        int abandoned = connections.size();
        if (abandoned > 0) LOG.info("closing {} connection(s) still open after the grace period", abandoned);
        connections.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        try {
            int unfinished = consumers.await(deadline);
            if (unfinished > 0) LOG.info("{} consumer message(s) still in a worker after the grace period; they stay with their groups", unfinished);
            if (tls != null) tls.close();
            context.close();
            context.observer().stopped();
        } finally {
            // whatever failed above, the event loops go: their threads are not daemons, and the process could not exit
            try {
                dateRefresh.close();
            } catch (Exception e) {
                LOG.warn("stopping the Date header's refresh failed", e);
            }
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
            terminated.complete(null);
        }
    }

    @Override
    public void stopNow() {
        stopNow = true;
        synchronized (stopLock) {
            stopLock.notifyAll();
        }
    }

    private void awaitTerminated() {
        terminated.join();
    }

    @Override
    public CompletionStage<Void> terminated() {
        return terminated.minimalCompletionStage();
    }

    @Override
    public void close() {
        stop(config.timeouts().shutdownGrace());
    }
}
