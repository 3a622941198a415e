package dev.tidemill.internal.tls;

import dev.tidemill.Config;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.group.ChannelGroup;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.regex.Pattern;

/**
 * The plain port when {@code Tls.redirectHttp} is on: every request, whatever its method, gets
 * {@code 308 Permanent Redirect} to the same path and query over HTTPS (308 rather than 301 so a
 * POST stays a POST, RFC 9110 15.4.9), then the connection closes. Nothing of the app is served
 * in plain text. The target host is the request's {@code Host} without its port when it is a
 * plain host name or address, else the configured host: a client can only redirect itself, and
 * nothing it sends reaches the {@code Location} unchecked.
 */
@ChannelHandler.Sharable
public final class HttpsRedirect extends ChannelInitializer<Channel> {
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9.-]{1,253}|\\[[0-9A-Fa-f:.]{2,45}\\]");
    private static final Pattern TARGET = Pattern.compile("/[\\x21-\\x7e]*");

    private final Config config;
    private final IntSupplier tlsPort;
    private final ChannelGroup connections;

    /**
     * @param config the server's configuration (limits and timeouts apply to the redirect too)
     * @param tlsPort the TLS listener's bound port
     * @param connections redirect connections join it, so a stop closes them
     */
    public HttpsRedirect(Config config, IntSupplier tlsPort, ChannelGroup connections) {
        this.config = config;
        this.tlsPort = tlsPort;
        this.connections = connections;
    }

    @Override
    protected void initChannel(Channel ch) {
        connections.add(ch);
        ch.pipeline()
                .addLast(new ReadTimeoutHandler(config.timeouts().headerRead().toMillis(), TimeUnit.MILLISECONDS))
                .addLast(new HttpServerCodec(config.limits().maxRequestLineBytes(), config.limits().maxHeaderBytes(),
                        config.limits().decoderChunkBytes()))
                .addLast(new Answer());
    }

    /** @return the {@code Location} for a request */
    String location(HttpRequest req) {
        String host = req.headers().get(HttpHeaderNames.HOST, "");
        int colon = host.startsWith("[") ? host.indexOf("]:") + 1 : host.lastIndexOf(':');
        if (colon > 0) host = host.substring(0, colon);
        if (!HOST.matcher(host).matches()) host = config.host().equals("0.0.0.0") || config.host().equals("::") ? "localhost" : config.host();
        if (host.indexOf(':') >= 0 && !host.startsWith("[")) host = "[" + host + "]";
        int port = tlsPort.getAsInt();
        String target = TARGET.matcher(req.uri()).matches() ? req.uri() : "/";
        return "https://" + host + (port == 443 ? "" : ":" + port) + target;
    }

    private final class Answer extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (!(msg instanceof HttpRequest req)) return; // bodies are not read, the connection closes
                HttpResponseStatus status = req.decoderResult().isSuccess()
                        ? HttpResponseStatus.PERMANENT_REDIRECT : HttpResponseStatus.BAD_REQUEST;
                FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.EMPTY_BUFFER);
                if (status == HttpResponseStatus.PERMANENT_REDIRECT) res.headers().set(HttpHeaderNames.LOCATION, location(req));
                res.headers().set(HttpHeaderNames.CONTENT_LENGTH, 0).set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                if (!config.serverHeader().isEmpty()) res.headers().set(HttpHeaderNames.SERVER, config.serverHeader());
                ctx.writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
                ctx.channel().config().setAutoRead(false); // one answer per connection
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close(); // read timeout, reset: nothing to answer
        }
    }
}
