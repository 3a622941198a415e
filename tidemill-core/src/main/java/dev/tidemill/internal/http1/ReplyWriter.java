package dev.tidemill.internal.http1;

import dev.tidemill.Timeouts;
import dev.tidemill.internal.dispatch.ResponseBatcher;
import dev.tidemill.internal.exchange.ConnectionTakeover;
import dev.tidemill.internal.exchange.Exchange;
import dev.tidemill.internal.exchange.LingeringClose;
import dev.tidemill.internal.exchange.ExchangeContext;
import dev.tidemill.internal.exchange.Reply;
import dev.tidemill.internal.exchange.ReplySink;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CompletableFuture;

/**
 * The HTTP/1.1 side of the seam: the {@link ReplySink} of one connection's exchanges. Replies and
 * chunks from other threads hop onto the event loop through the loop's {@link ResponseBatcher}
 * (one task and one flush per burst); on the loop they are written strictly in request order from
 * the {@link ReplyRing}, a reply that finishes early waiting in its slot, and a streamed body's
 * chunks behind its head ({@link StreamWrites}). It decides when the connection ends after a
 * reply ({@code Connection: close}, HTTP/1.0, a stop in progress) and closes it in stages
 * ({@link LingeringClose}). What is written and not yet flushed, and when it flushes, is
 * {@link StagedWrites}'s. Everything but the {@link ReplySink} methods runs on the event loop.
 */
final class ReplyWriter extends ReplyInbox implements ReplySink, ResponseBatcher.Delivery {
    /** What the writer needs to know about, and tell, the reading side of its connection. */
    interface Reading {
        /** @return whether no request is being read (no body, no discard, not closed) */
        boolean betweenRequests();

        /** @return whether requests are parked, waiting for the ring or for writability */
        boolean parked();

        /** Replies were written: parked requests may be read now. */
        void resume();

        /** Every reply is written and no request is being read: the connection waits for a head. */
        void drained();

        /** The connection is ending: read nothing more. */
        void stop();

        /**
         * A 101 was written and flushed: hand the connection to {@code takeover} (HTTP/1.1 reads
         * and writes nothing more on it).
         */
        void takeOver(ConnectionTakeover takeover);
    }

    private final ExchangeContext server;
    private final ResponseEncoder encoder;
    private final StagedWrites out;
    private final ResponseBatcher batcher;
    private final ReplyRing ring;
    private final WriteStallWatch watch;
    private final Timeouts timeouts;
    private ChannelHandlerContext ctx;
    private StreamWrites streams;
    private FileWrites files;
    private final FileSends fileSends;
    private Reading reading;
    /** The stream being written closes the connection when it ends. */
    private boolean streamCloses;
    /** The file being read piece by piece closes the connection when it ends. */
    private boolean fileCloses;
    private boolean progressing;
    private boolean rerun;
    private boolean closing;
    /** {@link #writable} is running; {@link #writableAgain}: writability returned meanwhile. */
    private boolean inWritable;
    private boolean writableAgain;
    /** A flush is queued behind the loop's tasks ({@link #flushSoon}). */
    private boolean flushQueued;

    ReplyWriter(ExchangeContext server, ResponseEncoder encoder, ResponseBatcher batcher, ReplyRing ring,
            WriteStallWatch watch, FileSends fileSends) {
        this.server = server;
        this.fileSends = fileSends;
        this.encoder = encoder;
        this.batcher = batcher;
        this.ring = ring;
        this.watch = watch;
        this.timeouts = server.config().timeouts();
        this.out = new StagedWrites(encoder, watch);
    }

    void attach(ChannelHandlerContext ctx, Reading reading) {
        this.ctx = ctx;
        this.reading = reading;
        this.out.attach(ctx);
    }

    // ------------------------------------------------------------------ ReplySink, any thread

    @Override
    public void send(Exchange ex, Reply reply) {
        if (ctx.executor().inEventLoop()) {
            onReply(ex, reply);
            flushUnlessReading();
            return;
        }
        if (offer(reply)) batcher.submit(this);
    }

    @Override
    public java.util.concurrent.ScheduledExecutorService scheduler() {
        return ctx.executor();
    }

    @Override
    public boolean onTransportThread() {
        return ctx.executor().inEventLoop();
    }

    @Override
    public io.netty.channel.Channel channel() {
        return ctx.channel();
    }

    /** The batcher runs this on the event loop: every reply in the inbox goes to the ring. */
    @Override
    public void deliver() {
        delivering();
        for (Reply r; (r = poll()) != null; ) onReply(r.exchange(), r);
        out.flushedElsewhere(); // the batcher flushes the channel next
    }

