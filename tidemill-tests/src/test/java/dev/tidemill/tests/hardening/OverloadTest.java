package dev.tidemill.tests.hardening;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.tests.support.Setup;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Category 13, overload, in every execution mode: 200 requests from 40 concurrent clients against
 * a concurrency limit of 4 and a handler that answers after 100 ms. Requests past the limit get 503 with
 * {@code Retry-After} and a problem body, admitted ones complete, and once the burst is over the
 * server serves everything again.
 */
@Timeout(120)
class OverloadTest {
    static final String CAT = "13 overload";
    private static final int LIMIT = 4;
    private static final java.util.concurrent.ScheduledExecutorService TIMER =
            Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon().unstarted(r));

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modes")
    void pastTheLimitRequestsAreShedQuicklyAndTheServerRecovers(Setup setup) throws Exception {
        try (TestClient client = setup.start(b -> b.workerLoops(1).concurrencyPerLoop(LIMIT), app -> {
            app.get("/ok", req -> "ok");
            // async, so that the handler holds its slot without blocking a thread (IO mode included)
            app.get("/slow", req -> {
                java.util.concurrent.CompletableFuture<String> f = new java.util.concurrent.CompletableFuture<>();
                TIMER.schedule(() -> f.complete("done"), 100, TimeUnit.MILLISECONDS);
                return f;
            });
        })) {
            List<TestResponse> answers = burst(client, 40, 5);
            assertThat(answers).hasSize(200);
            long served = answers.stream().filter(r -> r.status() == 200).count();
            long shed = answers.stream().filter(r -> r.status() == 503).count();
            assertThat(served + shed).as("only 200 or 503").isEqualTo(200);
            assertThat(served).as("admitted requests complete").isPositive();
            assertThat(shed).as("the limit was reached").isPositive();
            for (TestResponse r : answers) {
                if (r.status() == 200) {
                    assertThat(r.text()).isEqualTo("done");
                } else {
                    assertThat(r.header("Retry-After")).hasValue("1");
                    assertThat(r.header("Content-Type")).hasValue("application/problem+json");
                    assertThat(r.jsonTree().get("detail").asString()).contains("concurrency limit");
                }
            }
            for (int i = 0; i < 20; i++) assertThat(client.get("/slow").status()).as("after the burst").isEqualTo(200);
            List<TestResponse> calm = burst(client, LIMIT, 1);
            assertThat(calm).extracting(TestResponse::status).as("the limit's worth at once").containsOnly(200);
        }
    }

    /** {@code clients} threads, each sending {@code each} requests to /slow on fresh connections. */
    private static List<TestResponse> burst(TestClient client, int clients, int each) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<CompletableFuture<List<TestResponse>>> all = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                all.add(CompletableFuture.supplyAsync(() -> {
                    List<TestResponse> mine = new ArrayList<>();
                    for (int j = 0; j < each; j++) mine.add(client.get("/slow"));
                    return mine;
                }, pool));
            }
            List<TestResponse> out = new ArrayList<>();
            for (CompletableFuture<List<TestResponse>> f : all) out.addAll(f.get(60, TimeUnit.SECONDS));
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}
