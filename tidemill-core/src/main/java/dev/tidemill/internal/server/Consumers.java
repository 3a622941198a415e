package dev.tidemill.internal.server;

import dev.tidemill.ConsumerGroup;
import dev.tidemill.ConsumerRoute;
import dev.tidemill.ExecutionMode;
import dev.tidemill.Topic;
import io.netty.channel.EventLoopGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The app's consumers of consumer groups ({@code Tidemill.consume}), started once the server
 * listens and stopped with it: {@link #close()} at the start of a graceful stop (no more messages
 * taken), {@link #await} before the worker loops and event loops go (the messages in a worker finish
 * within the grace; what is left unfinished stays with its group, to be delivered again).
 *
 * <p>Each mode's executor: IO, an event loop of the server (the worker must not block); LOOP, a
 * worker loop, one slot reserved per message as a request reserves one, and while every loop is full
 * the message waits a millisecond on the server's event loop and tries again (a consumer's
 * {@code maxInFlight} bounds how many wait); VIRTUAL, a virtual thread per message.
 */
final class Consumers implements AutoCloseable {
    private final List<Topic.Consumption> running = new ArrayList<>();
    private final ExecutorService virtual = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("tidemill-consumer-", 0).factory());
    private final List<String> report = new ArrayList<>();

    /**
     * @param declared the app's consumers
     * @param defaultMode the app's mode
     * @param io the server's event loops
     * @param loops runs a task on a worker loop with a reserved slot, false when every loop is full
     * @param port the server's port: a group that names no consumer gets {@link ConsumerGroup#defaultConsumer}
     */
    Consumers(List<ConsumerRoute<?>> declared, ExecutionMode defaultMode, EventLoopGroup io, Predicate<Runnable> loops, int port) {
        for (ConsumerRoute<?> c : declared) {
            ExecutionMode mode = c.mode().orElse(defaultMode);
            Executor executor = switch (mode) {
                case IO -> io.next();
                case LOOP -> loopExecutor(loops, io);
                case VIRTUAL, AUTO -> virtual; // a consumer in AUTO stays where AUTO starts: messages are not timed
            };
            ConsumerGroup group = c.group().consumer().isPresent() ? c.group() : c.group().withConsumer(ConsumerGroup.defaultConsumer(port));
            Topic.Consumption started = start(c, group, executor);
            running.add(started);
            report.add("consumer " + started.consumer() + " of group " + c.group().name() + " on topic " + c.topic().name() + ", mode " + mode);
        }
    }

    private static <T> Topic.Consumption start(ConsumerRoute<T> c, ConsumerGroup group, Executor executor) {
        return c.topic().consume(group, executor, c.worker());
    }

    /** A worker loop per message, with a reserved slot; while every loop is full, retried a millisecond later. */
    private static Executor loopExecutor(Predicate<Runnable> loops, EventLoopGroup io) {
        return new Executor() {
            @Override
            public void execute(Runnable task) {
                if (loops.test(task)) return;
                if (io.isShuttingDown()) throw new RejectedExecutionException("the server is stopping");
                io.next().schedule(() -> execute(task), 1, TimeUnit.MILLISECONDS);
            }
        };
    }

    /** @return one line per consumer, for the startup report */
    List<String> report() {
        return report;
    }

    /** Stops taking messages: the first step of a graceful stop. */
    @Override
    public void close() {
        running.forEach(Topic.Consumption::close);
    }

    /**
     * Waits until no consumer has a message in its worker, or the deadline.
     *
     * @param deadline {@link System#nanoTime()} to give up at
     * @return messages still in a worker at the end (0: all finished)
     */
    int await(long deadline) {
        while (true) {
            int busy = running.stream().mapToInt(c -> c.stats().inFlight()).sum();
            if (busy == 0 || System.nanoTime() - deadline >= 0) {
                virtual.shutdown();
                return busy;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return busy;
            }
        }
    }
}
