package dev.tidemill.internal.exchange;

import dev.tidemill.JsonCodec;
import dev.tidemill.Multipart;
import dev.tidemill.Param;
import dev.tidemill.Request;
import dev.tidemill.TraceParent;
import dev.tidemill.internal.codec.BodyBinder;
import dev.tidemill.internal.codec.ContentDecoding;
import dev.tidemill.internal.multipart.MultipartPump;
import dev.tidemill.internal.multipart.MultipartReader;
import dev.tidemill.internal.multipart.PieceSource;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.cookie.Cookie;
import io.netty.handler.codec.http.cookie.ServerCookieDecoder;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a handler reads of an {@link Exchange}: the request's head as the transport read it, what
 * the {@link RouteGate} bound (endpoint, typed values, query), the body, and what is derived from
 * them on first use (cookies, attributes, the request id, the trace context, the client's
 * address). The exchange's lifecycle (state, slot, replies) is {@link Exchange}'s alone; nothing
 * here sends anything.
 */
public abstract class ExchangeRequest implements Request {
    private static final byte[] NO_BODY = new byte[0];
    private static final io.netty.util.AsciiString X_REQUEST_ID = io.netty.util.AsciiString.cached("x-request-id");
    private static final io.netty.util.AsciiString TRACEPARENT = io.netty.util.AsciiString.cached("traceparent");

    final ExchangeContext context;
    final String method;
    final String uri;
    private final String path;
    final HttpHeaders headers;
    private final boolean head;
    private final SocketAddress remote;

    // Set by the RouteGate on the transport's thread, before dispatch.
    Endpoint endpoint;
    Object[] values;
    String[] pathValues;
    Map<String, List<String>> query;
    /** The body's content codings, in the order applied; decoded (and emptied) on first access. */
    List<String> codings = List.of();
    private byte[] body = NO_BODY;
    /** A streamed route's body, handed over by the transport before dispatch; null otherwise. */
    private StreamedRequestBody streamed;
    private boolean streamedRead;

    private java.net.InetAddress client;
    /** What TLS established for the connection, handed over by the transport before dispatch; null over plain HTTP. */
    private TransportSecurity security;
    private Map<String, Object> attributes;
    private Map<String, String> cookies;
    /** The request id once known (the client's, or generated); written before the reply is sent, which publishes it. */
    private String requestId;
    private Optional<TraceParent> traceParent;
    private boolean clientIdRead;
    /** What must be closed when the exchange ends (temporary upload files); guarded by {@code this}. */
    private java.util.ArrayList<AutoCloseable> onEnd;
    private boolean ended;
    /** Set once {@link #onEnd} was called: the transport's check per request is one volatile read, no lock. */
    private volatile boolean hasEndActions;

    ExchangeRequest(ExchangeContext context, String method, String uri, String path, HttpHeaders headers, boolean head,
            SocketAddress remote) {
        this.context = context;
        this.method = method;
        this.uri = uri;
        this.path = path;
        this.headers = headers;
        this.head = head;
        this.remote = remote;
    }

    /** @return whether this is a HEAD request */
    public boolean isHead() {
        return head;
    }

    /** @return the request target as sent */
    public String uri() {
        return uri;
    }

    /** @return the route, once the gate has matched one; null before (or for a refused request) */
    public Endpoint endpoint() {
        return endpoint;
    }

    /** @param bytes the whole body, read by the transport within {@link Endpoint#maxBodyBytes()} */
    public void body(byte[] bytes) {
        body = bytes;
    }

    /**
     * Hands over a streamed route's body (before dispatch): the handler reads it through
     * {@link #bodyStream()}, content codings decoded as it reads.
     *
     * @param stream the stream the transport feeds
     * @param declaredLength the declared {@code Content-Length}, -1 for chunked
     */
    public void bodyStream(RequestBodyQueue stream, long declaredLength) {
        streamed = new StreamedRequestBody(stream, codings.isEmpty() ? declaredLength : -1, codings, endpoint.maxBodyBytes());
        codings = List.of(); // decoded by the stream
    }

