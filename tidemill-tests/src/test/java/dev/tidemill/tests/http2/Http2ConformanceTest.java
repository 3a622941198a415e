package dev.tidemill.tests.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Response;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.H2Wire;
import dev.tidemill.testing.TestClient;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * HTTP/2 conformance over raw frames ({@link H2Wire}), one case per row, each named by its source:
 * h2spec's public case ids ({@code generic/...}, {@code http2/...}, {@code hpack/...}, ported from
 * their descriptions and RFC 9113 / RFC 7541, since h2spec itself does not run here), and
 * {@code rfc9113/...} rows from CASES.md section 13 that h2spec does not cover. Each case opens its
 * own connection to one in-process server. A connection error is GOAWAY with the code, then close;
 * a stream error is RST_STREAM with the code; a malformed request must never reach a handler
 * ({@link H2Cases#malformed}).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class Http2ConformanceTest {
    /** The smallest suite this test accepts. */
    static final int MIN_CASES = 140;

    /**
     * One row.
     *
     * @param id its source: h2spec's case id, or an RFC section with a number
     * @param description what is sent and what RFC 9113 / 7541 expects
     * @param handshake whether the connection has done the preface and SETTINGS exchange first
     * @param run sends and asserts
     */
    record Case(String id, String description, boolean handshake, Consumer<H2Wire> run) {
        @Override
        public String toString() {
            return id + " " + description;
        }
    }

    static TestClient client;
    /** Handler calls so far, on every route. */
    static final AtomicInteger HANDLED = new AtomicInteger();

    @BeforeAll
    static void start() {
        Tidemill app = Tidemill.create(TestClient.config().build());
        app.get("/", req -> {
            HANDLED.incrementAndGet();
            return "hello";
        });
        app.post("/", req -> {
            HANDLED.incrementAndGet();
            return "got " + req.body().length + " " + req.header("x-trailer").orElse("-");
        });
        app.get("/big", req -> {
            HANDLED.incrementAndGet();
            return Response.ok().bytes(new byte[64 * 1024], "application/octet-stream");
        });
        app.get("/slow", req -> {
            HANDLED.incrementAndGet();
            return CompletableFuture.supplyAsync(() -> "late", CompletableFuture.delayedExecutor(1500, TimeUnit.MILLISECONDS));
        });
        client = TestClient.start(app);
    }

    @AfterAll
    static void stop() {
        client.close();
    }

    static Stream<Case> cases() {
        List<Case> all = new ArrayList<>();
        all.addAll(H2Cases.generic());
        all.addAll(H2Cases.framing());
        all.addAll(H2FieldCases.all());
        return all.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void conforms(Case c) {
        H2Cases.port = client.port();
        try (H2Wire w = H2Wire.connect(client.port())) {
            if (c.handshake()) w.handshake();
            c.run().accept(w);
        }
    }

    @Test
    void theSuiteHasAtLeast140CasesWithDistinctIds() {
        List<Case> all = cases().toList();
        Set<String> ids = new HashSet<>();
        for (Case c : all) assertThat(ids.add(c.id())).as("duplicate id " + c.id()).isTrue();
        System.out.println("HTTP/2 conformance cases: " + all.size() + " (generic "
                + all.stream().filter(c -> c.id().startsWith("generic/")).count() + ", http2 "
                + all.stream().filter(c -> c.id().startsWith("http2/")).count() + ", hpack "
                + all.stream().filter(c -> c.id().startsWith("hpack/")).count() + ", rfc9113 "
                + all.stream().filter(c -> c.id().startsWith("rfc9113/")).count() + ")");
        assertThat(all).hasSizeGreaterThanOrEqualTo(MIN_CASES);
    }

    @Test
    void afterTheSuiteTheServerStillServesAFreshClient() {
        try (H2Wire w = H2Wire.open(client.port())) {
            w.request(1, "/");
            assertThat(w.expectStatus(1)).isEqualTo(200);
            assertThat(new String(w.expectBody(1))).isEqualTo("hello");
        }
        assertThat(client.get("/").text()).isEqualTo("hello");
    }
}
