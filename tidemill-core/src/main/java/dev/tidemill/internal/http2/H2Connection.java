package dev.tidemill.internal.http2;

import dev.tidemill.Problem;
import dev.tidemill.internal.codec.ProblemJson;
import dev.tidemill.internal.exchange.Exchange;
import dev.tidemill.internal.exchange.ExchangeContext;
import dev.tidemill.internal.exchange.FileBody;
import dev.tidemill.internal.exchange.Reply;
import dev.tidemill.internal.exchange.ReplySink;
import dev.tidemill.internal.exchange.ServerEvents;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2Connection.PropertyKey;
import io.netty.handler.codec.http2.Http2ConnectionAdapter;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2Stream;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HTTP/2 connection: Netty's connection handler (framing, HPACK, flow control, the flood
 * limits {@link H2Pipeline} configures) and the {@link ReplySink} of every exchange its streams
 * open. {@link H2Requests} turns frames into exchanges; this class turns replies into frames:
 * HEADERS, then DATA as the stream's window allows, a streamed body's producer told to wait while
 * the stream is not writable, a file body read piece by piece. A stream the client resets, or a
 * connection that closes, abandons its exchange. On the server's drain, {@link H2Drain} sends the
 * two GOAWAYs of RFC 9113 6.8 and waits for the streams in flight (up to the shutdown grace).
 * Event-loop confined, except the sink's entry points, which hop onto the loop.
 */
final class H2Connection extends Http2ConnectionHandler implements ReplySink {
    private static final Logger LOG = LoggerFactory.getLogger(H2Connection.class);
    private static final int FILE_PIECE = 64 * 1024;

    private final ExchangeContext server;
    private final String serverHeader;
    private final PropertyKey key;
    private final H2Drain drain = new H2Drain(this);
    private final H2WriteStall stall;
    private final H2Idle idle;
    private ChannelHandlerContext ctx;
    /** Hands replies from other threads to this connection's loop: one task and one flush per burst. */
    private dev.tidemill.internal.dispatch.ResponseBatcher batcher;
    /** Inside channelRead: what is written now is flushed by channelReadComplete. */
    private boolean reading;

    H2Connection(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings settings,
            ExchangeContext server) {
        super(decoder, encoder, settings);
        this.server = server;
        this.serverHeader = server.config().serverHeader();
        this.key = connection().newKey();
        this.stall = new H2WriteStall(this, server.config().timeouts().writeStall().toNanos());
        this.idle = new H2Idle(this, server.config().timeouts().idle().toNanos());
        connection().addListener(new Http2ConnectionAdapter() {
            @Override
            public void onStreamActive(Http2Stream stream) {
                idle.cancel();
            }

            @Override
            public void onStreamClosed(Http2Stream stream) {
                if (connection().numActiveStreams() == 0 && ctx != null) idle.start(ctx);
                H2Request r = stream.getProperty(key);
                if (r != null) r.streamClosed();
            }
        });
        encoder.flowController().listener(new Http2RemoteFlowController.Listener() {
            @Override
            public void writabilityChanged(Http2Stream stream) {
                H2Request r = stream.getProperty(key);
                if (r != null && r.tunnel != null) r.tunnel.writable();
                if (r != null && encoder().flowController().isWritable(stream)) r.writable();
            }
        });
    }

    /**
     * Netty's graceful close: a GOAWAY naming the last stream taken (unless one was sent), then the
     * close once the active streams end, within the shutdown grace. Called on this handler itself:
     * {@code ctx.close()} would start at the next handler and cut the streams in flight.
     */
    void closeGracefully(ChannelHandlerContext ctx) {
        try {
            close(ctx, ctx.newPromise());
        } catch (Exception e) {
            ctx.close();
        }
    }

