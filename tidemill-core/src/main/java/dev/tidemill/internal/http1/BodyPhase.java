package dev.tidemill.internal.http1;

import dev.tidemill.Limits;
import dev.tidemill.Problem;
import dev.tidemill.Timeouts;
import dev.tidemill.internal.exchange.Exchange;
import dev.tidemill.internal.exchange.ExchangeContext;
import dev.tidemill.internal.exchange.Verdict;
import dev.tidemill.internal.http1.ConnectionDeadlines.Kind;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * What an HTTP/1.1 connection is reading between heads, and the body it reads: a whole body
 * gathered for its handler ({@link BodyReader}), a streamed body handed to its reader as it asks
 * ({@link Http1RequestBody}), or a refused request's body discarded within {@code maxDrainBytes};
 * and when the request timeout starts for each. {@link Http1Connection} reads the heads and hands
 * each routed one here; this part owns the reading state, the exchange whose body is being read
 * and the body's deadlines (body stall, drain). Event-loop confined.
 */
final class BodyPhase implements Http1RequestBody.Owner {
    /** The states: between heads, reading a whole body, discarding a refused body, closed, streaming a body. */
    private static final int READ_HEAD = 0, READ_BODY = 1, DISCARD = 2, CLOSED = 3, STREAM_BODY = 4;

    private final ExchangeContext server;
    private final ReplyWriter writer;
    private final ReplyRing ring;
    private final Backlog backlog;
    private final Limits limits;
    private final Timeouts timeouts;
    private final BodyReader body = new BodyReader();
    private ChannelHandlerContext ctx;
    private ConnectionDeadlines deadlines;

    private int state = READ_HEAD;
    private Exchange current; // the exchange whose body is being read
    private Http1RequestBody streaming; // the streamed body being read (STREAM_BODY)

    BodyPhase(ExchangeContext server, ReplyWriter writer, ReplyRing ring, Backlog backlog) {
        this.server = server;
        this.writer = writer;
        this.ring = ring;
        this.backlog = backlog;
        this.limits = server.config().limits();
        this.timeouts = server.config().timeouts();
    }

    void attach(ChannelHandlerContext ctx, ConnectionDeadlines deadlines) {
        this.ctx = ctx;
        this.deadlines = deadlines;
    }

    /** @return whether nothing more is read on this connection */
    boolean closed() {
        return state == CLOSED;
    }

    /** @return whether the next message is a head (no body is being read) */
    boolean betweenRequests() {
        return state == READ_HEAD;
    }

    /** Nothing more is read on this connection. */
    void close() {
        state = CLOSED;
    }

    /** @return whether the socket may be read again as far as the body goes (a paused stream's reader has not asked) */
    boolean mayRead() {
        return state != CLOSED && !(state == STREAM_BODY && streaming.paused());
    }

    /** A routed head whose handler takes the whole body: it is gathered, then the exchange is dispatched. */
    void readWhole(Exchange ex, HeadFraming framing) {
        current = ex;
        state = READ_BODY;
        body.read(ex.endpoint().maxBodyBytes());
        if (framing.hasBody()) deadlines.after(Kind.BODY_STALL, timeouts.bodyStall().toNanos());
        if (framing.expectsContinue()) writer.continueWhenNext(ex);
    }

    /**
     * A streamed route: dispatched now, its body read as the handler asks ({@link Http1RequestBody});
     * until it does, the socket is not read.
     */
    void stream(Exchange ex, HttpRequest req, HeadFraming framing) {
        long declared = framing.streamedLength();
        Http1RequestBody s = new Http1RequestBody(ctx, this, ex, limits.bodyHighWaterBytes(), ex.endpoint().maxBodyBytes(),
                declared, framing.expectsContinue(), server.bodyBytesHeld());
        ex.bodyStream(s.stream(), declared);
        boolean whole = req instanceof LastHttpContent;
        if (whole) {
            // The whole body came with the head (a small body in one read): it goes into the stream before the handler
            // runs, so the handler finds it there and ends without waiting, asking for more or a task on this loop;
            // nothing is held back from the socket either (toggling its read interest costs two epoll_ctl calls).
            // The state stays READ_HEAD: the connection passes this same message to content(), which must not feed it again.
            s.whole((LastHttpContent) req);
        } else if (framing.hasBody()) {
            streaming = s;
            current = ex;
            state = STREAM_BODY;
            ctx.channel().config().setAutoRead(false); // nothing more is read until the reader asks
        } else {
            s.stop();
            s.stream().end();
        }
        requestDeadline(ex);
        server.dispatch(ex);
        if (whole) s.stream().settle(); // what the handler did not take at once stops pinning the read buffer
    }

    /** Answers a request refused before dispatch, and decides what happens to its body. */
    void refuse(Exchange ex, Verdict verdict, HeadFraming framing) {
        Refusals.Next next = Refusals.after(verdict, framing, limits.maxDrainBytes());
        switch (next) {
            case CLOSE -> state = CLOSED;
            case DISCARD_BODY -> {
                state = DISCARD;
                body.discard(limits.maxDrainBytes());
                deadlines.after(Kind.DRAIN, timeouts.drain().toNanos());
            }
            case READ_NEXT -> state = READ_HEAD; // its LastHttpContent follows and is ignored
        }
        ex.refuse(verdict, next == Refusals.Next.CLOSE);
    }

