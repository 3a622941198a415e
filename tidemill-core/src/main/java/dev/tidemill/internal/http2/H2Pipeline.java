package dev.tidemill.internal.http2;

import dev.tidemill.Limits;
import dev.tidemill.internal.exchange.ExchangeContext;
import dev.tidemill.internal.exchange.LingeringClose;
import io.netty.channel.Channel;
import io.netty.handler.codec.http2.AbstractHttp2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2Settings;

/**
 * Puts HTTP/2 on a connection: one {@link H2Connection} with its {@link H2Requests}, our SETTINGS
 * and the decoder's and encoder's flood limits, all from {@link Limits}:
 *
 * <ul>
 *   <li>SETTINGS_MAX_CONCURRENT_STREAMS {@code maxConcurrentStreams} (100): a HEADERS past it is
 *       refused with RST_STREAM REFUSED_STREAM;
 *   <li>SETTINGS_MAX_HEADER_LIST_SIZE {@code maxHeaderBytes} (16 KiB), enforced while HPACK
 *       decodes: past it a 431 problem on the stream; past 1.25 times it Netty stops decoding (an HPACK bomb
 *       inflates) and the connection ends with GOAWAY;
 *       SETTINGS_HEADER_TABLE_SIZE stays at 4,096, the dynamic table a client may make us hold;
 *   <li>SETTINGS_MAX_FRAME_SIZE {@code maxFrameBytes} (16 KiB): a larger frame is a connection
 *       error FRAME_SIZE_ERROR;
 *   <li>SETTINGS_ENABLE_CONNECT_PROTOCOL 1: a WebSocket may open on a stream (RFC 8441);
 *   <li>SETTINGS_INITIAL_WINDOW_SIZE {@code streamWindowBytes} (1 MiB), and a connection window
 *       of every concurrent stream's full window, so a slow reader holds its own stream only;
 *   <li>control frames queued for a client that does not read (SETTINGS and PING acks, RST_STREAM
 *       answers): at most {@code maxQueuedControlFrames} (10,000), then the connection closes;
 *   <li>Rapid Reset (CVE-2023-44487): more than {@code maxResetsPerWindow} (200) RST_STREAM frames
 *       from the client in 30 s end the connection with ENHANCE_YOUR_CALM; MadeYouReset
 *       (CVE-2025-8671): the same bound on the resets the client's frames make us send;
 *   <li>CONTINUATION floods (CVE-2024-27316 and kin): at most 16 small CONTINUATION frames (the
 *       zero-length kind included) per header block, and the block bounded by the header list
 *       size; empty DATA frames: at most 2 in a row.
 * </ul>
 */
public final class H2Pipeline {
    /** RST_STREAM frames (received, or provoked and sent) allowed per {@link #RESET_WINDOW_SECONDS}. */
    static final int MAX_RESETS = 200;
    static final int RESET_WINDOW_SECONDS = 30;
    /** Netty's CONTINUATION-flood guard: small (under 8 KiB... see Netty) CONTINUATION frames per block. */
    static final int MAX_SMALL_CONTINUATIONS = 16;
    static final int MAX_EMPTY_DATA_FRAMES = 2;

    private final ExchangeContext server;

    /** @param server what every exchange shares */
    public H2Pipeline(ExchangeContext server) {
        this.server = server;
    }

    /**
     * Adds the HTTP/2 handler last in the channel's pipeline (what reaches it must be the
     * connection preface and frames).
     *
     * @param ch the connection
     */
    public void install(Channel ch) {
        installed(ch);
    }

    /** @return the connection handler {@link #install} added */
    H2Connection installed(Channel ch) {
        H2Connection c = new Builder(server).build();
        ch.pipeline().addLast("h2", c);
        // the close Netty asks for after a GOAWAY lingers, so a client still writing reads why it ended
        LingeringClose.onClose(ch, server.config().timeouts().linger(), server::draining);
        return c;
    }

    /** Builds the handler; the listener needs the connection it belongs to, so they meet in {@link #build}. */
    private static final class Builder extends AbstractHttp2ConnectionHandlerBuilder<H2Connection, Builder> {
        private final ExchangeContext server;
        private final H2Requests requests;

        Builder(ExchangeContext server) {
            this.server = server;
            this.requests = new H2Requests(server);
            Limits l = server.config().limits();
            int window = l.streamWindowBytes();
            // Uniform, not Netty's default weighted-fair distributor: RFC 9113 5.3 deprecates the
            // priority signals the weighted one honours, and it was 11 % of the event loop's CPU
            // under h2load -c16 -m32 (async-profiler, bench/prof-h2.sh); it also keeps no priority
            // tree a client's PRIORITY frames could churn (CVE-2019-9513).
            io.netty.handler.codec.http2.DefaultHttp2Connection connection = new io.netty.handler.codec.http2.DefaultHttp2Connection(true);
            connection.remote().flowController(new io.netty.handler.codec.http2.DefaultHttp2RemoteFlowController(connection,
                    new io.netty.handler.codec.http2.UniformStreamByteDistributor(connection)));
            connection(connection);
            frameListener(requests);
            initialSettings(new Http2Settings()
                    .maxConcurrentStreams(l.maxConcurrentStreams())
                    .maxHeaderListSize(l.maxHeaderBytes())
                    .maxFrameSize(l.maxFrameBytes())
                    .initialWindowSize(window)
                    .headerTableSize(4096)
                    // RFC 8441 3: extended CONNECT, how a WebSocket opens on a stream of this connection
                    .connectProtocolEnabled(true));
            validateHeaders(true);
            encoderEnforceMaxConcurrentStreams(false);
            encoderEnforceMaxQueuedControlFrames(l.maxQueuedControlFrames());
            decoderEnforceMaxRstFramesPerWindow(l.maxResetsPerWindow(), RESET_WINDOW_SECONDS);
            encoderEnforceMaxRstFramesPerWindow(l.maxResetsPerWindow(), RESET_WINDOW_SECONDS);
            decoderEnforceMaxSmallContinuationFrames(MAX_SMALL_CONTINUATIONS);
            decoderEnforceMaxConsecutiveEmptyDataFrames(MAX_EMPTY_DATA_FRAMES);
            gracefulShutdownTimeoutMillis(server.config().timeouts().shutdownGrace().toMillis());
        }

        @Override
        public H2Connection build() {
            return super.build();
        }

        @Override
        protected H2Connection build(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings settings) {
            H2Connection c = new H2Connection(decoder, encoder, settings, server);
            requests.connection(c);
            return c;
        }
    }
}
