package dev.tidemill.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.Subscription;
import dev.tidemill.Topic;
import dev.tidemill.TopicUnavailableException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Redis killed with {@code kill -9} and started again on its append-only file (fsync always): a
 * publish while it is down fails at once with the typed error routes answer 503 with; once it is
 * back, publishes succeed again without the application doing anything, and a subscriber on the
 * other node gets every acknowledged message exactly once, in order.
 */
class RedisOutageTest {
    @TempDir
    Path dir;

    @Test
    void aSubscriberMissesNothingAndGetsNothingTwiceAcrossAKillAndRestart() throws Exception {
        try (RedisServer redis = RedisServer.start(dir.resolve("redis"));
             RedisTopics publisherNode = RedisTopics.connect(redis.url());
             RedisTopics subscriberNode = RedisTopics.connect(redis.url())) {
            Topic<String> out = publisherNode.<String>builder("outage").build();
            Topic<String> in = subscriberNode.<String>builder("outage").build();
            List<String> acknowledged = new ArrayList<>();
            try (Subscription<String> s = in.subscribe("*")) {
                for (int i = 0; i < 20; i++) {
                    out.publish("x", "m" + i);
                    acknowledged.add("m" + i);
                }
                assertThat(publisherNode.readiness().orElseThrow().check().healthy()).isTrue();
                redis.kill();
                assertThat(publisherNode.readiness().orElseThrow().check().healthy()).as("/readyz would say so").isFalse();
                assertThat(out.publishAsync("x", "while down").toCompletableFuture()).as("fails fast, typed")
                        .failsWithin(Duration.ofSeconds(10)).withThrowableThat().havingCause().isInstanceOf(TopicUnavailableException.class);
                redis.start();
                // Lettuce reconnects on its own (backoff up to 5 s); the first publish that succeeds is acknowledged
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
                    try {
                        out.publishAsync("x", "back").toCompletableFuture().get(10, TimeUnit.SECONDS);
                        return true;
                    } catch (Exception notYet) {
                        return false;
                    }
                });
                acknowledged.add("back");
                for (int i = 20; i < 40; i++) {
                    out.publish("x", "m" + i);
                    acknowledged.add("m" + i);
                }
                List<String> got = new ArrayList<>();
                for (int i = 0; i < acknowledged.size(); i++) {
                    Topic.Message<String> m = s.poll(Duration.ofSeconds(20));
                    assertThat(m).as("message %d of %d (got so far %s)", i + 1, acknowledged.size(), got).isNotNull();
                    got.add(m.value());
                }
                assertThat(got).as("every acknowledged message, once, in order").isEqualTo(acknowledged);
                assertThat(s.poll(Duration.ofMillis(500))).as("nothing twice").isNull();
            } finally {
                out.close();
                in.close();
            }
        }
    }
}
