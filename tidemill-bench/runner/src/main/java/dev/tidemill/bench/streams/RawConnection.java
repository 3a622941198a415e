package dev.tidemill.bench.streams;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/**
 * A load-client connection without Netty's HTTP codec: on connect it writes a fixed request, reads
 * the {@link ResponseHead} off the raw bytes (cumulating only until its blank line), lets the
 * subclass check it, and from then on hands every inbound buffer as it came off the socket to
 * {@link #body}, which must not keep it (it is released after). {@link #ready} completes once the
 * head is accepted.
 */
abstract class RawConnection extends ChannelInboundHandlerAdapter {
    final CompletableFuture<Void> ready = new CompletableFuture<>();
    ChannelHandlerContext ctx;
    private final byte[] request;
    private ByteBuf head;
    private boolean inBody;

    /** @param request the request head, sent once the connection is up */
    RawConnection(String request) {
        this.request = request.getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * @param head the response head
     * @throws IllegalStateException if it is not the answer expected (the connection then closes)
     */
    abstract void accept(ResponseHead head);

    /** @param b body bytes, in order (consume what you need; released after the call) */
    abstract void body(ByteBuf b);

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        ctx.writeAndFlush(Unpooled.wrappedBuffer(request));
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf b = (ByteBuf) msg;
        try {
            if (inBody) {
                body(b);
                return;
            }
            if (head == null) head = ctx.alloc().heapBuffer(512);
            head.writeBytes(b);
            ResponseHead h = ResponseHead.parse(head).orElse(null);
            if (h == null) return;
            head.skipBytes(h.length());
            accept(h);
            inBody = true;
            ready.complete(null);
            if (head.isReadable() && ctx.channel().isActive()) body(head);
            head.release();
            head = null;
        } finally {
            b.release();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        ready.completeExceptionally(new IllegalStateException("closed before the response head"));
        release();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ready.completeExceptionally(cause);
        ctx.close();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        release();
    }

    private void release() {
        if (head != null) {
            head.release();
            head = null;
        }
    }
}
