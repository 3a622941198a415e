package dev.tidemill.internal.http2;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.AbstractChannel;
import io.netty.channel.ChannelConfig;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelMetadata;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelConfig;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Stream;
import java.net.SocketAddress;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * One HTTP/2 stream as a channel of its own: the byte stream an extended CONNECT (RFC 8441) opens,
 * on which a protocol switch installs exactly the handlers it installs on a TCP connection after a
 * 101 (for WebSocket: the same frame codec, deflater and connection handler), so that protocol runs
 * unchanged over either.
 *
 * <ul>
 *   <li>Writes become DATA frames on the stream as far as its flow-control window allows; the rest
 *       waits in this channel's outbound buffer, so this channel's writability (and a WebSocket's
 *       {@code maxOutboundBytes}) is the stream's, as a socket's is its send buffer's.
 *   <li>The peer's DATA becomes this channel's reads; its window is given back only once the
 *       pipeline has read it, so with auto-read off flow control holds the peer back, as TCP does.
 *   <li>END_STREAM from the peer is its FIN ({@link ChannelInputShutdownEvent}); closing this
 *       channel ends the stream with END_STREAM, and resets it with NO_ERROR if the peer has not
 *       ended its side within the linger time; a reset from the peer, or the connection's end,
 *       closes it.
 * </ul>
 *
 * Not a socket: no I/O of its own, registered on the connection's event loop and confined to it.
 * Netty's own stream channels belong to its frame codec and multiplexer, which this server's
 * connection handler does not use; this channel is the part of them a tunnel needs.
 */
final class H2Tunnel extends AbstractChannel {
    private static final ChannelMetadata METADATA = new ChannelMetadata(false);

    private final H2Connection conn;
    private final Http2Stream stream;
    private final ChannelConfig config;
    private final long lingerNanos;
    /** The peer's bytes not read yet; their window is returned as they are read. */
    private final ArrayDeque<ByteBuf> unread = new ArrayDeque<>(4);
    private boolean open = true;
    /** {@link #register} ran: the pipeline is in place and reads may reach it. */
    private boolean installed;
    /** The pipeline asked for a read ({@link #doBeginRead}) that no bytes have answered yet. */
    private boolean readWanted;
    private boolean delivering;
    /** END_STREAM arrived: once {@link #unread} is empty the pipeline hears of it. */
    private boolean inputEnded;
    private boolean inputShutdownFired;

    /**
     * @param conn the connection that carries the stream
     * @param stream the extended CONNECT's stream
     * @param lingerNanos how long the peer may keep its side open after this side ended
     */
    H2Tunnel(H2Connection conn, Http2Stream stream, long lingerNanos) {
        super(conn.context().channel());
        this.conn = conn;
        this.stream = stream;
        this.lingerNanos = lingerNanos;
        this.config = new DefaultChannelConfig(this);
        config.setWriteBufferWaterMark(parent().config().getWriteBufferWaterMark());
        config.setAllocator(parent().config().getAllocator());
    }

    /**
     * Opens the tunnel once its 2xx is on its way: registers it on the connection's loop, which
     * runs the handlers already added (a takeover installs them first, so the bytes that arrived
     * since the request reach them as their first read).
     */
    void register() {
        installed = true;
        conn.context().channel().eventLoop().register(this);
    }

    // ---- from the connection, on its loop ----

    /**
     * @param data a DATA frame's bytes for this stream (not retained by the caller)
     * @param endOfStream whether the frame ended the peer's side
     */
    void data(ByteBuf data, boolean endOfStream) {
        if (!open) {
            returnWindow(data.readableBytes());
        } else if (data.isReadable()) {
            unread.add(data.retain());
        }
        if (endOfStream) inputEnded = true;
        if (readWanted && installed) deliver();
    }

    /** The peer ended its side with a HEADERS frame (trailers): the same as END_STREAM on DATA. */
    void inputEnded() {
        inputEnded = true;
        if (readWanted && installed) deliver();
    }

    /** The stream's window, or the connection's, opened: what waits in the outbound buffer goes on. */
    void writable() {
        if (open && installed && conn.encoder().flowController().isWritable(stream)) ((Unsafe) unsafe()).resume();
    }

    /** The stream closed (a reset, or both sides ended) or the connection did. */
    void streamClosed() {
        if (!installed) {
            open = false;
            releaseUnread();
            return;
        }
        if (isOpen()) unsafe().close(unsafe().voidPromise());
    }

    // ---- Channel ----

