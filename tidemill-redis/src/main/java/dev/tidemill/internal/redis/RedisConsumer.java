package dev.tidemill.internal.redis;

import dev.tidemill.ConsumerGroup;
import dev.tidemill.MessageId;
import dev.tidemill.Topic;
import dev.tidemill.internal.topic.TopicReadings;
import dev.tidemill.internal.topic.LocalTopic;
import dev.tidemill.redis.RedisTopics;
import io.lettuce.core.models.stream.ClaimedMessages;
import io.lettuce.core.Consumer;
import io.lettuce.core.Limit;
import io.lettuce.core.models.stream.PendingMessage;
import io.lettuce.core.Range;
import io.lettuce.core.RedisBusyException;
import io.lettuce.core.RedisException;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAutoClaimArgs;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One consumer of a Redis stream consumer group. A virtual thread of its own, on a connection of its
 * own (XREADGROUP blocks), first re-reads this consumer's own pending entries (a consumer started
 * again under the same name takes up what it had not finished), then reads new entries (">"), as
 * many as it has free slots ({@link ConsumerGroup#maxInFlight()}), and every half
 * {@link ConsumerGroup#claimAfter()} claims entries other consumers have left unfinished for longer
 * than that (XAUTOCLAIM). A worker that returns acknowledges the entry (XACK); one that throws leaves
 * it pending, to be claimed again after {@code claimAfter}, until its delivery count reaches
 * {@link ConsumerGroup#maxDeliveries()}: then it is added to the dead-letter stream
 * {@code <topic key>:dead:<group>} with the reason, and acknowledged. A group that is gone (deleted,
 * or the key evicted: NOGROUP) is made again from the last id this consumer acknowledged, with
 * backoff and one log line, not an error loop.
 */
final class RedisConsumer<T> implements Topic.Consumption {
    private static final Logger LOG = LoggerFactory.getLogger(RedisConsumer.class);
    static final String ID = "id";
    static final String REASON = "reason";
    static final String DELIVERIES = "deliveries";
    static final String CONSUMER = "consumer";

    private final RedisStore store;
    private final String topic;
    private final String key;
    private final String deadKey;
    private final ConsumerGroup group;
    private final String name;
    private final Consumer<String> me;
    private final Executor executor;
    private final Topic.Worker<T> worker;
    private final Payload<T> payload;
    private final StatefulRedisConnection<String, String> connection;
    private final Semaphore slots;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final LongAdder done = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder deadLettered = new LongAdder();
    private final LongAdder claimed = new LongAdder();
    private final Thread loop;
    private volatile boolean open = true;
    private volatile MessageId lastAcked = MessageId.ZERO;
    /** The group's XPENDING count at this consumer's last claim check. */
    private volatile long pending;

    RedisConsumer(RedisStore store, String topic, String key, ConsumerGroup group, String name, Executor executor, Topic.Worker<T> worker,
                  Payload<T> payload) {
        this.store = store;
        this.topic = topic;
        this.key = key;
        this.deadKey = key + ":dead:" + group.name();
        this.group = group;
        this.name = name;
        this.me = Consumer.from(group.name(), name);
        this.executor = executor;
        this.worker = worker;
        this.payload = payload;
        this.slots = new Semaphore(group.maxInFlight());
        makeGroup("$"); // at first use, the group starts with the messages published from now on
        this.connection = store.readerConnection();
        this.loop = Thread.ofVirtual().name("tidemill-redis-" + topic + "-" + group.name()).start(this::run);
        TopicReadings.consumer(topic, group.name(), this);
    }

    /** XGROUP CREATE ... MKSTREAM; a group that exists already is left as it is. */
    private void makeGroup(String from) {
        try {
            store.commands().sync().xgroupCreate(XReadArgs.StreamOffset.from(key, from), group.name(), XGroupCreateArgs.Builder.mkstream());
        } catch (RedisBusyException exists) {
            // BUSYGROUP: made by another consumer or an earlier run
        }
    }

    private void run() {
        MessageId ownAfter = MessageId.ZERO;
        boolean ownDone = false;
        long nextClaim = System.nanoTime();
        Duration backoff = RedisTopic.BACKOFF_MIN;
        boolean down = false;
        while (open) {
            try {
                if (slots.availablePermits() == 0) { // every slot busy: wait for one, then read as many as are free
                    slots.acquire();
                    slots.release();
                }
                int room = Math.max(1, slots.availablePermits());
                if (!ownDone) {
                    List<StreamMessage<String, String>> own = connection.sync().xreadgroup(me, XReadArgs.Builder.count(room),
                            XReadArgs.StreamOffset.from(key, ownAfter.toString()));
                    if (own.isEmpty()) ownDone = true;
                    for (StreamMessage<String, String> m : own) {
                        ownAfter = MessageId.fromText(m.getId());
                        handle(m, deliveries(m.getId()), false);
                    }
                } else if (System.nanoTime() - nextClaim >= 0) {
                    ClaimedMessages<String, String> got = connection.sync().xautoclaim(key,
                            XAutoClaimArgs.Builder.xautoclaim(me, group.claimAfter(), "0-0").count(room));
                    for (StreamMessage<String, String> m : got.getMessages()) handle(m, deliveries(m.getId()), true);
                    pending = connection.sync().xpending(key, group.name()).getCount();
                    nextClaim = System.nanoTime() + group.claimAfter().toNanos() / 2;
                } else {
                    List<StreamMessage<String, String>> fresh = connection.sync().xreadgroup(me,
                            XReadArgs.Builder.block(RedisTopic.READ_BLOCK).count(room), XReadArgs.StreamOffset.lastConsumed(key));
                    for (StreamMessage<String, String> m : fresh) handle(m, 1, false);
                }
                if (down) {
                    LOG.info("topic {}, group {}: Redis at {} answers again", topic, group.name(), store.display());
                    down = false;
                    backoff = RedisTopic.BACKOFF_MIN;
                }
            } catch (InterruptedException stop) {
                break;
            } catch (RedisException e) {
                if (!open) break;
                boolean gone = String.valueOf(e.getMessage()).contains("NOGROUP");
                if (!down) {
                    if (gone) {
                        LOG.warn("topic {}: group {} is gone from Redis (deleted, or its key evicted); making it again after {}, the last "
                                + "message this consumer acknowledged", topic, group.name(), lastAcked);
                    } else {
                        LOG.warn("topic {}, group {}: cannot read from Redis at {} ({}); retrying, up to every {} s", topic, group.name(),
                                store.display(), e.getMessage(), RedisTopic.BACKOFF_MAX.toSeconds());
                    }
                    down = true;
                }
                try {
                    Thread.sleep(backoff);
                    if (gone) makeGroup(lastAcked.toString());
                } catch (InterruptedException stop) {
                    break;
                } catch (RedisException stillDown) {
                    // the next round logs nothing new and waits longer
                }
                backoff = backoff.multipliedBy(2).compareTo(RedisTopic.BACKOFF_MAX) > 0 ? RedisTopic.BACKOFF_MAX : backoff.multipliedBy(2);
            }
        }
    }

    /** @return the entry's delivery count as Redis keeps it (XPENDING), at least 1 */
    private int deliveries(String id) {
        List<PendingMessage> p = store.commands().sync().xpending(key, group.name(), Range.create(id, id), Limit.from(1));
        return p.isEmpty() ? 1 : (int) Math.max(1, p.get(0).getRedeliveryCount());
    }

    private void handle(StreamMessage<String, String> m, int delivery, boolean wasClaimed) throws InterruptedException {
        if (wasClaimed) claimed.increment();
        String subject = m.getBody().get(RedisTopic.SUBJECT);
        T value;
        try {
            LocalTopic.checkSubject(subject);
            value = payload.decode(m.getBody().get(RedisTopic.VALUE));
        } catch (RuntimeException bad) {
            deadLetter(m, delivery, "not a message of this topic: " + bad.getMessage());
            return;
        }
        if (group.patterns().stream().noneMatch(p -> LocalTopic.matches(p, subject))) {
            ack(m.getId()); // not this group's subject: done with it
            return;
        }
        if (delivery > group.maxDeliveries()) {
            deadLetter(m, delivery - 1, "delivered " + (delivery - 1) + " times without finishing (its consumers stopped)");
            return;
        }
        Topic.Message<T> message = new Topic.Message<>(MessageId.fromText(m.getId()), subject, value, System.nanoTime());
        slots.acquire();
        inFlight.incrementAndGet();
        Runnable work = () -> {
            try {
                worker.handle(message, delivery);
                done.increment();
                ack(m.getId());
            } catch (Throwable e) {
                failed.increment();
                if (delivery >= group.maxDeliveries()) {
                    deadLetter(m, delivery, e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
                }
                // else: it stays pending, and is claimed again after claimAfter
            } finally {
                inFlight.decrementAndGet();
                slots.release();
            }
        };
        try {
            executor.execute(work);
        } catch (RejectedExecutionException e) {
            // the executor is gone (a stopped server): the entry stays pending for another consumer
            inFlight.decrementAndGet();
            slots.release();
            close();
        }
    }

    private void ack(String id) {
        store.commands().async().xack(key, group.name(), id).whenComplete((n, e) -> {
            if (e != null) return; // still pending: claimed again later; at least once
            MessageId acked = MessageId.fromText(id);
            synchronized (this) {
                if (acked.isAfter(lastAcked)) lastAcked = acked;
            }
        });
    }

    /** XADD to the dead-letter stream with the reason, then XACK: the group is done with it. */
    private void deadLetter(StreamMessage<String, String> m, int deliveries, String reason) {
        Map<String, String> body = new LinkedHashMap<>(m.getBody());
        body.put(ID, m.getId());
        body.put(REASON, reason);
        body.put(DELIVERIES, Integer.toString(deliveries));
        body.put(CONSUMER, name);
        store.commands().async().xadd(deadKey, body).whenComplete((id, e) -> {
            if (e != null) {
                LOG.warn("topic {}, group {}: message {} could not be dead-lettered ({}); it stays pending", topic, group.name(),
                        m.getId(), e.getMessage());
                return;
            }
            deadLettered.increment();
            LOG.warn("topic {}, group {}: message {} is a dead letter in {} after {} deliveries: {}", topic, group.name(), m.getId(),
                    deadKey, deliveries, reason);
            ack(m.getId());
        });
    }

    @Override
    public String consumer() {
        return name;
    }

    @Override
    public Topic.ConsumptionStats stats() {
        return new Topic.ConsumptionStats(done.sum(), failed.sum(), deadLettered.sum(), claimed.sum(), inFlight.get(), pending);
    }

    @Override
    public void close() {
        if (!open) return;
        open = false;
        loop.interrupt();
        try {
            loop.join(RedisTopics.COMMAND_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        connection.close();
    }

    @Override
    public String toString() {
        return "consumer " + name + " of group " + group.name() + " on topic " + topic + " (Redis stream " + key + ")";
    }
}