    /** The request timeout runs from now (a streamed body's: from the last piece its reader took). */
    private void requestDeadline(Exchange ex) {
        long at = deadlines.now() + ex.endpoint().requestTimeoutNanos();
        ring.deadline(ex, at);
        if (at < deadlines.get(Kind.REQUEST)) deadlines.set(Kind.REQUEST, at);
    }

    @Override
    public void resumed(Http1RequestBody s, boolean sendContinue) {
        if (streaming != s || state != STREAM_BODY) return;
        if (sendContinue) writer.continueWhenNext(s.exchange());
        deadlines.after(Kind.BODY_STALL, timeouts.bodyStall().toNanos());
        if (!backlog.any() && !ctx.channel().config().isAutoRead()) ctx.channel().config().setAutoRead(true);
    }

    @Override
    public void abandoned(Http1RequestBody s) {
        if (streaming != s || state != STREAM_BODY) return;
        streaming = null;
        current = null;
        deadlines.clear(Kind.BODY_STALL);
        long remaining = s.remaining();
        long drain = limits.maxDrainBytes();
        if (s.continueOwed() || remaining > drain || remaining < 0 && drain == 0) {
            // The client may be waiting for a 100 that will not come, or the rest is too long to read for nothing.
            state = CLOSED;
            closeAfter(s.exchange());
            return;
        }
        state = DISCARD;
        body.discard(drain);
        deadlines.after(Kind.DRAIN, timeouts.drain().toNanos());
        if (!backlog.any() && !ctx.channel().config().isAutoRead()) ctx.channel().config().setAutoRead(true);
    }

    /** The streamed body cannot go on: its reader and, unless it answered, the client are told; the connection closes. */
    private void streamFailed(Problem p) {
        Http1RequestBody s = streaming;
        streaming = null;
        current = null;
        state = CLOSED;
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

    /** @param content a piece of the body being read (or a refused request's trailing end) */
    void content(HttpContent content) {
        if (content.decoderResult().isFailure()) {
            // A malformed chunk: the framing is lost, so the connection cannot continue.
            Exchange ex = current;
            if (state == READ_BODY && ex != null) {
                refuseLate(ex, Refusals.malformedBody(content.decoderResult().cause(), limits.maxHeaderBytes()));
            } else if (state == STREAM_BODY) {
                streamFailed(Refusals.malformedBody(content.decoderResult().cause(), limits.maxHeaderBytes()));
            } else {
                writer.closeWhenWritten();
            }
            return;
        }
        switch (state) {
            case READ_BODY -> whole(content);
            case STREAM_BODY -> streamed(content);
            case DISCARD -> {
                BodyReader.Outcome outcome = body.skip(content);
                if (outcome == BodyReader.Outcome.TOO_LARGE) {
                    deadlines.clear(Kind.DRAIN);
                    writer.closeWhenWritten();
                } else if (outcome == BodyReader.Outcome.COMPLETE) {
                    state = READ_HEAD;
                    deadlines.clear(Kind.DRAIN);
                    writer.progress();
                }
            }
            default -> { } // a refused request's trailing LastHttpContent
        }
    }

    private void whole(HttpContent content) {
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
            state = READ_HEAD;
            requestDeadline(ex);
            server.dispatch(ex);
        }
    }

    private void streamed(HttpContent content) {
        Http1RequestBody s = streaming;
        switch (s.piece(content)) {
            case TOO_LARGE -> streamFailed(Refusals.bodyTooLarge(s.exchange().endpoint().maxBodyBytes()));
            case COMPLETE -> {
                streaming = null;
                current = null;
                state = READ_HEAD;
                deadlines.clear(Kind.BODY_STALL);
                if (ring.holds(s.exchange())) requestDeadline(s.exchange());
                // The whole body is in the stream now: the socket is the next request's again.
                if (!backlog.any() && !ring.full() && ctx.channel().isWritable() && !ctx.channel().config().isAutoRead()) {
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

    /** Answers the exchange whose body is being read with a problem, and closes after it. */
    private void refuseLate(Exchange ex, Problem p) {
        current = null;
        state = CLOSED;
        body.release();
        deadlines.clear(Kind.BODY_STALL);
        ex.refuse(p, true);
    }

    /** The body stall deadline passed: no body byte came for {@code bodyStallTimeout}. */
    void stalled() {
        if (state == READ_BODY && current != null) {
            refuseLate(current, Refusals.bodyStalled(timeouts.bodyStall().toMillis()));
        } else if (state == STREAM_BODY && !streaming.paused()) {
            streamFailed(Refusals.bodyStalled(timeouts.bodyStall().toMillis()));
        }
    }

    /** The drain deadline passed: a refused body still being discarded is given up with the connection. */
    void drainExpired() {
        if (state == DISCARD) writer.closeWhenWritten();
    }

    /** The client's FIN: a body still streaming to its reader ends short of its end. */
    void inputShutdown() {
        if (state == STREAM_BODY) {
            streamFailed(Problem.of(400, "Bad Request", "the client ended its side of the connection before the body's end"));
        }
    }

    /** The connection closed: what was gathered is released, a streaming body fails to its reader. */
    void connectionClosed() {
        state = CLOSED;
        body.release();
        if (streaming != null) {
            streaming.stop();
            streaming.stream().fail(Problem.of(400, "Bad Request", "the client closed the connection before the body's end"));
            streaming = null;
        }
    }
}
