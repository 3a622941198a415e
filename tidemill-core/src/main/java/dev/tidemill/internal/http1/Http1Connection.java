package dev.tidemill.internal.http1;

import dev.tidemill.Limits;
import dev.tidemill.Problem;
import dev.tidemill.Timeouts;
import dev.tidemill.internal.dispatch.ResponseBatcher;
import dev.tidemill.internal.exchange.ConnectionTakeover;
import dev.tidemill.internal.exchange.Exchange;
import dev.tidemill.internal.exchange.ExchangeContext;
import dev.tidemill.internal.exchange.RequestTarget;
import dev.tidemill.internal.exchange.RouteGate;
import dev.tidemill.internal.exchange.ServerEvents;
import dev.tidemill.internal.exchange.Verdict;
import dev.tidemill.internal.http1.ConnectionDeadlines.Kind;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.net.SocketAddress;
import java.util.ArrayDeque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HTTP/1.1 connection, the last handler of its pipeline: the state machine that reads a
 * request (head, checks, body), opens an {@link Exchange} for it with the connection's
 * {@link ReplyWriter} as its sink, and hands it to dispatch. Event-loop confined.
 *
 * <p>What it drives is in parts that own their state: {@link ReplyRing} (the pipelined exchanges
 * and the {@code maxPipelined} invariant), {@link ReplyWriter} (the sink: replies written in
 * order, streams, the close), {@link BodyReader} (reading or discarding a body),
 * {@link ConnectionDeadlines} (one timer for every deadline), {@link WriteStallWatch} (slow read),
 * {@link Refusals} (what follows a refusal), {@link HeadChecks} and the {@link RouteGate} (the
 * checks), {@link UpgradeHandoff} (a request that asks to switch protocols). The states: reading a
 * head, reading a body, discarding a refused body, closed.
 */
