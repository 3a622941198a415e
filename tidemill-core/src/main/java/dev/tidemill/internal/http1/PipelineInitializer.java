package dev.tidemill.internal.http1;

import dev.tidemill.Limits;
import dev.tidemill.internal.dispatch.ResponseBatcher;
import dev.tidemill.internal.exchange.ExchangeContext;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.channel.group.ChannelGroup;
import io.netty.handler.codec.http.HttpDecoderConfig;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The per-connection HTTP/1.1 pipeline, in the order bytes meet it: {@link RequestDecoder}
 * (Netty's HTTP/1.1 parser behind our strict head check, with our size limits), then
 * {@link Http1Connection}. Responses are bytes by the time they are written
 * ({@link ResponseEncoder}), so no encoder sits in the pipeline. The two handlers talk only
 * through pipeline events (decoded messages, {@link RequestDecoder#PARTIAL_HEAD}). Another
 * protocol that may take a cleartext connection over (HTTP/2's preface and h2c Upgrade) places its
 * handler around these two by their names, {@link #DECODER} and {@link #CONNECTION}; this package
 * knows nothing of it ({@code internal.protocol.Protocols} does).
 */
public final class PipelineInitializer extends ChannelInitializer<Channel> {
    /** The pipeline name of the request decoder. */
    public static final String DECODER = "decoder";
    /** The pipeline name of the connection handler. */
    public static final String CONNECTION = "connection";
    /** The names of the HTTP/1.1 handlers, for a protocol that replaces them. */
    public static final java.util.List<String> HANDLERS = java.util.List.of(DECODER, CONNECTION);

    private final ExchangeContext server;
    private final ChannelGroup connections;
    private final HttpDecoderConfig decoderConfig;
    private final ResponseEncoder encoder;
    private final HeadChecks checks;
    private final int headBound;
    private final int maxLeadingEmptyLines;
    private final FileSends fileSends = new FileSends();

    /**
     * @param server what every exchange shares
     * @param connections every open connection is added here (graceful stop, counting)
     */
    public PipelineInitializer(ExchangeContext server, ChannelGroup connections) {
        this(server, connections, "");
    }

    /**
     * @param server what every exchange shares
     * @param connections every open connection is added here (graceful stop, counting)
     * @param constantLines header lines added to every response, each ending in CRLF (the TLS
     *     listener's {@code Strict-Transport-Security}); empty for none
     */
    public PipelineInitializer(ExchangeContext server, ChannelGroup connections, String constantLines) {
        this.server = server;
        this.connections = connections;
        Limits limits = server.config().limits();
        this.decoderConfig = new HttpDecoderConfig()
                .setMaxInitialLineLength(limits.maxRequestLineBytes())
                .setMaxHeaderSize(limits.maxHeaderBytes())
                .setMaxChunkSize(limits.decoderChunkBytes())
                .setValidateHeaders(false) // HeadValidator checked every byte already: see RequestHeaders
                .setAllowDuplicateContentLengths(false)
                .setAllowPartialChunks(true)
                .setHeadersFactory(RequestHeaders.FACTORY);
        this.encoder = new ResponseEncoder(server.config().serverHeader(), constantLines);
        this.checks = new HeadChecks(limits);
        // Past this many bytes a head is certainly over a limit: Netty's parser then answers 414 or 431.
        this.maxLeadingEmptyLines = limits.maxLeadingEmptyLines();
        this.headBound = limits.maxRequestLineBytes() + limits.maxHeaderBytes() + 2 * (limits.maxHeaderCount() + 2) + 64;
    }

    /** @return reply drain tasks run so far, over every event loop */
    public long replyDrains() {
        return server.replyDrains();
    }

    /** @return file bodies handed to the kernel whole ({@code sendfile}/{@code splice}) so far */
    public long filesZeroCopy() {
        return fileSends.zeroCopy.sum();
    }

    /** @return file bodies read and written piece by piece so far */
    public long filesRead() {
        return fileSends.read.sum();
    }

    @Override
    protected void initChannel(Channel ch) {
        configure(ch);
    }

    /** Builds the pipeline on any channel (a socket here; an {@code EmbeddedChannel} in tests). */
    void configure(Channel ch) {
        configure(ch, null);
    }

    /**
     * Builds the pipeline with its handlers on {@code loop} instead of the channel's own event loop
     * (null: the channel's). The in-memory transport needs this: an {@code EmbeddedChannel}'s loop
     * runs tasks only when its caller asks and says "in the loop" to every thread, so worker
     * threads' replies would write to the connection from their own threads; on a real loop they
     * are handed over as on a socket.
     *
     * @param ch the connection's channel
     * @param loop the loop the HTTP/1.1 handlers run on, or null
     */
    public void configure(Channel ch, EventLoop loop) {
        connections.add(ch);
        ch.config().setMessageSizeEstimator(OutboundSizes.INSTANCE); // a file region weighs its size
        ResponseBatcher batcher = server.batcher(loop != null ? loop : ch.eventLoop());
        RequestDecoder decoder = new RequestDecoder(decoderConfig, headBound, maxLeadingEmptyLines);
        ch.pipeline().addLast(loop, DECODER, decoder);
        ch.pipeline().addLast(loop, CONNECTION, new Http1Connection(server, checks, encoder, batcher, decoder, fileSends));
    }
}
