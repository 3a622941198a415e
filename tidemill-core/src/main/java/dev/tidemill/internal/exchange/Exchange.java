package dev.tidemill.internal.exchange;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Problem;
import dev.tidemill.Request;
import dev.tidemill.internal.dispatch.WorkerLoop;
import io.netty.handler.codec.http.HttpHeaders;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One request and its response, whatever protocol carries it: the {@link Request} a handler
 * sees ({@link ExchangeRequest}: what it reads), its concurrency slot, and its state. The only
 * way back to the transport is the {@link ReplySink} it was opened with; the transport talks to it through {@link #body},
 * {@link #expire} and {@link #transportClosed}. Everything it reads (binder, remote address,
 * limits through its endpoint) is handed to it when it opens.
 *
 * <p>Threads: what the transport and the {@link RouteGate} set before dispatch is written on the
 * transport's thread and published to the handler's thread by the dispatch queue (or the thread
 * start). {@link #state} arbitrates the race between a handler finishing and a timeout or
 * disconnect: whoever moves it out of {@code RUNNING} decides the response.
 *
 * <p>It is also the worker loop's queue item ({@link Runnable}), so a LOOP dispatch allocates no
 * task object.
 */
public final class Exchange extends ExchangeRequest implements Runnable {
    static final int RUNNING = 0;
    static final int RESPONDED = 1;
    static final int STREAMING = 2;
    static final int TIMED_OUT = 3;
    static final int CANCELLED = 4;

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

    private final ReplySink sink;
    private final int id;

    // VarHandles rather than AtomicInteger/AtomicBoolean fields: two fewer objects per request.
    @SuppressWarnings("unused") // through STATE
    private volatile int state; // RUNNING (0); no initializer: a volatile store in the constructor is a fence per request
    @SuppressWarnings("unused") // through SLOT_HELD
    private volatile boolean slotHeld;
    private WorkerLoop loop;
    /** True while the handler's synchronous part runs on a worker loop: see {@link #abandon()}. */
    volatile boolean inLoopHandler;
    /** Where the handler runs, set at dispatch (never AUTO: the mode AUTO chose for this call). */
    ExecutionMode mode;
    /** Whether this call tries a worker loop for a route in AUTO that runs on VIRTUAL ({@link AutoMode}). */
    boolean probe;
    volatile Thread virtualThread;
    volatile CompletableFuture<?> awaiting;
    volatile StreamedResponseBody stream;
    /** A CORS preflight the gate answered: its headers are complete, no policy is applied again. */
    boolean preflight;
    /** For a 405: the CORS policy of the routes on this path (there is no endpoint), or null. */
    dev.tidemill.Cors pathCors;
    /**
     * {@link System#nanoTime} when the read that brought the head began, set by the transport
     * ({@link #arrived}): a time it reads anyway, so stamping arrival costs no clock read.
     */
    private long arrivedAt;
    /** An operational route's exchange: it took no slot of the concurrency limit (see {@link Dispatcher#dispatch}). */
    boolean unlimited;
    /** What carried the request ({@link #protocol(String)}). */
    private String protocol = "HTTP/1.1";
    /** An HTTP/2 extended CONNECT's {@code :protocol} (RFC 8441), or null for any other request. */
    private String connectProtocol;

    /**
     * Opens an exchange for a request head the transport has read.
     *
     * @param context what every exchange of this server shares
     * @param sink the way back to the transport
     * @param id the transport's number for it (HTTP/1.1: its place in the pipeline; HTTP/2: the stream)
     * @param method the method, as sent
     * @param uri the request target, as sent
     * @param path the target's raw path ({@link RequestTarget#rawPath}), or null if the target is not a path
     * @param headers the request headers
     * @param head whether the method is HEAD
     * @param remote the peer's address
     */
    public Exchange(ExchangeContext context, ReplySink sink, int id, String method, String uri, String path,
            HttpHeaders headers, boolean head, SocketAddress remote) {
        super(context, method, uri, path, headers, head, remote);
        this.sink = sink;
        this.id = id;
    }

    // ---- the transport's side ----

    /** @param protocol {@code HTTP/1.0} or {@code HTTP/2.0} when not HTTP/1.1; set before routing */
    public void protocol(String protocol) {
        this.protocol = protocol;
    }

    @Override
    public String protocol() {
        return protocol;
    }

    /**
     * Marks an HTTP/2 extended CONNECT (RFC 8441): the stream becomes a tunnel for {@code protocol}
     * once the handler switches to it. The exchange's method is then the one the protocol's
     * HTTP/1.1 handshake uses (GET for a WebSocket), so it reaches the same route.
     *
     * @param protocol the {@code :protocol} pseudo-header, e.g. {@code websocket}
     */
    public void extendedConnect(String protocol) {
        this.connectProtocol = protocol;
    }

    /** @return the extended CONNECT's {@code :protocol}, or null when the request is not one */
    public String extendedConnect() {
        return connectProtocol;
    }

    /** Who called, for a route with a requirement; set by the gate. */
    dev.tidemill.Principal principal;
    /** The gate's decision still to come, when authenticating the caller takes a fetch ({@link Verdict#PENDING}). */
    java.util.concurrent.CompletionStage<Verdict> admission;

    /** The request's session, on an app with sessions; set by the gate, saved before the reply. */
    dev.tidemill.internal.auth.SessionState session;

    @Override
    public java.util.Optional<dev.tidemill.Principal> principal() {
        return java.util.Optional.ofNullable(principal);
    }

    @Override
    public java.util.Optional<dev.tidemill.Session> session() {
        return java.util.Optional.ofNullable(session);
    }

    /** @return the transport's number for this exchange */
    public int id() {
        return id;
    }

    /**
     * The connection this exchange upgraded (its {@code 101} was written) has ended: the
     * concurrency slot it held from the handshake on is released. Idempotent.
     */
    public void upgradeEnded() {
        releaseSlot();
    }

    /** @return where the handler runs (set at dispatch; null before) */
    public ExecutionMode mode() {
        return mode;
    }

    /** @return the worker loop holding this exchange's slot (LOOP mode), or null */
    public WorkerLoop workerLoop() {
        return loop;
    }

    /**
     * @return what a long-lived stream opened by this exchange (an event stream, a WebSocket
     *     connection) keeps of the server once the exchange is answered
     */
    public StreamPort streamPort() {
        return new StreamPort(this);
    }

    ReplySink sink() {
        return sink;
    }

    /** @return what every exchange of this server shares */
    public ExchangeContext context() {
        return context;
    }

    /**
     * Answers a request refused before dispatch (never called once it runs).
     *
     * @param problem the answer
     * @param close whether the connection must close after it
     * @param extraHeaders name/value pairs
     */
    public void refuse(Problem problem, boolean close, String... extraHeaders) {
        state = RESPONDED;
        send(context.replies().problem(this, problem, close, extraHeaders));
    }

    /**
     * Answers a request the gate refused, or answered itself (a CORS preflight's 204).
     *
     * @param verdict the gate's verdict
     * @param close whether the connection must close after it
     */
    public void refuse(Verdict verdict, boolean close) {
        if (verdict.problem() != null) {
            refuse(verdict.problem(), close, verdict.headers());
            return;
        }
        state = RESPONDED;
        Reply reply = new Reply(this, verdict.status(), List.of(verdict.headers()), null, io.netty.buffer.Unpooled.EMPTY_BUFFER,
                verdict.status() == 204 ? -1 : 0, null, false);
        send(close ? reply.closing() : reply);
    }

    /** Hands a reply to the sink, with the CORS headers its policy adds. */
    /** @return the trailer fields the streamed response closed with (empty for none, or no stream) */
    public java.util.Map<String, String> trailers() {
        StreamedResponseBody s = stream;
        return s == null ? java.util.Map.of() : s.trailers();
    }

    void send(Reply reply) {
        StreamedRequestBody body = streamedBody();
        // A complete answer ends the exchange for the handler: the body it left unread is the transport's to dispose
        // of. A streamed answer may still be reading it (an echo), so it keeps the body.
        if (body != null && !reply.streamed() && !reply.upgrades()) body.answered();
        sink.send(this, CorsReplies.apply(this, reply));
    }

    /**
     * The streamed body failed (past its limit, stalled, the client gone): its reader is woken with
     * the problem and, unless the handler answered already, the server answers with it and
     * abandons the handler. Called on the transport's thread.
     *
     * @param problem the body's fault
     * @param close whether the connection must close after the answer (the framing is lost)
     * @return whether this call answered the exchange
     */
    public boolean failBody(Problem problem, boolean close) {
        StreamedRequestBody body = streamedBody();
        if (body != null) body.cancelled(problem);
        if (!casState(RUNNING, TIMED_OUT)) return false;
        abandon();
        send(context.replies().problem(this, problem, close));
        return true;
    }

    /**
     * The request timeout passed. If the handler has not answered yet, it is abandoned (future
     * cancelled, virtual thread interrupted, slot released) and a 504 goes to the sink. Called on
     * the transport's thread.
     *
     * @return whether this call answered the exchange
     */
    public boolean expire() {
        if (!casState(RUNNING, TIMED_OUT)) return false;
        context.observer().timedOut();
        abandon();
        send(context.replies().problem(this, Problem.of(504, "Gateway Timeout",
                "the handler did not answer within " + endpoint.requestTimeoutNanos() / 1_000_000
                        + " ms (requestTimeout)"), false));
        return true;
    }

    /** The peer is gone: a running handler or stream is abandoned; nothing more goes to the sink. */
    public void transportClosed() {
        if (casState(RUNNING, CANCELLED) || state == STREAMING) abandon();
    }

    /** Runs the handler, on the thread {@link Dispatcher#run} chose for its mode. */
    @Override
    public void run() {
        if (loop != null) { // LOOP
            // One request in 8 (by its number on its connection): a clock read on the worker per request
            // showed in ./tidemill bench metrics, and the wait's distribution needs no more.
            if ((id & 7) == 0 && context.timed()) context.observer().queueWait(loop, System.nanoTime() - arrivedAt);
            context.invoker().run(this, true);
            return;
        }
        Thread t = Thread.currentThread();
        if (!t.isVirtual()) { // IO: on the transport's thread
            context.invoker().run(this, false);
            return;
        }
        virtualThread = t; // VIRTUAL: the request timeout interrupts it
        try {
            context.invoker().run(this, false);
        } finally {
            virtualThread = null;
            Thread.interrupted(); // an interrupt aimed at this request must not leak
        }
    }

    /**
     * The transport is writing this exchange's response head: the response is counted and logged
     * here (arrival to head is the latency the metrics report). Called on the transport's thread,
     * once per exchange, before the head is encoded (so an id generated for the log is echoed).
     *
     * @param reply the reply whose head is being written
     */
    public void headWritten(Reply reply) {
        RouteObserver o = endpoint != null ? endpoint.observer() : context.unmatchedObserver();
        if (o != null) o.responded(this, reply.status(), reply.streamed() ? -1 : reply.contentLength());
    }

    /** @return {@link System#nanoTime} when the read that brought the head began */
    public long arrivedAt() {
        return arrivedAt;
    }

    /**
     * @param nanos when the read that brought the head began, on {@link System#nanoTime}'s scale
     *     (not a Netty ticker's, whose origin differs); the transport sets it before routing
     */
    public void arrived(long nanos) {
        arrivedAt = nanos;
    }

    // ---- slot ----

    void holdSlot(WorkerLoop l) {
        loop = l;
        SLOT_HELD.set(this, true); // before dispatch: the queue hand-off publishes it to a worker
    }

    /** Releases the concurrency slot, once; later calls do nothing. */
    void releaseSlot() {
        if (SLOT_HELD.compareAndSet(this, true, false)) freeSlot();
    }

    /**
     * {@link #releaseSlot} on the transport's thread ({@link ReplySink#onTransportThread}), where
     * nothing else can release it concurrently: a plain check and store, no compare-and-set.
     */
    private void releaseSlotExclusive() {
        if ((boolean) SLOT_HELD.get(this)) {
            SLOT_HELD.setRelease(this, false);
            freeSlot();
        }
    }

    private void freeSlot() {
        if (loop != null) loop.release();
        if (!unlimited) context.dispatcher().limit().release();
    }

    /**
     * The handler answered: moves RUNNING to RESPONDED and releases the slot.
     *
     * @return false if the exchange had already timed out or been abandoned (the slot is released anyway)
     */
    boolean responded() {
        if (sink.onTransportThread()) {
            // expire() and transportClosed() run on this thread too, so none can be halfway:
            // a read and a release store do what the compare-and-set does elsewhere.
            boolean running = state == RUNNING;
            if (running) STATE.setRelease(this, RESPONDED);
            releaseSlotExclusive();
            return running;
        }
        boolean won = casState(RUNNING, RESPONDED);
        releaseSlot();
        return won;
    }

    /**
     * After a timeout or disconnect: cancel what can be cancelled and release the slot. A handler
     * still running synchronously on a worker loop keeps the slot: the loop really is busy, and
     * counting it is what lets least-loaded assignment route around it; the loop releases the slot
     * when the handler returns.
     */
    private void abandon() {
        CompletableFuture<?> f = awaiting;
        if (f != null) f.cancel(true);
        Thread t = virtualThread;
        if (t != null) t.interrupt();
        StreamedResponseBody s = stream;
        if (s != null) s.clientGone();
        StreamedRequestBody body = streamedBody();
        if (body != null) body.cancelled(Problem.of(503, "Service Unavailable", "the request ended before its body was read"));
        if (!inLoopHandler) releaseSlot();
    }

    boolean isRunning() {
        return state == RUNNING;
    }

    void state(int value) {
        state = value;
    }

    /** @return whether the state moved from {@code expect} to {@code update} (this caller decides the response) */
    boolean casState(int expect, int update) {
        return STATE.compareAndSet(this, expect, update);
    }
}
