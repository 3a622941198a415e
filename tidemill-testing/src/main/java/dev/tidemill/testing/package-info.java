/**
 * Test support for Tidemill apps: {@link dev.tidemill.testing.TestClient} starts an app on a free
 * loopback port and talks HTTP/1.1 to it over real sockets, with its own strict response parser
 * (so it can send what {@code java.net.http.HttpClient} refuses to: any {@code Host},
 * {@code Connection}, {@code Content-Length} or {@code Expect} header, pipelined requests, and
 * malformed bytes).
 *
 * <ul>
 *   <li>{@link dev.tidemill.testing.TestClient}: one-shot requests ({@code get}, {@code post},
 *       {@code send}, ...), each on a fresh connection;</li>
 *   <li>{@link dev.tidemill.testing.Connection}: a keep-alive connection, also for pipelining;</li>
 *   <li>{@link dev.tidemill.testing.RawConnection}: exactly the bytes given, for malformed
 *       requests and connection-level behaviour;</li>
 *   <li>{@link dev.tidemill.testing.StreamingResponse}: a body read chunk by chunk as it
 *       arrives;</li>
 *   <li>{@link dev.tidemill.testing.WebSocketClient}: a WebSocket connection (RFC 6455, with
 *       permessage-deflate), also for hostile frames built as {@link dev.tidemill.testing.WebSocketFrame};</li>
 *   <li>{@link dev.tidemill.testing.TestRequest} and {@link dev.tidemill.testing.TestResponse}:
 *       what is sent and what came back;</li>
 *   <li>{@link dev.tidemill.testing.MultipartBody}: a {@code multipart/form-data} body, as a
 *       browser encodes one, for {@code TestRequest.multipart(...)}.</li>
 * </ul>
 *
 * <pre>{@code
 * Tidemill app = Tidemill.create(TestClient.config().build());
 * app.get("/hello", req -> "Hello");
 * try (TestClient client = TestClient.start(app)) {
 *     assertThat(client.get("/hello").text()).isEqualTo("Hello");
 * }
 * }</pre>
 *
 * Every socket read is bounded by {@link dev.tidemill.testing.TestClient#timeout(java.time.Duration)}
 * (30 s by default), so a hung server fails a test rather than hanging the build.
 */
package dev.tidemill.testing;
