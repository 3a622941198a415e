package dev.tidemill.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.EOFException;
import java.io.UncheckedIOException;
import java.net.ProtocolException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The client's HTTP/1.1 parser and request writer, against canned bytes from a plain ServerSocket. */
@Timeout(30)
class TestClientParserTest {

    record Item(String name, int qty) {}

    // ---- body framing ----------------------------------------------------------------------------

    @Test
    void chunkedBodyWithExtensionsAndTrailers() throws Exception {
        try (var s = CannedServer.replying("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n"
                + "Content-Type: text/plain\r\n\r\n"
                + "5;name=value\r\nhello\r\n"
                + "1 ; quoted=\"a;b\"\r\n \r\n"
                + "A\r\n0123456789\r\n"
                + "0;last\r\nX-Checksum: abc\r\nX-Other: 1\r\n\r\n");
                var c = s.client()) {
            TestResponse r = c.get("/");
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.reason()).isEqualTo("OK");
            assertThat(r.httpVersion()).isEqualTo("HTTP/1.1");
            assertThat(r.chunked()).isTrue();
            assertThat(r.text()).isEqualTo("hello 0123456789");
            assertThat(r.trailer("x-checksum")).contains("abc");
            assertThat(r.trailers()).containsExactly(Map.entry("X-Checksum", "abc"), Map.entry("X-Other", "1"));
        }
    }

    @Test
    void contentLengthBodyOnKeepAliveConnection() throws Exception {
        try (var s = new CannedServer(p -> {
                    p.readRequest();
                    p.send("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\none");
                    p.readRequest();
                    p.send("HTTP/1.1 201 Created\r\ncontent-length: 3\r\n\r\ntwo");
                    p.readRequest(); // until the client closes
                });
                var c = s.client();
                Connection conn = c.connect()) {
            TestResponse a = conn.send(TestRequest.get("/a"));
            TestResponse b = conn.send(TestRequest.get("/b"));
            assertThat(a.text()).isEqualTo("one");
            assertThat(a.chunked()).isFalse();
            assertThat(b.status()).isEqualTo(201);
            assertThat(b.text()).isEqualTo("two");
            assertThat(s.heads()).hasSize(2).allSatisfy(h -> assertThat(h).doesNotContain("Connection:"));
        }
    }

    @Test
    void bodyDelimitedByClose() throws Exception {
        try (var s = new CannedServer(p -> {
                    p.readRequest();
                    p.send("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nfirst part, ");
                    Thread.sleep(50);
                    p.send("second part");
                    p.close();
                });
                var c = s.client()) {
            TestResponse r = c.get("/");
            assertThat(r.text()).isEqualTo("first part, second part");
        }
    }

    @Test
    void headResponseHasNoBodyWhateverContentLengthSays() throws Exception {
        try (var s = new CannedServer(p -> {
                    p.readRequest();
                    p.send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n");
                    p.readRequest();
                    p.send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
                    p.readRequest();
                    p.send("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
                    p.readRequest();
                });
                var c = s.client();
                Connection conn = c.connect()) {
            TestResponse h1 = conn.send(TestRequest.of("HEAD", "/"));
            TestResponse h2 = conn.send(TestRequest.of("HEAD", "/"));
            TestResponse g = conn.send(TestRequest.get("/"));
            assertThat(h1.header("Content-Length")).contains("100");
            assertThat(h1.body()).isEmpty();
            assertThat(h2.body()).isEmpty();
            assertThat(g.text()).isEqualTo("ok");
        }
    }

    @Test
    void headViaTestClient() throws Exception {
        try (var s = CannedServer.replying("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"); var c = s.client()) {
            TestResponse r = c.head("/");
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEmpty();
            assertThat(s.heads().get(0)).startsWith("HEAD / HTTP/1.1\r\n");
        }
    }

    @Test
    void noBodyFor204And304() throws Exception {
        try (var s = new CannedServer(p -> {
                    p.readRequest();
                    p.readRequest();
                    p.readRequest();
                    p.send("HTTP/1.1 204 No Content\r\n\r\n"
                            + "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\nContent-Length: 10\r\n\r\n"
                            + "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\ndone");
                    p.readRequest();
                });
                var c = s.client();
                Connection conn = c.connect()) {
            List<TestResponse> rs = conn.pipeline(List.of(TestRequest.get("/1"), TestRequest.get("/2"), TestRequest.get("/3")));
            assertThat(rs).extracting(TestResponse::status).containsExactly(204, 304, 200);
            assertThat(rs.get(1).header("etag")).contains("\"x\"");
            assertThat(rs.get(1).body()).isEmpty();
            assertThat(rs.get(2).text()).isEqualTo("done");
        }
    }

    // ---- interim responses and Expect ----------------------------------------------------------

    @Test
    void continueThenFinalIsSkippedButRecorded() throws Exception {
        try (var s = CannedServer.replying("HTTP/1.1 100 Continue\r\n\r\n"
                + "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
                var c = s.client()) {
            TestResponse r = c.get("/");
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.interim()).containsExactly(100, 103);
            assertThat(r.text()).isEqualTo("ok");
            assertThat(r.header("Link")).isEmpty();
        }
    }

    @Test
    void noInterimRecordedWhenNoneSent() throws Exception {
        try (var s = CannedServer.replying("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"); var c = s.client()) {
            assertThat(c.get("/").interim()).isEmpty();
        }
    }

    @Test
    void expectContinueHoldsTheBodyUntil100() throws Exception {
        CountDownLatch bodyArrivedEarly = new CountDownLatch(1);
        try (var s = new CannedServer(p -> {
                    p.readHead();
                    p.socket.setSoTimeout(200);
                    try {
                        if (p.readBody(1).length > 0) bodyArrivedEarly.countDown();
                    } catch (SocketTimeoutException expected) {
                        // the client waits for the 100
                    }
                    p.socket.setSoTimeout(0);
                    p.send("HTTP/1.1 100 Continue\r\n\r\n");
                    byte[] body = p.readBody(bodyArrivedEarly.getCount() == 0 ? 4 : 5);
                    p.send("HTTP/1.1 200 OK\r\nContent-Length: " + body.length + "\r\n\r\n");
                    p.send(body);
                });
                var c = s.client()) {
            TestResponse r = c.send(TestRequest.of("POST", "/upload").header("Expect", "100-continue")
                    .body("text/plain", "hello"));
            assertThat(bodyArrivedEarly.getCount()).as("body sent before 100 Continue").isEqualTo(1);
            assertThat(r.interim()).containsExactly(100);
            assertThat(r.text()).isEqualTo("hello");
        }
    }

    @Test
    void expectContinueAnsweredWithFinalStatusNeverSendsTheBody() throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger bodyBytes = new java.util.concurrent.atomic.AtomicInteger(-1);
        try (var s = new CannedServer(p -> {
                    p.readHead();
                    p.send("HTTP/1.1 413 Content Too Large\r\nContent-Length: 3\r\nConnection: close\r\n\r\nbig");
                    p.socket.shutdownOutput();
                    p.socket.setSoTimeout(5000);
                    try {
                        bodyBytes.set(p.readBody(1).length); // 0: EOF, the client closed without sending it
                    } finally {
                        done.countDown();
                    }
                });
                var c = s.client()) {
            TestResponse r = c.send(TestRequest.of("POST", "/upload").header("Expect", "100-continue")
                    .body("text/plain", "x".repeat(10_000)));
            assertThat(r.status()).isEqualTo(413);
            assertThat(r.interim()).isEmpty();
            assertThat(r.text()).isEqualTo("big");
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(bodyBytes.get()).as("body bytes the server received").isZero();
        }
    }

    // ---- pipelining ------------------------------------------------------------------------------

    @Test
    void pipelinedResponsesComeBackInOrder() throws Exception {
        try (var s = new CannedServer(p -> {
                    for (int i = 0; i < 3; i++) p.readRequest(); // all three before any answer
                    p.send("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n1"
                            + "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n2\r\n0\r\n\r\n"
                            + "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n3");
                    p.readRequest();
                });
                var c = s.client();
                Connection conn = c.connect()) {
            List<TestResponse> rs = conn.pipeline(List.of(TestRequest.get("/1"),
                    TestRequest.of("POST", "/2").body("text/plain", "body"), TestRequest.get("/3")));
            assertThat(rs).extracting(TestResponse::text).containsExactly("1", "2", "3");
            assertThat(s.heads()).extracting(h -> h.substring(0, h.indexOf(" HTTP/1.1")))
                    .containsExactly("GET /1", "POST /2", "GET /3");
        }
    }

    // ---- request writing -------------------------------------------------------------------------

    @Test
    void requestsCarryHostConnectionCloseAndContentLength() throws Exception {
        try (var s = new CannedServer(p -> {
                    p.readRequest();
                    p.send("HTTP/1.1 204 No Content\r\n\r\n");
                });
                var c = s.client()) {
            c.post("/items", "text/plain; charset=utf-8", "héllo");
            c.send(TestRequest.get("/x").header("Host", "example.test").header("X-A", "1").header("x-a", "2"));
            c.postJson("/json", new Item("pen", 2));
            String post = s.heads().get(0);
            assertThat(post).startsWith("POST /items HTTP/1.1\r\nHost: 127.0.0.1:" + s.port() + "\r\n")
                    .contains("Content-Type: text/plain; charset=utf-8\r\n", "Connection: close\r\n",
                            "Content-Length: 6\r\n");
            String get = s.heads().get(1);
            assertThat(get).contains("Host: example.test\r\nX-A: 1\r\nx-a: 2\r\n")
                    .doesNotContain("127.0.0.1").doesNotContain("Content-Length");
            assertThat(s.heads().get(2)).contains("Content-Type: application/json\r\n",
                    "Content-Length: " + "{\"name\":\"pen\",\"qty\":2}".length() + "\r\n");
        }
    }

    @Test
    void chunkedRequestBody() throws Exception {
        try (var s = new CannedServer(p -> {
                    p.readHead();
                    byte[] body = p.readBody("3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n".length());
                    p.send("HTTP/1.1 200 OK\r\nContent-Length: " + body.length + "\r\n\r\n");
                    p.send(body);
                });
                var c = s.client()) {
            TestResponse r = c.send(TestRequest.of("POST", "/up").header("Content-Type", "text/plain")
                    .chunked(List.of("abc".getBytes(StandardCharsets.UTF_8), new byte[0], "de".getBytes(StandardCharsets.UTF_8))));
            assertThat(r.text()).isEqualTo("3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n");
            assertThat(s.heads().get(0)).contains("Content-Type: text/plain\r\nTransfer-Encoding: chunked\r\n")
                    .doesNotContain("Content-Length");
        }
    }

    // ---- headers and JSON ------------------------------------------------------------------------

    @Test
    void headersCaseInsensitiveInOrderWithRepeats() throws Exception {
        try (var s = CannedServer.replying("HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\nX-Empty:\r\n"
                + "content-type:   application/json  \r\nSET-COOKIE: b=2\r\nContent-Length: 25\r\n\r\n"
                + "{\"name\":\"pen\",\"qty\":2}   ");
                var c = s.client()) {
            TestResponse r = c.get("/");
            assertThat(r.header("Content-Type")).contains("application/json");
            assertThat(r.header("x-empty")).contains("");
            assertThat(r.header("missing")).isEmpty();
            assertThat(r.headers("set-cookie")).containsExactly("a=1", "b=2");
            assertThat(r.headerList()).extracting(Map.Entry::getKey)
                    .containsExactly("Set-Cookie", "X-Empty", "content-type", "SET-COOKIE", "Content-Length");
            assertThat(r.json(Item.class)).isEqualTo(new Item("pen", 2));
            assertThat(r.jsonTree().get("qty").asInt()).isEqualTo(2);
            assertThat(r.toString()).startsWith("HTTP/1.1 200 OK [Set-Cookie: a=1");
        }
    }

    @Test
    void statusLineWithoutReason() throws Exception {
        try (var s = CannedServer.replying("HTTP/1.1 599 \r\nContent-Length: 0\r\n\r\n"); var c = s.client()) {
            TestResponse r = c.get("/");
            assertThat(r.status()).isEqualTo(599);
            assertThat(r.reason()).isEmpty();
        }
    }

    @Test
    void textUsesTheCharsetOfContentType() throws Exception {
        try (var s = CannedServer.replying("HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=ISO-8859-1\r\n"
                + "Content-Length: 1\r\n\r\n\u00e9");
                var c = s.client()) {
            assertThat(c.get("/").text()).isEqualTo("é");
        }
    }

    @Test
    void jsonOfANonJsonBodyNamesTheResponse() throws Exception {
        try (var s = CannedServer.replying("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 4\r\n\r\noops");
                var c = s.client()) {
            TestResponse r = c.get("/");
            assertThatThrownBy(() -> r.json(Item.class)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("500").hasMessageContaining("oops");
        }
    }

    // ---- malformed responses fail with the reason -----------------------------------------------

    @Test
    void malformedResponsesAreReported() throws Exception {
        assertProtocolError("HTTP/1.1 200 OK\nContent-Length: 0\n\n", "bare LF");
        assertProtocolError("HTTP/1.1 2000 OK\r\n\r\n", "malformed status line");
        assertProtocolError("HTP/1.1 200 OK\r\n\r\n", "malformed status line");
        assertProtocolError("HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n", "not a token");
        assertProtocolError("HTTP/1.1 200 OK\r\nX: a\r\n folded\r\n\r\n", "folding");
        assertProtocolError("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", "conflicting");
        assertProtocolError("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "invalid Content-Length");
        assertProtocolError("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                "both Transfer-Encoding and Content-Length");
        assertProtocolError("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "chunk size");
        assertProtocolError("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n",
                "followed by more data");
    }

    private static void assertProtocolError(String response, String message) throws Exception {
        try (var s = CannedServer.replying(response); var c = s.client()) {
            assertThatThrownBy(() -> c.get("/")).isInstanceOf(UncheckedIOException.class)
                    .hasCauseInstanceOf(ProtocolException.class).hasMessageContaining(message);
        }
    }

    @Test
    void truncatedBodiesAreReported() throws Exception {
        try (var s = CannedServer.replying("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"); var c = s.client()) {
            assertThatThrownBy(() -> c.get("/")).isInstanceOf(UncheckedIOException.class)
                    .hasCauseInstanceOf(EOFException.class).hasMessageContaining("3 of 10");
        }
        try (var s = CannedServer.replying("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n");
                var c = s.client()) {
            assertThatThrownBy(() -> c.get("/")).isInstanceOf(UncheckedIOException.class)
                    .hasCauseInstanceOf(EOFException.class).hasMessageContaining("chunk-size");
        }
        try (var s = CannedServer.replying(""); var c = s.client()) {
            assertThatThrownBy(() -> c.get("/")).isInstanceOf(UncheckedIOException.class)
                    .hasCauseInstanceOf(EOFException.class).hasMessageContaining("before the status line");
        }
    }

    // ---- timeouts --------------------------------------------------------------------------------

    @Test
    void aSilentServerFailsWithinTheTimeout() throws Exception {
        try (var s = new CannedServer(p -> {
                    p.readRequest();
                    p.send("HTTP/1.1 200 OK\r\nContent-Le");
                    assertThat(p.readHead()).as("nothing more from the client: it gives up and closes").isNull();
                });
                var c = s.client().timeout(Duration.ofMillis(300))) {
            assertThatThrownBy(() -> c.get("/")).isInstanceOf(UncheckedIOException.class)
                    .hasCauseInstanceOf(SocketTimeoutException.class)
                    .hasMessageContaining("300 ms").hasMessageContaining("Content-Le");
        }
    }

    // ---- raw connections and closes --------------------------------------------------------------

    @Test
    void rawSendsExactlyTheBytesGiven() throws Exception {
        try (var s = new CannedServer(p -> {
                    p.readHead();
                    p.send("HTTP/1.1 400 Bad Request\r\nContent-Length: 3\r\nConnection: close\r\n\r\nbad");
                    p.close();
                });
                var c = s.client();
                RawConnection raw = c.raw()) {
            raw.write("GET / HTTP/1.1\r\nX: \u00ff\r\n\r\n");
            TestResponse r = raw.readResponse();
            assertThat(r.status()).isEqualTo(400);
            assertThat(raw.awaitClosed(Duration.ofSeconds(5))).isTrue();
            assertThat(s.heads().get(0)).isEqualTo("GET / HTTP/1.1\r\nX: \u00ff\r\n\r\n");
        }
    }

    @Test
    void rawReadResponseOrCloseAndReadAllUntilClose() throws Exception {
        try (var s = new CannedServer(p -> {
                    String head = p.readHead();
                    if (head.startsWith("BYE")) {
                        p.close();
                        return;
                    }
                    p.send("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokextra bytes");
                    p.close();
                });
                var c = s.client()) {
            try (RawConnection raw = c.raw()) {
                raw.write("BYE\r\n\r\n");
                assertThat(raw.readResponseOrClose()).isEmpty();
            }
            try (RawConnection raw = c.raw()) {
                raw.write("GET / HTTP/1.1\r\n\r\n");
                assertThat(raw.readResponseOrClose()).hasValueSatisfying(r -> assertThat(r.text()).isEqualTo("ok"));
                assertThat(new String(raw.readAllUntilClose(), StandardCharsets.ISO_8859_1)).isEqualTo("extra bytes");
            }
            try (RawConnection raw = c.raw()) {
                raw.write("GET / HTTP/1.1\r\n\r\n");
                assertThat(raw.awaitClosed(Duration.ofSeconds(5))).isTrue();
                // bytes that arrived before the close are still there
                assertThat(raw.readResponse().text()).isEqualTo("ok");
            }
        }
    }

    @Test
    void awaitClosedIsFalseWhileTheServerKeepsTheConnection() throws Exception {
        try (var s = new CannedServer(p -> {
                    p.readHead();
                    p.readHead(); // until the client goes
                });
                var c = s.client();
                RawConnection raw = c.raw()) {
            raw.write("GET / HTTP/1.1\r\n\r\n");
            assertThat(raw.awaitClosed(Duration.ofMillis(200))).isFalse();
        }
    }

    @Test
    void isClosedByServer() throws Exception {
        try (var s = new CannedServer(p -> {
                    p.readRequest();
                    p.send("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\na");
                    p.readRequest();
                    p.send("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nConnection: close\r\n\r\nb");
                    p.close();
                });
                var c = s.client();
                Connection conn = c.connect()) {
            assertThat(conn.send(TestRequest.get("/")).text()).isEqualTo("a");
            assertThat(conn.isClosedByServer()).isFalse();
            assertThat(conn.send(TestRequest.get("/")).text()).isEqualTo("b");
            assertThat(conn.isClosedByServer()).isTrue();
        }
    }

    @Test
    void writeThenReadOnAConnection() throws Exception {
        try (var s = CannedServer.replying("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi"); var c = s.client();
                Connection conn = c.connect()) {
            conn.write("GET /x HTTP/1.1\r\nHost: a\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            assertThat(conn.read().text()).isEqualTo("hi");
        }
    }

    // ---- streaming -------------------------------------------------------------------------------

    @Test
    void streamingReadsChunksAsTheyArrive() throws Exception {
        CountDownLatch second = new CountDownLatch(1);
        try (var s = new CannedServer(p -> {
                    p.readRequest();
                    p.send("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                            + "9\r\ndata: 1\n\n\r\n");
                    if (!second.await(10, TimeUnit.SECONDS)) throw new AssertionError("client never asked");
                    p.send("9\r\ndata: 2\n\n\r\n0\r\nX-End: yes\r\n\r\n");
                });
                var c = s.client();
                StreamingResponse st = c.stream(TestRequest.get("/events"))) {
            assertThat(st.status()).isEqualTo(200);
            assertThat(st.chunked()).isTrue();
            assertThat(st.header("content-type")).contains("text/event-stream");
            // the first chunk is readable before the server sends the second
            assertThat(st.nextChunkText()).isEqualTo("data: 1\n\n");
            second.countDown();
            assertThat(st.nextChunkText()).isEqualTo("data: 2\n\n");
            assertThat(st.nextChunk()).isEmpty();
            assertThat(st.ended()).isTrue();
            assertThat(st.trailers()).containsExactly(Map.entry("X-End", "yes"));
            assertThatThrownBy(st::nextChunkText).isInstanceOf(NoSuchElementException.class);
        }
    }

    @Test
    void closingAStreamDisconnectsTheClient() throws Exception {
        CountDownLatch serverSawClose = new CountDownLatch(1);
        try (var s = new CannedServer(p -> {
                    p.readRequest();
                    p.send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n");
                    if (p.readHead() == null) serverSawClose.countDown();
                });
                var c = s.client()) {
            StreamingResponse st = c.stream(TestRequest.get("/events"));
            assertThat(st.nextChunkText()).isEqualTo("a");
            st.close();
            assertThat(serverSawClose.await(5, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void streamingAContentLengthBody() throws Exception {
        try (var s = CannedServer.replying("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"); var c = s.client();
                StreamingResponse st = c.stream(TestRequest.get("/"))) {
            StringBuilder all = new StringBuilder();
            for (var chunk = st.nextChunk(); chunk.isPresent(); chunk = st.nextChunk()) {
                all.append(new String(chunk.get(), StandardCharsets.UTF_8));
            }
            assertThat(all).hasToString("hello");
            assertThat(st.chunked()).isFalse();
        }
    }

    // ---- the client's own bookkeeping -----------------------------------------------------------

    @Test
    void closeClosesEveryConnectionItOpened() throws Exception {
        try (var s = new CannedServer(p -> p.readHead())) {
            TestClient c = s.client();
            Connection a = c.connect();
            RawConnection b = c.raw();
            assertThat(c.openWires()).hasSize(2);
            a.close();
            assertThat(c.openWires()).hasSize(1);
            c.close();
            assertThat(c.openWires()).isEmpty();
            assertThatThrownBy(() -> b.write("x")).isInstanceOf(UncheckedIOException.class);
            assertThatThrownBy(c::connect).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(c::server).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void uriAndHostForWildcardBinds() {
        TestClient c = TestClient.connectTo("127.0.0.1", 8123);
        assertThat(c.uri("/a?b=1")).hasToString("http://127.0.0.1:8123/a?b=1");
        assertThat(c.port()).isEqualTo(8123);
        assertThat(TestClient.connectHost("0.0.0.0")).isEqualTo("127.0.0.1");
        assertThat(TestClient.connectHost("::")).isEqualTo("127.0.0.1");
        assertThat(TestClient.connectHost("localhost")).isEqualTo("localhost");
        assertThat(TestClient.connectTo("::1", 80).uri("/")).hasToString("http://[::1]:80/");
    }

    @Test
    void aFailingScriptFailsTheTestThatUsesTheServer() throws Exception {
        CannedServer s = new CannedServer(p -> {
            p.readRequest();
            throw new IllegalStateException("the script broke");
        });
        try (var c = s.client()) {
            assertThatThrownBy(() -> c.get("/")).isInstanceOf(UncheckedIOException.class);
        }
        assertThatThrownBy(s::close).isInstanceOf(AssertionError.class)
                .hasMessageContaining("script failed 1 time(s)").hasMessageContaining("the script broke");
    }

    @Test
    void aTestThatExpectsTheScriptToFailReadsItsFailures() throws Exception {
        try (var s = new CannedServer(p -> {
                    p.readRequest();
                    throw new IllegalStateException("expected");
                });
                var c = s.client()) {
            assertThatThrownBy(() -> c.get("/")).isInstanceOf(UncheckedIOException.class);
            assertThat(s.awaitFailures()).singleElement().satisfies(t -> assertThat(t).hasMessage("expected"));
        }
    }

    @Test
    void connectingToANonListeningPortFailsClearly() throws Exception {
        int port;
        try (var s = new CannedServer(p -> {})) {
            port = s.port();
        }
        try (TestClient c = TestClient.connectTo("127.0.0.1", port)) {
            assertThatThrownBy(() -> c.get("/")).isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("cannot connect to 127.0.0.1:" + port);
        }
    }
}