final class Http1Connection extends ChannelInboundHandlerAdapter
        implements ReplyWriter.Reading, ConnectionDeadlines.Expiry, Http1RequestBody.Owner {
    private static final Logger LOG = LoggerFactory.getLogger(Http1Connection.class);

    /** The states (see the class documentation). */
    private static final int READ_HEAD = 0, READ_BODY = 1, DISCARD = 2, CLOSED = 3, STREAM_BODY = 4;

    private final ExchangeContext server;
    private final RouteGate gate;
    private final HeadChecks checks;
    private final ReplyWriter writer;
    private final Limits limits;
    private final Timeouts timeouts;
    private final ReplyRing ring;
    private final UpgradeHandoff upgrade;
    private final BodyReader body = new BodyReader();
    private final WriteStallWatch writeWatch = new WriteStallWatch();
    private ArrayDeque<Object> backlog; // parked messages; created when a first one parks
    private ChannelHandlerContext ctx;
    private ConnectionDeadlines deadlines;
    private SocketAddress remote;
    /** What TLS established for this connection (set before this handler was added), or null over plain HTTP. */
    private dev.tidemill.internal.exchange.TransportSecurity security;

    private int reading = READ_HEAD;
    private Exchange current; // the exchange whose body is being read
    private Http1RequestBody streaming; // the streamed body being read (STREAM_BODY)
    private boolean awaitingHead = true; // every reply written, no head yet: idle (or reading a head)
    /** The decoder holds part of the next head (it said so with {@link RequestDecoder#PARTIAL_HEAD}). */
    private boolean partialHead;
    /** A request without keep-alive was read: nothing after it may be processed (RFC 9112 9.6). */
    private boolean lastRequestRead;

    Http1Connection(ExchangeContext server, HeadChecks checks, ResponseEncoder encoder, ResponseBatcher batcher,
            RequestDecoder decoder, FileSends fileSends) {
        this.server = server;
        this.upgrade = new UpgradeHandoff(decoder);
        this.gate = server.gate();
        this.limits = server.config().limits();
        this.timeouts = server.config().timeouts();
        this.checks = checks;
        this.ring = new ReplyRing(limits.maxPipelined());
        this.writer = new ReplyWriter(server, encoder, batcher, ring, writeWatch, fileSends);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.deadlines = new ConnectionDeadlines(ctx.executor(), this);
        this.writer.attach(ctx, this);
    }

    /** Removed before it read anything (the connection turned out to speak HTTP/2): its timers go with it. */
    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        deadlines.cancel();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        remote = ctx.channel().remoteAddress();
        security = ctx.channel().attr(dev.tidemill.internal.exchange.TransportSecurity.KEY).get();
        deadlines.after(Kind.IDLE, timeouts.idle().toNanos());
        if (server.draining()) ctx.close();
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        reading = CLOSED;
        body.release();
        if (streaming != null) {
            streaming.stop();
            streaming.stream().fail(Problem.of(400, "Bad Request", "the client closed the connection before the body's end"));
            streaming = null;
        }
        if (backlog != null) for (Object m; (m = backlog.poll()) != null; ) ReferenceCountUtil.release(m);
        writer.closed();
        deadlines.cancel();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("connection {} failed", ctx.channel(), cause);
        ctx.close();
    }

    /**
     * Unwritable: the client is not taking our responses as fast as we produce them. Reading stops
     * at the next request ({@link #mustPark}) and the write watch starts. Writable again: streams
     * resume, parked requests are read, and an idle period may start.
     */
    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            deadlines.clear(Kind.WRITE_STALL);
            if (awaitingHead && ring.outstanding() == 0 && !deadlines.running(Kind.HEADER_READ)) {
                deadlines.after(Kind.IDLE, timeouts.idle().toNanos()); // idle from when the response drained
            }
            writer.writable();
        } else if (!deadlines.running(Kind.WRITE_STALL)) {
            startWriteWatch();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt == RequestDecoder.PARTIAL_HEAD) {
            partialHead = true;
            if (awaitingHead && !deadlines.running(Kind.HEADER_READ)) {
                deadlines.clear(Kind.IDLE);
                deadlines.after(Kind.HEADER_READ, timeouts.headerRead().toNanos());
            }
            return;
        }
        if (evt == ServerEvents.DRAIN) {
            if (ring.outstanding() == 0 && awaitingHead && !partialHead && !parked()) ctx.close();
            return;
        }
        if (evt instanceof ChannelInputShutdownEvent) {
            // The client's FIN: it cannot be told from a client that left, and noticing departures matters more than a
            // rare half-closing client. Replies already produced are flushed; what is in flight is abandoned.
            if (reading == STREAM_BODY) {
                streamFailed(Problem.of(400, "Bad Request", "the client ended its side of the connection before the body's end"));
            }
            writer.closeWhenWritten();
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!writer.reading(true)) deadlines.readBegan(); // the first message of this read
        if (reading == CLOSED) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (parked() || (msg instanceof HttpRequest && mustPark())) {
            // Pipelining cap reached, or the client is not reading our responses: park the message
            // and stop reading the socket, so TCP pushes back on the client. What is parked is
            // bounded by one read's worth of bytes.
            if (backlog == null) backlog = new ArrayDeque<>(4);
            backlog.add(msg);
            ctx.channel().config().setAutoRead(false);
            return;
        }
        handle(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        writer.reading(false);
        deadlines.readEnded();
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
        partialHead = false;
        deadlines.clear(Kind.IDLE);
        deadlines.clear(Kind.HEADER_READ);
        HeadFraming framing = HeadFraming.of(req);
        boolean http10 = framing.http10();
        if (http10) UpgradeHandoff.ignoreUpgrade(req);
        boolean keepAlive = framing.keepAlive() && !server.draining();
        String uri = req.uri();
        Exchange ex = new Exchange(server, writer, ring.nextId(), req.method().name(), uri, RequestTarget.rawPath(uri),
                req.headers(), HttpMethod.HEAD.equals(req.method()), remote);
        if (security != null) ex.secured(security);
        ex.arrived(deadlines.nowAsSystemNanos()); // the read's start, already read: no clock read per request
        ring.add(ex, (http10 ? ReplyRing.HTTP10 : 0) | (keepAlive ? ReplyRing.KEEP_ALIVE : 0));
        if (!keepAlive) lastRequestRead = true;
        upgrade.headRead(ex, ctx);
        Verdict verdict = checks.check(req, http10);
        if (verdict == null) verdict = gate.route(ex, Math.max(0, framing.declaredLength()));
        if (verdict == null) verdict = HeadChecks.expect(framing);
        if (verdict == null) verdict = gate.bind(ex, req.headers());
        if (verdict != null) {
            refuse(ex, verdict, framing);
            return;
        }
        if (ex.endpoint().route().streamsBody()) {
            stream(ex, req, framing);
            return;
        }
        current = ex;
        reading = READ_BODY;
        body.read(ex.endpoint().maxBodyBytes());
        if (framing.hasBody()) deadlines.after(Kind.BODY_STALL, timeouts.bodyStall().toNanos());
        if (framing.expectsContinue()) writer.continueWhenNext(ex);
    }

    /**
     * A streamed route: dispatched now, its body read as the handler asks ({@link Http1RequestBody});
     * until it does, the socket is not read.
     */
    private void stream(Exchange ex, HttpRequest req, HeadFraming framing) {
        long declared = framing.streamedLength();
        Http1RequestBody s = new Http1RequestBody(ctx, this, ex, limits.bodyHighWaterBytes(), ex.endpoint().maxBodyBytes(),
                declared, framing.expectsContinue(), server.bodyBytesHeld());
        ex.bodyStream(s.stream(), declared);
        boolean whole = req instanceof LastHttpContent;
        if (whole) {
            // The whole body came with the head (a small body in one read): it goes into the stream before the handler
            // runs, so the handler finds it there and ends without waiting, asking for more or a task on this loop;
            // nothing is held back from the socket either (toggling its read interest costs two epoll_ctl calls).
            // reading stays READ_HEAD: handle() passes this same message to onContent, which must not feed it again.
            s.whole((LastHttpContent) req);
        } else if (framing.hasBody()) {
            streaming = s;
            current = ex;
            reading = STREAM_BODY;
            ctx.channel().config().setAutoRead(false); // nothing more is read until the reader asks
        } else {
            s.stop();
            s.stream().end();
        }
        requestDeadline(ex);
        server.dispatch(ex);
        if (whole) s.stream().settle(); // what the handler did not take at once stops pinning the read buffer
    }

    /** The request timeout runs from now (a streamed body's: from the last piece its reader took). */
    private void requestDeadline(Exchange ex) {
        long at = deadlines.now() + ex.endpoint().requestTimeoutNanos();
        ring.deadline(ex, at);
        if (at < deadlines.get(Kind.REQUEST)) deadlines.set(Kind.REQUEST, at);
    }

    @Override
    public void resumed(Http1RequestBody s, boolean sendContinue) {
        if (streaming != s || reading != STREAM_BODY) return;
        if (sendContinue) writer.continueWhenNext(s.exchange());
        deadlines.after(Kind.BODY_STALL, timeouts.bodyStall().toNanos());
        if (!parked() && !ctx.channel().config().isAutoRead()) ctx.channel().config().setAutoRead(true);
    }

    @Override
    public void abandoned(Http1RequestBody s) {
        if (streaming != s || reading != STREAM_BODY) return;
        streaming = null;
        current = null;
        deadlines.clear(Kind.BODY_STALL);
        long remaining = s.remaining();
        long drain = limits.maxDrainBytes();
        if (s.continueOwed() || remaining > drain || remaining < 0 && drain == 0) {
            // The client may be waiting for a 100 that will not come, or the rest is too long to read for nothing.
            reading = CLOSED;
            closeAfter(s.exchange());
            return;
        }
        reading = DISCARD;
        body.discard(drain);
        deadlines.after(Kind.DRAIN, timeouts.drain().toNanos());
        if (!parked() && !ctx.channel().config().isAutoRead()) ctx.channel().config().setAutoRead(true);
    }

    /** The streamed body cannot go on: its reader and, unless it answered, the client are told; the connection closes. */
    private void streamFailed(Problem p) {
        Http1RequestBody s = streaming;
        streaming = null;
        current = null;
        reading = CLOSED;
        s.stop();
        deadlines.clear(Kind.BODY_STALL);
        Exchange ex = s.exchange();
        closeAfter(ex);
        ex.failBody(p, true);
    }

    /** The connection closes once {@code ex}'s reply is written (at once if it was). */
    private void closeAfter(Exchange ex) {
        if (ring.holds(ex)) ring.clearFlag(ex, ReplyRing.KEEP_ALIVE);
        else writer.closeWhenWritten();
    }

    /** Answers a request refused before dispatch, and decides what happens to its body. */
    private void refuse(Exchange ex, Verdict verdict, HeadFraming framing) {
        Refusals.Next next = Refusals.after(verdict, framing, limits.maxDrainBytes());
        switch (next) {
            case CLOSE -> reading = CLOSED;
            case DISCARD_BODY -> {
                reading = DISCARD;
                body.discard(limits.maxDrainBytes());
                deadlines.after(Kind.DRAIN, timeouts.drain().toNanos());
            }
            case READ_NEXT -> reading = READ_HEAD; // its LastHttpContent follows and is ignored
        }
        ex.refuse(verdict, next == Refusals.Next.CLOSE);
    }

    private void onContent(HttpContent content) {
        if (content.decoderResult().isFailure()) {
            // A malformed chunk: the framing is lost, so the connection cannot continue.
            Exchange ex = current;
            if (reading == READ_BODY && ex != null) {
                Throwable cause = content.decoderResult().cause();
                refuseLate(ex, Refusals.malformedBody(cause, limits.maxHeaderBytes()));
            } else if (reading == STREAM_BODY) {
                streamFailed(Refusals.malformedBody(content.decoderResult().cause(), limits.maxHeaderBytes()));
            } else {
                writer.closeWhenWritten();
            }
            return;
        }
        switch (reading) {
            case READ_BODY -> {
                BodyReader.Outcome outcome = body.feed(content, ctx.alloc());
                if (outcome == BodyReader.Outcome.TOO_LARGE) {
                    refuseLate(current, Refusals.bodyTooLarge(current.endpoint().maxBodyBytes()));
                    return;
                }
                if (body.lastPiece() > 0) deadlines.after(Kind.BODY_STALL, timeouts.bodyStall().toNanos());
                if (outcome == BodyReader.Outcome.COMPLETE) {
                    Exchange ex = current;
                    current = null;
                    deadlines.clear(Kind.BODY_STALL);
                    ex.body(body.take());
                    reading = READ_HEAD;
                    requestDeadline(ex);
                    server.dispatch(ex);
                }
            }
            case STREAM_BODY -> {
                Http1RequestBody s = streaming;
                switch (s.piece(content)) {
                    case TOO_LARGE -> streamFailed(Refusals.bodyTooLarge(s.exchange().endpoint().maxBodyBytes()));
                    case COMPLETE -> {
                        streaming = null;
                        current = null;
                        reading = READ_HEAD;
                        deadlines.clear(Kind.BODY_STALL);
                        if (ring.holds(s.exchange())) requestDeadline(s.exchange());
                        // The whole body is in the stream now: the socket is the next request's again.
                        if (!parked() && !mustPark() && !ctx.channel().config().isAutoRead()) {
                            ctx.channel().config().setAutoRead(true);
                        }
                    }
                    case MORE -> {
                        if (content.content().isReadable()) {
                            if (ring.holds(s.exchange())) requestDeadline(s.exchange());
                            if (s.paused()) deadlines.clear(Kind.BODY_STALL); // the reader's turn, not the client's
                            else deadlines.after(Kind.BODY_STALL, timeouts.bodyStall().toNanos());
                        }
                    }
                }
            }
            case DISCARD -> {
                BodyReader.Outcome outcome = body.skip(content);
                if (outcome == BodyReader.Outcome.TOO_LARGE) {
                    deadlines.clear(Kind.DRAIN);
                    writer.closeWhenWritten();
                } else if (outcome == BodyReader.Outcome.COMPLETE) {
                    reading = READ_HEAD;
                    deadlines.clear(Kind.DRAIN);
                    writer.progress();
                }
            }
            default -> { } // a refused request's trailing LastHttpContent
        }
    }

    /** Answers the exchange whose body is being read with a problem, and closes after it. */
    private void refuseLate(Exchange ex, Problem p) {
        current = null;
        reading = CLOSED;
        body.release();
        deadlines.clear(Kind.BODY_STALL);
        ex.refuse(p, true);
    }

    private void readBacklog() {
        while (parked() && reading != CLOSED) {
            Object m = backlog.peek();
            if (m instanceof HttpRequest && mustPark()) return;
            backlog.poll();
            handle(m);
        }
        if (!parked() && reading != CLOSED && !upgrade.pending() && !mustPark() && !ctx.channel().config().isAutoRead()
                && !(reading == STREAM_BODY && streaming.paused())) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    /**
     * @return whether the next request must wait: the ring is full, or the responses already
     *     produced are not draining (without this a client that pipelines and never reads would
     *     make us buffer responses without bound)
     */
    private boolean mustPark() {
        return ring.full() || !ctx.channel().isWritable();
    }

    @Override
    public boolean betweenRequests() {
        return reading == READ_HEAD;
    }

    @Override
    public boolean parked() {
        return backlog != null && !backlog.isEmpty();
    }

    @Override
    public void resume() {
        upgrade.answered(ring);
        readBacklog();
    }

    @Override
    public void takeOver(ConnectionTakeover takeover) {
        reading = CLOSED;
        deadlines.cancel();
        upgrade.takeOver(ctx, takeover, this);
    }

    @Override
    public void drained() {
        if (awaitingHead) return;
        awaitingHead = true;
        // Part of the next head came with an earlier read: the header-read timer runs.
        if (partialHead) deadlines.after(Kind.HEADER_READ, timeouts.headerRead().toNanos());
        else deadlines.after(Kind.IDLE, timeouts.idle().toNanos());
    }

    @Override
    public void stop() {
        reading = CLOSED;
    }

    @Override
    public void expired(Kind kind, long now) {
        if (!ctx.channel().isActive()) return;
        switch (kind) {
            case IDLE -> {
                // A connection whose last response is still going out is not idle: the write watch
                // decides, and idleness restarts when it drains (channelWritabilityChanged).
                if (awaitingHead && ring.outstanding() == 0 && ctx.channel().isWritable()) close();
            }
            case HEADER_READ -> {
                if (awaitingHead && ring.outstanding() == 0) close(); // a head that never finished (slowloris)
            }
            case WRITE_STALL -> {
                switch (writeWatch.check(ctx.channel())) {
                    case CLEAR -> { }
                    case READING -> startWriteWatch(); // slow, but the client is reading
                    case STALLED -> {
                        LOG.debug("connection {}: no response byte taken for {} ms (writeStallTimeout), closing",
                                ctx.channel(), timeouts.writeStall().toMillis());
                        close();
                    }
                }
            }
            case BODY_STALL -> {
                if (reading == READ_BODY && current != null) {
                    refuseLate(current, Refusals.bodyStalled(timeouts.bodyStall().toMillis()));
                } else if (reading == STREAM_BODY && !streaming.paused()) {
                    streamFailed(Refusals.bodyStalled(timeouts.bodyStall().toMillis()));
                }
            }
            case DRAIN -> {
                if (reading == DISCARD) writer.closeWhenWritten();
            }
            case REQUEST -> {
                long next = ring.expire(now);
                if (next != ReplyRing.NONE) deadlines.set(Kind.REQUEST, next);
            }
        }
    }

    private void close() {
        reading = CLOSED;
        ctx.close();
    }

    private void startWriteWatch() {
        writeWatch.start(ctx.channel());
        deadlines.after(Kind.WRITE_STALL, timeouts.writeStall().toNanos());
    }
}
