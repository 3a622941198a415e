package dev.tidemill.tests.hardening;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Category 14, graceful shutdown under load, as a real process: while 200 keep-alive clients
 * send requests back to back (most to {@code /async?ms=300}), SIGTERM. Every request sent is
 * answered 200, none is cut off unanswered (a draining server closes a connection only once it has
 * been idle for {@code shutdownIdle}, and answers what arrives before that with
 * {@code Connection: close}), keep-alive clients are told {@code Connection: close}, new
 * connections are refused, and the process exits 0 within its grace period.
 */
@Timeout(120)
class GracefulShutdownUnderLoadTest {
    static final String CAT = "14 graceful shutdown";
    private static final int CLIENTS = 200;
    private Process process;
    private final List<String> output = new CopyOnWriteArrayList<>();

    @AfterEach
    void kill() {
        if (process != null && process.isAlive()) process.destroyForcibly();
    }

    private int startTarget() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String java = ProcessHandle.current().info().command().orElseThrow();
        ProcessBuilder pb = new ProcessBuilder(java, "--sun-misc-unsafe-memory-access=allow", "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), ShutdownTarget.class.getName()).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("TIDEMILL_"));
        pb.environment().put("TIDEMILL_PORT", Integer.toString(port));
        pb.environment().put("TIDEMILL_SHUTDOWN_GRACE", "10s");
        process = pb.start();
        CountDownLatch listening = new CountDownLatch(1);
        Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    output.add(line);
                    if (line.contains("listening on")) listening.countDown();
                }
            } catch (IOException e) {
                output.add("output failed: " + e);
            }
        });
        assertThat(listening.await(30, TimeUnit.SECONDS)).as("started; output %s", output).isTrue();
        return port;
    }

    @Test
    void sigtermUnderLoadAnswersWhatItTookInRefusesNewConnectionsAndExitsZero() throws Exception {
        int port = startTarget();
        TestClient client = TestClient.connectTo("127.0.0.1", port).timeout(Duration.ofSeconds(30));
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger ok = new AtomicInteger();
        AtomicInteger toldToClose = new AtomicInteger();
        List<String> cut = new CopyOnWriteArrayList<>();
        List<String> wrong = new CopyOnWriteArrayList<>();
        List<Thread> loaders = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            String path = i % 8 == 0 ? "/ok" : i % 8 == 1 ? "/sleep?ms=300" : "/async?ms=300";
            loaders.add(Thread.ofPlatform().daemon().start(() -> {
                try (Connection c = client.connect()) {
                    while (!stop.get()) {
                        TestResponse r;
                        try {
                            r = c.send(TestRequest.get(path));
                        } catch (RuntimeException closedBeforeAnswer) {
                            // The loss a graceful stop must not cause: a request sent on a connection the
                            // server then closed without answering it.
                            cut.add(path + ": " + closedBeforeAnswer);
                            return;
                        }
                        if (r.status() != 200) wrong.add(path + " -> " + r);
                        else ok.incrementAndGet();
                        if (r.header("Connection").map(v -> v.equalsIgnoreCase("close")).orElse(false)) {
                            toldToClose.incrementAndGet();
                            return;
                        }
                    }
                }
            }));
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> ok.get() >= CLIENTS); // load running on every client
        int before = ok.get();
        Connection slow = client.connect();
        // pipelined behind /ok: once /ok is answered, the server has read the slow request too
        slow.write("GET /ok HTTP/1.1\r\nHost: x\r\n\r\nGET /sleep?ms=4000 HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        assertThat(slow.read().text()).isEqualTo("ok");
        assertThat(process.toHandle().destroy()).as("SIGTERM sent").isTrue();

        await().atMost(Duration.ofSeconds(10)).until(() -> refused(port));
        TestResponse last = slow.read();
        assertThat(last.status()).as("the slow request in flight at SIGTERM").isEqualTo(200);
        assertThat(last.header("Connection")).hasValueSatisfying(v -> assertThat(v).isEqualToIgnoringCase("close"));
        slow.close();
        long joinBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (Thread t : loaders) t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(joinBy - System.nanoTime())));
        assertThat(loaders).as("every client got its last answer").noneMatch(Thread::isAlive);
        stop.set(true);

        assertThat(wrong).as("every request taken in is answered 200").isEmpty();
        assertThat(cut).as("requests cut off without an answer (of %d answered)", ok.get()).isEmpty();
        assertThat(before).as("load was running").isPositive();
        assertThat(toldToClose.get()).as("keep-alive clients told Connection: close").isPositive();
        assertThat(process.waitFor(20, TimeUnit.SECONDS)).as("exits within the grace; output %s", output).isTrue();
        assertThat(process.exitValue()).as("exit status; output %s", output).isZero();
        client.close();
    }

    /** @return whether a new connection to the port is refused */
    private static boolean refused(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
            return false;
        } catch (ConnectException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
