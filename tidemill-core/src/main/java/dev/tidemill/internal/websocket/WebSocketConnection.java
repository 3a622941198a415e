package dev.tidemill.internal.websocket;

import dev.tidemill.ProblemException;
import dev.tidemill.WebSocket;
import dev.tidemill.WebSocket.CloseStatus;
import dev.tidemill.WebSocketHandler;
import dev.tidemill.WebSocketOptions;
import dev.tidemill.internal.exchange.CallbackLane;
import dev.tidemill.internal.exchange.StreamPort;
import dev.tidemill.internal.exchange.ServerEvents;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One WebSocket connection, the last handler of its pipeline, on the event loop: reassembles
 * fragmented messages within {@link WebSocketOptions#maxMessageBytes()}, answers pings, runs the
 * closing handshake (RFC 6455 7), fails the connection on any protocol error with the close code
 * the error calls for, sends pings and enforces the idle timeout, and hands each message to the
 * handler through its {@link CallbackLane}. While more than {@code maxMessageBytes} of messages wait for
 * a slow handler, the socket is not read, so TCP pushes back on the peer.
 */
final class WebSocketConnection extends ChannelInboundHandlerAdapter implements Heartbeat.Peer {
    private static final Logger LOG = LoggerFactory.getLogger(WebSocketConnection.class);
    /** What a send returns while the connection is writable: shared, a minimal stage cannot be completed by anyone. */
    private static final CompletionStage<Void> WRITTEN = CompletableFuture.completedStage(null);

    private final StreamPort port;
    private final WebSocketOptions options;
    private final WebSocketHandler handler;
    private final Session session;
    private final AtomicLong inboundQueued = new AtomicLong();
    private CallbackLane callbacks;
    /** IO mode: callbacks run inline on the event loop. */
    private boolean inline;
    /** Senders waiting for the connection to become writable again. */
    private final java.util.ArrayList<CompletableFuture<Void>> waiters = new java.util.ArrayList<>(0);
    private ChannelHandlerContext ctx;
    private final Fragments fragments = new Fragments();
    private boolean closeSent;
    private boolean failed;
    private boolean ended;
    private CloseStatus status;
    private Heartbeat heartbeat;
    private boolean inRead;
    private boolean needsFlush;
    private boolean paused;

    WebSocketConnection(StreamPort port, WebSocketOptions options, WebSocketHandler handler, Session session) {
        this.port = port;
        this.options = options;
        this.handler = handler;
        this.session = session;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        session.attach(this);
        callbacks = port.callbacks();
        inline = callbacks.inline();
        heartbeat = new Heartbeat(ctx, options, this);
        heartbeat.start();
        callbacks.submit(() -> {
            try {
                handler.onOpen(session);
            } catch (Throwable t) {
                handlerFailed(t);
            }
        });
        if (port.draining()) close(WebSocket.GOING_AWAY, "the server is shutting down");
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        inRead = true;
        heartbeat.read();
        if (!(msg instanceof WebSocketFrame frame)) { // bytes cannot get past the frame decoder
            io.netty.util.ReferenceCountUtil.release(msg);
            return;
        }
        try {
            if (failed || ended) return;
            switch (frame) {
                case PingWebSocketFrame ping -> {
                    if (!closeSent) writeControl(new PongWebSocketFrame(ping.content().retain()));
                }
                case PongWebSocketFrame pong -> { } // lastRead is all it is for
                case CloseWebSocketFrame close -> peerClosed(close);
                default -> {
                    if (!closeSent) data(frame); // after our close frame, data is ignored (RFC 6455 1.4)
                }
            }
        } finally {
            frame.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        inRead = false;
        if (needsFlush) flushNow();
        ctx.fireChannelReadComplete();
    }

    private void data(WebSocketFrame frame) {
        if (fragments.lengthWith(frame) > options.maxMessageBytes()) {
            fail(WebSocket.TOO_BIG, "a message over " + options.maxMessageBytes() + " bytes (maxMessageBytes)");
        } else if (!(frame instanceof ContinuationWebSocketFrame) && frame.isFinalFragment()) {
            deliver(frame instanceof TextWebSocketFrame, frame.content().retain());
        } else if (fragments.add(frame, ctx.alloc())) {
            boolean text = fragments.text();
            deliver(text, fragments.take());
        }
    }

    /** @param payload the message's bytes, a reference the message takes over */
    private void deliver(boolean text, io.netty.buffer.ByteBuf payload) {
        Message m = new Message(text, payload, port.binder(), this);
        if (!inline) {
            long queued = inboundQueued.addAndGet(m.length());
            if (queued > options.maxMessageBytes() && !paused) {
                paused = true; // the handler is behind by a whole message limit: let TCP push back
                ctx.channel().config().setAutoRead(false);
            }
        }
        callbacks.submit(m);
    }

    /** Runs the handler for one message, on the handler's thread ({@link Message#run}). */
    void handle(Message m) {
        try {
            handler.onMessage(session, m);
        } catch (Throwable t) {
            handlerFailed(t);
        } finally {
            m.release();
            // IO mode runs each message before the next is read: nothing queues, nothing to count.
            if (!inline && inboundQueued.addAndGet(-m.length()) <= options.maxMessageBytes() / 2) resumeReading();
        }
    }

    private void resumeReading() {
        if (ctx.executor().inEventLoop()) {
            if (paused) {
                paused = false;
                ctx.channel().config().setAutoRead(true);
            }
        } else if (paused) { // read without a fence: a stale true costs one task, a stale false is re-checked by the next message
            ctx.executor().execute(this::resumeReading);
        }
    }

    private void peerClosed(CloseWebSocketFrame close) {
        int code = close.statusCode();
        if (status == null) status = new CloseStatus(code < 0 ? WebSocket.NO_STATUS : code, code < 0 ? "" : close.reasonText());
        session.markClosed();
        if (closeSent) {
            ctx.close(); // the answer to our close: the handshake is complete
            return;
        }
        closeSent = true;
        // Echo the code (RFC 6455 5.5.1), then close the TCP connection: the server closes first (7.1.1).
        CloseWebSocketFrame echo = code < 0 ? new CloseWebSocketFrame(true, 0, Unpooled.EMPTY_BUFFER) : new CloseWebSocketFrame(code, "");
        ctx.writeAndFlush(echo).addListener(ChannelFutureListener.CLOSE);
    }

    /** Starts the closing handshake: our close frame now, the socket closed when the peer answers or at the timeout. */
    void close(int code, String reason) {
        if (closeSent || ended) return;
        closeSent = true;
        session.markClosed();
        if (status == null) status = new CloseStatus(code, reason);
        releaseFragments();
        ctx.writeAndFlush(new CloseWebSocketFrame(code, reason));
        ctx.executor().schedule(() -> {
            if (ctx.channel().isActive()) ctx.close();
        }, options.closeTimeout().toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Fails the connection (RFC 6455 7.1.7): a close frame with {@code code} if none went out yet, then the socket closes. */
    private void fail(int code, String reason) {
        if (failed || ended) return;
        failed = true;
        session.markClosed();
        releaseFragments();
        if (status == null) status = new CloseStatus(code, reason);
        if (closeSent) {
            ctx.close();
            return;
        }
        closeSent = true;
        ctx.writeAndFlush(new CloseWebSocketFrame(code, CloseReason.fit(reason))).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (failed || ended) return; // already failing: what follows is the same fault's echo
        Throwable c = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        switch (c) {
            case CorruptedWebSocketFrameException e -> fail(e.closeStatus().code(), e.getMessage() == null ? "" : e.getMessage());
            case TooLongFrameException e -> fail(WebSocket.TOO_BIG, "a frame over the size limit (maxFrameBytes)");
            case io.netty.handler.codec.CodecException e -> { // from the inflater: compressed data that does not inflate, or inflates too far
                boolean bomb = mentions(cause, "maximum size");
                fail(bomb ? WebSocket.TOO_BIG : WebSocket.INVALID_PAYLOAD, bomb
                        ? "a message inflates past " + options.maxMessageBytes() + " bytes (maxMessageBytes)"
                        : "a compressed message that does not inflate (RFC 7692)");
            }
            case java.util.zip.DataFormatException e -> fail(WebSocket.INVALID_PAYLOAD, "a compressed message that does not inflate (RFC 7692)");
            case IOException e -> ctx.close(); // the peer reset the connection: nothing to say to it
            default -> {
                LOG.warn("WebSocket connection {} failed", ctx.channel(), c);
                fail(WebSocket.INTERNAL_ERROR, "internal error");
            }
        }
    }

    /** @return whether {@code text} is in the message of {@code t} or of one of its causes */
    private static boolean mentions(Throwable t, String text) {
        for (Throwable e = t; e != null; e = e.getCause()) {
            if (e.getMessage() != null && e.getMessage().contains(text)) return true;
        }
        return false;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt == ServerEvents.DRAIN) {
            close(WebSocket.GOING_AWAY, "the server is shutting down");
            return;
        }
        if (evt instanceof io.netty.channel.socket.ChannelInputShutdownEvent) {
            // The peer's FIN. Without a close frame before it the connection is simply gone
            // (RFC 6455 7.1.5: 1006); after one, the closing handshake is over. Either way: close.
            ctx.close();
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (ended) return;
        ended = true;
        session.markClosed();
        heartbeat.stop();
        releaseFragments();
        CloseStatus how = status != null ? status : new CloseStatus(WebSocket.ABNORMAL, "");
        failWaiters();
        callbacks.interrupt();
        callbacks.submit(() -> {
            Thread.interrupted(); // an interrupt aimed at the previous callback is not onClose's
            try {
                handler.onClose(session, how);
            } catch (Throwable t) {
                LOG.warn("onClose of {} failed", port.request().path(), t);
            } finally {
                port.released(); // after the last callback: the slot covered the queued drain
            }
        });
        session.ended(how);
        ctx.fireChannelInactive();
    }

    /** A handler callback threw: on the handler's thread. */
    private void handlerFailed(Throwable t) {
        int code;
        String reason;
        if (t instanceof ProblemException p) {
            code = WebSocket.INVALID_PAYLOAD;
            reason = p.problem().detail().orElse(p.problem().title());
        } else {
            LOG.error("WebSocket handler of {} failed", port.request().path(), t);
            code = WebSocket.INTERNAL_ERROR;
            reason = "internal error";
        }
        String r = CloseReason.fit(reason);
        if (ctx.executor().inEventLoop()) close(code, r);
        else ctx.executor().execute(() -> close(code, r));
    }

    // ------------------------------------------------------------------ writes, on the event loop

    /**
     * Writes a frame; flushed at the end of the current read, or now when not reading.
     *
     * @param done the sender's stage (from another thread), or null to get one
     * @return completes when the connection can take more: at once while it is writable, else
     *     when Netty's outbound buffer drains below its low-water mark; fails if the connection is closing or gone
     */
    CompletionStage<Void> write(WebSocketFrame frame, CompletableFuture<Void> done) {
        return write(frame, done, true);
    }

    private CompletionStage<Void> write(WebSocketFrame frame, CompletableFuture<Void> done, boolean flush) {
        if (closeSent || ended || !ctx.channel().isActive()) {
            frame.release();
            if (done == null) return CompletableFuture.failedStage(new ClosedChannelException());
            done.completeExceptionally(new ClosedChannelException());
            return done;
        }
        ctx.write(frame, ctx.voidPromise()); // a failed write reaches exceptionCaught, which closes
        if (flush) { // else the caller flushes (the batcher, after its burst)
            if (inRead) needsFlush = true;
            else ctx.flush();
        }
        if (ctx.channel().isWritable()) {
            if (done == null) return WRITTEN;
            done.complete(null);
            return done;
        }
        CompletableFuture<Void> waiting = done != null ? done : new CompletableFuture<>();
        waiters.add(waiting);
        return waiting;
    }

    /**
     * A send from another thread, reaching the event loop through the batcher: written without a
     * flush (the batcher flushes the channel once after its burst).
     */
    void writeBatched(WebSocketFrame frame, CompletableFuture<Void> done) {
        write(frame, done, false);
    }

    /** Writing a control frame of ours (a pong): no sender waits on it. */
    private void writeControl(WebSocketFrame frame) {
        ctx.write(frame, ctx.voidPromise());
        if (inRead) needsFlush = true;
        else ctx.flush();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable() && !waiters.isEmpty()) {
            java.util.List<CompletableFuture<Void>> ready = new java.util.ArrayList<>(waiters);
            waiters.clear();
            for (CompletableFuture<Void> w : ready) w.complete(null);
        }
        ctx.fireChannelWritabilityChanged();
    }

    private void failWaiters() {
        if (waiters.isEmpty()) return;
        java.util.List<CompletableFuture<Void>> gone = new java.util.ArrayList<>(waiters);
        waiters.clear();
        for (CompletableFuture<Void> w : gone) w.completeExceptionally(new ClosedChannelException());
    }

    private void flushNow() {
        needsFlush = false;
        ctx.flush();
    }


    @Override
    public boolean closing() {
        return ended || closeSent;
    }

    @Override
    public void idle() {
        close(WebSocket.GOING_AWAY, "no frame for " + options.idleTimeout().toMillis() + " ms (idleTimeout)");
    }

    private void releaseFragments() {
        fragments.release();
    }
}
