package dev.tidemill.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.Topic;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A topic declared strictly durable starts only against a Redis that keeps an acknowledged publish
 * through a crash of its machine (appendonly yes, appendfsync always, maxmemory-policy noeviction),
 * read with CONFIG GET; one that refuses CONFIG is refused unless taken on trust; in process it is
 * refused outright.
 */
class RedisDurabilityTest {
    @TempDir
    Path dir;

    @Test
    void aRedisThatFsyncsEveryWriteAndNeverEvictsPasses() {
        try (RedisServer redis = RedisServer.start(dir.resolve("ok")); RedisTopics node = RedisTopics.connect(redis.url())) {
            Topic<String> t = node.<String>builder("strict").durability(Topic.Durability.STRICT).build();
            t.close();
        }
    }

    @Test
    void everysecOrEvictionIsRefusedNamingEachSettingAndWhatItMustBe() {
        try (RedisServer redis = RedisServer.start(dir.resolve("lax"), "--appendfsync", "everysec", "--maxmemory-policy", "allkeys-lru");
             RedisTopics node = RedisTopics.connect(redis.url())) {
            assertThatThrownBy(() -> node.<String>builder("strict").durability(Topic.Durability.STRICT).build())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("appendfsync is everysec, must be always")
                    .hasMessageContaining("maxmemory-policy is allkeys-lru, must be noeviction")
                    .hasMessageNotContaining("appendonly is");
            assertThat(node.find("strict")).as("nothing left open").isEmpty();
            node.<String>builder("lax").build().close(); // the default promises only what Redis keeps
        }
    }

    @Test
    void aRedisThatRefusesConfigIsRefusedUnlessTakenOnTrust() {
        try (RedisServer redis = RedisServer.start(dir.resolve("managed"), "--rename-command", "CONFIG", "\"\"");
             RedisTopics node = RedisTopics.connect(redis.url())) {
            assertThatThrownBy(() -> node.<String>builder("strict").durability(Topic.Durability.STRICT).build())
                    .hasMessageContaining("refuses CONFIG GET").hasMessageContaining("STRICT_ON_TRUST");
            node.<String>builder("trusted").durability(Topic.Durability.STRICT_ON_TRUST).build().close();
        }
    }

    @Test
    void inProcessStrictDurabilityIsRefused() {
        assertThatThrownBy(() -> Topic.<String>builder("in-process-strict").durability(Topic.Durability.STRICT))
                .hasMessageContaining("lost with the process").hasMessageContaining("TIDEMILL_REDIS_URL");
    }
}