    /**
     * Hands over what the connection's TLS handshake established (before dispatch); not called
     * for a plain connection.
     *
     * @param security the connection's TLS parameters and verified client chain
     */
    public void secured(TransportSecurity security) {
        this.security = security;
    }

    /** @return what the connection's TLS handshake established, null on a plain connection */
    TransportSecurity transportSecurity() {
        return security;
    }

    /** @return whether the request came over TLS */
    public boolean overTls() {
        return security != null;
    }

    @Override
    public List<java.security.cert.X509Certificate> tlsPeerCertificates() {
        TransportSecurity s = security;
        return s == null ? List.of() : s.peerCertificates();
    }

    /** @return the streamed body, or null when the route reads it whole */
    StreamedRequestBody streamedBody() {
        return streamed;
    }

    /**
     * Registers something to close when the exchange ends, however it ends: its reply written, the
     * connection lost, or the request timed out and its 504 written. Closed at once if it already
     * ended. Any thread.
     *
     * @param resource closed once, on the transport's thread; a failure is logged and ignored
     */
    public void onEnd(AutoCloseable resource) {
        synchronized (this) {
            if (!ended) {
                if (onEnd == null) onEnd = new java.util.ArrayList<>(2);
                onEnd.add(resource);
                hasEndActions = true;
                return;
            }
        }
        closeQuietly(resource);
    }

    /** @return whether {@link #onEnd} registered anything: the transport then calls {@link #ended} */
    public boolean hasEndActions() {
        return hasEndActions;
    }

    /** The transport is done with this exchange (reply written, or connection closed): closes what {@link #onEnd} holds. */
    public void ended() {
        java.util.ArrayList<AutoCloseable> held;
        synchronized (this) {
            if (ended) return;
            ended = true;
            held = onEnd;
            onEnd = null;
        }
        if (held != null) for (AutoCloseable r : held) closeQuietly(r);
    }

    private static void closeQuietly(AutoCloseable r) {
        try {
            r.close();
        } catch (Exception e) {
            org.slf4j.LoggerFactory.getLogger(ExchangeRequest.class).warn("closing {} at the end of a request failed", r, e);
        }
    }

    /**
     * @return the id to echo in {@code X-Request-Id}: the one known so far (asked for by the
     *     handler or the access log), else the client's if valid; null for none
     */
    public String echoedRequestId() {
        String id = requestId;
        if (id == null && !clientIdRead) {
            // Read once: the encoder asks twice (bound, then head). The transport's thread only.
            clientIdRead = true;
            id = RequestIds.valid(headers.get(X_REQUEST_ID));
            if (id != null) requestId = id;
        }
        return id;
    }

    @Override
    public String method() {
        return method;
    }

    @Override
    public String path() {
        return path;
    }

