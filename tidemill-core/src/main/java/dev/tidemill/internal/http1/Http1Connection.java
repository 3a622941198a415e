package dev.tidemill.internal.http1;

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
import io.netty.util.ReferenceCountUtil;
import java.net.SocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HTTP/1.1 connection, the last handler of its pipeline: the state machine that reads a
 * request (head, checks, body), opens an {@link Exchange} for it with the connection's
 * {@link ReplyWriter} as its sink, and hands it to dispatch. Event-loop confined.
 *
 * <p>What it drives is in parts that own their state: {@link ReplyRing} (the pipelined exchanges
 * and the {@code maxPipelined} invariant), {@link ReplyWriter} (the sink: replies written in
 * order, streams, the close), {@link BodyPhase} (what is read between heads: a body gathered,
 * streamed or discarded, and the reading state), {@link Backlog} (messages parked while the client
 * is not reading), {@link ConnectionDeadlines} (one timer for every deadline),
 * {@link WriteStallWatch} (slow read), {@link HeadFraming} and {@link HeadChecks} and the
 * {@link RouteGate} (the head, read once, and its checks), {@link UpgradeHandoff} (a request that
 * asks to switch protocols). What this class keeps itself is where the connection is between
 * heads: idle, holding part of a head, or past its last request.
 */
final class Http1Connection extends ChannelInboundHandlerAdapter implements ReplyWriter.Reading, ConnectionDeadlines.Expiry {
    private static final Logger LOG = LoggerFactory.getLogger(Http1Connection.class);

    private final ExchangeContext server;
    private final RouteGate gate;
    private final HeadChecks checks;
    private final ReplyWriter writer;
    private final Timeouts timeouts;
    private final ReplyRing ring;
    private final UpgradeHandoff upgrade;
    private final WriteStallWatch writeWatch = new WriteStallWatch();
    private final Backlog backlog = new Backlog();
    private final BodyPhase phase;
    private ChannelHandlerContext ctx;
    private ConnectionDeadlines deadlines;
    private SocketAddress remote;
    /** What TLS established for this connection (set before this handler was added), or null over plain HTTP. */
    private dev.tidemill.internal.exchange.TransportSecurity security;

    private boolean awaitingHead = true; // every reply written, no head yet: idle (or reading a head)
    /** The decoder holds part of the next head (it said so with {@link RequestDecoder#PARTIAL_HEAD}). */
    private boolean partialHead;
    /** A request without keep-alive was read: nothing after it may be processed (RFC 9112 9.6). */
    private boolean lastRequestRead;
    /** A head's caller is being authenticated off the loop: what arrives meanwhile waits in the backlog. */
    private boolean admitting;