    /** @param streamId a WINDOW_UPDATE's stream (0: the connection): progress for the write-stall timeout */
    void windowGranted(int streamId) {
        stall.granted(streamId);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().isWritable()) stall.writable();
        super.channelWritabilityChanged(ctx); // the remote flow controller re-evaluates every stream's writability
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        stall.cancel();
        idle.cancel();
        super.channelInactive(ctx);
    }

    /** @param data a PING ACK's payload (the drain waits for its own) */
    void pingAcked(ChannelHandlerContext ctx, long data) {
        drain.pingAcked(ctx, data);
    }

    PropertyKey key() {
        return key;
    }

    ExchangeContext server() {
        return server;
    }

    /** @return the handler's context (set when added to the pipeline) */
    ChannelHandlerContext context() {
        return ctx;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        this.ctx = ctx;
        this.batcher = server.batcher(ctx.channel().eventLoop());
        super.handlerAdded(ctx); // sends our preface (SETTINGS) on an active channel
        idle.start(ctx);
        // The connection's window: every stream's full window at once, so unread stream data never blocks the rest.
        long all = (long) server.config().limits().maxConcurrentStreams() * server.config().limits().streamWindowBytes();
        int delta = (int) Math.min(Integer.MAX_VALUE, all) - 65_535;
        if (delta > 0) decoder().flowController().incrementWindowSize(connection().connectionStream(), delta);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt == ServerEvents.DRAIN) {
            drain.start(ctx);
            // a tunnel's protocol closes its own way (a WebSocket: 1001), as it does on a connection of its own
            connection().forEachActiveStream(s -> {
                H2Request r = s.getProperty(key);
                if (r != null && r.tunnel != null && r.tunnel.isActive()) r.tunnel.pipeline().fireUserEventTriggered(evt);
                return true;
            });
            return;
        }
        if (evt instanceof io.netty.channel.socket.ChannelInputShutdownEvent) {
            // The server allows half-closure for HTTP/1.1; HTTP/2 has no use for it: no frame can follow a FIN, not
            // even the WINDOW_UPDATE a longer answer needs, and it cannot be told from a client that left. As on
            // HTTP/1.1, what was written goes out and what is in flight is abandoned: a graceful close instead held
            // an open stream (an event stream, a slow producer) until the shutdown grace ran out.
            flush(ctx);
            ctx.close();
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    // ---- ReplySink ----

    @Override
    public void send(Exchange ex, Reply reply) {
        onLoop(() -> write(ex, reply));
    }

    /**
     * Runs a write on the event loop and gets it flushed once with whatever else is written
     * around it: inside a read, by Netty's flush at {@code channelReadComplete}; on the loop
     * otherwise, at once; from another thread (a worker loop, a virtual thread), through the loop's
     * {@link dev.tidemill.internal.dispatch.ResponseBatcher}, which flushes each connection once per
     * drain. One flush (one write syscall) per reply was 24 % of the event loop's CPU under h2load
     * with 32 streams per connection (async-profiler, {@code bench/prof-h2.sh}).
     */
    private void onLoop(Runnable write) {
        if (!ctx.executor().inEventLoop()) {
            batcher.submit(ctx.channel(), write);
            return;
        }
        write.run();
        if (!reading) flush(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        reading = true;
        super.channelRead(ctx, msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        reading = false;
        super.channelReadComplete(ctx); // flushes
    }

    private void write(Exchange ex, Reply reply) {
        Http2Stream stream = connection().stream(ex.id());
        H2Request r = stream == null ? null : stream.getProperty(key);
        if (r == null || r.replied || stream.state() == Http2Stream.State.CLOSED) {
            reply.release();
            if (reply.upgrades()) reply.takeover().abandoned();
            return;
        }
        r.replied = true;
        r.cancelTimeout();
        ex.headWritten(reply);
        if (reply.upgrades()) {
            openTunnel(r, reply);
            return;
        }
        boolean head = ex.isHead();
        ByteBuf body = reply.body();
        boolean fromFile = reply.fromFile() && !head;
        boolean hasBody = !head && (body.isReadable() || fromFile);
        boolean ends = !reply.streamed() && !hasBody;
        io.netty.channel.ChannelPromise last = ctx.newPromise();
        encoder().writeHeaders(ctx, ex.id(), H2Headers.response(reply, serverHeader), 0, ends,
                ends ? last : ctx.newPromise());
        if (head || !hasBody) {
            if (body != Unpooled.EMPTY_BUFFER) body.release();
            if (reply.fromFile()) reply.file().close();
        }
        if (fromFile) {
            writeFile(r, reply.file());
        } else if (hasBody) {
            encoder().writeData(ctx, ex.id(), body, 0, true, last);
        }
        if (hasBody) stall.arm(ctx);
        r.runHeld();
        if (!r.requestEnded && !reply.streamed() && !fromFile) {
            // Reset only once the answer is on the wire: a reset drops whatever the stream's window still holds back.
            last.addListener(f -> stopRequestBody(r));
        }
    }

    /**
     * The switch of an extended CONNECT (RFC 8441 5): a 200 that leaves the stream open, then the
     * protocol's handlers on the stream's channel, which reads what the peer sent since the request.
     */
    private void openTunnel(H2Request r, Reply reply) {
        Http2Headers head = H2Headers.response(reply, serverHeader).status(H2Headers.OK);
        if (r.tunnel == null || r.stream.state() == Http2Stream.State.CLOSED) { // not an extended CONNECT, or gone
            reply.takeover().abandoned();
            resetStream(ctx, r.exchange.id(), Http2Error.CANCEL.code(), ctx.newPromise());
            return;
        }
        encoder().writeHeaders(ctx, r.exchange.id(), head, 0, false, ctx.newPromise());
        reply.takeover().install(r.tunnel);
        r.tunnel.register();
    }

    /** Flushes now, unless inside a read (whose end flushes): for a tunnel's writes and window updates. */
    void flushUnlessReading() {
        if (!reading) flush(ctx);
    }

    /** A file body: 64 KiB pieces, the next read only once the stream can take it. */
    private void writeFile(H2Request r, FileBody file) {
        try {
            while (true) {
                ByteBuf piece = file.read(ctx.alloc(), FILE_PIECE);
                if (piece == null) {
                    encoder().writeData(ctx, r.exchange.id(), Unpooled.EMPTY_BUFFER, 0, true, ctx.newPromise());
                    file.close();
                    return;
                }
                encoder().writeData(ctx, r.exchange.id(), piece, 0, false, ctx.newPromise());
                if (!encoder().flowController().isWritable(r.stream)) {
                    CompletableFuture<Void> w = new CompletableFuture<>();
                    r.waitingWrite = w;
                    flush(ctx);
                    w.thenRun(() -> writeFile(r, file)).exceptionally(e -> {
                        file.close();
                        return null;
                    });
                    return;
                }
            }
        } catch (IOException e) {
            LOG.debug("stream {}: file body failed", r.exchange.id(), e);
            file.close();
            resetStream(ctx, r.exchange.id(), Http2Error.INTERNAL_ERROR.code(), ctx.newPromise());
        }
    }

    /**
     * The answer is out before the request's body ended: the rest is not needed. RFC 9113 8.1: a
     * server may ask the client to stop sending with RST_STREAM NO_ERROR after a complete response.
     */
    void stopRequestBody(H2Request r) {
        r.refused = true;
        if (r.requestEnded || r.stream.state() == Http2Stream.State.CLOSED) return;
        resetStream(ctx, r.exchange.id(), Http2Error.NO_ERROR.code(), ctx.newPromise());
        flush(ctx);
    }

    @Override
    public void sendChunk(Exchange ex, ByteBuf chunk, CompletableFuture<Void> written) {
        behindHead(ex, () -> writeChunk(ex, chunk, written));
    }

    /** A streamed answer's write, on the loop and after its head ({@link H2Request#holdBehindHead}). */
    private void behindHead(Exchange ex, Runnable write) {
        onLoop(() -> {
            Http2Stream stream = connection().stream(ex.id());
            H2Request r = stream == null ? null : stream.getProperty(key);
            if (r == null || !r.holdBehindHead(write)) write.run();
        });
    }

    private void writeChunk(Exchange ex, ByteBuf chunk, CompletableFuture<Void> written) {
        Http2Stream stream = connection().stream(ex.id());
        H2Request r = stream == null ? null : stream.getProperty(key);
        if (r == null || stream.state() == Http2Stream.State.CLOSED) {
            chunk.release();
            written.completeExceptionally(new ClosedChannelException());
            return;
        }
        r.lastData = encoder().writeData(ctx, ex.id(), chunk, 0, false, ctx.newPromise());
        if (encoder().flowController().isWritable(stream) && ctx.channel().isWritable()) {
            written.complete(null);
        } else {
            r.waitingWrite = written; // completed by writabilityChanged, or failed when the stream closes
            stall.arm(ctx);
        }
    }

    @Override
    public void end(Exchange ex) {
        behindHead(ex, () -> {
            Http2Stream stream = connection().stream(ex.id());
            if (stream == null || stream.state() == Http2Stream.State.CLOSED) return;
            java.util.Map<String, String> trailers = ex.trailers();
            if (trailers.isEmpty()) {
                encoder().writeData(ctx, ex.id(), Unpooled.EMPTY_BUFFER, 0, true, ctx.newPromise());
            } else { // RFC 9113 8.1: the trailer section is a HEADERS frame that ends the stream
                encoder().writeHeaders(ctx, ex.id(), H2Headers.trailers(trailers), 0, true, ctx.newPromise());
            }
        });
    }

    @Override
    public void abort(Exchange ex) {
        behindHead(ex, () -> {
            Http2Stream stream = connection().stream(ex.id());
            if (stream == null || stream.state() == Http2Stream.State.CLOSED) return;
            // What was sent goes out first, then the reset says the body is truncated, never complete: a reset at once
            // would drop the DATA still queued behind the stream's window.
            H2Request r = stream.getProperty(key);
            io.netty.channel.ChannelFuture last = r == null || r.lastData == null ? ctx.newSucceededFuture() : r.lastData;
            last.addListener(f -> { // at once if it is done: listeners of a done future on its own loop run in addListener
                Http2Stream s = connection().stream(ex.id());
                if (s != null && s.state() != Http2Stream.State.CLOSED) {
                    resetStream(ctx, ex.id(), Http2Error.INTERNAL_ERROR.code(), ctx.newPromise());
                    flush(ctx);
                }
            });
        });
    }

    /**
     * A header list past {@code maxHeaderBytes} (Netty decodes one up to 1.25 times that; past it, GOAWAY): 431 as the
     * problem HTTP/1.1 answers, its DATA flushed at once, since Netty resets the stream next.
     */
    @Override
    protected void handleServerHeaderDecodeSizeError(ChannelHandlerContext ctx, Http2Stream stream) {
        byte[] problem = ProblemJson.render(Problem.of(431, "Request Header Fields Too Large", "the header list exceeds "
                + server.config().limits().maxHeaderBytes() + " bytes (maxHeaderBytes)"));
        encoder().writeHeaders(ctx, stream.id(), H2Headers.problem(problem.length), 0, false, ctx.newPromise());
        encoder().writeData(ctx, stream.id(), Unpooled.wrappedBuffer(problem), 0, true, ctx.newPromise());
        flush(ctx); // the flow controller's pending DATA goes out now, before the reset that follows
    }

    @Override
    public boolean onTransportThread() {
        return ctx.executor().inEventLoop();
    }

    @Override
    public ScheduledExecutorService scheduler() {
        return ctx.executor();
    }
}
