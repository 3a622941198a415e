package dev.tidemill.bench;

import dev.tidemill.internal.dispatch.WorkerLoop;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * The executors of the event-loop matrix's micro rows, each with one thread (one loop, as the
 * reference runs one event loop per process): Tidemill's {@link WorkerLoop}, Netty's event loops on
 * NIO, epoll and io_uring, and the JDK's {@link ForkJoinPool}, virtual-thread-per-task executor and
 * single-thread executor. A fresh one per run.
 */
final class LoopsExecutors {
    /** The executor names, in column order. */
    static final List<String> NAMES = List.of("tidemill-loop", "netty-nio", "netty-epoll", "netty-io_uring", "jdk-forkjoin", "jdk-virtual",
            "jdk-single");

    private LoopsExecutors() {}

    /** One executor under test. */
    interface Loop extends AutoCloseable {
        /** @param task run once on the executor; may be called from any thread, the executor's own included */
        void execute(Runnable task);

        /** Stops it and waits for its thread. */
        @Override
        void close();
    }

    /**
     * @param name one of {@link #NAMES}
     * @return why it cannot run here (Netty's reason for a native transport), if it cannot
     */
    static Optional<String> refusal(String name) {
        return switch (name) {
            case "netty-epoll" -> Epoll.isAvailable() ? Optional.empty() : Optional.of(String.valueOf(Epoll.unavailabilityCause()));
            case "netty-io_uring" -> IoUring.isAvailable() ? Optional.empty() : Optional.of(String.valueOf(IoUring.unavailabilityCause()));
            default -> NAMES.contains(name) ? Optional.empty() : Optional.of("unknown executor " + name);
        };
    }

    /**
     * @param name one of {@link #NAMES}
     * @param burst the most tasks the row ever has queued at once: a {@link WorkerLoop}'s slots (its
     *     concurrency limit, which sizes its queue), so that no reservation fails and the queue is
     *     no larger than the row needs
     * @return a fresh executor
     */
    static Loop open(String name, int burst) {
        return switch (name) {
            case "tidemill-loop" -> worker(burst);
            case "netty-nio" -> netty(NioIoHandler.newFactory());
            case "netty-epoll" -> netty(EpollIoHandler.newFactory());
            case "netty-io_uring" -> netty(IoUringIoHandler.newFactory());
            case "jdk-forkjoin" -> jdk(new ForkJoinPool(1));
            case "jdk-virtual" -> jdk(Executors.newVirtualThreadPerTaskExecutor());
            case "jdk-single" -> jdk(Executors.newSingleThreadExecutor());
            default -> throw new IllegalArgumentException("unknown executor " + name);
        };
    }

    /** A worker loop used as the dispatcher uses it: a slot reserved per task, released when it has run. */
    private static Loop worker(int slots) {
        WorkerLoop loop = new WorkerLoop(0, slots);
        return new Loop() {
            @Override
            public void execute(Runnable task) {
                if (!loop.tryReserve(slots)) throw new IllegalStateException("worker loop full");
                loop.execute(() -> {
                    try {
                        task.run();
                    } finally {
                        loop.release();
                    }
                });
            }

            @Override
            public void close() {
                loop.shutdown();
                try {
                    loop.awaitTermination(java.time.Duration.ofSeconds(10));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }

    private static Loop netty(IoHandlerFactory io) {
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, io);
        io.netty.channel.EventLoop loop = group.next();
        return new Loop() {
            @Override
            public void execute(Runnable task) {
                loop.execute(task);
            }

            @Override
            public void close() {
                group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            }
        };
    }

    private static Loop jdk(ExecutorService pool) {
        return new Loop() {
            @Override
            public void execute(Runnable task) {
                pool.execute(task);
            }

            @Override
            public void close() {
                pool.shutdown();
                try {
                    pool.awaitTermination(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }
}
