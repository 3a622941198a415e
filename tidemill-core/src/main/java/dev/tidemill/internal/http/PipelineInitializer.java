package dev.tidemill.internal.http;

import dev.tidemill.Limits;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpResponseEncoder;

/**
 * The per-connection pipeline, in the order bytes meet it: {@link BytesArrived} (starts the
 * header-read timer), {@link RequestDecoder} (Netty's HTTP/1.1 parser behind our strict head
 * check, with our size limits), the
 * response encoder, and the {@link ConnectionHandler}.
 */
public final class PipelineInitializer extends ChannelInitializer<SocketChannel> {
    private final ServerContext server;
    private final HttpDecoderConfig decoderConfig;
    private final int headBound;

    /** @param server shared server state */
    public PipelineInitializer(ServerContext server) {
        this.server = server;
        Limits limits = server.config.limits();
        this.decoderConfig = new HttpDecoderConfig()
                .setMaxInitialLineLength(limits.maxRequestLineBytes())
                .setMaxHeaderSize(limits.maxHeaderBytes())
                .setMaxChunkSize(64 * 1024)
                .setValidateHeaders(true)
                .setAllowDuplicateContentLengths(false)
                .setAllowPartialChunks(true)
                .setHeadersFactory(RequestHeaders.FACTORY);
        // Past this many bytes a head is certainly over a limit: Netty's parser then answers 414 or 431.
        this.headBound = limits.maxRequestLineBytes() + limits.maxHeaderBytes() + 2 * (limits.maxHeaderCount() + 2) + 64;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        configure(ch);
    }

    /** Builds the pipeline on any channel (a socket here; an {@code EmbeddedChannel} in the fuzz test). */
    void configure(io.netty.channel.Channel ch) {
        server.connections.add(ch);
        RequestDecoder decoder = new RequestDecoder(decoderConfig, headBound);
        ConnectionHandler connection = new ConnectionHandler(server, decoder);
        ch.pipeline()
                .addLast("bytes-arrived", new BytesArrived(connection))
                .addLast("decoder", decoder)
                .addLast("encoder", new HttpResponseEncoder())
                .addLast("connection", connection);
    }

    /**
     * Tells the connection that bytes arrived, so a head that starts but never finishes is cut off
     * by the header-read timeout rather than the idle one.
     */
    static final class BytesArrived extends ChannelInboundHandlerAdapter {
        private final ConnectionHandler connection;

        BytesArrived(ConnectionHandler connection) {
            this.connection = connection;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            connection.bytesArrived();
            ctx.fireChannelRead(msg);
        }
    }
}