    @Override
    public void sendChunk(Exchange ex, ByteBuf chunk, CompletableFuture<Void> written) {
        sendChunk(ex, chunk, written, false);
    }

    @Override
    public void sendChunk(Exchange ex, ByteBuf chunk, CompletableFuture<Void> written, boolean more) {
        if (ctx.executor().inEventLoop()) {
            onChunk(ex, chunk, written);
            if (more) flushSoon();
            else flushUnlessReading();
        } else {
            batcher.submit(ctx.channel(), () -> {
                onChunk(ex, chunk, written);
                out.writeStaged();
            });
        }
    }

    @Override
    public void end(Exchange ex) {
        streamEnd(ex, false);
    }

    @Override
    public void abort(Exchange ex) {
        streamEnd(ex, true);
    }

    private void streamEnd(Exchange ex, boolean abort) {
        if (ctx.executor().inEventLoop()) {
            onStreamEnd(ex, abort);
            flushUnlessReading();
        } else {
            batcher.submit(ctx.channel(), () -> {
                onStreamEnd(ex, abort); // pipelined replies behind the stream may be staged now
                out.writeStaged();
            });
        }
    }

    // ------------------------------------------------------------------ event loop

    /**
     * A read began or ended: while reading, flushes wait for the end of the read.
     *
     * @return whether a read was already in progress
     */
    boolean reading(boolean inRead) {
        return out.reading(inRead);
    }

    /** Writes what is ready and resumes reading parked requests (after a discard, or writability). */
    void progress() {
        if (progressing) {
            rerun = true; // re-entrant: an IO-mode handler answering while parked requests are read
            return;
        }
        progressing = true;
        try {
            do {
                rerun = false;
                writeReady();
                if (!closing) reading.resume();
            } while (rerun);
        } finally {
            progressing = false;
        }
    }

    /** The channel is writable again. */
    void writable() {
        if (inWritable) {
            // A flush below can drain the channel at once and report writability from inside
            // itself: looping here instead of recursing keeps a file read piece by piece from
            // taking a stack frame per piece.
            writableAgain = true;
            return;
        }
        inWritable = true;
        try {
            do {
                writableAgain = false;
                if (streams != null) streams.writable();
                if (files != null && files.current() != null) fileProgress(files.writable());
                progress();
                flushUnlessReading(); // the replies parked behind writability go out now, not with the next read
            } while (writableAgain && ctx.channel().isWritable());
        } finally {
            inWritable = false;
        }
    }

    /** Writes {@code 100 Continue} now if {@code ex} is next in line, else once it is. */
    void continueWhenNext(Exchange ex) {
        if (ring.next() == ex) out.writeContinue();
        else ring.setFlag(ex, ReplyRing.CONTINUE_PENDING);
    }

    /** Ends the connection once what is written so far has gone out: FIN, then a lingering close. */
    void closeWhenWritten() {
        reading.stop();
        if (closing) return;
        closing = true;
        out.closing();
        ChannelFuture written = ctx.writeAndFlush(Unpooled.EMPTY_BUFFER);
        if (server.draining()) {
            written.addListener(ChannelFutureListener.CLOSE); // shutting down: no lingering
        } else {
            LingeringClose.after(written, timeouts.linger(), server::draining);
        }
    }

    /** The connection closed: everything held is released, every waiting producer fails. */
    void closed() {
        out.release();
        ring.closeAll();
        if (streams != null) streams.closeAll();
        if (files != null) files.closeAll();
        // Replies still in the inbox are released when the batcher delivers them (onReply sees the ring no longer holds them).
    }

    private void onReply(Exchange ex, Reply reply) {
        if (!ring.holds(ex)) { // the connection closed meanwhile
            reply.release();
            if (reply.upgrades()) reply.takeover().abandoned();
            if (reply.streamed() || reply.upgrades()) ex.transportClosed();
            return;
        }
        ring.reply(ex, reply);
        progress();
    }

    private void onChunk(Exchange ex, ByteBuf chunk, CompletableFuture<Void> written) {
        if (!ring.holds(ex) || !ctx.channel().isActive()) {
            chunk.release();
            written.completeExceptionally(new ClosedChannelException());
            return;
        }
        streams().chunk(ex, chunk, written);
        out.needsFlush();
    }

    private void onStreamEnd(Exchange ex, boolean abort) {
        if (!ring.holds(ex) || !ctx.channel().isActive()) return;
        if (streams().end(ex, abort)) endStream();
    }

