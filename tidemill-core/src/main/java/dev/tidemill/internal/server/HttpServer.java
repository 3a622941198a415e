package dev.tidemill.internal.server;

import dev.tidemill.Config;
import dev.tidemill.Server;
import dev.tidemill.Transport;
import dev.tidemill.internal.exchange.ExchangeContext;
import dev.tidemill.internal.exchange.ServerEvents;
import dev.tidemill.internal.http1.PipelineInitializer;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.buffer.PooledByteBufAllocator;
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

    private final Config config;
    private final EventLoopGroup group;
    private final ExchangeContext context;
    private final ChannelGroup connections;
    private final PipelineInitializer http1;
    private final Channel serverChannel;
    private final Transport transport;
    private final List<String> report;
    private final CompletableFuture<Void> terminated = new CompletableFuture<>();
    private final Object stopLock = new Object();
    private volatile boolean stopNow;
    private boolean stopping;

    private HttpServer(Config config, EventLoopGroup group, ExchangeContext context, ChannelGroup connections,
            PipelineInitializer http1, Channel serverChannel, Transport transport, List<String> report) {
        this.config = config;
        this.group = group;
        this.context = context;
        this.connections = connections;
        this.http1 = http1;
        this.serverChannel = serverChannel;
        this.transport = transport;
        this.report = report;
    }

    /**
     * Starts a server for the app.
     *
     * @param app the app, frozen
     * @return the running server
     */
    public static HttpServer start(AppSnapshot app) {
        Config config = app.config();
        TransportSelector.Choice choice = TransportSelector.select(config.transport());
        int ioThreads = config.effectiveIoThreads();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(ioThreads,
                new DefaultThreadFactory("tidemill-io", false), choice.ioHandlerFactory());
        ExchangeContext context = null;
        try {
            context = new ExchangeContext(app, PooledByteBufAllocator.DEFAULT);
            ChannelGroup connections = new DefaultChannelGroup("tidemill-connections", GlobalEventExecutor.INSTANCE);
            PipelineInitializer http1 = new PipelineInitializer(context, connections);
            ConnectionLimiter limiter = new ConnectionLimiter(config.limits().maxConnections());
            Channel channel = new ServerBootstrap()
                    .group(group)
                    .channel(choice.serverChannel())
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .handler(limiter)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true) // a client's FIN still gets its answers
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(32 * 1024, 64 * 1024))
                    .childHandler(http1)
                    .bind(config.host(), config.port())
                    .syncUninterruptibly()
                    .channel();
            int cpus = Runtime.getRuntime().availableProcessors();
            List<String> report = new ArrayList<>();
            report.add("transport " + choice.transport() + " (" + choice.reason() + "); "
                    + TransportSelector.availability(choice.transport()));
            report.add("cpus: Runtime.availableProcessors() = " + cpus + " (honours cgroup quota and affinity); worker loops "
                    + context.workerLoops() + (config.workerLoops() > 0 ? " (configured)" : " (one per CPU)")
                    + ", I/O threads " + ioThreads + (config.ioThreads() > 0 ? " (configured)" : " (one per CPU)"));
            report.add("mode " + config.executionMode() + ", assignment " + config.assignment() + ", concurrency "
                    + config.limits().concurrencyPerLoop() + " per loop, " + config.limits().maxConnections() + " connections");
            HttpServer server = new HttpServer(config, group, context, connections, http1, channel, choice.transport(),
                    List.copyOf(report));
            report.forEach(line -> LOG.info("{}", line));
            LOG.info("listening on http://{}:{}", config.host(), server.port());
            return server;
        } catch (RuntimeException | Error e) {
            if (context != null) context.close();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    @Override
    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
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
        out.put("reply.drains", http1.replyDrains());
        out.put("connections.open", (long) connections.size());
        return out;
    }

    @Override
    public List<String> startupReport() {
        return report;
    }

    @Override
    public void stop(Duration grace) {
        synchronized (stopLock) {
            if (stopping) {
                awaitTerminated();
                return;
            }
            stopping = true;
        }
        long deadline = System.nanoTime() + grace.toNanos();
        context.startDraining();
        serverChannel.close().syncUninterruptibly();
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
        context.close();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        terminated.complete(null);
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
