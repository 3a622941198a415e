package dev.tidemill.bench.streams;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringBufferRingConfig;
import io.netty.channel.uring.IoUringChannelOption;
import io.netty.channel.uring.IoUringFixedBufferRingAllocator;
import io.netty.channel.uring.IoUringIoHandlerConfig;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringSocketChannel;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * The load client's one Netty event loop (io_uring, else epoll, else NIO, or the one asked for): every
 * connection of a scenario lives on it, so the client costs exactly one thread, which runs where
 * the runner was pinned ({@code taskset} to the client CPUs; threads inherit their creator's
 * affinity). Its CPU time is read with {@link ThreadMXBean#getThreadCpuTime}, in nanoseconds.
 */
final class ClientLoop implements AutoCloseable {
    /** Connects in flight at once: below the kernel's accept backlog ({@code net.core.somaxconn}, 4096 here). */
    static final int CONNECT_BATCH = 256;

    /** Transports the client can run on, best first. */
    static final List<String> TRANSPORTS = List.of("io_uring", "epoll", "nio");

    private final EventLoopGroup group;
    private final String transport;
    private final Class<? extends SocketChannel> channelType;
    private final long threadId;

    /**
     * @param wanted {@code io_uring}, {@code epoll}, {@code nio}, or {@code auto}: the first of
     *     {@link #TRANSPORTS} this host has
     * @throws IllegalStateException if the one wanted is unavailable here
     */
    ClientLoop(String wanted) {
        // io_uring submits a loop iteration's sends and reaps its receives in one io_uring_enter,
        // where epoll costs a write and a read syscall per message. With the codecs gone the echo
        // client's loop is ~86 % kernel time (/proc/<pid>/task/<tid>/stat, 100 x 32 B on the
        // baseline: 65 user, 416 system ticks in 5 s), two segments per round trip and no pure ACK,
        // so the syscalls are what is left to save: client loop CPU epoll -> io_uring 93 -> 88 %
        // (10 x 32 B), 96 -> 94 % (100 x 32 B), 95 -> 91 % (1,000 x 32 B), server work the same.
        transport = switch (wanted) {
            case "auto" -> IoUring.isAvailable() ? "io_uring" : Epoll.isAvailable() ? "epoll" : "nio";
            case "io_uring" -> require(IoUring.isAvailable(), wanted, IoUring.unavailabilityCause());
            case "epoll" -> require(Epoll.isAvailable(), wanted, Epoll.unavailabilityCause());
            case "nio" -> wanted;
            default -> throw new IllegalArgumentException("unknown client transport " + wanted + "; known: auto, " + TRANSPORTS);
        };
        group = new MultiThreadIoEventLoopGroup(1, switch (transport) {
            case "io_uring" -> IoUringIoHandler.newFactory(ioUringConfig());
            case "epoll" -> EpollIoHandler.newFactory();
            default -> NioIoHandler.newFactory();
        });
        channelType = switch (transport) {
            case "io_uring" -> IoUringSocketChannel.class;
            case "epoll" -> EpollSocketChannel.class;
            default -> NioSocketChannel.class;
        };
        try {
            threadId = group.submit(() -> Thread.currentThread().threadId()).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /**
     * @param task run on the loop's thread
     * @param <T> its result
     * @return its result (waits at most 30 s)
     */
    <T> T call(java.util.concurrent.Callable<T> task) {
        try {
            return group.submit(task).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the client loop did not answer within 30 s");
        }
    }

    /** Buffer group of the io_uring receive ring. */
    private static final short BUFFER_GROUP = 1;
    /** Buffers in the receive ring (shared by every connection) and bytes each: 16 MiB in all. */
    private static final short RING_BUFFERS = 1024;
    private static final int RING_BUFFER_BYTES = 16 * 1024;

    /**
     * Receives land in buffers the kernel picks from one ring the loop registers (multishot recv,
     * no re-arming per read): measured against plain io_uring recv on the baseline, client loop CPU
     * 78 -> 69 % at 1,000 SSE subscribers and 93 -> 91 % at 100 x 32 B echo, for the same server
     * work (./tidemill bench streams --client-transport io_uring --targets baseline --scenarios
     * fanout,echo --subscribers 1000,10000 --connections 10,100,1000 --sizes 32,16384 --duration 3).
     */
    private static IoUringIoHandlerConfig ioUringConfig() {
        IoUringIoHandlerConfig c = new IoUringIoHandlerConfig().setSingleIssuer(true);
        if (!IoUring.isRegisterBufferRingSupported()) return c;
        return c.setBufferRingConfig(IoUringBufferRingConfig.builder().bufferGroupId(BUFFER_GROUP).bufferRingSize(RING_BUFFERS)
                .batchSize(64).allocator(new IoUringFixedBufferRingAllocator(RING_BUFFER_BYTES)).build());
    }

    private static String require(boolean available, String name, Throwable cause) {
        if (!available) throw new IllegalStateException("client transport " + name + " is unavailable here: " + cause);
        return name;
    }

    /** @return the transport's name, for the result file */
    String transport() {
        return transport;
    }

    /** @return CPU time of the loop's thread so far, nanoseconds (-1 if the JVM cannot say) */
    long cpuNanos() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        return mx.isThreadCpuTimeSupported() ? mx.getThreadCpuTime(threadId) : -1;
    }

    /**
     * Opens {@code count} connections, at most {@link #CONNECT_BATCH} connecting at once, each
     * closed with an RST ({@code SO_LINGER 0}) so that tens of thousands of closes leave no
     * {@code TIME_WAIT} behind to exhaust the ephemeral ports of the next row.
     *
     * @param port the server's port on 127.0.0.1
     * @param count how many
     * @param init the pipeline of each
     * @param readyOf of a connection, a future completed once it is ready (response head,
     *     handshake); a batch's are awaited before the next batch connects
     * @param timeoutSeconds for each batch
     * @return the channels, in order
     */
    List<Channel> open(int port, int count, ChannelInitializer<SocketChannel> init, Function<Channel, CompletableFuture<?>> readyOf,
                       int timeoutSeconds) {
        Bootstrap b = new Bootstrap().group(group).channel(channelType)
                .option(ChannelOption.TCP_NODELAY, true).option(ChannelOption.SO_LINGER, 0)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, timeoutSeconds * 1000).handler(init);
        if (transport.equals("io_uring") && IoUring.isRegisterBufferRingSupported()) {
            b.option(IoUringChannelOption.IO_URING_BUFFER_GROUP_ID, BUFFER_GROUP);
        }
        List<Channel> out = new ArrayList<>(count);
        for (int start = 0; start < count; start += CONNECT_BATCH) {
            int n = Math.min(CONNECT_BATCH, count - start);
            List<ChannelFuture> connects = new ArrayList<>(n);
            for (int i = 0; i < n; i++) connects.add(b.connect("127.0.0.1", port));
            List<CompletableFuture<?>> ready = new ArrayList<>(n);
            for (ChannelFuture f : connects) {
                if (!f.awaitUninterruptibly(timeoutSeconds, TimeUnit.SECONDS) || !f.isSuccess()) {
                    throw new IllegalStateException("connection " + (out.size() + 1) + " of " + count + " failed: "
                            + (f.cause() == null ? "timed out" : f.cause()));
                }
                out.add(f.channel());
                ready.add(readyOf.apply(f.channel()));
            }
            await(ready, timeoutSeconds, out.size() + " of " + count + " connections ready");
        }
        return out;
    }

    /**
     * @param futures what to wait for
     * @param seconds how long in all
     * @param what named in the exception
     */
    static void await(List<CompletableFuture<?>> futures, int seconds, String what) {
        try {
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(what + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            long done = futures.stream().filter(f -> f.isDone() && !f.isCompletedExceptionally()).count();
            throw new IllegalStateException(what + ": only " + done + " of " + futures.size() + " within " + seconds + " s");
        }
    }

    /** @param channels closed, and awaited (at most 10 s) */
    static void closeAll(List<Channel> channels) {
        List<ChannelFuture> closes = new ArrayList<>(channels.size());
        for (Channel c : channels) closes.add(c.close());
        for (ChannelFuture f : closes) f.awaitUninterruptibly(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
    }
}
