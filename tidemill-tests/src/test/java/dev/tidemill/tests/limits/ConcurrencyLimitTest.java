package dev.tidemill.tests.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Transport;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Diagnostics;
import dev.tidemill.tests.support.Setup;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The concurrency limit: with one worker loop and two slots per loop, two requests held in their
 * handlers fill the server (in every mode: IO and VIRTUAL share the same total); the next request
 * is refused with a 503 problem and {@code Retry-After: 1}; once they finish, everything is served
 * again and no slot is left behind. The limit is one total for every mode: an app that mixes
 * IO, LOOP and VIRTUAL routes never admits more than {@code concurrencyPerLoop x workerLoops}.
 */
@Timeout(60)
class ConcurrencyLimitTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void fullServerAnswers503AndRecovers(Setup setup) throws Exception {
        List<CompletableFuture<String>> held = new CopyOnWriteArrayList<>();
        CountDownLatch started = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        try (TestClient client = setup.start(b -> b.workerLoops(1).concurrencyPerLoop(2), app -> {
            app.get("/hold", req -> {
                if (setup.mode() == ExecutionMode.VIRTUAL) {
                    started.countDown();
                    release.await(); // blocking is fine on a virtual thread
                    return "released";
                }
                // IO and LOOP must not block their thread: hold the request with an open future.
                CompletableFuture<String> f = new CompletableFuture<>();
                held.add(f);
                started.countDown();
                return f;
            });
            app.get("/quick", req -> "quick");
        })) {
            assertThat(client.server().workerLoops()).isEqualTo(1);
            try (Connection a = client.connect(); Connection b = client.connect(); Connection c = client.connect()) {
                byte[] hold = "GET /hold HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
                a.write(hold);
                b.write(hold);
                assertThat(started.await(10, TimeUnit.SECONDS)).as("both /hold handlers are running").isTrue();
                assertThat(Diagnostics.slots(client)).as("slots held").isEqualTo(2);

                for (String path : List.of("/quick", "/hold")) {
                    TestResponse refused = c.send(TestRequest.get(path));
                    assertThat(refused.status()).as("%s", refused).isEqualTo(503);
                    assertThat(refused.header("Retry-After")).hasValue("1");
                    assertThat(refused.header("Content-Type")).hasValue("application/problem+json");
                    assertThat(refused.jsonTree().get("status").asInt()).isEqualTo(503);
                    assertThat(refused.jsonTree().get("title").asString()).isNotBlank();
                }
                assertThat(Diagnostics.slots(client)).as("a refused request takes no slot").isEqualTo(2);

                release.countDown();
                held.forEach(f -> f.complete("released"));
                for (Connection held2 : List.of(a, b)) {
                    TestResponse r = held2.read();
                    assertThat(r.status()).as("%s", r).isEqualTo(200);
                    assertThat(r.text()).isEqualTo("released");
                }
                Diagnostics.awaitSlotsReleased(client);
                // The connection that got the 503 is still usable, and so is a fresh one.
                assertThat(c.send(TestRequest.get("/quick")).text()).isEqualTo("quick");
                assertThat(client.get("/quick").status()).isEqualTo(200);
                for (Connection x : List.of(a, b)) assertThat(x.send(TestRequest.get("/quick")).status()).isEqualTo(200);
            }
            Diagnostics.awaitSlotsReleased(client);
        } finally {
            release.countDown();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void disconnectedClientsGiveTheirSlotsBack(Setup setup) throws Exception {
        List<CompletableFuture<String>> held = new CopyOnWriteArrayList<>();
        CountDownLatch started = new CountDownLatch(2);
        CountDownLatch interrupted = new CountDownLatch(2);
        CountDownLatch never = new CountDownLatch(1);
        try (TestClient client = setup.start(b -> b.workerLoops(1).concurrencyPerLoop(2), app -> {
            app.get("/hold", req -> {
                if (setup.mode() == ExecutionMode.VIRTUAL) {
                    started.countDown();
                    try {
                        never.await();
                    } catch (InterruptedException e) {
                        interrupted.countDown();
                        throw e;
                    }
                    return "released";
                }
                CompletableFuture<String> f = new CompletableFuture<>();
                held.add(f);
                started.countDown();
                return f;
            });
            app.get("/quick", req -> "quick");
        })) {
            byte[] hold = "GET /hold HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
            try (Connection a = client.connect(); Connection b = client.connect()) {
                a.write(hold);
                b.write(hold);
                assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
                assertThat(client.get("/quick").status()).as("the server is full").isEqualTo(503);
            } // both clients leave without their answers
            Diagnostics.awaitSlotsReleased(client);
            if (setup.mode() == ExecutionMode.VIRTUAL) {
                assertThat(interrupted.await(10, TimeUnit.SECONDS)).as("abandoned virtual threads are interrupted").isTrue();
            } else {
                await("abandoned futures are cancelled").atMost(Duration.ofSeconds(10)).until(() -> held.stream().allMatch(CompletableFuture::isCancelled));
            }
            for (int i = 0; i < 3; i++) assertThat(client.get("/quick").text()).isEqualTo("quick");
        } finally {
            never.countDown();
        }
    }

    /**
     * One request held in each mode fills a server of one loop with three slots: a fourth, in any
     * mode, is refused. (When LOOP counted per loop and IO/VIRTUAL in a second counter, this
     * server admitted up to six.)
     */
    @Test
    void mixedModesShareOneLimit() throws Exception {
        CompletableFuture<String> heldIo = new CompletableFuture<>();
        CompletableFuture<String> heldLoop = new CompletableFuture<>();
        CountDownLatch started = new CountDownLatch(3);
        CountDownLatch release = new CountDownLatch(1);
        Setup setup = new Setup(Transport.NIO, ExecutionMode.LOOP);
        try (TestClient client = setup.start(b -> b.workerLoops(1).concurrencyPerLoop(3), app -> {
            app.get("/hold/io", req -> {
                started.countDown();
                return heldIo;
            }).mode(ExecutionMode.IO);
            app.get("/hold/loop", req -> {
                started.countDown();
                return heldLoop;
            }).mode(ExecutionMode.LOOP);
            app.get("/hold/virtual", req -> {
                started.countDown();
                release.await();
                return "released";
            }).mode(ExecutionMode.VIRTUAL);
            for (ExecutionMode m : ExecutionMode.values()) {
                app.get("/quick/" + m.name().toLowerCase(java.util.Locale.ROOT), req -> "quick").mode(m);
            }
        })) {
            List<Connection> holders = List.of(client.connect(), client.connect(), client.connect());
            try {
                int i = 0;
                for (String mode : List.of("io", "loop", "virtual")) {
                    holders.get(i++).write(("GET /hold/" + mode + " HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                }
                assertThat(started.await(10, TimeUnit.SECONDS)).as("a handler of each mode is running").isTrue();
                assertThat(Diagnostics.slots(client)).as("slots held").isEqualTo(3);
                for (String mode : List.of("io", "loop", "virtual")) {
                    TestResponse refused = client.get("/quick/" + mode);
                    assertThat(refused.status()).as("%s mode on a full server: %s", mode, refused).isEqualTo(503);
                    assertThat(refused.header("Retry-After")).hasValue("1");
                }
                heldIo.complete("released");
                heldLoop.complete("released");
                release.countDown();
                for (Connection h : holders) assertThat(h.read().text()).isEqualTo("released");
                Diagnostics.awaitSlotsReleased(client);
                for (String mode : List.of("io", "loop", "virtual")) {
                    assertThat(client.get("/quick/" + mode).text()).isEqualTo("quick");
                }
            } finally {
                release.countDown();
                for (Connection h : holders) h.close();
            }
        }
    }
}
