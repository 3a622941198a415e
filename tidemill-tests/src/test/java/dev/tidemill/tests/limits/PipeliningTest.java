package dev.tidemill.tests.limits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Param;
import dev.tidemill.ParamType;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Pipelined requests (all written in one write) are answered strictly in request order, whatever
 * order their handlers finish in, past the per-connection cap, and with refusals in the middle.
 */
@Timeout(120)
class PipeliningTest {
    private static final Param<Integer> ID = Param.path("id", ParamType.INT);
    private static final int FAST = 6;

    private final Queue<String> finished = new ConcurrentLinkedQueue<>();
    private final CountDownLatch fastDone = new CountDownLatch(FAST);

    private TestClient start(Setup setup) {
        return setup.start(app -> {
            app.get("/n", req -> "n" + req.query("i").orElse("-"));
            app.post("/echo", req -> req.bodyText());
            app.get("/typed/{id}", req -> "id" + req.param(ID)).params(ID);
            app.get("/slow", req -> {
                String i = req.query("i").orElse("-");
                if (setup.mode() == ExecutionMode.VIRTUAL) {
                    // Finishes only after every fast request has finished: out of order for sure.
                    fastDone.await(10, TimeUnit.SECONDS);
                } else if (setup.mode() == ExecutionMode.LOOP) {
                    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(150);
                    while (System.nanoTime() < end) Thread.onSpinWait(); // a busy worker loop
                }
                finished.add("slow" + i);
                return "slow" + i;
            });
            app.get("/fast", req -> {
                String i = req.query("i").orElse("-");
                finished.add("fast" + i);
                fastDone.countDown();
                return "fast" + i;
            });
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#all")
    void twentyPipelinedRequestsAreAnsweredInOrder(Setup setup) {
        try (TestClient client = start(setup); Connection c = client.connect()) {
            List<TestRequest> requests = new ArrayList<>();
            for (int i = 0; i < 20; i++) requests.add(TestRequest.get("/n?i=" + i));
            List<TestResponse> responses = c.pipeline(requests);
            assertThat(responses).hasSize(20);
            for (int i = 0; i < 20; i++) {
                assertThat(responses.get(i).status()).isEqualTo(200);
                assertThat(responses.get(i).text()).isEqualTo("n" + i);
            }
            assertThat(c.send(TestRequest.get("/n?i=after")).text()).as("the connection still serves").isEqualTo("nafter");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#all")
    void orderHoldsWhenHandlersFinishOutOfOrder(Setup setup) {
        try (TestClient client = start(setup); Connection c = client.connect()) {
            List<TestRequest> requests = new ArrayList<>();
            List<String> expected = new ArrayList<>();
            requests.add(TestRequest.get("/slow?i=0"));
            expected.add("slow0");
            for (int i = 1; i <= FAST; i++) {
                requests.add(TestRequest.get("/fast?i=" + i));
                expected.add("fast" + i);
            }
            requests.add(TestRequest.get("/slow?i=" + (FAST + 1)));
            expected.add("slow" + (FAST + 1));
            List<TestResponse> responses = c.pipeline(requests);
            assertThat(responses).extracting(TestResponse::status).containsOnly(200);
            assertThat(responses).extracting(TestResponse::text).containsExactlyElementsOf(expected);
            if (setup.mode() == ExecutionMode.VIRTUAL) {
                // The handlers really did finish in another order than the responses went out.
                List<String> order = List.copyOf(finished);
                assertThat(order).hasSize(expected.size());
                assertThat(order.subList(0, FAST)).allMatch(s -> s.startsWith("fast"));
            }
            assertThat(c.send(TestRequest.get("/n?i=after")).text()).as("the connection still serves").isEqualTo("nafter");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#all")
    void aHundredPipelinedRequestsPastTheCapAreAllAnsweredInOrder(Setup setup) {
        try (TestClient client = start(setup); Connection c = client.connect()) {
            List<TestRequest> requests = new ArrayList<>();
            for (int i = 0; i < 100; i++) requests.add(TestRequest.get("/n?i=" + i));
            List<TestResponse> responses = c.pipeline(requests);
            assertThat(responses).hasSize(100);
            for (int i = 0; i < 100; i++) assertThat(responses.get(i).text()).isEqualTo("n" + i);
            // The connection is still usable afterwards.
            assertThat(c.send(TestRequest.get("/n?i=last")).text()).isEqualTo("nlast");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#all")
    void pipelinedRequestsWithBodiesPastTheCapAreAllAnsweredInOrder(Setup setup) {
        try (TestClient client = start(setup); Connection c = client.connect()) {
            List<TestRequest> requests = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                TestRequest r = TestRequest.of("POST", "/echo").header("Content-Type", "text/plain");
                String body = "body" + i + "-" + "x".repeat(i * 50);
                requests.add(i % 2 == 0 ? r.body("text/plain", body)
                        : r.chunked(List.of(body.substring(0, 3).getBytes(), body.substring(3).getBytes())));
            }
            List<TestResponse> responses = c.pipeline(requests);
            for (int i = 0; i < 40; i++) {
                assertThat(responses.get(i).status()).isEqualTo(200);
                assertThat(responses.get(i).text()).isEqualTo("body" + i + "-" + "x".repeat(i * 50));
            }
            assertThat(c.send(TestRequest.get("/n?i=after")).text()).as("the connection still serves").isEqualTo("nafter");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#all")
    void refusedRequestsKeepTheirPlaceInTheOrder(Setup setup) {
        try (TestClient client = start(setup); Connection c = client.connect()) {
            List<TestResponse> responses = c.pipeline(List.of(
                    TestRequest.get("/n?i=0"),
                    TestRequest.get("/missing"),
                    TestRequest.get("/typed/abc"),
                    TestRequest.get("/typed/3"),
                    TestRequest.of("DELETE", "/n"),
                    TestRequest.get("/fast?i=5"),
                    TestRequest.get("/n?i=6")));
            assertThat(responses).extracting(TestResponse::status).containsExactly(200, 404, 422, 200, 405, 200, 200);
            assertThat(responses.get(0).text()).isEqualTo("n0");
            assertThat(responses.get(1).header("Content-Type")).hasValue("application/problem+json");
            assertThat(responses.get(2).text()).contains("\"id\"");
            assertThat(responses.get(3).text()).isEqualTo("id3");
            assertThat(responses.get(4).header("Allow")).hasValueSatisfying(a -> assertThat(a).contains("GET"));
            assertThat(responses.get(5).text()).isEqualTo("fast5");
            assertThat(responses.get(6).text()).isEqualTo("n6");
            assertThat(c.send(TestRequest.get("/n?i=after")).text()).as("the connection still serves").isEqualTo("nafter");
        }
    }
}
