/**
 * Topics on Redis Streams: with this module on the path and {@code TIDEMILL_REDIS_URL} set,
 * {@code Topic.builder} makes topics that every node connected to the same Redis shares
 * ({@link dev.tidemill.redis.RedisTopics}). Lettuce and its Reactor stay inside this module.
 */
module dev.tidemill.redis {
    requires transitive dev.tidemill;
    requires lettuce.core;
    requires tools.jackson.databind;
    requires org.slf4j;

    exports dev.tidemill.redis;

    provides dev.tidemill.Topic.Backend with dev.tidemill.redis.RedisTopics;
}