    @Override
    public String routePattern() {
        return endpoint.route().pattern();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T param(Param<T> param) {
        int i = endpoint.coercer().indexOf(param);
        if (i < 0) {
            throw new IllegalArgumentException(param + " is not declared on route " + endpoint.route()
                    + "; declare it with .params(...)");
        }
        return (T) values[i];
    }

    @Override
    public String pathParam(String name) {
        String[] names = endpoint.pathNames();
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) return pathValues[i];
        }
        throw new IllegalArgumentException("route " + endpoint.route() + " has no path parameter {" + name + "}");
    }

    @Override
    public Optional<String> query(String name) {
        List<String> v = query.get(name);
        return v == null || v.isEmpty() ? Optional.empty() : Optional.of(v.get(0));
    }

    @Override
    public Optional<String> header(String name) {
        return Optional.ofNullable(headers.get(name));
    }

    @Override
    public List<String> headers(String name) {
        return headers.getAll(name);
    }

    @Override
    public Optional<String> cookie(String name) {
        if (cookies == null) {
            cookies = new HashMap<>();
            for (String h : headers.getAll(HttpHeaderNames.COOKIE)) {
                for (Cookie c : ServerCookieDecoder.LAX.decode(h)) cookies.putIfAbsent(c.name(), c.value());
            }
        }
        return Optional.ofNullable(cookies.get(name));
    }

    @Override
    public dev.tidemill.RequestBody bodyStream() {
        if (streamed == null) {
            throw new IllegalStateException("route " + endpoint.route() + " reads its body whole before the handler runs;"
                    + " declare .streamedBody() to stream it");
        }
        return streamed;
    }

    @Override
    public byte[] body() {
        if (streamed != null && !streamedRead) {
            streamedRead = true;
            body = streamed.readAll();
        }
        if (!codings.isEmpty()) {
            // decoded here, on the handler's thread, bounded by the route's body limit
            List<String> applied = codings;
            codings = List.of();
            body = ContentDecoding.decode(body, applied, endpoint.maxBodyBytes());
        }
        return body;
    }

    @Override
    public String bodyText() {
        String ct = headers.get(HttpHeaderNames.CONTENT_TYPE);
        return new String(body(), ct == null ? StandardCharsets.UTF_8 : BodyBinder.charset(ct));
    }

    @Override
    public JsonCodec json() {
        return context.json();
    }

    @Override
    public <T> T body(Class<T> type) {
        // A route that declared its body (Route.body/form/multipart) takes only that media type.
        Optional<String> contentType = header("Content-Type");
        if (contentType.isPresent() && MultipartReader.isMultipart(contentType.get())) {
            return context.binder().bindMultipart(multipart(), type, endpoint.route().bodyMediaType(),
                    context.config().limits().uploadMemoryBytes(), this::onEnd);
        }
        return context.binder().bind(contentType, body(), type, endpoint.route().bodyMediaType());
    }

    @Override
    public Multipart multipart() {
        long length = streamed != null ? streamed.declaredLength() : -1;
        InputStream source = multipartSource();
        if (streamed == null) length = body.length;
        return MultipartReader.open(header("Content-Type"), source, context.config().limits(), length);
    }

    @Override
    public java.util.concurrent.CompletionStage<Void> multipart(Multipart.PartHandler parts) {
        Optional<String> contentType = header("Content-Type");
        MultipartReader.requireFormData(contentType);
        PieceSource source;
        if (streamed != null && !streamedRead) {
            streamedRead = true;
            source = streamed.pieces();
        } else {
            source = PieceSource.of(body());
        }
        return MultipartPump.start(contentType.get(), context.config().limits(), parts, source);
    }

    /**
     * What the multipart reader reads: on a streamed route the body as it arrives (so a file part
     * goes to its temporary file without the body ever being held; blocking, so not on the event
     * loop), else the body read whole.
     */
    private InputStream multipartSource() {
        if (streamed != null && !streamedRead) {
            streamedRead = true;
            return streamed.inputStream();
        }
        return new ByteArrayInputStream(body());
    }

    @Override
    public Optional<Object> attribute(String name) {
        return attributes == null ? Optional.empty() : Optional.ofNullable(attributes.get(name));
    }

    @Override
    public void attribute(String name, Object value) {
        if (attributes == null) attributes = new HashMap<>();
        attributes.put(name, value);
    }

    @Override
    public String requestId() {
        String id = requestId;
        if (id == null) {
            id = RequestIds.valid(headers.get(X_REQUEST_ID));
            if (id == null) id = RequestIds.generate();
            requestId = id;
        }
        return id;
    }

    @Override
    public Optional<TraceParent> traceParent() {
        Optional<TraceParent> t = traceParent;
        if (t == null) {
            // Two traceparent fields cannot be told apart, so neither is believed (Trace Context 3.2).
            List<String> all = headers.getAll(TRACEPARENT);
            t = all.size() == 1 ? TraceParent.parse(all.get(0)) : Optional.empty();
            traceParent = t;
        }
        return t;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return remote instanceof InetSocketAddress i ? i : InetSocketAddress.createUnresolved("unknown", 0);
    }

    @Override
    public java.net.InetAddress clientAddress() {
        java.net.InetAddress c = client;
        if (c == null) {
            java.net.InetAddress peer = remote instanceof InetSocketAddress i && i.getAddress() != null
                    ? i.getAddress() : java.net.InetAddress.getLoopbackAddress();
            client = c = context.clients().resolve(peer, headers);
        }
        return c;
    }

    @Override
    public String toString() {
        return method + " " + uri;
    }
}
