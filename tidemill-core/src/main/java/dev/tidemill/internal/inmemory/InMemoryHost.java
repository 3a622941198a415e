package dev.tidemill.internal.inmemory;

import dev.tidemill.InMemoryConnection;
import dev.tidemill.InMemoryServer;
import dev.tidemill.internal.exchange.DateHeader;
import dev.tidemill.internal.exchange.ExchangeContext;
import dev.tidemill.internal.exchange.ServerEvents;
import dev.tidemill.internal.http1.PipelineInitializer;
import dev.tidemill.internal.protocol.Protocols;
import dev.tidemill.internal.exchange.AppSnapshot;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.DefaultEventLoop;
import io.netty.channel.EventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An app served in memory: the {@link ExchangeContext} a socket server would build (worker loops,
 * dispatcher, replies), one real event loop standing in for the I/O thread, and per connection an
 * {@code EmbeddedChannel} carrying the same HTTP/1.1 pipeline a socket gets, with an
 * {@link InMemoryWire} in the socket's place.
 *
 * <p>Why a real loop and not the embedded channel's: an {@code EmbeddedChannel}'s loop answers
 * "yes" to {@code inEventLoop()} on every thread and runs tasks only when its caller asks, so a
 * reply finished on a worker loop or virtual thread would be written from that thread, racing the
 * reader. With the handlers on a {@link DefaultEventLoop} the hand-over is the socket's: the reply
 * goes to the response batcher and is written on the loop.
 */
public final class InMemoryHost implements InMemoryServer {
    private final ExchangeContext context;
    private final EventLoop loop;
    private final ChannelGroup channels;
    private final PipelineInitializer http1;
    private final AutoCloseable dateRefresh;
    private final Set<InMemoryWire> wires = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();

    private InMemoryHost(AppSnapshot app) {
        this.loop = new DefaultEventLoop(new DefaultThreadFactory("tidemill-inmemory", true));
        try {
            this.context = new ExchangeContext(app, ByteBufAllocator.DEFAULT, Protocols.WEB_SOCKET);
        } catch (RuntimeException | Error e) {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
        this.channels = new DefaultChannelGroup("tidemill-inmemory", GlobalEventExecutor.INSTANCE);
        this.http1 = new PipelineInitializer(context, channels);
        this.dateRefresh = DateHeader.keepFresh(loop);
    }

    /**
     * @param app the app, frozen
     * @return the app, served in memory
     */
    public static InMemoryHost start(AppSnapshot app) {
        return new InMemoryHost(app);
    }

    @Override
    public InMemoryConnection connect() {
        if (closed.get()) throw new IllegalStateException("this in-memory server is closed");
        CompletableFuture<InMemoryWire> opened = new CompletableFuture<>();
        loop.execute(() -> {
            try {
                EmbeddedChannel ch = new EmbeddedChannel();
                InMemoryWire wire = new InMemoryWire(loop, ch);
                ch.pipeline().addFirst(loop, "in-memory", wire);
                http1.configure(ch, loop);
                wires.add(wire);
                ch.closeFuture().addListener(f -> wires.remove(wire));
                ch.pipeline().fireChannelActive(); // the embedded channel was active before the handlers came
                wire.pump();
                opened.complete(wire);
            } catch (RuntimeException | Error e) {
                opened.completeExceptionally(e);
            }
        });
        return opened.join();
    }

    @Override
    public int openConnections() {
        return channels.size();
    }

    @Override
    public Map<String, Long> diagnostics() {
        Map<String, Long> out = new LinkedHashMap<>(context.diagnostics());
        out.put("reply.drains", http1.replyDrains());
        out.put("connections.open", (long) channels.size());
        return out;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) return;
        Duration grace = context.config().timeouts().shutdownGrace();
        long deadline = System.nanoTime() + grace.toNanos();
        context.startDraining();
        InMemoryWire.await(loop.submit(() -> {
            for (Channel c : new ArrayList<>(channels)) c.pipeline().fireUserEventTriggered(ServerEvents.DRAIN);
            for (InMemoryWire w : wires) w.pump();
        }), Duration.ofSeconds(5));
        while (!channels.isEmpty() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        List<InMemoryWire> left = new ArrayList<>(wires);
        InMemoryWire.await(loop.submit(() -> left.forEach(InMemoryWire::closeChannel)), Duration.ofSeconds(5));
        context.close();
        try {
            dateRefresh.close();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        loop.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
