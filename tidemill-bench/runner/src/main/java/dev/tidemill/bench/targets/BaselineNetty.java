package dev.tidemill.bench.targets;

import dev.tidemill.bench.common.Scenario;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.EventExecutor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.json.JsonMapper;

/**
 * The baseline every ratio is computed against: the leanest HTTP/1.1 server we can write on raw
 * Netty 4.2, so that "target / baseline" reads as "what the framework costs on top of Netty".
 * Serves every endpoint of {@link Scenario} with the same bytes as the other targets. Arguments:
 * {@code <port> <ioThreads>} (the runner passes one per server CPU: one event loop when the server
 * is pinned to one core, the accepting channel on the same loop); binds 127.0.0.1.
 *
 * <p>What it does: native epoll (NIO, logged, only where epoll is unavailable); Netty's request
 * decoder with header validation off ({@code HttpDecoderConfig.setValidateHeaders(false)} and a
 * headers factory without validation) and no aggregator; each response written as one buffer of
 * pre-encoded bytes: the status line and the {@code Server}, {@code Date}, {@code Content-Type}
 * and {@code Content-Length} headers are bytes built in advance (the {@code Date} once a second,
 * by a task on each event loop, so a request never formats or even reads the clock); the whole
 * plaintext response is one pooled direct buffer written as a {@code retainedDuplicate()}; writes
 * use {@code voidPromise()} and are flushed once per read batch ({@code channelReadComplete}).
 * Answers are written in request order as each request completes, so pipelining needs no queue;
 * {@code Connection: close} and HTTP/1.0 without keep-alive get {@code Connection: close} and the
 * connection is closed after the answer.
 *
 * <p>The decoding half only: {@link HttpServerCodec} pairs {@link HttpRequestDecoder} with an
 * {@code HttpResponseEncoder} that refuses a raw {@code ByteBuf} at the start of a response
 * ("unexpected message type", state 0) and whose HEAD/CONNECT method queue, filled by its decoder
 * per request, would grow without bound if responses went around it. So the pipeline is the
 * same decoder with the same config and no encoder: pre-encoded bytes need none. Measured against
 * the other lean form ({@code HttpServerCodec}, a {@code DefaultFullHttpResponse} with shared
 * pre-built headers and a {@code retainedDuplicate()} body): 4.04-4.07 against 4.21-4.26 us of
 * server CPU per plaintext request, three alternating rounds (server {@code taskset -c 0} with
 * {@code TargetCatalog.JVM_FLAGS}, {@code taskset -c 1 wrk -t1 -c64 -d10s} after a 10 s warm-up,
 * utime + stime of {@code /proc/<pid>/stat} over the window; 2-CPU bench VM, 2026-12-01).
 *
 * <p>What the work of a scenario needs is still done per request, as every target must: JSON
 * serialised with Jackson, the page rendered, the POST body parsed and validated. Left out, as no
 * scenario needs them: HEAD, {@code Expect: 100-continue}, chunked responses, compression,
 * timeouts, connection limits, request size limits beyond 1 MiB of body, and any check of the
 * request head beyond what the decoder does. It is not a server to expose to anyone.
 */
