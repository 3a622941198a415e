package dev.tidemill.tests.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tidemill.testing.Connection;
import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code maxConnections}: at the cap, a further client waits (in the kernel's backlog) and is not
 * served; it is served once one of the open connections closes.
 */
@Timeout(60)
class ConnectionLimitTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#transports")
    void aThirdConnectionWaitsUntilOneOfTwoCloses(Setup setup) {
        try (TestClient client = setup.start(b -> b.maxConnections(2), app -> app.get("/hello", req -> "hello"))) {
            Connection first = client.connect();
            Connection second = client.connect();
            assertThat(first.send(TestRequest.get("/hello")).status()).isEqualTo(200);
            assertThat(second.send(TestRequest.get("/hello")).status()).isEqualTo(200);

            client.timeout(Duration.ofMillis(500)); // for the third connection's reads
            try (RawConnection third = client.raw()) {
                third.write("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThatThrownBy(third::readResponse)
                        .as("a response to a connection over the limit")
                        .isInstanceOf(UncheckedIOException.class)
                        .hasCauseInstanceOf(SocketTimeoutException.class);
                // The two admitted connections are still served meanwhile.
                assertThat(first.send(TestRequest.get("/hello")).status()).isEqualTo(200);
                assertThat(second.send(TestRequest.get("/hello")).status()).isEqualTo(200);

                first.close();
                // each read gives up after the client's 500 ms; a timeout only means "not yet"
                TestResponse r = await("the waiting connection served once one of the two closed").atMost(Duration.ofSeconds(15))
                        .ignoreExceptionsMatching(e -> e.getCause() instanceof SocketTimeoutException)
                        .until(third::readResponse, java.util.Objects::nonNull);
                assertThat(r.status()).as("%s", r).isEqualTo(200);
                assertThat(r.text()).isEqualTo("hello");
            }
            assertThat(second.send(TestRequest.get("/hello")).status()).isEqualTo(200);
            second.close();
        }
    }

    /**
     * Connections that arrive together (one accept burst) are capped too: at most two are served;
     * each of the others either waits unanswered or is closed without a response.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#transports")
    void connectionsArrivingTogetherAreCappedToo(Setup setup) {
        try (TestClient client = setup.start(b -> b.maxConnections(2), app -> app.get("/hello", req -> "hello"))) {
            client.timeout(Duration.ofMillis(700));
            List<RawConnection> burst = new ArrayList<>();
            for (int i = 0; i < 6; i++) burst.add(client.raw()); // back to back, before the server accepts them
            for (RawConnection c : burst) {
                try {
                    c.write("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
                } catch (UncheckedIOException alreadyClosedByTheServer) {
                    // a socket closed at once for being over the cap
                }
            }
            int answered = 0;
            int waiting = 0;
            for (RawConnection c : burst) {
                try {
                    if (c.readResponseOrClose().isPresent()) answered++;
                } catch (UncheckedIOException e) {
                    // Waiting in the backlog (read timeout), or closed at once for being over the
                    // cap within the same accept burst (reset or EOF).
                    assertThat(e.getCause()).isInstanceOf(java.io.IOException.class);
                    waiting++;
                }
            }
            assertThat(answered).as("connections served with maxConnections(2) (%d more waiting)", waiting).isEqualTo(2);
            burst.forEach(RawConnection::close);
            client.timeout(Duration.ofSeconds(20));
            assertThat(client.get("/hello").status()).as("a client after the burst").isEqualTo(200);
        }
    }
}
