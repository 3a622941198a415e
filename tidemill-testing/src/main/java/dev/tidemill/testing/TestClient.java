package dev.tidemill.testing;

import dev.tidemill.Config;
import dev.tidemill.InMemoryServer;
import dev.tidemill.Server;
import dev.tidemill.Tidemill;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Starts a Tidemill app on a free port and talks HTTP/1.1 to it over real sockets, with its own
 * small, strict response parser. Every socket read has a timeout (30 s by default, see
 * {@link #timeout(Duration)}), so a hung server fails the test instead of hanging it.
 *
 * <pre>{@code
 * Tidemill app = Tidemill.create(TestClient.config().build());
 * app.get("/hello", req -> "Hello");
 * try (TestClient client = TestClient.start(app)) {
 *     TestResponse r = client.get("/hello");
 *     assertThat(r.status()).isEqualTo(200);
 *     assertThat(r.text()).isEqualTo("Hello");
 * } // closes every connection it opened, then stops the server
 * }</pre>
 *
 * <p>Requests carry {@code Host: <host>:<port>} unless they set {@code Host} themselves, and
 * {@code Content-Length} for a body unless chunked. The one-shot methods ({@link #get},
 * {@link #post}, {@link #send}, ...) each use a fresh connection with {@code Connection: close};
 * {@link #connect()} gives a keep-alive connection (also for pipelining), {@link #raw()} one that
 * sends exactly the bytes given, {@link #stream(TestRequest)} a response read chunk by chunk.
 *
 * <p>{@link #inMemory(Tidemill)} gives the same client without a socket: every connection is an
 * in-memory one ({@link Tidemill#inMemory()}) through the real HTTP/1.1 pipeline, for fast unit
 * tests of handlers. Everything but {@link #webSocket}, {@link #port()} and {@link #uri} works
 * the same way.
 *
 * <p>I/O failures, timeouts and malformed responses throw {@link java.io.UncheckedIOException},
 * whose cause says what went wrong: {@link java.net.SocketTimeoutException} (the server sent
 * nothing in time), {@link java.io.EOFException} (it closed too early) or
 * {@link java.net.ProtocolException} (the response breaks HTTP/1.1). Methods may be called from
 * several threads at once; each connection object is for one thread.
 */
public final class TestClient implements AutoCloseable {
    /** The default read (and connect) timeout. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private final Server server;
    private final InMemoryServer memory;
    private final boolean ownsServer;
    private final String host;
    private final int port;
    private final String hostHeader;
    /** Connections go through TLS with this context; null for plain HTTP. */
    private final javax.net.ssl.SSLContext tls;
    private final Set<Wire> open = ConcurrentHashMap.newKeySet();
    private volatile Duration timeout = DEFAULT_TIMEOUT;
    private volatile Protocol protocol = Protocol.HTTP_1_1;
    private volatile boolean closed;

    private TestClient(Server server, boolean ownsServer, String host, int port) {
        this(server, null, ownsServer, host, port);
    }

    private TestClient(Server server, InMemoryServer memory, boolean ownsServer, String host, int port) {
        this(server, memory, ownsServer, host, port, null);
    }

    private TestClient(Server server, InMemoryServer memory, boolean ownsServer, String host, int port,
            javax.net.ssl.SSLContext tls) {
        this.tls = tls;
        this.server = server;
        this.memory = memory;
        this.ownsServer = ownsServer;
        this.host = host;
        this.port = port;
        this.hostHeader = memory != null ? IN_MEMORY_HOST : (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    /** The {@code Host} header of in-memory requests (there is no address to name). */
    static final String IN_MEMORY_HOST = "localhost";

    /**
     * A configuration builder for tests: loopback ({@code 127.0.0.1}) and port 0, so the OS picks
     * a free port and parallel tests never clash.
     *
     * @return {@code Config.builder().host("127.0.0.1").port(0)}, to adjust further
     */
    public static Config.Builder config() {
        return Config.builder().host("127.0.0.1").port(0);
    }

    /**
     * Starts the app and returns a client for it; {@link #close()} stops the server.
     *
     * @param app an app, not yet started, configured with port 0 (e.g. from {@link #config()})
     * @return a client talking to the started server
     * @throws IllegalArgumentException if the app's port is not 0
     */
    public static TestClient start(Tidemill app) {
        Objects.requireNonNull(app, "app");
        int configured = app.config().port();
        if (configured != 0) {
            throw new IllegalArgumentException("TestClient.start needs an app configured with port 0, got port "
                    + configured + ": a fixed port may be taken by another process or by a test running in "
                    + "parallel, and then the test fails for no fault of the code; build the Config with "
                    + "TestClient.config() or Config.builder().port(0)");
        }
        Server server = app.start();
        return new TestClient(server, true, connectHost(server.host()), server.port());
    }

    /**
     * Serves the app in memory ({@link Tidemill#inMemory()}) and returns a client for it: no
     * socket, no port; each connection is the real HTTP/1.1 pipeline on an in-memory channel, and
     * handlers run in their execution modes, so replies from worker loops and virtual threads are
     * waited for as from a socket (bounded by {@link #timeout()}). {@link #close()} stops it.
     * Requests carry {@code Host: localhost} unless they set {@code Host}.
     *
     * @param app an app, not yet started (its host and port are not used)
     * @return a client talking to the app in memory
     */
    public static TestClient inMemory(Tidemill app) {
        Objects.requireNonNull(app, "app");
        return new TestClient(null, app.inMemory(), true, IN_MEMORY_HOST, 0);
    }

    /**
     * A client for a server that is already running (for example one started by the test itself).
     * {@link #close()} closes this client's connections but does not stop that server.
     *
     * @param host the address to connect to, e.g. {@code 127.0.0.1}
     * @param port its port
     * @return the client
     */
    public static TestClient connectTo(String host, int port) {
        Objects.requireNonNull(host, "host");
        if (port <= 0 || port > 65_535) throw new IllegalArgumentException("port must be 1-65535, got " + port);
        return new TestClient(null, false, host, port);
    }

    /**
     * A client for a server that is already running, over TLS.
     *
     * @param host the address to connect to, e.g. {@code 127.0.0.1}
     * @param port its TLS port
     * @param context the client's TLS context, e.g. {@link #trusting(java.nio.file.Path)}
     * @return the client; {@link #close()} closes its connections only
     */
    public static TestClient connectTo(String host, int port, javax.net.ssl.SSLContext context) {
        Objects.requireNonNull(context, "context");
        TestClient plain = connectTo(host, port);
        return new TestClient(null, null, false, plain.host, port, context);
    }

    /**
     * A client for this client's server's TLS port ({@link Server#tlsPort()}), sharing nothing but
     * the server: its {@link #close()} closes its own connections and never stops the server.
     *
     * @param context the client's TLS context, e.g. {@link #trusting(java.nio.file.Path)}
     * @return the client
     * @throws IllegalStateException when the server has no TLS port
     */
    public TestClient tls(javax.net.ssl.SSLContext context) {
        Objects.requireNonNull(context, "context");
        int tlsPort = server().tlsPort().orElseThrow(() -> new IllegalStateException("the server has no TLS port"));
        return new TestClient(server, null, false, host, tlsPort, context).timeout(timeout);
    }

    /**
     * @param pem a PEM file of certificates (a self-signed server certificate, or the CA that signed it)
     * @return a TLS client context that trusts exactly those certificates (TLS 1.2 and 1.3)
     */
    public static javax.net.ssl.SSLContext trusting(java.nio.file.Path pem) {
        return TrustedCertificates.context(pem);
    }

    /**
     * Sets the timeout for connecting and for every later socket read of connections opened
     * after this call.
     *
     * @param timeout a positive duration, e.g. {@code Duration.ofSeconds(5)}
     * @return this
     */
    public TestClient timeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("timeout must be positive");
        this.timeout = timeout;
        return this;
    }

    /** The protocol {@link #send}, {@link #stream}, {@link #events} and {@link #webSocket} (and the helpers built on them) speak. */
    public enum Protocol {
        /** HTTP/1.1, one connection per request (the default). */
        HTTP_1_1,
        /** Cleartext HTTP/2 with prior knowledge (RFC 9113 3.3), one connection per request; a plain port only. */
        H2C
    }

    /**
     * Chooses the protocol of {@link #send}, {@link #stream}, {@link #events} and {@link #webSocket}
     * (over HTTP/2 an extended CONNECT, RFC 8441), so one test runs over either. {@link #connect()}
     * and {@link #raw()} stay HTTP/1.1.
     *
     * @param protocol the protocol
     * @return this
     * @throws UnsupportedOperationException for {@link Protocol#H2C} on an in-memory or TLS client
     */
    public TestClient protocol(Protocol protocol) {
        Objects.requireNonNull(protocol, "protocol");
        if (protocol == Protocol.H2C && (memory != null || tls != null)) {
            throw new UnsupportedOperationException("h2c needs the server's plain port (not in memory, not TLS)");
        }
        this.protocol = protocol;
        return this;
    }

    /** @return the protocol in force ({@link Protocol#HTTP_1_1} unless changed) */
    public Protocol protocol() {
        return protocol;
    }

    /** @return the read timeout in force ({@link #DEFAULT_TIMEOUT} unless changed) */
    public Duration timeout() {
        return timeout;
    }

    /**
     * @return the server this client started
     * @throws IllegalStateException for a client made with {@link #connectTo(String, int)}
     */
    public Server server() {
        if (memory != null) throw new IllegalStateException("this client serves its app in memory: see inMemoryServer()");
        if (server == null) throw new IllegalStateException("this client was made with connectTo: it started no server");
        return server;
    }

    /** @return whether this client was made with {@link #inMemory(Tidemill)} */
    public boolean isInMemory() {
        return memory != null;
    }

    /**
     * @return the in-memory server this client started
     * @throws IllegalStateException for a client over sockets
     */
    public InMemoryServer inMemoryServer() {
        if (memory == null) throw new IllegalStateException("this client talks over sockets: see server()");
        return memory;
    }

    /**
     * @return the port the client connects to (the server's bound port)
     * @throws IllegalStateException for an in-memory client, which has none
     */
    public int port() {
        if (memory != null) throw new IllegalStateException("an in-memory client has no port");
        return port;
    }

    /**
     * @param path an absolute path with optional query, e.g. {@code /items?id=7}
     * @return e.g. {@code http://127.0.0.1:43121/items?id=7}
     */
    public URI uri(String path) {
        if (memory != null) throw new IllegalStateException("an in-memory client has no address: use a socket client for URIs");
        if (!path.startsWith("/")) throw new IllegalArgumentException("path must start with '/': " + path);
        return URI.create((tls != null ? "https://" : "http://") + hostHeader + path);
    }

    /**
     * @param path the request target
     * @return the response to {@code GET path}
     */
    public TestResponse get(String path) {
        return send(TestRequest.get(path));
    }

    /**
     * @param path the request target
     * @return the response to {@code HEAD path} (no body is read, whatever Content-Length says)
     */
    public TestResponse head(String path) {
        return send(TestRequest.of("HEAD", path));
    }

    /**
     * @param path the request target
     * @return the response to {@code DELETE path}
     */
    public TestResponse delete(String path) {
        return send(TestRequest.of("DELETE", path));
    }

    /**
     * @param path the request target
     * @param contentType the body's media type
     * @param body the body
     * @return the response to {@code POST path}
     */
    public TestResponse post(String path, String contentType, byte[] body) {
        return send(TestRequest.of("POST", path).body(contentType, body));
    }

    /**
     * @param path the request target
     * @param contentType the body's media type, e.g. {@code text/plain; charset=utf-8}
     * @param body the body, sent as UTF-8
     * @return the response to {@code POST path}
     */
    public TestResponse post(String path, String contentType, String body) {
        return send(TestRequest.of("POST", path).body(contentType, body));
    }

    /**
     * @param path the request target
     * @param value serialised with Jackson 3, sent as {@code application/json}
     * @return the response to {@code POST path}
     */
    public TestResponse postJson(String path, Object value) {
        return send(TestRequest.of("POST", path).json(value));
    }

    /**
     * Sends one request on a fresh connection with {@code Connection: close} (unless the request
     * sets {@code Connection}) and reads the response. With {@code Expect: 100-continue} and a
     * body, the body is held back until {@code 100 Continue} arrives (at most one second); a final
     * response that comes instead is returned and the body is never sent.
     *
     * @param request the request
     * @return the response
     */
    public TestResponse send(TestRequest request) {
        Objects.requireNonNull(request, "request");
        if (protocol == Protocol.H2C) {
            try (H2Exchange x = H2Exchange.open(port, hostHeader, request, timeout)) {
                return x.response(request.method().equals("HEAD"));
            }
        }
        try (Wire wire = open()) {
            return wire.exchange(request, true);
        } catch (IOException e) {
            throw Wire.unchecked(e);
        }
    }

    /** @return a new keep-alive connection; close it, or it is closed by {@link #close()} */
    public Connection connect() {
        return new Connection(open());
    }

    /** @return a new connection that sends exactly the bytes given, for malformed requests */
    public RawConnection raw() {
        return new RawConnection(open());
    }

    /**
     * Sends the request on a fresh connection and reads the response head; the body is then read
     * chunk by chunk with {@link StreamingResponse#nextChunk()} as it arrives.
     *
     * @param request the request
     * @return the response, head read, body not yet
     */
    public StreamingResponse stream(TestRequest request) {
        Objects.requireNonNull(request, "request");
        if (protocol == Protocol.H2C) return new StreamingResponse(H2Exchange.open(port, hostHeader, request, timeout));
        Wire wire = open();
        try {
            wire.write(request.encode(hostHeader, false));
            return new StreamingResponse(wire, request.method());
        } catch (IOException e) {
            wire.close();
            throw Wire.unchecked(e);
        } catch (RuntimeException | Error e) {
            wire.close();
            throw e;
        }
    }

    /**
     * Opens a Server-Sent Events stream: sends the request (with {@code Accept: text/event-stream})
     * on a fresh connection and reads the head; events are then read with {@link EventStream#next()}.
     *
     * @param request the request; add {@code Last-Event-ID} to it to resume
     * @return the stream, head read
     */
    public EventStream events(TestRequest request) {
        return new EventStream(stream(request.header("Accept", "text/event-stream")), timeout);
    }

    /**
     * Opens a WebSocket connection: sends the opening handshake (RFC 6455 4.1) on a fresh
     * connection and checks the server's 101. The client adds {@code Upgrade}, {@code Connection},
     * a fresh {@code Sec-WebSocket-Key} and {@code Sec-WebSocket-Version: 13} unless given here.
     * Over {@link Protocol#H2C} the handshake is an extended CONNECT on one stream of a fresh
     * connection (RFC 8441 5), answered with a 200; {@code Upgrade}, {@code Connection} and the key
     * are not sent there, and {@link WebSocketClient#awaitClosed} waits for the stream's end.
     * Offer compression with {@code "Sec-WebSocket-Extensions", "permessage-deflate"}.
     *
     * <pre>{@code
     * try (WebSocketClient ws = client.webSocket("/ws/chat", "Sec-WebSocket-Protocol", "chat")) { ... }
     * }</pre>
     *
     * @param path the request target
     * @param headers more header fields as name, value pairs, e.g. {@code "Origin", "https://example.com"}
     * @return the open connection
     * @throws WebSocketClient.HandshakeException if the server answered with something other than 101
     * @throws java.io.UncheckedIOException if the 101 breaks RFC 6455 (wrong accept, no Upgrade, an
     *     unoffered subprotocol or extension) or the server did not answer in time
     */
    public WebSocketClient webSocket(String path, String... headers) {
        Objects.requireNonNull(path, "path");
        if (memory != null) {
            throw new UnsupportedOperationException("WebSocket connections are not carried in memory (their frames run on a "
                    + "socket's event loop): start the app with TestClient.start for this test");
        }
        if (protocol == Protocol.H2C) { // RFC 8441: an extended CONNECT on a stream of a connection of its own
            return WebSocketClient.openOverHttp2(port, hostHeader, timeout, this::track, path, headers);
        }
        return WebSocketClient.open(open(), path, headers);
    }

    /** @return a wire over a pipe opened elsewhere, closed with this client like those of {@link #open()} */
    private Wire track(Pipe pipe) {
        Wire[] self = new Wire[1];
        Wire wire = Wire.over(pipe, hostHeader, (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis())),
                () -> open.remove(self[0]));
        self[0] = wire;
        open.add(wire);
        return wire;
    }

    /**
     * Closes every connection this client opened that is still open, then, if {@link #start}
     * started the server, stops it ({@link Server#close()}). Idempotent.
     */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        for (Wire w : new ArrayList<>(open)) w.close();
        if (ownsServer && memory != null) memory.close();
        else if (ownsServer) server.close();
    }

    private Wire open() {
        if (closed) throw new IllegalStateException("this TestClient is closed");
        long ms = Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        Wire[] self = new Wire[1];
        Wire wire = memory != null
                ? Wire.inMemory(memory.connect(), hostHeader, (int) ms, () -> open.remove(self[0]))
                : Wire.open(host, port, hostHeader, (int) ms, () -> open.remove(self[0]), tls);
        self[0] = wire;
        open.add(wire);
        if (closed) { // close() ran meanwhile
            wire.close();
            throw new IllegalStateException("this TestClient is closed");
        }
        return wire;
    }

    /** The address to connect to for a bound host: a wildcard address means loopback. */
    static String connectHost(String boundHost) {
        String h = boundHost == null ? "" : boundHost.trim();
        if (h.startsWith("[") && h.endsWith("]")) h = h.substring(1, h.length() - 1);
        return switch (h) {
            case "", "0.0.0.0", "::", "0:0:0:0:0:0:0:0" -> "127.0.0.1";
            default -> h;
        };
    }

    /** @return the open connections, for tests of this class */
    List<Wire> openWires() {
        return List.copyOf(open);
    }
}
