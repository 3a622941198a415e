package dev.tidemill.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.RateLimit;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rate limit whose budgets are in Redis, over real sockets: two nodes are one limit (a client
 * limited to 5 gets 5 in total, whichever node it reaches, the rest 429 with the same headers as in
 * process); with Redis down the requests are admitted (fail open) and counted.
 */
class RedisRateLimitsTest {
    @TempDir
    Path dir;

    static Tidemill node(RateLimit limit) {
        Tidemill app = Tidemill.create(TestClient.config().build());
        app.get("/limited", req -> "ok").rateLimit(limit);
        return app;
    }

    @Test
    void twoNodesShareOneBudgetAndADownRedisAdmits() {
        try (RedisServer redis = RedisServer.start(dir.resolve("redis"));
             RedisRateLimits storeA = RedisRateLimits.connect(redis.url());
             RedisRateLimits storeB = RedisRateLimits.connect(redis.url())) {
            // 5 a minute: no refill during the test, so exactly 5 pass
            RateLimit.Builder limit = RateLimit.builder("shared").requests(5).per(Duration.ofMinutes(1));
            try (TestClient a = TestClient.start(node(limit.store(storeA).build()));
                 TestClient b = TestClient.start(node(limit.store(storeB).build()))) {
                List<Integer> statuses = new ArrayList<>();
                TestResponse refused = null;
                for (int i = 0; i < 10; i++) {
                    TestResponse r = (i % 2 == 0 ? a : b).send(TestRequest.get("/limited"));
                    statuses.add(r.status());
                    if (r.status() == 429) refused = r;
                }
                assertThat(statuses.stream().filter(s -> s == 200).count()).as("%s", statuses).isEqualTo(5);
                assertThat(statuses.stream().filter(s -> s == 429).count()).isEqualTo(5);
                assertThat(refused.header("RateLimit-Policy")).hasValue("\"shared\";q=5;w=60");
                assertThat(refused.header("Retry-After")).hasValueSatisfying(v -> assertThat(Long.parseLong(v)).isBetween(1L, 12L));
                assertThat(refused.header("RateLimit")).hasValueSatisfying(v -> assertThat(v).startsWith("\"shared\";r=0;t="));

                long before = a.server().diagnostics().get("ratelimit.failed_open");
                redis.kill();
                assertThat(a.send(TestRequest.get("/limited")).status()).as("fail open").isEqualTo(200);
                assertThat(a.server().diagnostics().get("ratelimit.failed_open")).isGreaterThan(before);
            }
        }
    }
}