    Http1Connection(ExchangeContext server, HeadChecks checks, ResponseEncoder encoder, ResponseBatcher batcher,
            RequestDecoder decoder, FileSends fileSends) {
        this.server = server;
        this.upgrade = new UpgradeHandoff(decoder);
        this.gate = server.gate();
        this.timeouts = server.config().timeouts();
        this.checks = checks;
        this.ring = new ReplyRing(server.config().limits().maxPipelined());
        this.writer = new ReplyWriter(server, encoder, batcher, ring, writeWatch, fileSends);
        this.phase = new BodyPhase(server, writer, ring, backlog);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.deadlines = new ConnectionDeadlines(ctx.executor(), this);
        this.writer.attach(ctx, this);
        this.phase.attach(ctx, deadlines);
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
        if (server.draining()) closeWhenIdle(); // accepted before the listener closed: a request may be on its way
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        phase.connectionClosed();
        backlog.release();
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
            // Busy: the last answer carries Connection: close (ReplyWriter). Idle: not closed at once, which would cut
            // off a request already on its way, but once idle for shutdownIdle; a request before then is answered
            // with Connection: close (keep-alive is off while draining).
            if (ring.outstanding() == 0 && awaitingHead && !partialHead && !parked()) closeWhenIdle();
            return;
        }
        if (evt instanceof ChannelInputShutdownEvent) {
            // The client's FIN: it cannot be told from a client that left, and noticing departures matters more than a
            // rare half-closing client. Replies already produced are flushed; what is in flight is abandoned.
            phase.inputShutdown();
            writer.closeWhenWritten();
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!writer.reading(true)) deadlines.readBegan(); // the first message of this read
        if (phase.closed()) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (admitting || parked() || (msg instanceof HttpRequest && mustPark())) {
            backlog.park(msg, ctx.channel()); // pipelining cap reached, or the client is not reading our responses
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
                phase.close(); // pipelined after a "Connection: close" request: never processed
                return;
            }
            if (msg instanceof HttpRequest req) onHead(req);
            // a head and its whole body in one message, waiting for admission: the body goes on with it (awaitAdmission)
            if (msg instanceof HttpContent content && !phase.closed() && !admitting) phase.content(content);
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
        if (http10) ex.protocol("HTTP/1.0");
        ex.arrived(deadlines.nowAsSystemNanos()); // the read's start, already read: no clock read per request
        ring.add(ex, (http10 ? ReplyRing.HTTP10 : 0) | (keepAlive ? ReplyRing.KEEP_ALIVE : 0));
        if (!keepAlive) lastRequestRead = true;
        upgrade.headRead(ex, ctx);
        Verdict verdict = checks.check(req, http10);
        if (verdict == null) verdict = gate.route(ex, Math.max(0, framing.declaredLength()));
        if (verdict == null) verdict = HeadChecks.expect(framing);
        if (verdict == null) verdict = gate.bind(ex, req.headers());
        if (verdict == Verdict.PENDING) {
            awaitAdmission(ex, req, framing);
            return;
        }
        proceed(ex, req, framing, verdict);
    }

    /**
     * The caller is authenticated off the loop (a key fetch): reading stops, what arrives meanwhile
     * waits in the backlog, and the request goes on from here once the verdict is back.
     */
    private void awaitAdmission(Exchange ex, HttpRequest req, HeadFraming framing) {
        admitting = true;
        ctx.channel().config().setAutoRead(false);
        // A small request comes as one message, head and body: the body is kept until the verdict (handle releases the message).
        HttpContent body = req instanceof HttpContent c ? c.retain() : null;
        gate.admission(ex).whenComplete((verdict, failure) -> ctx.executor().execute(() -> {
            admitting = false;
            try {
                if (!phase.closed()) {
                    proceed(ex, req, framing, failure == null ? verdict
                            : new Verdict(dev.tidemill.Problem.of(500, "Internal Server Error", "authenticating the caller failed"), true));
                    if (body != null && !phase.closed()) phase.content(body);
                }
            } finally {
                if (body != null) body.release();
            }
            readBacklog();
        }));
    }

    private void proceed(Exchange ex, HttpRequest req, HeadFraming framing, Verdict verdict) {
        if (verdict != null) {
            phase.refuse(ex, verdict, framing);
        } else if (ex.endpoint().route().streamsBody()) {
            phase.stream(ex, req, framing);
        } else {
            phase.readWhole(ex, framing);
        }
    }

    private void readBacklog() {
        if (admitting) return;
        while (parked() && !phase.closed()) {
            Object m = backlog.peek();
            if (m instanceof HttpRequest && mustPark()) return;
            backlog.poll();
            handle(m);
        }
        if (!parked() && phase.mayRead() && !upgrade.pending() && !mustPark() && !ctx.channel().config().isAutoRead()) {
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
        return phase.betweenRequests();
    }

    @Override
    public boolean parked() {
        return backlog.any();
    }

    @Override
    public void resume() {
        upgrade.answered(ring);
        readBacklog();
    }

    @Override
    public void takeOver(ConnectionTakeover takeover) {
        phase.close();
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
        if (server.draining() && !partialHead && !parked()) closeWhenIdle();
    }

    @Override
    public void stop() {
        phase.close();
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
            case BODY_STALL -> phase.stalled();
            case DRAIN -> phase.drainExpired();
            case REQUEST -> {
                long next = ring.expire(now);
                if (next != ReplyRing.NONE) deadlines.set(Kind.REQUEST, next);
            }
        }
    }

    /** Draining: the idle deadline comes no later than {@code shutdownIdle} from now. */
    private void closeWhenIdle() {
        long at = deadlines.now() + timeouts.shutdownIdle().toNanos();
        if (!deadlines.running(Kind.IDLE) || deadlines.get(Kind.IDLE) > at) deadlines.set(Kind.IDLE, at);
    }

    private void close() {
        phase.close();
        ctx.close();
    }

    private void startWriteWatch() {
        writeWatch.start(ctx.channel());
        deadlines.after(Kind.WRITE_STALL, timeouts.writeStall().toNanos());
    }
}
