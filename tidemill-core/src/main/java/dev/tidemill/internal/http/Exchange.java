package dev.tidemill.internal.http;

import dev.tidemill.Param;
import dev.tidemill.Request;
import dev.tidemill.internal.codec.BodyBinder;
import dev.tidemill.internal.codec.ContentDecoding;
import dev.tidemill.internal.dispatch.WorkerLoop;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.cookie.Cookie;
import io.netty.handler.codec.http.cookie.ServerCookieDecoder;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One request and its response, from the head being read to the last byte written. It is the
 * {@link Request} a handler sees, and it owns the request's concurrency slot.
 *
 * <p>Threads: fields set before dispatch are written on the connection's event loop and published
 * to the handler thread by the dispatch queue (or the thread start). {@link #state} arbitrates the
 * race between a handler finishing and a timeout or disconnect: whoever moves it out of
 * {@code RUNNING} decides the response.
 */
final class Exchange implements Request {
    static final int RUNNING = 0;
    static final int RESPONDED = 1;
    static final int STREAMING = 2;
    static final int TIMED_OUT = 3;
    static final int CANCELLED = 4;

    private static final byte[] NO_BODY = new byte[0];

    final ConnectionHandler connection;
    final int seq;
    final String method;
    final String uri;
    final String path;
    final HttpHeaders headers;
    final boolean head;
    final boolean http10;
    boolean keepAlive;

    // Set after routing, on the event loop, before dispatch.
    Endpoint endpoint;
    Object[] values;
    String[] pathValues;
    Map<String, List<String>> query;
    byte[] body = NO_BODY;
    /** The body's content codings, in the order applied; decoded (and emptied) on first access. */
    List<String> codings = List.of();
    long deadlineNanos = Long.MAX_VALUE;
    boolean continuePending;

    // Response side, on the event loop.
    Reply reply;
    boolean closeAfter;
    boolean streamEnded;
    volatile boolean streamAborted;
    private List<ConnectionHandler.EarlyChunk> earlyChunks;

    // VarHandles rather than AtomicInteger/AtomicBoolean fields: two fewer objects per request.
    private static final VarHandle STATE;
    private static final VarHandle SLOT_HELD;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(Exchange.class, "state", int.class);
            SLOT_HELD = l.findVarHandle(Exchange.class, "slotHeld", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // through STATE
    private volatile int state = RUNNING;
    @SuppressWarnings("unused") // through SLOT_HELD
    private volatile boolean slotHeld;
    private WorkerLoop loop;
    private Admission admission;
    /** True while the handler's synchronous part runs on a worker loop: see {@link #abandon()}. */
    volatile boolean inLoopHandler;
    volatile Thread virtualThread;
    volatile CompletableFuture<?> awaiting;
    volatile StreamingBody stream;
    private Map<String, Object> attributes;
    private Map<String, String> cookies;

    Exchange(ConnectionHandler connection, int seq, String method, String uri, String path, HttpHeaders headers,
            boolean head, boolean http10, boolean keepAlive) {
        this.connection = connection;
        this.seq = seq;
        this.method = method;
        this.uri = uri;
        this.path = path;
        this.headers = headers;
        this.head = head;
        this.http10 = http10;
        this.keepAlive = keepAlive;
    }

    // ---- slot ----

    void holdLoopSlot(WorkerLoop l) {
        loop = l;
        slotHeld = true;
    }

    void holdAdmissionSlot(Admission a) {
        admission = a;
        slotHeld = true;
    }

    /** Releases the concurrency slot, once; later calls do nothing. */
    void releaseSlot() {
        if (SLOT_HELD.compareAndSet(this, true, false)) {
            if (loop != null) loop.release();
            else if (admission != null) admission.release();
        }
    }

    /**
     * After a timeout or disconnect: cancel what can be cancelled and release the slot. A handler
     * still running synchronously on a worker loop keeps the slot: the loop really is busy, and
     * counting it is what lets least-loaded assignment route around it; the loop releases the slot
     * when the handler returns.
     */
    void abandon() {
        CompletableFuture<?> f = awaiting;
        if (f != null) f.cancel(true);
        Thread t = virtualThread;
        if (t != null) t.interrupt();
        StreamingBody s = stream;
        if (s != null) s.clientGone();
        if (!inLoopHandler) releaseSlot();
    }

    List<ConnectionHandler.EarlyChunk> earlyChunks() {
        if (earlyChunks == null) earlyChunks = new java.util.ArrayList<>(4);
        return earlyChunks;
    }

    boolean hasEarlyChunks() {
        return earlyChunks != null && !earlyChunks.isEmpty();
    }

    boolean isRunning() {
        return state == RUNNING;
    }

    int state() {
        return state;
    }

    void state(int value) {
        state = value;
    }

    /** @return whether the state moved from {@code expect} to {@code update} (this caller decides the response) */
    boolean casState(int expect, int update) {
        return STATE.compareAndSet(this, expect, update);
    }

    // ---- Request ----

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
    public byte[] body() {
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
    public <T> T body(Class<T> type) {
        return connection.server().binder().bind(header("Content-Type"), body(), type);
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
    public InetSocketAddress remoteAddress() {
        SocketAddress a = connection.remoteAddress();
        return a instanceof InetSocketAddress i ? i : InetSocketAddress.createUnresolved("unknown", 0);
    }

    @Override
    public String toString() {
        return method + " " + uri;
    }
}
