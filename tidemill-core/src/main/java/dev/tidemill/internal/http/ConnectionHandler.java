package dev.tidemill.internal.http;

import dev.tidemill.Limits;
import dev.tidemill.Problem;
import dev.tidemill.Timeouts;
import dev.tidemill.internal.dispatch.ResponseBatcher;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.SocketAddress;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HTTP/1.1 connection: reads request heads and bodies, hands complete requests to
 * {@link RequestGate} (checks, routing, coercion, limits) and {@link ServerContext#dispatch}, and
 * writes replies back strictly in request order (pipelining), whatever order the handlers finish
 * in. It also owns the connection's timers. Everything here runs on the connection's event loop;
 * the only entry points from other threads are {@link #deliver}, {@link #streamChunk} and
 * {@link #streamEnd}, which hop onto the loop through the loop's {@link ResponseBatcher}.
 *
 * <p>Timers: one scheduled task per connection at the earliest pending deadline (idle, header
 * read, body stall, drain, each in-flight request's timeout). Deadlines are plain fields that the
 * request path updates without scheduling anything; the task re-arms itself when it fires. This
 * keeps timeouts off the per-request cost (the reference server paid 5-8 % of hello-world
 * throughput for a per-request timer).
 *
 * <p>Why one file of about 650 lines: reading and ordered writing share one state machine (the
 * pipelining ring, the outstanding count, the timers, the backlog), all mutated on one thread.
 * Split in two, each half would need half of the other's state through callbacks, and the
 * invariants ("at most maxPipelined in the ring", "nothing read after a closing request") would
 * live in two places. The sections below follow the request: lifecycle, reading, writing,
 * streaming, timers.
 */
final class ConnectionHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionHandler.class);
    private static final long NONE = Long.MAX_VALUE;

    private static final int READ_HEAD = 0;
    private static final int READ_BODY = 1;
    private static final int DISCARD = 2;
    private static final int CLOSED = 3;

    private final ServerContext server;
    private final RequestGate gate;
    private final RequestDecoder decoder;
    private final Limits limits;
    private final Timeouts timeouts;
    private ChannelHandlerContext ctx;
    private ResponseBatcher batcher;

    // Reading.
    private int reading = READ_HEAD;
    private Exchange current;
    private CompositeByteBuf body;
    private long bodyBytes;
    private long discarded;
    private final ArrayDeque<Object> backlog = new ArrayDeque<>();

    // Writing, in request order: pending[seq % cap] holds exchanges read but not yet answered.
    private final Exchange[] pending;
    private int nextSeq;
    private int nextWrite;
    private int outstanding;
    private Exchange streaming;
    private final List<CompletableFuture<Void>> writabilityWaiters = new ArrayList<>();
    private boolean inRead;
    /** A request without keep-alive was read: nothing after it may be processed (RFC 9112 9.6). */
    private boolean lastRequestRead;
    private boolean needsFlush;
    private boolean progressing;
    private boolean rerun;

    // Deadlines, System.nanoTime() based; NONE when not running.
    private boolean awaitingHead = true;
    private long idleDeadline = NONE;
    private long headDeadline = NONE;
    private long stallDeadline = NONE;
    private long drainDeadline = NONE;
    /** While the channel is unwritable: when the client must have taken some of the response by. */
    private long writeWatchDeadline = NONE;
    /** Outbound bytes pending at the last write-watch check. */
    private long pendingAtWatch;
    /** Response bytes handed to Netty so far (bodies and chunks; heads are small and not counted). */
    private long enqueuedBytes;
    private long enqueuedAtWatch;
    private ScheduledFuture<?> timer;
    private long timerAt = NONE;

    ConnectionHandler(ServerContext server, RequestDecoder decoder) {
        this.server = server;
        this.decoder = decoder;
        this.limits = server.config.limits();
        this.timeouts = server.config.timeouts();
        this.gate = new RequestGate(server);
        this.pending = new Exchange[limits.maxPipelined()];
    }

    ServerContext server() {
        return server;
    }

    SocketAddress remoteAddress() {
        return ctx.channel().remoteAddress();
    }

    // ------------------------------------------------------------------ lifecycle

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.batcher = server.batcher(ctx.channel().eventLoop());
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        idleDeadline = System.nanoTime() + timeouts.idle().toNanos();
        arm(idleDeadline);
        if (server.draining) ctx.close();
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        reading = CLOSED;
        releaseBody();
        for (Object m; (m = backlog.poll()) != null; ) ReferenceCountUtil.release(m);
        for (int i = 0; i < pending.length; i++) {
            Exchange ex = pending[i];
            if (ex == null) continue;
            pending[i] = null;
            if (ex.casState(Exchange.RUNNING, Exchange.CANCELLED) || ex.state() == Exchange.STREAMING) {
                ex.abandon();
            }
            if (ex.reply instanceof Reply.Full f) f.response().release();
        }
        outstanding = 0;
        streaming = null;
        for (CompletableFuture<Void> w : writabilityWaiters) w.completeExceptionally(new ClosedChannelException());
        writabilityWaiters.clear();
        if (timer != null) timer.cancel(false);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("connection {} failed", ctx.channel(), cause);
        ctx.close();
    }

    /**
     * Unwritable: the client is not taking our responses as fast as we produce them. Reading stops
     * at the next request (see {@link #channelRead}) and the write watch starts: if the client
     * takes none of the pending bytes within the write-stall timeout, the connection is closed.
     * Writable again: streams resume, parked requests are read, and an idle period may start.
     */
    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            writeWatchDeadline = NONE;
            if (!writabilityWaiters.isEmpty()) {
                List<CompletableFuture<Void>> ready = new ArrayList<>(writabilityWaiters);
                writabilityWaiters.clear();
                for (CompletableFuture<Void> w : ready) w.complete(null);
            }
            if (awaitingHead && outstanding == 0 && headDeadline == NONE) {
                idleDeadline = System.nanoTime() + timeouts.idle().toNanos(); // idle from when the response drained
                arm(idleDeadline);
            }
            progress();
        } else if (writeWatchDeadline == NONE) {
            startWriteWatch(System.nanoTime());
        }
        ctx.fireChannelWritabilityChanged();
    }

    private void startWriteWatch(long now) {
        pendingAtWatch = pendingBytes();
        enqueuedAtWatch = enqueuedBytes;
        writeWatchDeadline = now + timeouts.writeStall().toNanos();
        arm(writeWatchDeadline);
    }

    private long pendingBytes() {
        io.netty.channel.ChannelOutboundBuffer out = ctx.channel().unsafe().outboundBuffer();
        return out == null ? 0 : out.totalPendingWriteBytes();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt == ServerEvents.DRAIN) {
            if (isIdle()) ctx.close();
            return;
        }
        if (evt instanceof ChannelInputShutdownEvent) {
            // The client sent FIN. That cannot be told apart from a client that closed its socket
            // and left, and noticing departures (cancel handlers, free slots) matters more than the
            // rare client that half-closes and waits: replies already produced are flushed, what is
            // still in flight is abandoned.
            reading = CLOSED;
            closeWhenWritten();
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    /** Bytes arrived: if they start a request head, the header-read timer starts now. */
    void bytesArrived() {
        if (awaitingHead && headDeadline == NONE) {
            headDeadline = System.nanoTime() + timeouts.headerRead().toNanos();
            idleDeadline = NONE;
            arm(headDeadline);
        }
    }

    private boolean isIdle() {
        return outstanding == 0 && awaitingHead && headDeadline == NONE && backlog.isEmpty();
    }

    // ------------------------------------------------------------------ reading

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        inRead = true;
        if (reading == CLOSED) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (!backlog.isEmpty() || (msg instanceof HttpRequest && mustPark())) {
            // Pipelining cap reached, or the client is not reading our responses: park the message
            // and stop reading the socket, so TCP pushes back on the client. What is parked is
            // bounded by one read's worth of bytes.
            backlog.add(msg);
            ctx.channel().config().setAutoRead(false);
            return;
        }
        handle(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        inRead = false;
        if (needsFlush) {
            needsFlush = false;
            ctx.flush();
        }
        ctx.fireChannelReadComplete();
    }

    private void handle(Object msg) {
        try {
            if (lastRequestRead && msg instanceof HttpRequest) {
                reading = CLOSED; // pipelined after a "Connection: close" request: never processed
                return;
            }
            if (msg instanceof HttpRequest req) onHead(req);
            if (msg instanceof HttpContent content && reading != CLOSED) onContent(content);
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void onHead(HttpRequest req) {
        awaitingHead = false;
        idleDeadline = NONE;
        headDeadline = NONE;
        int seq = nextSeq++;
        outstanding++;
        Exchange ex = gate.open(this, seq, req);
        pending[slot(seq)] = ex;
        if (!ex.keepAlive) lastRequestRead = true;
        RequestGate.Verdict verdict = gate.check(ex, req);
        if (verdict != null) {
            refuse(ex, verdict, req);
            return;
        }
        current = ex;
        reading = READ_BODY;
        bodyBytes = 0;
        if (RequestGate.hasBody(req)) stallDeadline = System.nanoTime() + timeouts.bodyStall().toNanos();
        if (RequestGate.expectsContinue(req)) {
            if (seq == nextWrite) sendContinue();
            else ex.continuePending = true;
        }
        if (stallDeadline != NONE) arm(stallDeadline);
    }

    /** Answers a request refused before dispatch, and decides what happens to its body. */
    private void refuse(Exchange ex, RequestGate.Verdict verdict, HttpRequest req) {
        boolean hasBody = RequestGate.hasBody(req);
        boolean close = verdict.close()
                || hasBody && (RequestGate.expectsContinue(req) // the client may never send the body
                        || HttpUtil.isTransferEncodingChunked(req) && limits.maxDrainBytes() == 0
                        || HttpUtil.getContentLength(req, 0L) > limits.maxDrainBytes());
        ex.state(Exchange.RESPONDED);
        Reply reply = server.replies.problem(ex, verdict.problem(), close, verdict.headers());
        if (close) {
            reading = CLOSED;
        } else if (hasBody) {
            reading = DISCARD;
            discarded = 0;
            drainDeadline = System.nanoTime() + timeouts.drain().toNanos();
            arm(drainDeadline);
        } else {
            reading = READ_HEAD; // its LastHttpContent follows and is ignored
        }
        onReply(ex, reply);
    }

    private void onContent(HttpContent content) {
        if (content.decoderResult().isFailure()) {
            // A malformed chunk: the framing is lost, so the connection cannot continue.
            if (reading == READ_BODY && current != null) {
                Exchange ex = current;
                current = null;
                releaseBody();
                Throwable cause = content.decoderResult().cause();
                refuseLate(ex, cause instanceof io.netty.handler.codec.TooLongFrameException
                        ? Problem.of(431, "Request Header Fields Too Large", "the trailer section exceeds "
                                + limits.maxHeaderBytes() + " bytes (maxHeaderBytes)")
                        : Problem.of(400, "Bad Request", "malformed chunked body"
                                + (cause == null || cause.getMessage() == null ? "" : ": " + printable(cause.getMessage()))));
            }
            reading = CLOSED;
            closeWhenWritten();
            return;
        }
        ByteBuf data = content.content();
        int n = data.readableBytes();
        switch (reading) {
            case READ_BODY -> {
                bodyBytes += n;
                if (bodyBytes > current.endpoint.maxBodyBytes()) {
                    Exchange ex = current;
                    current = null;
                    releaseBody();
                    reading = CLOSED;
                    refuseLate(ex, Problem.of(413, "Content Too Large", "the body exceeds the "
                            + ex.endpoint.maxBodyBytes() + "-byte limit (maxBodyBytes)"));
                    return;
                }
                if (n > 0) {
                    if (body == null) body = ctx.alloc().compositeBuffer(1024);
                    body.addComponent(true, data.retain());
                    stallDeadline = System.nanoTime() + timeouts.bodyStall().toNanos();
                }
                if (content instanceof LastHttpContent) {
                    Exchange ex = current;
                    current = null;
                    stallDeadline = NONE;
                    if (body != null) {
                        byte[] bytes = new byte[body.readableBytes()];
                        body.readBytes(bytes);
                        ex.body = bytes;
                        releaseBody();
                    }
                    reading = READ_HEAD;
                    ex.deadlineNanos = System.nanoTime() + ex.endpoint.requestTimeoutNanos();
                    arm(ex.deadlineNanos);
                    server.dispatch(ex);
                }
            }
            case DISCARD -> {
                discarded += n;
                if (discarded > limits.maxDrainBytes()) {
                    reading = CLOSED;
                    drainDeadline = NONE;
                    closeWhenWritten();
                } else if (content instanceof LastHttpContent) {
                    reading = READ_HEAD;
                    drainDeadline = NONE;
                    progress();
                }
            }
            default -> { } // a refused request's trailing LastHttpContent
        }
    }

    /** Answers the exchange being read with a problem and closes after it. */
    private void refuseLate(Exchange ex, Problem p) {
        ex.state(Exchange.RESPONDED);
        onReply(ex, server.replies.problem(ex, p, true));
    }

    private void releaseBody() {
        if (body != null) {
            body.release();
            body = null;
        }
    }

    private void sendContinue() {
        ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE, Unpooled.EMPTY_BUFFER));
    }

    // ------------------------------------------------------------------ writing

    /** Hands a reply to the connection; any thread. */
    void deliver(Exchange ex, Reply reply) {
        if (ctx.executor().inEventLoop()) {
            onReply(ex, reply);
            flushUnlessReading();
        } else {
            batcher.submit(ctx.channel(), () -> onReply(ex, reply));
        }
    }

    private void onReply(Exchange ex, Reply reply) {
        if (pending[slot(ex.seq)] != ex) { // the connection closed meanwhile
            if (reply instanceof Reply.Full f) f.response().release();
            if (reply instanceof Reply.Stream s) s.body().clientGone();
            return;
        }
        ex.reply = reply;
        progress();
    }

    /**
     * Writes every reply that is next in order, then resumes reading parked requests. Re-entrant
     * calls (an IO-mode handler answering while the backlog is drained) just ask for another pass.
     */
    private void progress() {
        if (progressing) {
            rerun = true;
            return;
        }
        progressing = true;
        try {
            do {
                rerun = false;
                writeReady();
                readBacklog();
            } while (rerun);
        } finally {
            progressing = false;
        }
    }

    private void writeReady() {
        while (outstanding > 0 && streaming == null && ctx.channel().isActive()) {
            Exchange ex = pending[slot(nextWrite)];
            if (ex == null) return;
            if (ex.reply == null) {
                if (ex.continuePending) {
                    ex.continuePending = false;
                    sendContinue();
                }
                return;
            }
            boolean close = ex.reply.close() || !ex.keepAlive
                    || server.draining && outstanding == 1 && reading == READ_HEAD && backlog.isEmpty();
            if (ex.reply instanceof Reply.Full f) {
                connectionHeader(f.response(), ex, close);
                enqueuedBytes += f.response().content().readableBytes();
                ctx.write(f.response());
                needsFlush = true;
                finish(ex);
            } else if (ex.reply instanceof Reply.Stream s) {
                connectionHeader(s.head(), ex, close);
                ex.closeAfter = close;
                ctx.write(s.head());
                needsFlush = true;
                streaming = ex;
                ex.deadlineNanos = NONE; // a stream is exempt from the request timeout once started
                flushEarlyChunks(ex);
                return;
            }
            if (close) {
                closeWhenWritten();
                return;
            }
        }
        if (outstanding == 0 && reading == READ_HEAD && ctx.channel().isActive()) {
            if (server.draining && backlog.isEmpty()) {
                closeWhenWritten();
                return;
            }
            if (!awaitingHead) {
                awaitingHead = true;
                if (decoder.midHead()) {
                    // Part of the next head came with an earlier read: the header-read timer runs.
                    headDeadline = System.nanoTime() + timeouts.headerRead().toNanos();
                    arm(headDeadline);
                } else {
                    idleDeadline = System.nanoTime() + timeouts.idle().toNanos();
                    arm(idleDeadline);
                }
            }
        }
    }

    private void finish(Exchange ex) {
        pending[slot(ex.seq)] = null;
        nextWrite++;
        outstanding--;
    }

    private void readBacklog() {
        while (!backlog.isEmpty() && reading != CLOSED) {
            Object m = backlog.peek();
            if (m instanceof HttpRequest && mustPark()) return;
            backlog.poll();
            handle(m);
        }
        if (backlog.isEmpty() && reading != CLOSED && !mustPark() && !ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    /**
     * @return whether the next request must wait: the pipelining ring is full, or the responses
     *     already produced are not draining (without this a client that pipelines and never reads
     *     would make us buffer responses without bound)
     */
    private boolean mustPark() {
        return outstanding >= pending.length || !ctx.channel().isWritable();
    }

    private static void connectionHeader(HttpResponse res, Exchange ex, boolean close) {
        if (close) {
            res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        } else if (ex.http10) {
            res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
    }

    private void closeWhenWritten() {
        reading = CLOSED;
        needsFlush = false;
        ChannelFuture written = ctx.writeAndFlush(Unpooled.EMPTY_BUFFER);
        if (server.draining) {
            written.addListener(io.netty.channel.ChannelFutureListener.CLOSE); // shutting down: no lingering
        } else {
            LingeringClose.after(written, timeouts.linger());
        }
    }

    private void flushUnlessReading() {
        if (!inRead && needsFlush) {
            needsFlush = false;
            ctx.flush();
        }
    }

    // ------------------------------------------------------------------ streaming

    /** A chunk from a {@link StreamingBody}; any thread. */
    void streamChunk(Exchange ex, ByteBuf chunk, CompletableFuture<Void> done) {
        if (ctx.executor().inEventLoop()) {
            onChunk(ex, chunk, done);
            flushUnlessReading();
        } else {
            batcher.submit(ctx.channel(), () -> onChunk(ex, chunk, done));
        }
    }

    /** The end of a {@link StreamingBody}; any thread. */
    void streamEnd(Exchange ex) {
        if (ctx.executor().inEventLoop()) {
            onStreamEnd(ex);
            flushUnlessReading();
        } else {
            batcher.submit(ctx.channel(), () -> onStreamEnd(ex));
        }
    }

    /**
     * The producer failed: what was written goes out, then the connection closes without the final
     * chunk, so the client sees a truncated body rather than one that looks complete. Any thread.
     */
    void streamAbort(Exchange ex) {
        ex.streamAborted = true;
        streamEnd(ex);
    }

    private void onChunk(Exchange ex, ByteBuf chunk, CompletableFuture<Void> done) {
        if (pending[slot(ex.seq)] != ex || !ctx.channel().isActive()) {
            chunk.release();
            done.completeExceptionally(new ClosedChannelException());
            return;
        }
        if (streaming != ex) { // its head is still waiting for earlier responses
            ex.earlyChunks().add(new EarlyChunk(chunk, done));
            return;
        }
        writeChunk(ex, chunk, done);
    }

    private void writeChunk(Exchange ex, ByteBuf chunk, CompletableFuture<Void> done) {
        enqueuedBytes += chunk.readableBytes();
        ctx.write(ex.http10 ? chunk : new DefaultHttpContent(chunk));
        needsFlush = true;
        if (ctx.channel().isWritable()) done.complete(null);
        else writabilityWaiters.add(done);
    }

    private void onStreamEnd(Exchange ex) {
        if (pending[slot(ex.seq)] != ex || !ctx.channel().isActive()) return;
        if (streaming != ex) {
            ex.streamEnded = true;
            return;
        }
        endStream(ex);
    }

    private void flushEarlyChunks(Exchange ex) {
        if (ex.hasEarlyChunks()) {
            for (EarlyChunk c : ex.earlyChunks()) writeChunk(ex, c.data(), c.done());
            ex.earlyChunks().clear();
        }
        if (ex.streamEnded) endStream(ex);
    }

    private void endStream(Exchange ex) {
        if (ex.streamAborted) {
            streaming = null;
            finish(ex);
            closeWhenWritten();
            return;
        }
        if (!ex.http10) ctx.write(LastHttpContent.EMPTY_LAST_CONTENT);
        needsFlush = true;
        streaming = null;
        finish(ex);
        if (ex.closeAfter || ex.http10) {
            closeWhenWritten();
            return;
        }
        progress();
    }

    /** A chunk written before its stream's head could go out. */
    record EarlyChunk(ByteBuf data, CompletableFuture<Void> done) {}

    // ------------------------------------------------------------------ timers

    private void arm(long deadline) {
        if (deadline == NONE || deadline >= timerAt) return;
        if (timer != null) timer.cancel(false);
        timerAt = deadline;
        long delay = Math.max(0, deadline - System.nanoTime());
        timer = ctx.executor().schedule(this::onTimer, delay, TimeUnit.NANOSECONDS);
    }

    private void onTimer() {
        timer = null;
        timerAt = NONE;
        if (!ctx.channel().isActive()) return;
        long now = System.nanoTime();
        if (awaitingHead && outstanding == 0) {
            long d = headDeadline != NONE ? headDeadline : idleDeadline;
            // A connection whose last response is still going out is not idle: the write watch decides.
            if (d <= now && (headDeadline != NONE || ctx.channel().isWritable())) {
                // Idle keep-alive, or a head that never finished (slowloris): close silently.
                reading = CLOSED;
                ctx.close();
                return;
            }
        }
        if (writeWatchDeadline <= now) {
            long pendingNow = pendingBytes();
            long drained = pendingAtWatch + (enqueuedBytes - enqueuedAtWatch) - pendingNow;
            if (ctx.channel().isWritable() || pendingNow == 0) {
                writeWatchDeadline = NONE;
            } else if (drained > 0) {
                startWriteWatch(now); // slow, but the client is reading
            } else {
                LOG.debug("connection {}: no response byte taken for {} ms (writeStallTimeout), closing", ctx.channel(),
                        timeouts.writeStall().toMillis());
                reading = CLOSED;
                ctx.close();
                return;
            }
        }
        if (reading == READ_BODY && stallDeadline <= now && current != null) {
            Exchange ex = current;
            current = null;
            releaseBody();
            stallDeadline = NONE;
            refuseLate(ex, Problem.of(408, "Request Timeout", "no body bytes for "
                    + timeouts.bodyStall().toMillis() + " ms (bodyStallTimeout)"));
        }
        if (reading == DISCARD && drainDeadline <= now) {
            drainDeadline = NONE;
            closeWhenWritten();
        }
        for (Exchange ex : pending) {
            if (ex != null && ex.reply == null && ex.deadlineNanos <= now
                    && ex.casState(Exchange.RUNNING, Exchange.TIMED_OUT)) {
                ex.abandon();
                onReply(ex, server.replies.problem(ex, Problem.of(504, "Gateway Timeout",
                        "the handler did not answer within " + ex.endpoint.requestTimeoutNanos() / 1_000_000
                                + " ms (requestTimeout)"), false));
            }
        }
        flushUnlessReading();
        long next = NONE;
        // While a response is still going out, idleness waits for it (channelWritabilityChanged restarts it).
        if (awaitingHead && outstanding == 0) next = Math.min(headDeadline, ctx.channel().isWritable() ? idleDeadline : NONE);
        if (reading == READ_BODY) next = Math.min(next, stallDeadline);
        if (reading == DISCARD) next = Math.min(next, drainDeadline);
        next = Math.min(next, writeWatchDeadline);
        for (Exchange ex : pending) {
            if (ex != null && ex.reply == null && ex.isRunning()) next = Math.min(next, ex.deadlineNanos);
        }
        if (next != NONE && ctx.channel().isActive()) arm(next);
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder(Math.min(s.length(), 120));
        for (int i = 0; i < s.length() && b.length() < 120; i++) {
            char c = s.charAt(i);
            b.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return b.toString();
    }

    private int slot(int seq) {
        return Math.floorMod(seq, pending.length);
    }
}
