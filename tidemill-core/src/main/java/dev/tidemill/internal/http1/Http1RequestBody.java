package dev.tidemill.internal.http1;

import dev.tidemill.internal.exchange.RequestBodySource;
import dev.tidemill.internal.exchange.RequestBodyQueue;
import dev.tidemill.internal.exchange.Exchange;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * One streamed request body on an HTTP/1.1 connection: the {@link RequestBodySource} of its
 * {@link RequestBodyQueue}. Flow control is the socket's read interest: reading starts when the reader
 * first asks (and only then is {@code 100 Continue} sent), stops when the stream is full, resumes
 * when it drains; what arrives past the mark is at most the rest of the socket read in progress.
 * The reader's calls come from any thread and hop to the event loop; everything else runs there.
 * The connection ({@link Http1Connection}) feeds it pieces and acts on what they lead to.
 */
final class Http1RequestBody implements RequestBodySource {
    /** What the connection does when the reader gives up early. */
    interface Owner {
        /** @param streaming the body given up on, still the one being read */
        void abandoned(Http1RequestBody streaming);

        /**
         * The reader asked for bytes: reading resumes (auto-read, the body-stall timer).
         *
         * @param sendContinue whether this is the first ask of a request that expects {@code 100 Continue}
         */
        void resumed(Http1RequestBody streaming, boolean sendContinue);
    }

    /** What a piece led to. */
    enum Outcome {
        MORE,
        COMPLETE,
        TOO_LARGE
    }

    private final ChannelHandlerContext ctx;
    private final Owner owner;
    private final Exchange exchange;
    private final RequestBodyQueue stream;
    private final long limit;
    private final long declared;
    private long seen;
    private boolean continueOwed;
    private boolean paused = true;
    private boolean done;

    Http1RequestBody(ChannelHandlerContext ctx, Owner owner, Exchange exchange, int highWater, long limit, long declared,
            boolean expectsContinue, java.util.concurrent.atomic.LongAdder held) {
        this.ctx = ctx;
        this.owner = owner;
        this.exchange = exchange;
        this.stream = new RequestBodyQueue(this, ctx.alloc(), highWater, held);
        this.limit = limit;
        this.declared = declared;
        this.continueOwed = expectsContinue;
    }

    RequestBodyQueue stream() {
        return stream;
    }

    Exchange exchange() {
        return exchange;
    }

    /** @return whether the reader holds enough: the connection must not read */
    boolean paused() {
        return paused;
    }

    /** @return whether a {@code 100 Continue} was owed and never sent: the client may be waiting to send the body */
    boolean continueOwed() {
        return continueOwed;
    }

    /** @return body bytes still to come by the declared length; -1 when chunked */
    long remaining() {
        return declared < 0 ? -1 : declared - seen;
    }

    /** @return the body bytes received so far */
    long seen() {
        return seen;
    }

    /** Feeds a piece of the body, checked for decoder failures. */
    Outcome piece(HttpContent content) {
        int n = content.content().readableBytes();
        seen += n;
        if (seen > limit) {
            done = true;
            return Outcome.TOO_LARGE;
        }
        if (n > 0 && !stream.offer(content.content().retain())) {
            paused = true;
            ctx.channel().config().setAutoRead(false);
        }
        if (content instanceof LastHttpContent) {
            done = true;
            stream.end();
            return Outcome.COMPLETE;
        }
        return Outcome.MORE;
    }

    /**
     * The whole body, which came with the head: into the stream as it is, and ended. Never over the
     * limit: its {@code Content-Length} passed the route's check.
     */
    void whole(HttpContent body) {
        seen = body.content().readableBytes();
        done = true;
        stream.offerWhole(body.content().retain());
    }

    /** The body will not be read on (the connection closed, or it failed): nothing more is asked of the socket. */
    void stop() {
        done = true;
    }

    @Override
    public void demand() {
        // Always a task, even on the loop: a read that completes at once (bytes already there) must not recurse into
        // the reader's callback, which may ask again.
        ctx.executor().execute(this::resume);
    }

    private void resume() {
        if (done || !paused) return;
        boolean sendContinue = continueOwed;
        continueOwed = false;
        paused = false;
        owner.resumed(this, sendContinue);
    }

    @Override
    public void taken(int bytes) {
        // the socket's read interest is the flow control: demand() turns it on again
    }

    @Override
    public void abandon() {
        if (ctx.executor().inEventLoop()) abandonNow();
        else ctx.executor().execute(this::abandonNow);
    }

    private void abandonNow() {
        if (done) return;
        done = true;
        owner.abandoned(this);
    }

    @Override
    public boolean onTransportThread() {
        return ctx.executor().inEventLoop();
    }
}
