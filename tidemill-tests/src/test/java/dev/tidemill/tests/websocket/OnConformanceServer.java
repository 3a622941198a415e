package dev.tidemill.tests.websocket;

import dev.tidemill.testing.TestClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A table of {@link WsCase}s: each subclass declares {@code static Stream<WsCase> cases()}, and
 * every row runs over a real socket against one {@link ConformanceServer}, started before the
 * first row and stopped after the last, once over HTTP/1.1 (after a 101) and once over HTTP/2 (on
 * a stream opened by an extended CONNECT, RFC 8441).
 */
@Timeout(120)
abstract class OnConformanceServer {
    private static TestClient client;

    @BeforeAll
    static void startServer() {
        // 8 s per read: generous on loopback (even for the 16 MiB echoes, bounded per read), and a
        // server that never answers fails its row quickly instead of holding the suite.
        client = ConformanceServer.start().timeout(java.time.Duration.ofSeconds(8));
    }

    @AfterAll
    static void stopServer() {
        client.close();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void conforms(WsCase c) {
        WsRunner.run(client, c);
    }

    /** The same row over HTTP/2: the WebSocket on one stream of its own connection (RFC 8441). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void conformsOverHttp2(WsCase c) {
        client.protocol(TestClient.Protocol.H2C);
        try {
            WsRunner.run(client, c);
        } finally {
            client.protocol(TestClient.Protocol.HTTP_1_1);
        }
    }
}