    private void deliver() {
        if (delivering) return;
        delivering = true;
        try {
            boolean read = false;
            while (open && readWanted && !unread.isEmpty()) {
                ByteBuf b = unread.poll();
                int n = b.readableBytes();
                readWanted = config.isAutoRead(); // one read is one batch; auto-read keeps asking
                read = true;
                pipeline().fireChannelRead(b);
                returnWindow(n);
            }
            if (read) pipeline().fireChannelReadComplete();
            if (open && inputEnded && unread.isEmpty() && !inputShutdownFired) {
                inputShutdownFired = true;
                pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
            }
        } finally {
            delivering = false;
        }
        conn.flushUnlessReading(); // the WINDOW_UPDATEs of what was read
    }

    private void returnWindow(int bytes) {
        if (bytes == 0 || stream.state() == Http2Stream.State.CLOSED) return;
        try {
            conn.decoder().flowController().consumeBytes(stream, bytes);
        } catch (Http2Exception e) {
            conn.resetStream(conn.context(), stream.id(), Http2Error.INTERNAL_ERROR.code(), conn.context().newPromise());
        }
    }

    private void releaseUnread() {
        ByteBuf b;
        while ((b = unread.poll()) != null) b.release();
    }

    @Override
    protected void doBeginRead() {
        readWanted = true;
        if (!unread.isEmpty() || inputEnded) deliver();
    }

    @Override
    protected void doWrite(ChannelOutboundBuffer in) {
        ChannelHandlerContext ctx = conn.context();
        boolean wrote = false;
        for (Object msg; (msg = in.current()) != null; ) {
            if (!(msg instanceof ByteBuf bytes)) {
                in.remove(new UnsupportedOperationException("a tunnel carries bytes, not " + msg.getClass().getSimpleName()));
                continue;
            }
            if (!sendable()) {
                in.remove(new ClosedChannelException());
                continue;
            }
            if (!conn.encoder().flowController().isWritable(stream)) break; // the rest waits for WINDOW_UPDATE (writable())
            conn.encoder().writeData(ctx, stream.id(), bytes.retain(), 0, false, ctx.newPromise());
            in.remove();
            wrote = true;
        }
        if (wrote) conn.flushUnlessReading();
    }

    /** @return whether this side of the stream may still send */
    private boolean sendable() {
        Http2Stream.State s = stream.state();
        return s == Http2Stream.State.OPEN || s == Http2Stream.State.HALF_CLOSED_REMOTE;
    }

    @Override
    protected void doClose() {
        if (!open) return;
        open = false;
        releaseUnread();
        if (!sendable()) return;
        ChannelHandlerContext ctx = conn.context();
        ChannelPromise ended = ctx.newPromise();
        conn.encoder().writeData(ctx, stream.id(), Unpooled.EMPTY_BUFFER, 0, true, ended);
        ended.addListener(f -> ctx.executor().schedule(() -> {
            // END_STREAM is this side's FIN; a peer that never sends its own would hold a stream slot for good
            if (stream.state() != Http2Stream.State.CLOSED) {
                conn.resetStream(ctx, stream.id(), Http2Error.NO_ERROR.code(), ctx.newPromise());
                conn.flushUnlessReading();
            }
        }, lingerNanos, TimeUnit.NANOSECONDS));
        conn.flushUnlessReading();
    }

    @Override
    protected void doDisconnect() {
        doClose();
    }

    @Override
    protected void doBind(SocketAddress localAddress) {
        throw new UnsupportedOperationException("a tunnel is one stream of a connection: it binds nothing");
    }

    @Override
    protected boolean isCompatible(EventLoop loop) {
        return true; // no I/O handle: any loop runs it (it is only ever installed on its connection's)
    }

    @Override
    protected SocketAddress localAddress0() {
        return parent().localAddress();
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return parent().remoteAddress();
    }

    @Override
    public ChannelConfig config() {
        return config;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public boolean isActive() {
        return open && installed;
    }

    @Override
    public ChannelMetadata metadata() {
        return METADATA;
    }

    @Override
    protected AbstractUnsafe newUnsafe() {
        return new Unsafe();
    }

    private final class Unsafe extends AbstractUnsafe {
        @Override
        public void connect(SocketAddress remote, SocketAddress local, ChannelPromise promise) {
            promise.setFailure(new UnsupportedOperationException("a tunnel is opened by its CONNECT, not connected"));
        }

        /** Writes what was flushed and waited for the window. */
        void resume() {
            flush0();
        }
    }
}
