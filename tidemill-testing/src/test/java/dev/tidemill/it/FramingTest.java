package dev.tidemill.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Transport;
import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ambiguous or malformed request framing is refused with a problem and the connection closed, and
 * a second request smuggled into the same write never runs. Which layer refuses (Netty's decoder
 * or Tidemill's own checks) does not matter here, only what goes over the wire.
 */
@Timeout(120)
class FramingTest {
    /** The request smuggled behind every malformed one, in the same write. */
    private static final String SMUGGLED = "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n";

    /** One server per transport, shared by the cases (they run one after the other). */
    private static final Map<Transport, Server> SERVERS = new EnumMap<>(Transport.class);

    private record Server(TestClient client, AtomicInteger echoed, AtomicInteger smuggled) {}

    /**
     * @param name what is wrong
     * @param bytes the malformed request, without the smuggled one
     * @param status expected status
     */
    record Case(String name, String bytes, int status) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("Content-Length then Transfer-Encoding: chunked",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
                new Case("Transfer-Encoding: chunked then Content-Length",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n", 400),
                new Case("Transfer-Encoding: chunked, identity",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n", 400),
                new Case("Transfer-Encoding: gzip",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 400),
                new Case("Transfer-Encoding: gzip with Content-Length",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\nContent-Length: 5\r\n\r\nhello", 400),
                new Case("two Transfer-Encoding headers",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
                new Case("Transfer-Encoding: xchunked",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 400),
                new Case("Transfer-Encoding on HTTP/1.0",
                        "POST /echo HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
                new Case("duplicate Content-Length, same value",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello", 400),
                new Case("duplicate Content-Length, different values",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 0\r\n\r\nhello", 400),
                new Case("Content-Length list 5, 5",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 5\r\n\r\nhello", 400),
                new Case("duplicate Content-Length, different values, HTTP/1.0 keep-alive",
                        "POST /echo HTTP/1.0\r\nConnection: keep-alive\r\nContent-Length: 5\r\nContent-Length: 0\r\n\r\nhello", 400),
                new Case("duplicate Content-Length, same value, HTTP/1.0 keep-alive",
                        "POST /echo HTTP/1.0\r\nConnection: keep-alive\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello", 400),
                new Case("Content-Length: +5",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\nhello", 400),
                new Case("Content-Length: -1",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400),
                new Case("Content-Length: 0x10",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 0x10\r\n\r\n0123456789abcdef", 400),
                new Case("Content-Length: abc",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", 400),
                new Case("Content-Length over 2^63",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n", 400),
                new Case("missing Host on HTTP/1.1",
                        "GET /echo HTTP/1.1\r\n\r\n", 400),
                new Case("two Host headers",
                        "GET /echo HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", 400),
                new Case("request line of one token",
                        "GARBAGE\r\n\r\n", 400),
                new Case("request line of three words",
                        "this is garbage\r\n\r\n", 400),
                new Case("request line without version",
                        "GET /echo\r\n\r\n", 400),
                new Case("control bytes in the request line",
                        "G\u0001T /echo HTTP/1.1\r\nHost: x\r\n\r\n", 400),
                new Case("whitespace before a header colon",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length : 5\r\n\r\nhello", 400),
                new Case("version HTTP/2.0",
                        "GET /echo HTTP/2.0\r\nHost: x\r\n\r\n", 505),
                new Case("version HTTP/1.2",
                        "GET /echo HTTP/1.2\r\nHost: x\r\n\r\n", 505));
    }

    static Stream<Arguments> transportsAndCases() {
        return Setup.transports().flatMap(s -> cases().map(c -> Arguments.of(s, c)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("transportsAndCases")
    void isRefusedAndTheSmuggledRequestNeverRuns(Setup setup, Case c) {
        Server server = server(setup);
        try (RawConnection raw = server.client().raw()) {
            raw.write(c.bytes() + SMUGGLED);
            TestResponse r = raw.readResponse();
            assertThat(r.status()).as("%s -> %s", c, r).isEqualTo(c.status());
            assertThat(r.header("Content-Type")).as("%s", r).hasValue("application/problem+json");
            assertThat(r.jsonTree().get("status").asInt()).isEqualTo(c.status());
            assertThat(raw.awaitClosed(Duration.ofSeconds(5))).as("connection closed after %s", c).isTrue();
            assertThat(raw.readAllUntilClose()).as("bytes after the refusal").isEmpty();
        }
        assertThat(server.echoed()).as("the malformed request ran").hasValue(0);
        assertThat(server.smuggled()).as("the smuggled request ran").hasValue(0);
        assertThat(server.client().get("/ok").status()).as("next client").isEqualTo(200);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.it.Setup#transports")
    void http10WithoutHostIsServed(Setup setup) {
        Server server = server(setup);
        try (RawConnection raw = server.client().raw()) {
            raw.write("GET /ok HTTP/1.0\r\n\r\n");
            TestResponse r = raw.readResponse();
            assertThat(r.status()).as("%s", r).isEqualTo(200);
            assertThat(r.text()).isEqualTo("ok");
            assertThat(raw.awaitClosed(Duration.ofSeconds(5))).isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.it.Setup#transports")
    void wellFramedRequestsOnTheSameServerAreServed(Setup setup) {
        Server server = server(setup);
        try (RawConnection raw = server.client().raw()) {
            raw.write("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
                    + "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
                    + "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\n\r\n1\r\nz\r\n0\r\n\r\n"
                    + "GET /smuggled HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            assertThat(raw.readResponse().text()).isEqualTo("hello");
            assertThat(raw.readResponse().text()).isEqualTo("abc");
            assertThat(raw.readResponse().text()).isEqualTo("z");
            assertThat(raw.readResponse().text()).isEqualTo("smuggled");
            assertThat(raw.awaitClosed(Duration.ofSeconds(5))).isTrue();
        }
        assertThat(server.echoed()).hasValue(3);
        assertThat(server.smuggled()).hasValue(1);
    }

    private static Server server(Setup setup) {
        Server s = SERVERS.computeIfAbsent(setup.transport(), t -> {
            AtomicInteger echoed = new AtomicInteger();
            AtomicInteger smuggled = new AtomicInteger();
            // Short header-read and idle timeouts: a request the server silently ignores fails fast.
            TestClient client = setup.start(
                    b -> b.headerReadTimeout(Duration.ofSeconds(3)).idleTimeout(Duration.ofSeconds(3)),
                    app -> {
                        app.post("/echo", req -> {
                            echoed.incrementAndGet();
                            return req.body();
                        });
                        app.get("/echo", req -> {
                            echoed.incrementAndGet();
                            return "echo";
                        });
                        app.get("/smuggled", req -> {
                            smuggled.incrementAndGet();
                            return "smuggled";
                        });
                        app.get("/ok", req -> "ok");
                    });
            return new Server(client, echoed, smuggled);
        });
        s.echoed().set(0);
        s.smuggled().set(0);
        return s;
    }

    @AfterAll
    static void stopServers() {
        SERVERS.values().forEach(s -> s.client().close());
        SERVERS.clear();
    }
}