    private void writeReady() {
        while (ring.outstanding() > 0 && (streams == null || streams.current() == null)
                && (files == null || files.current() == null) && ctx.channel().isActive() && !closing) {
            Exchange ex = ring.next();
            Reply reply = ring.reply(ex);
            if (reply == null) {
                if (ring.flag(ex, ReplyRing.CONTINUE_PENDING)) {
                    ring.clearFlag(ex, ReplyRing.CONTINUE_PENDING);
                    out.writeContinue();
                }
                return;
            }
            boolean http10 = ring.flag(ex, ReplyRing.HTTP10);
            boolean close = reply.close() || !ring.flag(ex, ReplyRing.KEEP_ALIVE)
                    || server.draining() && ring.outstanding() == 1 && reading.betweenRequests() && !reading.parked();
            out.needsFlush();
            ex.headWritten(reply); // counted and logged before it is encoded: an id generated for the log is echoed
            if (reply.streamed()) {
                out.write(encoder.streamHead(ctx.alloc(), reply, close, http10));
                ring.deadline(ex, ReplyRing.NONE); // a stream is exempt from the request timeout once started
                streamCloses = close;
                if (streams().start(ex, http10)) endStream();
                return;
            }
            if (reply.upgrades()) {
                ring.finish();
                if (close) { // a stop began, or the request said close: no new protocol on a closing connection
                    reply.release();
                    reply.takeover().abandoned();
                    closeWhenWritten();
                    return;
                }
                out.stage(reply, false, false);
                out.flush();
                closing = true; // HTTP/1.1 writes nothing more here
                reading.takeOver(reply.takeover());
                return;
            }
            if (reply.fromFile()) {
                out.stage(reply, close, http10); // the head, with the region's Content-Length
                out.writeStaged(); // the head goes before the region, which FileWrites writes straight to the channel
                fileCloses = close;
                FileWrites.Progress p = files().start(reply.file());
                if (p == FileWrites.Progress.WAITING) return; // the rest waits for writability
                if (fileEnded(p)) return;
                continue;
            }
            out.stage(reply, close, http10);
            ring.finish();
            if (close) {
                closeWhenWritten();
                return;
            }
        }
        // Every reply written, none said close: the connection is idle. While draining it is not closed here, since the
        // last answer told the client to keep it and its next request may be on its way; the connection closes it once
        // idle for shutdownIdle, and answers a request before then with Connection: close.
        if (ring.outstanding() == 0 && reading.betweenRequests() && ctx.channel().isActive() && !closing) reading.drained();
    }

    /** Created with the connection's first file body: most connections never have one. */
    private FileWrites files() {
        if (files == null) files = new FileWrites(ctx, watch, fileSends);
        return files;
    }

    /** A file read piece by piece made progress after writability returned ({@link #writable} goes on with the ring). */
    private void fileProgress(FileWrites.Progress p) {
        out.needsFlush();
        if (p != FileWrites.Progress.WAITING) fileEnded(p);
    }

    /**
     * The file body of the reply at the head of the ring is queued whole, or failed.
     *
     * @return whether the connection is closing now
     */
    private boolean fileEnded(FileWrites.Progress p) {
        ring.finish();
        if (p == FileWrites.Progress.FAILED || fileCloses) {
            closeWhenWritten(); // a body cut short must not be taken for a complete one
            return true;
        }
        return false;
    }

    /** Created with the connection's first streamed response: most connections never have one. */
    private StreamWrites streams() {
        if (streams == null) streams = new StreamWrites(ctx, watch);
        return streams;
    }

    private void endStream() {
        boolean close = streams.endCurrent() || streamCloses;
        out.needsFlush();
        ring.finish();
        if (close) closeWhenWritten();
        else progress();
    }

    private void flushUnlessReading() {
        out.flushUnlessReading();
    }

    /**
     * For a chunk with more right behind it (a subscription delivering its backlog): flushes once the
     * loop has run its queued tasks ({@link ResponseBatcher#flushSoon}), so the burst leaves in one
     * syscall. Flushing each, half of node B's CPU samples were in send(2) at 100 streams x 1,000
     * messages/s ({@code ./tidemill bench cluster --loads 100@1000}, async-profiler as an agent).
     */
    private void flushSoon() {
        if (flushQueued) return;
        flushQueued = true;
        batcher.flushSoon(queuedFlush);
    }

    private final Runnable queuedFlush = () -> {
        flushQueued = false;
        flushUnlessReading();
    };
}
