package dev.tidemill.internal.websocket;

import dev.tidemill.Request;
import dev.tidemill.WebSocket;
import dev.tidemill.WebSocketOptions;
import dev.tidemill.WebSocketOverflowException;
import dev.tidemill.internal.exchange.StreamPort;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The handler's {@link WebSocket}: sends from any thread, bounded by
 * {@link WebSocketOptions#maxOutboundBytes()}: the bytes in Netty's outbound buffer (sent, not yet
 * written to the socket; Netty keeps that count, readable from any thread) plus those sent from
 * other threads and not yet handed to Netty. Sends from the event loop are written at once; sends
 * from other threads go through the stream's {@link StreamPort#deliver}, the server's one batcher
 * of cross-thread writes, so a burst from a worker costs one event-loop task and one flush. A send's
 * stage completes when the connection can take more, as a streamed body's write does: at once
 * while it is writable, so a send costs no promise and no listener.
 */
final class Session implements WebSocket {
    private final StreamPort port;
    private final WebSocketOptions options;
    private final String subprotocol;
    private final Channel channel;
    /** Bytes sent from other threads, not yet handed to Netty (on their way to the event loop). */
    private final AtomicLong inFlightBytes = new AtomicLong();
    private final LongAdder dropped = new LongAdder();
    private final CompletableFuture<CloseStatus> closed = new CompletableFuture<>();
    private volatile boolean open = true;
    private WebSocketConnection connection;

    Session(StreamPort port, WebSocketOptions options, String subprotocol, Channel channel) {
        this.port = port;
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
    public CompletionStage<Void> send(dev.tidemill.WebSocketMessage message) {
        if (!open) return closedStage();
        ByteBuf payload = message instanceof Message m ? m.retainedPayload() : Unpooled.wrappedBuffer(message.bytes().clone());
        return send(message.isText() ? new TextWebSocketFrame(payload) : new BinaryWebSocketFrame(payload));
    }

    @Override
    public CompletionStage<Void> sendJson(Object value) {
        if (!open) return closedStage();
        ByteBuf buf = channel.alloc().buffer(256);
        try (ByteBufOutputStream out = new ByteBufOutputStream(buf)) {
            port.json().write(value, out);
        } catch (IOException | RuntimeException e) {
            buf.release();
            return CompletableFuture.failedFuture(e);
        }
        return send(new TextWebSocketFrame(buf));
    }

    private CompletionStage<Void> send(WebSocketFrame frame) {
        int size = frame.content().readableBytes();
        long pending = pendingBytes();
        if (pending > 0 && pending + size > options.maxOutboundBytes()) { // one message larger than the bound still goes out alone
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
        if (channel.eventLoop().inEventLoop()) return connection.write(frame, null);
        CompletableFuture<Void> done = new CompletableFuture<>();
        inFlightBytes.addAndGet(size);
        try {
            port.deliver(channel, () -> {
                inFlightBytes.addAndGet(-size);
                connection.writeBatched(frame, done); // the batcher flushes once after its burst
            });
        } catch (java.util.concurrent.RejectedExecutionException stopped) { // the event loop is gone
            inFlightBytes.addAndGet(-size);
            frame.release();
            done.completeExceptionally(new ClosedChannelException());
        }
        return done;
    }

    /** @return bytes sent and not yet written to the socket: Netty's outbound buffer plus those on their way to it */
    private long pendingBytes() {
        io.netty.channel.ChannelOutboundBuffer out = channel.unsafe().outboundBuffer();
        return (out == null ? 0 : out.totalPendingWriteBytes()) + inFlightBytes.get();
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

    /** The connection ended; sends still on their way to the event loop fail when they reach it. */
    void ended(CloseStatus status) {
        open = false;
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
        return port.request();
    }

    private static CompletionStage<Void> closedStage() {
        return CompletableFuture.failedFuture(new ClosedChannelException());
    }

    @Override
    public String toString() {
        return "WebSocket " + port.request().path() + (open ? " (open)" : " (closed)");
    }
}
