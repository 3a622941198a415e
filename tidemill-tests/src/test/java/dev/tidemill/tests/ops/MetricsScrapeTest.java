package dev.tidemill.tests.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Param;
import dev.tidemill.ParamType;
import dev.tidemill.Response;
import dev.tidemill.Topic;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Diagnostics;
import dev.tidemill.tests.support.Setup;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code /metrics} scraped over a socket and read with a strict parser of the text format
 * ({@link PrometheusText}): after known requests, the request counter holds exactly them by
 * method, route pattern and status (a 404 under the fixed route {@code unmatched}, a shed 503, a
 * 504), the latency histogram's buckets are cumulative and end in its count, the shed, timeout and
 * 429 counters agree, and no request to {@code /livez}, {@code /readyz} or {@code /metrics} is
 * counted. In every execution mode: where the handler runs changes who records, not what.
 */
@Timeout(60)
class MetricsScrapeTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modes")
    void theScrapeCountsExactlyTheRequestsMade(Setup setup) throws Exception {
        CompletableFuture<String> held = new CompletableFuture<>();
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        long began = System.nanoTime(); // no request of this test can have taken longer than the test
        try (TestClient client = setup.start(b -> b.workerLoops(1).concurrencyPerLoop(1), app -> {
            app.get("/x/{id}", req -> "item " + req.pathParam("id")).params(Param.path("id", ParamType.INT));
            app.get("/never", req -> new CompletableFuture<String>()).requestTimeout(Duration.ofMillis(200));
            app.get("/busy", req -> Response.status(429).text("slow down"));
            app.get("/hold", req -> {
                holding.countDown();
                if (setup.mode() == ExecutionMode.VIRTUAL) {
                    release.await();
                    return "released";
                }
                return held;
            });
        })) {
            for (int i = 1; i <= 3; i++) assertThat(client.get("/x/" + i).status()).isEqualTo(200);
            assertThat(client.head("/x/1").status()).isEqualTo(200);
            assertThat(client.get("/nope").status()).isEqualTo(404);
            assertThat(client.get("/never").status()).isEqualTo(504);
            assertThat(client.get("/busy").status()).isEqualTo(429);
            Diagnostics.awaitSlotsReleased(client); // the 504's slot: the next request must find the one slot taken by /hold only
            try (Connection holder = client.connect()) {
                holder.write("GET /hold HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
                assertThat(client.get("/x/9").status()).as("shed").isEqualTo(503);
                // Operational routes are never shed: the server is full, and health still answers.
                assertThat(client.get("/livez").status()).isEqualTo(200);
                assertThat(client.get("/readyz").status()).isEqualTo(200);
                held.complete("released");
                release.countDown();
                assertThat(holder.read().status()).isEqualTo(200);
            }
            assertThat(client.head("/metrics").status()).isEqualTo(200);

            TestResponse scrape = client.get("/metrics");
            assertThat(scrape.status()).isEqualTo(200);
            assertThat(scrape.header("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
            assertThat(scrape.header("Cache-Control")).hasValue("no-store");
            PrometheusText m = PrometheusText.parse(scrape.text());

            String requests = "tidemill_requests_total";
            assertThat(m.families().get(requests).type()).isEqualTo("counter");
            assertThat(m.value(requests, "method", "GET", "route", "/x/{id}", "status", "200")).hasValue(3.0);
            assertThat(m.value(requests, "method", "HEAD", "route", "/x/{id}", "status", "200")).hasValue(1.0);
            assertThat(m.value(requests, "method", "GET", "route", "unmatched", "status", "404")).hasValue(1.0);
            assertThat(m.value(requests, "method", "GET", "route", "/never", "status", "504")).hasValue(1.0);
            assertThat(m.value(requests, "method", "GET", "route", "/x/{id}", "status", "503")).hasValue(1.0);
            assertThat(m.value(requests, "method", "GET", "route", "/busy", "status", "429")).hasValue(1.0);
            assertThat(m.value(requests, "method", "GET", "route", "/hold", "status", "200")).hasValue(1.0);
            assertThat(m.samples(requests)).as("every series of the counter").hasSize(7);
            assertThat(m.samples(requests).stream().mapToDouble(PrometheusText.Sample::value).sum()).isEqualTo(9.0);
            assertThat(m.value("tidemill_requests_shed_total")).hasValue(1.0);
            assertThat(m.value("tidemill_requests_timeouts_total")).hasValue(1.0);
            assertThat(m.value("tidemill_requests_rate_limited_total")).hasValue(1.0);

            // Nothing operational is counted or timed, however often it was asked.
            for (PrometheusText.Family f : m.families().values()) {
                for (PrometheusText.Sample s : f.samples()) {
                    assertThat(s.labels().get("route")).as("%s", s).isNotIn("/livez", "/readyz", "/metrics");
                }
            }

            String latency = "tidemill_request_latency_seconds";
            assertThat(m.families().get(latency).type()).isEqualTo("histogram");
            assertThat(m.value(latency + "_count", "method", "GET", "route", "/x/{id}")).hasValue(4.0);
            Map<String, TreeMap<Double, Double>> buckets = m.buckets(latency);
            assertThat(buckets).isNotEmpty();
            buckets.forEach((series, byLe) -> {
                assertThat(byLe.lastKey()).as("%s ends at +Inf", series).isEqualTo(Double.POSITIVE_INFINITY);
                double previous = 0;
                for (double count : byLe.values()) {
                    assertThat(count).as("%s cumulative", series).isGreaterThanOrEqualTo(previous);
                    previous = count;
                }
            });
            assertThat(buckets.get("{method=GET, route=/x/{id}}").lastEntry().getValue()).isEqualTo(4.0);
            // Units and clock base: each of the four latencies lies within the test's own run (a sum
            // taken against another clock's origin would be hours).
            double ranSeconds = (System.nanoTime() - began) / 1e9;
            assertThat(m.value(latency + "_sum", "method", "GET", "route", "/x/{id}")).get()
                    .satisfies(sum -> assertThat(sum).isBetween(0.0, 4 * ranSeconds));

            assertThat(m.value("tidemill_connections_max")).hasValue((double) TestClient.config().build().limits().maxConnections());
            assertThat(m.value("tidemill_connections_open")).get().satisfies(v -> assertThat(v).isGreaterThanOrEqualTo(1.0));
            assertThat(m.value("tidemill_loop_queued", "loop", "tidemill-loop-0")).hasValue(0.0);
            assertThat(m.value("tidemill_loop_in_flight", "loop", "tidemill-loop-0")).isPresent();
            double waited = m.value("tidemill_loop_queue_wait_seconds_count", "loop", "tidemill-loop-0").orElseThrow();
            if (setup.mode() == ExecutionMode.LOOP) assertThat(waited).as("LOOP requests waited in the queue (one in 8 is timed; the first on a connection is)").isPositive();
            else assertThat(waited).as("nothing ran on a worker loop").isZero();
            for (String jvm : new String[] {"jvm_memory_used_bytes", "jvm_gc_memory_allocated_bytes_total", "jvm_threads_live_threads",
                    "system_cpu_count", "jvm_classes_loaded_classes"}) {
                assertThat(m.samples(jvm)).as(jvm).isNotEmpty();
            }
        }
    }

    @Test
    void everyLoopReportsItsWakeLatency() {
        try (TestClient client = Setup.onDefaultTransport(ExecutionMode.LOOP).start(app -> app.get("/", req -> "ok"))) {
            await("a probe ran on every loop").atMost(Duration.ofSeconds(10)).until(() -> {
                PrometheusText m = PrometheusText.parse(client.get("/metrics").text());
                return m.value("tidemill_loop_wake_latency_seconds_count", "loop", "tidemill-loop-0", "kind", "worker").orElse(0.0) >= 1
                        && m.value("tidemill_loop_wake_latency_seconds_count", "loop", "tidemill-loop-1", "kind", "worker").orElse(0.0) >= 1
                        && m.value("tidemill_loop_wake_latency_seconds_count", "loop", "tidemill-io-0", "kind", "io").orElse(0.0) >= 1;
            });
        }
    }

    @Test
    void topicsAreCountedByName() {
        String name = "metrics-test-" + System.nanoTime();
        Topic<String> topic = Topic.<String>builder(name).build();
        try (TestClient client = Setup.onDefaultTransport(ExecutionMode.LOOP).start(app -> app.get("/", req -> "ok"));
                var sub = topic.subscribe("*")) {
            for (int i = 0; i < 5; i++) topic.publish("a", "m" + i);
            PrometheusText m = PrometheusText.parse(client.get("/metrics").text());
            assertThat(m.value("tidemill_topic_published_total", "topic", name)).hasValue(5.0);
            assertThat(m.value("tidemill_topic_subscribers", "topic", name)).hasValue(1.0);
            assertThat(m.value("tidemill_topic_pending", "topic", name)).hasValue(5.0);
        } finally {
            topic.close();
        }
    }

    @Test
    void openMetricsWhenTheScrapeAsksForIt() {
        try (TestClient client = Setup.onDefaultTransport(ExecutionMode.LOOP).start(app -> app.get("/", req -> "ok"))) {
            client.get("/");
            TestResponse r = client.send(TestRequest.get("/metrics")
                    .header("Accept", "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"));
            assertThat(r.header("Content-Type")).hasValue("application/openmetrics-text; version=1.0.0; charset=utf-8");
            assertThat(r.text()).endsWith("# EOF\n").contains("tidemill_requests_total{method=\"GET\",route=\"/\",status=\"200\"} 1.0");
        }
    }

    @Test
    void metricsOffMeansNoEndpointAndNothingRecorded() {
        try (TestClient client = Setup.onDefaultTransport(ExecutionMode.LOOP).start(b -> b.metrics(false), app -> app.get("/", req -> "ok"))) {
            assertThat(client.get("/").status()).isEqualTo(200);
            assertThat(client.get("/metrics").status()).isEqualTo(404);
            assertThat(client.get("/livez").status()).as("health stays on").isEqualTo(200);
        }
    }

    @Test
    void theEndpointCanMove() {
        try (TestClient client = Setup.onDefaultTransport(ExecutionMode.LOOP).start(
                b -> b.operations(dev.tidemill.Operations.builder().metricsPath("/_ops/metrics").build()), app -> app.get("/", req -> "ok"))) {
            assertThat(client.get("/metrics").status()).isEqualTo(404);
            PrometheusText m = PrometheusText.parse(client.get("/_ops/metrics").text());
            assertThat(m.value("tidemill_requests_total", "route", "unmatched", "status", "404")).hasValue(1.0);
        }
    }
}
