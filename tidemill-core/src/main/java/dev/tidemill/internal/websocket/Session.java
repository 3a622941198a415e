package dev.tidemill.internal.websocket;

import dev.tidemill.Request;
import dev.tidemill.WebSocket;
import dev.tidemill.WebSocketOptions;
import dev.tidemill.WebSocketOverflowException;
import dev.tidemill.internal.exchange.Exchange;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.jctools.queues.MpscUnboundedXaddArrayQueue;

/**
 * The handler's {@link WebSocket}: sends from any thread, bounded by
 * {@link WebSocketOptions#maxOutboundBytes()} (bytes sent but not yet written to the socket,
 * counted from the send until its write completes). Sends from the event loop are written at
 * once; sends from other threads join an outbox that one event-loop task drains with one flush,
 * so a burst from a worker costs one hop.
 */
final class Session implements WebSocket {
    /** A send waiting in the outbox. */
    private record Out(WebSocketFrame frame, int size, CompletableFuture<Void> done) {}

    private final Exchange exchange;
    private final WebSocketOptions options;
    private final String subprotocol;
    private final Channel channel;
    private final AtomicLong outstanding = new AtomicLong();
    private final LongAdder dropped = new LongAdder();
    private final MpscUnboundedXaddArrayQueue<Out> outbox = new MpscUnboundedXaddArrayQueue<>(16);
    private final AtomicBoolean outboxQueued = new AtomicBoolean();
    private final CompletableFuture<CloseStatus> closed = new CompletableFuture<>();
    private volatile boolean open = true;
    private WebSocketConnection connection;

    Session(Exchange exchange, WebSocketOptions options, String subprotocol, Channel channel) {
        this.exchange = exchange;
        this.options = options;
        this.subprotocol = subprotocol;
        this.channel = channel;
    }

    void attach(WebSocketConnection connection) {
        this.connection = connection;
    }

    @Override
    public CompletionStage<Void> send(String text) {
        if (!open) return closedStage();
        ByteBuf buf = channel.alloc().buffer(ByteBufUtil.utf8MaxBytes(text));
        ByteBufUtil.writeUtf8(buf, text);
        return send(new TextWebSocketFrame(buf));
    }

    @Override
    public CompletionStage<Void> send(byte[] data) {
        if (!open) return closedStage();
        ByteBuf buf = channel.alloc().buffer(data.length);
        buf.writeBytes(data);
        return send(new BinaryWebSocketFrame(buf));
    }

    @Override
    public CompletionStage<Void> sendJson(Object value) {
        if (!open) return closedStage();
        ByteBuf buf = channel.alloc().buffer(256);
        try (ByteBufOutputStream out = new ByteBufOutputStream(buf)) {
            exchange.context().json().write(value, out);
        } catch (IOException | RuntimeException e) {
            buf.release();
            return CompletableFuture.failedFuture(e);
        }
        return send(new TextWebSocketFrame(buf));
    }

    private CompletionStage<Void> send(WebSocketFrame frame) {
        int size = frame.content().readableBytes();
        long after = outstanding.addAndGet(size);
        if (after > options.maxOutboundBytes() && after != size) {
            outstanding.addAndGet(-size);
            frame.release();
            return switch (options.overflow()) {
                case FAIL -> CompletableFuture.failedFuture(new WebSocketOverflowException("more than "
                        + options.maxOutboundBytes() + " bytes wait to be written to this peer (maxOutboundBytes)"));
                case DROP -> {
                    dropped.increment();
                    yield CompletableFuture.completedFuture(null);
                }
                case CLOSE -> {
                    closeOnLoop(POLICY_VIOLATION, "the peer reads too slowly (maxOutboundBytes)");
                    yield closedStage();
                }
            };
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (channel.eventLoop().inEventLoop()) {
            connection.write(frame, size, done);
        } else {
            outbox.offer(new Out(frame, size, done));
            if (!outboxQueued.get() && outboxQueued.compareAndSet(false, true)) channel.eventLoop().execute(this::drainOutbox);
        }
        return done;
    }

    /** On the event loop: everything sent from other threads goes out, with one flush. */
    private void drainOutbox() {
        outboxQueued.set(false);
        for (Out o; (o = outbox.poll()) != null; ) connection.write(o.frame(), o.size(), o.done());
        connection.flushNow();
    }

    /** A write finished (written or failed): its bytes no longer count against the bound. */
    void written(int size) {
        outstanding.addAndGet(-size);
    }

    @Override
    public CompletionStage<CloseStatus> close(int code, String reason) {
        if (!(code == NORMAL || code >= 1001 && code <= 1003 || code >= 1007 && code <= 1014 || code >= 3000 && code <= 4999)) {
            throw new IllegalArgumentException("close code " + code + " cannot be sent (RFC 6455 7.4)");
        }
        if (reason.getBytes(StandardCharsets.UTF_8).length > 123) {
            throw new IllegalArgumentException("a close reason is at most 123 bytes of UTF-8 (RFC 6455 5.5)");
        }
        closeOnLoop(code, reason);
        return closed.minimalCompletionStage();
    }

    private void closeOnLoop(int code, String reason) {
        if (channel.eventLoop().inEventLoop()) connection.close(code, reason);
        else channel.eventLoop().execute(() -> connection.close(code, reason));
    }

    /** No more sends: a close frame went out or came in, or the connection dropped. */
    void markClosed() {
        open = false;
    }

    /** The connection ended: sends still in the outbox fail. */
    void ended(CloseStatus status) {
        open = false;
        for (Out o; (o = outbox.poll()) != null; ) {
            o.frame().release();
            written(o.size());
            o.done().completeExceptionally(new ClosedChannelException());
        }
        closed.complete(status);
    }

    /** @return messages dropped by the {@code DROP} policy */
    long dropped() {
        return dropped.sum();
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public CompletionStage<CloseStatus> closed() {
        return closed.minimalCompletionStage();
    }

    @Override
    public Optional<String> subprotocol() {
        return Optional.ofNullable(subprotocol);
    }

    @Override
    public Request request() {
        return exchange;
    }

    private static CompletionStage<Void> closedStage() {
        return CompletableFuture.failedFuture(new ClosedChannelException());
    }

    @Override
    public String toString() {
        return "WebSocket " + exchange.path() + (open ? " (open)" : " (closed)");
    }
}
