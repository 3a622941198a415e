package dev.tidemill.tests.websocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.ExecutionMode;
import dev.tidemill.WebSocket;
import dev.tidemill.WebSocketHandler;
import dev.tidemill.WebSocketMessage;
import dev.tidemill.WebSocketOptions;
import dev.tidemill.WebSocketOptions.Overflow;
import dev.tidemill.WebSocketOverflowException;
import dev.tidemill.tests.support.Setup;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.WebSocketClient;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A peer that does not read while the handler sends 20 MiB (more than the kernel's socket buffers
 * and the route's 64 KiB {@code maxOutboundBytes} hold): with {@code FAIL} sends fail with
 * {@link WebSocketOverflowException} and the connection stays; with {@code DROP} messages are
 * lost, the rest arrive intact and in order, and the connection stays; with {@code CLOSE} the
 * connection is closed with 1008.
 */
class OutboundBackPressureTest {
    private static final int COUNT = 20_000;
    private static final int SIZE = 1024;

    private final AtomicInteger written = new AtomicInteger();
    private final AtomicInteger overflowed = new AtomicInteger();
    private final List<Throwable> otherFailures = new CopyOnWriteArrayList<>();
    private final AtomicBoolean flooded = new AtomicBoolean();
    private final List<WebSocket.CloseStatus> closes = new CopyOnWriteArrayList<>();

    /** On {@code flood}: sends COUNT numbered binary messages without waiting; on anything else: echoes. */
    private TestClient start(Overflow policy) {
        WebSocketHandler flood = new WebSocketHandler() {
            @Override
            public void onMessage(WebSocket ws, WebSocketMessage m) {
                if (!m.text().equals("flood")) {
                    ws.send(m.text());
                    return;
                }
                for (int i = 0; i < COUNT; i++) {
                    ws.send(ByteBuffer.allocate(SIZE).putInt(i).array()).whenComplete((ok, e) -> {
                        Throwable cause = e instanceof CompletionException ? e.getCause() : e;
                        if (cause == null) written.incrementAndGet();
                        else if (cause instanceof WebSocketOverflowException) overflowed.incrementAndGet();
                        else otherFailures.add(cause);
                    });
                }
                flooded.set(true);
            }

            @Override
            public void onClose(WebSocket ws, WebSocket.CloseStatus s) {
                closes.add(s);
            }
        };
        WebSocketOptions options = WebSocketOptions.builder().maxOutboundBytes(64 * 1024).overflow(policy)
                .closeTimeout(Duration.ofSeconds(1)).build();
        return Setup.onDefaultTransport(ExecutionMode.LOOP).start(app -> app.ws("/flood", options, flood));
    }

    @Test
    void failPolicyFailsTheSendsPastTheBoundAndKeepsTheConnection() {
        try (TestClient client = start(Overflow.FAIL); WebSocketClient ws = client.webSocket("/flood")) {
            ws.send("flood");
            await().atMost(Duration.ofSeconds(20)).until(flooded::get);
            await().atMost(Duration.ofSeconds(20)).until(() -> overflowed.get() > 0);
            int accepted = COUNT - overflowed.get();
            int last = -1;
            for (int i = 0; i < accepted; i++) {
                int seq = ByteBuffer.wrap(ws.nextMessage().orElseThrow().bytes()).getInt();
                assertThat(seq).as("in order, gaps where sends failed").isGreaterThan(last);
                last = seq;
            }
            ws.send("after the flood");
            assertThat(ws.nextMessage().map(WebSocketClient.Message::text)).as("the connection stayed").hasValue("after the flood");
            await().atMost(Duration.ofSeconds(10)).until(() -> written.get() == accepted);
            assertThat(otherFailures).isEmpty();
            assertThat(ws.close(1000, "").code()).isEqualTo(1000);
        }
    }

    @Test
    void dropPolicyLosesMessagesButDeliversTheRestInOrder() {
        try (TestClient client = start(Overflow.DROP); WebSocketClient ws = client.webSocket("/flood")) {
            ws.send("flood");
            await().atMost(Duration.ofSeconds(20)).until(flooded::get);
            int received = 0;
            int last = -1;
            ws.timeout(Duration.ofSeconds(2));
            try {
                // Read what was kept until the server has nothing more for us (the bound of this read
                // only ends the draining; what is asserted is what arrived).
                while (true) {
                    byte[] b = ws.nextMessage().orElseThrow().bytes();
                    assertThat(b).hasSize(SIZE);
                    int seq = ByteBuffer.wrap(b).getInt();
                    assertThat(seq).as("in order").isGreaterThan(last);
                    last = seq;
                    received++;
                }
            } catch (UncheckedIOException drained) {
                assertThat(drained.getCause()).isInstanceOf(SocketTimeoutException.class);
            }
            ws.timeout(Duration.ofSeconds(20));
            assertThat(received).as("some kept, some dropped").isBetween(1, COUNT - 1);
            assertThat(overflowed).as("DROP completes the stage").hasValue(0);
            ws.send("after the flood");
            assertThat(ws.nextMessage().map(WebSocketClient.Message::text)).as("the connection stayed").hasValue("after the flood");
            assertThat(ws.close(1000, "").code()).isEqualTo(1000);
        }
    }

    @Test
    void closePolicyClosesTheConnectionWith1008() {
        try (TestClient client = start(Overflow.CLOSE); WebSocketClient ws = client.webSocket("/flood")) {
            ws.send("flood");
            await().atMost(Duration.ofSeconds(20)).until(flooded::get);
            assertThat(ws.awaitClose().code()).as("read past what was sent before the close").isEqualTo(WebSocket.POLICY_VIOLATION);
            assertThat(ws.awaitClosed(Duration.ofSeconds(10))).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> closes.size() == 1);
        }
        assertThat(closes.get(0).code()).isEqualTo(WebSocket.POLICY_VIOLATION);
        assertThat(written.get()).as("not everything went out").isLessThan(COUNT);
    }
}