public final class BaselineNetty {
    private static final ObjectMapper MAPPER = JsonMapper.builder().build();
    private static final ObjectWriter MESSAGE = MAPPER.writerFor(Message.class);
    private static final String TEXT = "text/plain; charset=utf-8";
    private static final String JSON = "application/json";
    private static final String HTML = "text/html; charset=utf-8";
    private static final byte[] PLAINTEXT = Scenario.PLAINTEXT_BODY.getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CRLF_CRLF = {'\r', '\n', '\r', '\n'};
    private static final byte[] CLOSE_CRLF_CRLF = "\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final int MAX_BODY = 1 << 20;
    // IMF-fixdate (RFC 9110 5.6.7): two-digit day, unlike DateTimeFormatter.RFC_1123_DATE_TIME.
    private static final DateTimeFormatter IMF_FIXDATE = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);


    /** The JSON greeting, serialised per request. */
    public record Message(String message) {}

    private BaselineNetty() {}

    /**
     * @param args port, then I/O threads (default 1)
     * @throws InterruptedException if interrupted while serving
     */
    public static void main(String[] args) throws InterruptedException {
        int port = Integer.parseInt(args[0]);
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> channel = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        if (!epoll) System.out.println("baseline netty: epoll unavailable (" + Epoll.unavailabilityCause() + "), using NIO");
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, io);
        // Filled before the server starts and only read afterwards; each value belongs to its loop.
        Map<EventLoop, LoopBytes> perLoop = new IdentityHashMap<>();
        for (EventExecutor e : group) {
            LoopBytes bytes = new LoopBytes();
            perLoop.put((EventLoop) e, bytes);
            e.scheduleAtFixedRate(bytes::refresh, 1000 - System.currentTimeMillis() % 1000, 1000, TimeUnit.MILLISECONDS);
        }
        HttpDecoderConfig decoder = new HttpDecoderConfig().setValidateHeaders(false)
                .setHeadersFactory(DefaultHttpHeadersFactory.headersFactory().withValidation(false))
                .setTrailersFactory(DefaultHttpHeadersFactory.trailersFactory().withValidation(false));
        Channel ch = new ServerBootstrap().group(group).channel(channel)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel c) {
                        c.pipeline().addLast(new HttpRequestDecoder(decoder), new Endpoints(perLoop.get(c.eventLoop())));
                    }
                }).bind("127.0.0.1", port).sync().channel();
        System.out.println("baseline netty on http://127.0.0.1:" + port + " with " + threads + " "
                + (epoll ? "epoll" : "nio") + " event loop(s)");
        ch.closeFuture().sync();
    }

    /**
     * One event loop's pre-encoded bytes, replaced by a task on that loop at each second: read and
     * written by that loop's thread only, so a plain field.
     */
    private static final class LoopBytes {
        private Encoded current = new Encoded(System.currentTimeMillis() / 1000);

        void refresh() {
            current = current.next(System.currentTimeMillis() / 1000);
        }
    }

    /**
     * The pre-encoded bytes for one second: every head up to the Content-Length digits, and the
     * whole plaintext answer. Built on its event loop only; the one before is released when the
     * next replaces it (duplicates still being written hold their own reference).
     */
    private static final class Encoded {
        final byte[] ok;
        final byte[] okJson;
        final byte[] okHtml;
        final byte[] badRequest;
        final byte[] notFound;
        final byte[] tooLarge;
        final byte[] unprocessable;
        final ByteBuf plaintext;

        Encoded(long second) {
            String date = IMF_FIXDATE.format(Instant.ofEpochSecond(second).atOffset(ZoneOffset.UTC));
            ok = head(HttpResponseStatus.OK, TEXT, date);
            okJson = head(HttpResponseStatus.OK, JSON, date);
            okHtml = head(HttpResponseStatus.OK, HTML, date);
            badRequest = head(HttpResponseStatus.BAD_REQUEST, TEXT, date);
            notFound = head(HttpResponseStatus.NOT_FOUND, TEXT, date);
            tooLarge = head(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, TEXT, date);
            unprocessable = head(HttpResponseStatus.UNPROCESSABLE_ENTITY, TEXT, date);
            ByteBuf b = ByteBufAllocator.DEFAULT.directBuffer(ok.length + 2 + CRLF_CRLF.length + PLAINTEXT.length);
            b.writeBytes(ok);
            writeLength(b, PLAINTEXT.length);
            plaintext = b.writeBytes(CRLF_CRLF).writeBytes(PLAINTEXT);
        }

        Encoded next(long second) {
            Encoded n = new Encoded(second);
            plaintext.release();
            return n;
        }

        private static byte[] head(HttpResponseStatus status, String type, String date) {
            return ("HTTP/1.1 " + status.code() + " " + status.reasonPhrase() + "\r\nServer: Netty\r\nDate: " + date
                    + "\r\nContent-Type: " + type + "\r\nContent-Length: ").getBytes(StandardCharsets.US_ASCII);
        }
    }

    /** Content-Length digits, written without a String. */
    private static void writeLength(ByteBuf b, int n) {
        if (n == 0) {
            b.writeByte('0');
            return;
        }
        int digits = 1;
        for (int p = 10; p <= n && digits < 10; p *= 10) digits++;
        int at = b.writerIndex() + digits;
        b.ensureWritable(digits);
        for (int i = at - 1; i >= b.writerIndex(); i--, n /= 10) b.setByte(i, '0' + n % 10);
        b.writerIndex(at);
    }

    /** One per connection: the request being read, then its answer. */
    private static final class Endpoints extends ChannelInboundHandlerAdapter {
        private final LoopBytes bytes;
        private HttpRequest request;
        private ByteBuf body;
        private boolean keepAlive;
        private boolean closing;
        private boolean wrote;

        Endpoints(LoopBytes bytes) {
            this.bytes = bytes;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (closing) {
                ReferenceCountUtil.release(msg);
                return;
            }
            if (msg instanceof HttpRequest req) {
                if (req.decoderResult().isFailure()) {
                    ReferenceCountUtil.release(msg);
                    answer(ctx, bytes.current.badRequest, null, false);
                    return;
                }
                request = req;
                keepAlive = HttpUtil.isKeepAlive(req);
            }
            if (msg instanceof HttpContent content) {
                try {
                    if (request == null) return; // the rest of a refused request
                    if (content.content().isReadable() && request.method() == HttpMethod.POST) append(ctx, content.content());
                    if (content instanceof LastHttpContent) respond(ctx);
                } finally {
                    content.release();
                }
            }
        }

        private void append(ChannelHandlerContext ctx, ByteBuf chunk) {
            if (body == null) {
                body = chunk.retain();
                return;
            }
            if (body.readableBytes() + chunk.readableBytes() > MAX_BODY) {
                body.release();
                body = null;
                request = null;
                answer(ctx, bytes.current.tooLarge, null, false);
                return;
            }
            CompositeByteBuf c = body instanceof CompositeByteBuf cb ? cb : ctx.alloc().compositeBuffer().addComponent(true, body);
            body = c.addComponent(true, chunk.retain());
        }

        private void respond(ChannelHandlerContext ctx) {
            HttpRequest req = request;
            request = null;
            Encoded e = bytes.current;
            String uri = req.uri();
            HttpMethod method = req.method();
            if (method == HttpMethod.GET && uri.equals(Scenario.PLAINTEXT_PATH)) {
                if (keepAlive) {
                    ctx.write(e.plaintext.retainedDuplicate(), ctx.voidPromise());
                    wrote = true;
                } else {
                    answer(ctx, e.ok, PLAINTEXT, false);
                }
            } else if (method == HttpMethod.GET && uri.equals(Scenario.JSON_PATH)) {
                answer(ctx, e.okJson, MESSAGE.writeValueAsBytes(new Message(Scenario.PLAINTEXT_BODY)), keepAlive);
            } else if (method == HttpMethod.GET && uri.startsWith(Scenario.USER_PATH_PREFIX)) {
                user(ctx, e, uri.substring(Scenario.USER_PATH_PREFIX.length()));
            } else if (method == HttpMethod.POST && uri.equals(Scenario.VALIDATE_PATH)) {
                ByteBuf b = body;
                body = null;
                validate(ctx, e, b);
            } else if (method == HttpMethod.GET && uri.equals(Scenario.PAGE_PATH)) {
                answer(ctx, e.okHtml, PageHtml.render().getBytes(StandardCharsets.UTF_8), keepAlive);
            } else {
                answer(ctx, e.notFound, null, keepAlive);
            }
            if (body != null) { // a body on a request that did not read it
                body.release();
                body = null;
            }
        }

        private void user(ChannelHandlerContext ctx, Encoded e, String id) {
            int n;
            try {
                n = Integer.parseInt(id);
            } catch (NumberFormatException ex) {
                answer(ctx, e.unprocessable, null, keepAlive);
                return;
            }
            Map<String, Object> user = new LinkedHashMap<>(); // LinkedHashMap keeps id before name
            user.put("id", n);
            user.put("name", "user-" + n);
            answer(ctx, e.okJson, MAPPER.writeValueAsBytes(user), keepAlive);
        }

        private void validate(ChannelHandlerContext ctx, Encoded e, ByteBuf b) {
            JsonNode json;
            try (ByteBufInputStream in = new ByteBufInputStream(b == null ? io.netty.buffer.Unpooled.EMPTY_BUFFER : b, b != null)) {
                json = MAPPER.readTree(in);
            } catch (RuntimeException | IOException ex) {
                answer(ctx, e.badRequest, null, keepAlive);
                return;
            }
            JsonNode name = json == null ? null : json.get("name");
            JsonNode age = json == null ? null : json.get("age");
            if (name == null || !name.isString() || age == null || !age.isIntegralNumber()
                    || !Scenario.valid(name.asString(), age.asLong())) {
                answer(ctx, e.unprocessable, null, keepAlive);
                return;
            }
            Map<String, Object> echo = new LinkedHashMap<>();
            echo.put("name", name.asString());
            echo.put("age", age.asLong());
            answer(ctx, e.okJson, MAPPER.writeValueAsBytes(echo), keepAlive);
        }

        /** Writes head + Content-Length + body as one buffer; without keep-alive, closes after it. */
        private void answer(ChannelHandlerContext ctx, byte[] head, byte[] content, boolean keepAlive) {
            int length = content == null ? 0 : content.length;
            ByteBuf b = ctx.alloc().directBuffer(head.length + 10 + CLOSE_CRLF_CRLF.length + length);
            b.writeBytes(head);
            writeLength(b, length);
            b.writeBytes(keepAlive ? CRLF_CRLF : CLOSE_CRLF_CRLF);
            if (content != null) b.writeBytes(content);
            if (keepAlive) {
                ctx.write(b, ctx.voidPromise());
                wrote = true;
            } else {
                closing = true;
                wrote = false;
                ctx.writeAndFlush(b).addListener(ChannelFutureListener.CLOSE);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (wrote) {
                wrote = false;
                ctx.flush();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (body != null) {
                body.release();
                body = null;
            }
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close(); // a client reset: nothing to log, as in every other target
        }
    }
}
