package dev.tidemill.bench.targets;

import dev.tidemill.bench.common.Scenario;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The baseline every ratio is computed against: a minimal hand-written Netty 4.2 server (native
 * epoll, {@link HttpServerCodec}, pre-encoded plaintext, Jackson per request for JSON), the best
 * case for the JVM. Serves every endpoint of {@link Scenario} with the same bytes. Arguments:
 * {@code <port> <ioThreads>}; binds 127.0.0.1.
 */
public final class BaselineNetty {
    private static final ByteBuf PLAINTEXT = Unpooled.unreleasableBuffer(Unpooled.directBuffer()
            .writeBytes(Scenario.PLAINTEXT_BODY.getBytes(StandardCharsets.US_ASCII))).asReadOnly();
    private static final AsciiString TEXT = AsciiString.cached("text/plain; charset=utf-8");
    private static final AsciiString JSON = AsciiString.cached("application/json");
    private static final AsciiString HTML = AsciiString.cached("text/html; charset=utf-8");
    private static final AsciiString SERVER = AsciiString.cached("Netty");
    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    /** The JSON greeting, serialised per request. */
    public record Message(String message) {}

    private BaselineNetty() {}

    /**
     * @param args port, then I/O threads
     * @throws InterruptedException if interrupted while serving
     */
    public static void main(String[] args) throws InterruptedException {
        int port = Integer.parseInt(args[0]);
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : Runtime.getRuntime().availableProcessors();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, EpollIoHandler.newFactory());
        Channel ch = new ServerBootstrap().group(group).channel(EpollServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel c) {
                        c.pipeline().addLast(new HttpServerCodec()).addLast(new HttpObjectAggregator(1 << 20))
                                .addLast(new Endpoints());
                    }
                }).bind("127.0.0.1", port).sync().channel();
        System.out.println("baseline netty on http://127.0.0.1:" + port + " with " + threads + " epoll threads");
        ch.closeFuture().sync();
    }

    private static final class Endpoints extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            String uri = req.uri();
            FullHttpResponse res;
            if (req.method() == HttpMethod.GET && uri.equals(Scenario.PLAINTEXT_PATH)) {
                res = respond(HttpResponseStatus.OK, TEXT, PLAINTEXT.duplicate());
            } else if (req.method() == HttpMethod.GET && uri.equals(Scenario.JSON_PATH)) {
                res = respond(HttpResponseStatus.OK, JSON,
                        Unpooled.wrappedBuffer(MAPPER.writeValueAsBytes(new Message(Scenario.PLAINTEXT_BODY))));
            } else if (req.method() == HttpMethod.GET && uri.startsWith(Scenario.USER_PATH_PREFIX)) {
                res = user(uri.substring(Scenario.USER_PATH_PREFIX.length()));
            } else if (req.method() == HttpMethod.POST && uri.equals(Scenario.VALIDATE_PATH)) {
                res = validate(req);
            } else if (req.method() == HttpMethod.GET && uri.equals(Scenario.PAGE_PATH)) {
                res = respond(HttpResponseStatus.OK, HTML,
                        Unpooled.wrappedBuffer(PageHtml.render().getBytes(StandardCharsets.UTF_8)));
            } else {
                res = respond(HttpResponseStatus.NOT_FOUND, TEXT, Unpooled.EMPTY_BUFFER);
            }
            if (!HttpUtil.isKeepAlive(req)) res.headers().set(HttpHeaderNames.CONNECTION, "close");
            ctx.write(res);
        }

        private static FullHttpResponse user(String id) {
            int n;
            try {
                n = Integer.parseInt(id);
            } catch (NumberFormatException e) {
                return respond(HttpResponseStatus.UNPROCESSABLE_ENTITY, TEXT, Unpooled.EMPTY_BUFFER);
            }
            Map<String, Object> user = new LinkedHashMap<>(); // LinkedHashMap keeps id before name
            user.put("id", n);
            user.put("name", "user-" + n);
            return respond(HttpResponseStatus.OK, JSON, Unpooled.wrappedBuffer(MAPPER.writeValueAsBytes(user)));
        }

        private static FullHttpResponse validate(FullHttpRequest req) {
            JsonNode body;
            try {
                body = MAPPER.readTree(req.content().toString(StandardCharsets.UTF_8));
            } catch (RuntimeException e) {
                return respond(HttpResponseStatus.BAD_REQUEST, TEXT, Unpooled.EMPTY_BUFFER);
            }
            JsonNode name = body.get("name");
            JsonNode age = body.get("age");
            if (name == null || !name.isString() || age == null || !age.isIntegralNumber()
                    || !Scenario.valid(name.asString(), age.asLong())) {
                return respond(HttpResponseStatus.UNPROCESSABLE_ENTITY, TEXT, Unpooled.EMPTY_BUFFER);
            }
            Map<String, Object> echo = new LinkedHashMap<>();
            echo.put("name", name.asString());
            echo.put("age", age.asLong());
            return respond(HttpResponseStatus.OK, JSON, Unpooled.wrappedBuffer(MAPPER.writeValueAsBytes(echo)));
        }

        private static FullHttpResponse respond(HttpResponseStatus status, AsciiString type, ByteBuf body) {
            FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body, false);
            res.headers().set(HttpHeaderNames.CONTENT_TYPE, type)
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes())
                    .set(HttpHeaderNames.SERVER, SERVER);
            return res;
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close(); // a client reset: nothing to log, as in every other target
        }
    }
}
