package dev.tidemill.internal.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalIoHandler;
import io.netty.channel.local.LocalServerChannel;
import io.netty.util.AttributeKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Writes from worker threads reach their channels exactly once, in order, with one flush per channel per drain. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ResponseBatcherTest {
    private static final Duration GENEROUS = Duration.ofSeconds(60);

    /** Counts flush() calls reaching the channel, independently of the batcher's own counter. */
    private static final class FlushCounter extends ChannelOutboundHandlerAdapter {
        int flushes;

        @Override
        public void flush(ChannelHandlerContext ctx) {
            flushes++;
            ctx.flush();
        }
    }

    @Test
    void burstFromAnotherThread_isOneDrainAndOneFlushPerChannel() throws InterruptedException {
        FlushCounter[] counters = {new FlushCounter(), new FlushCounter(), new FlushCounter()};
        EmbeddedChannel[] channels = {
            new EmbeddedChannel(counters[0]), new EmbeddedChannel(counters[1]), new EmbeddedChannel(counters[2])
        };
        // EmbeddedEventLoop runs tasks only in runPendingTasks() and reports inEventLoop() == true,
        // so writes to the other two embedded channels from this loop's drain run inline.
        ResponseBatcher batcher = new ResponseBatcher(channels[0].eventLoop());
        Thread worker = new Thread(() -> {
            for (int i = 0; i < 100; i++) {
                EmbeddedChannel channel = channels[i % 3];
                String message = "m" + i;
                batcher.submit(channel, () -> channel.write(message));
            }
        }, "worker");
        worker.start();
        worker.join(GENEROUS); // also publishes the worker's (non thread-safe) EmbeddedEventLoop.execute
        assertThat(worker.isAlive()).isFalse();

        assertThat(batcher.drains()).isZero();
        assertThat(channels[1].outboundMessages()).as("nothing written before the drain").isEmpty();
        channels[0].runPendingTasks();

        assertThat(batcher.drains()).isEqualTo(1);
        assertThat(batcher.flushes()).isEqualTo(3);
        for (int c = 0; c < 3; c++) {
            List<Object> expected = new ArrayList<>();
            for (int i = c; i < 100; i += 3) {
                expected.add("m" + i);
            }
            assertThat(new ArrayList<>(channels[c].outboundMessages())).as("channel %d", c).isEqualTo(expected);
            assertThat(counters[c].flushes).as("flushes reaching channel %d", c).isEqualTo(1);
        }
        for (EmbeddedChannel channel : channels) {
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void burstLargerThanTheBudget_isSplitOverDrainsInOrder() {
        FlushCounter counter = new FlushCounter();
        EmbeddedChannel channel = new EmbeddedChannel(counter);
        ResponseBatcher batcher = new ResponseBatcher(channel.eventLoop());
        int total = ResponseBatcher.DRAIN_BUDGET + 10;
        for (int i = 0; i < total; i++) {
            Integer message = i;
            batcher.submit(channel, () -> channel.write(message));
        }
        channel.runPendingTasks(); // also runs the drain the first one schedules for the rest
        assertThat(batcher.drains()).isEqualTo(2);
        assertThat(batcher.flushes()).isEqualTo(2);
        assertThat(counter.flushes).isEqualTo(2);
        List<Object> received = new ArrayList<>(channel.outboundMessages());
        assertThat(received).hasSize(total);
        for (int i = 0; i < total; i++) {
            assertThat(received.get(i)).isEqualTo(i);
        }
        channel.finishAndReleaseAll();
    }

    private record Msg(int producer, int seq) {}

    private static final AttributeKey<Queue<Msg>> ARRIVED = AttributeKey.valueOf("arrived");

    private EventLoopGroup group;
    /** Per accepted connection, the messages in arrival order. */
    private final Queue<Queue<Msg>> serverSides = new ConcurrentLinkedQueue<>();

    @AfterEach
    void shutdownGroup() throws InterruptedException {
        if (group != null) {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(GENEROUS.toMillis());
        }
    }

    /** A real single-threaded event loop, a local server that records what arrives, and clients. */
    private Channel[] connectLocalClients(int count) throws InterruptedException {
        group = new MultiThreadIoEventLoopGroup(1, LocalIoHandler.newFactory());
        LocalAddress address = new LocalAddress("batcher-" + UUID.randomUUID());
        new ServerBootstrap().group(group).channel(LocalServerChannel.class)
                .childHandler(new ChannelInboundHandlerAdapter() {
                    @Override
                    public boolean isSharable() {
                        return true;
                    }

                    @Override
                    public void handlerAdded(ChannelHandlerContext ctx) {
                        Queue<Msg> arrived = new ConcurrentLinkedQueue<>();
                        serverSides.add(arrived);
                        ctx.channel().attr(ARRIVED).set(arrived);
                    }

                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ctx.channel().attr(ARRIVED).get().add((Msg) msg);
                    }
                })
                .bind(address).sync();
        Channel[] clients = new Channel[count];
        for (int i = 0; i < count; i++) {
            clients[i] = new Bootstrap().group(group).channel(LocalChannel.class)
                    .handler(new ChannelInboundHandlerAdapter()).connect(address).sync().channel();
        }
        await().atMost(GENEROUS).until(() -> serverSides.size() == count);
        return clients;
    }

    private int arrivedCount() {
        return serverSides.stream().mapToInt(Queue::size).sum();
    }

    @Test
    void concurrentProducersOnARealEventLoop_everyWriteOnceInSubmissionOrder() throws Exception {
        int producers = 4;
        int perProducer = 25_000;
        int total = producers * perProducer;
        Channel[] clients = connectLocalClients(2);
        ResponseBatcher batcher = new ResponseBatcher(clients[0].eventLoop());
        assertThat(clients[1].eventLoop()).isSameAs(clients[0].eventLoop());
        CyclicBarrier go = new CyclicBarrier(producers);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int producer = p;
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    for (int seq = 0; seq < perProducer; seq++) {
                        Channel channel = clients[seq % clients.length];
                        Msg msg = new Msg(producer, seq);
                        batcher.submit(channel, () -> channel.write(msg));
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "worker-" + p);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join(GENEROUS);
            assertThat(t.isAlive()).isFalse();
        }
        assertThat(failure.get()).isNull();
        await().atMost(GENEROUS).until(() -> arrivedCount() == total);

        AtomicIntegerArray seen = new AtomicIntegerArray(total);
        for (Queue<Msg> arrived : serverSides) {
            int[] last = new int[producers];
            Arrays.fill(last, -1);
            for (Msg m : arrived) {
                assertThat(m.seq()).as("producer %d order", m.producer()).isGreaterThan(last[m.producer()]);
                last[m.producer()] = m.seq();
                seen.incrementAndGet(m.producer() * perProducer + m.seq());
            }
        }
        for (int i = 0; i < total; i++) {
            assertThat(seen.get(i)).as("write %d delivered once", i).isEqualTo(1);
        }
        long drains = batcher.drains();
        long flushes = batcher.flushes();
        System.out.printf("ResponseBatcher: %d writes, %d drains, %d flushes%n", total, drains, flushes);
        assertThat(flushes).isLessThanOrEqualTo(drains * clients.length);
        assertThat(drains).as("drains coalesce writes").isLessThan(total);
    }

    @Test
    void singleSubmitRacingTheDrain_isNeverStranded() throws InterruptedException {
        int rounds = 20_000;
        Channel client = connectLocalClients(1)[0];
        ResponseBatcher batcher = new ResponseBatcher(client.eventLoop());
        AtomicInteger written = new AtomicInteger();
        for (int round = 0; round < rounds; round++) {
            // A per-round bound, not a performance budget: a stranded push never completes at all.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            Msg msg = new Msg(0, round);
            batcher.submit(client, () -> {
                client.write(msg);
                written.incrementAndGet();
            });
            // Spin, then submit the next at once: it lands while the drain is still running, just
            // around the point where it clears `scheduled`. A stranded write never runs.
            int target = round + 1;
            int spins = 0;
            while (written.get() < target) {
                if (System.nanoTime() - deadline > 0) {
                    fail("round %d of %d never ran: a write was stranded (nothing ran for 10 s)", round, rounds);
                }
                if (++spins > 1_000) {
                    Thread.yield(); // on a busy machine let the loop thread have the CPU
                } else {
                    Thread.onSpinWait();
                }
            }
        }
        await().atMost(GENEROUS).until(() -> arrivedCount() == rounds);
        System.out.printf("ResponseBatcher single submits: %d rounds, %d drains%n", rounds, batcher.drains());
    }
}
