package dev.tidemill.bench.cluster;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringBufferRingConfig;
import io.netty.channel.uring.IoUringChannelOption;
import io.netty.channel.uring.IoUringFixedBufferRingAllocator;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringIoHandlerConfig;
import io.netty.channel.uring.IoUringSocketChannel;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One client thread: a Netty event loop (io_uring, else epoll, else NIO) on which every connection
 * of one role lives (all the subscribers; or the publisher's connections), so each role costs
 * exactly one thread on the client CPUs (threads inherit the runner's {@code taskset} affinity), and
 * its CPU time can be read on its own. On io_uring, receives land in one ring of buffers the loop
 * registers (multishot recv), as in the streams suite's client: a message to 1,000 subscribers
 * arrives as 1,000 small reads at once, and this spares the client a read syscall for each, so the
 * last subscriber of a burst is read sooner after the first.
 */
final class ClientLoop implements AutoCloseable {
    /** Connects in flight at once: below the kernel's accept backlog. */
    static final int CONNECT_BATCH = 256;

    /** Buffer group of the io_uring receive ring, and its buffers (shared by every connection): 16 MiB in all. */
    private static final short BUFFER_GROUP = 1;
    private static final short RING_BUFFERS = 1024;
    private static final int RING_BUFFER_BYTES = 16 * 1024;

    private final MultiThreadIoEventLoopGroup group;
    private final EventLoop loop;
    private final long threadId;
    private final String transport;

    /** @param name the thread's name */
    ClientLoop(String name) {
        transport = IoUring.isAvailable() ? "io_uring" : Epoll.isAvailable() ? "epoll" : "nio";
        IoHandlerFactory io = switch (transport) {
            case "io_uring" -> IoUringIoHandler.newFactory(ioUringConfig());
            case "epoll" -> EpollIoHandler.newFactory();
            default -> NioIoHandler.newFactory();
        };
        group = new MultiThreadIoEventLoopGroup(1, new io.netty.util.concurrent.DefaultThreadFactory(name, true), io);
        loop = group.next();
        threadId = call(() -> Thread.currentThread().threadId());
    }

    private static IoUringIoHandlerConfig ioUringConfig() {
        IoUringIoHandlerConfig c = new IoUringIoHandlerConfig().setSingleIssuer(true);
        if (!IoUring.isRegisterBufferRingSupported()) return c;
        return c.setBufferRingConfig(IoUringBufferRingConfig.builder().bufferGroupId(BUFFER_GROUP).bufferRingSize(RING_BUFFERS)
                .batchSize(64).allocator(new IoUringFixedBufferRingAllocator(RING_BUFFER_BYTES)).build());
    }

    /** @return the loop */
    EventLoop loop() {
        return loop;
    }

    /** @return {@code io_uring}, {@code epoll} or {@code nio} */
    String transport() {
        return transport;
    }

    /** @return the loop thread's CPU time so far, nanoseconds (-1 if the JVM cannot say) */
    long cpuNanos() {
        var mx = ManagementFactory.getThreadMXBean();
        return mx.isThreadCpuTimeSupported() ? mx.getThreadCpuTime(threadId) : -1;
    }

    /** @return a bootstrap on this loop: TCP_NODELAY, closed with an RST (no TIME_WAIT left for the next row) */
    Bootstrap bootstrap(ChannelHandler handler) {
        Class<? extends SocketChannel> type = switch (transport) {
            case "io_uring" -> IoUringSocketChannel.class;
            case "epoll" -> EpollSocketChannel.class;
            default -> NioSocketChannel.class;
        };
        Bootstrap b = new Bootstrap().group(loop).channel(type).option(ChannelOption.TCP_NODELAY, true).option(ChannelOption.SO_LINGER, 0)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000).handler(handler);
        if (transport.equals("io_uring") && IoUring.isRegisterBufferRingSupported()) b.option(IoUringChannelOption.IO_URING_BUFFER_GROUP_ID, BUFFER_GROUP);
        return b;
    }

    /**
     * @param task run on the loop's thread
     * @param <T> its result
     * @return its result (waits at most 30 s)
     */
    <T> T call(Callable<T> task) {
        try {
            return loop.submit(task).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the client loop did not answer within 30 s");
        }
    }

    /**
     * @param b the bootstrap
     * @param port the server's port on 127.0.0.1
     * @param count connections
     * @return the channels, connected ({@link #CONNECT_BATCH} at a time)
     */
    static List<Channel> connect(Bootstrap b, int port, int count) {
        List<Channel> out = new ArrayList<>(count);
        for (int start = 0; start < count; start += CONNECT_BATCH) {
            List<ChannelFuture> batch = new ArrayList<>();
            for (int i = start; i < Math.min(count, start + CONNECT_BATCH); i++) batch.add(b.connect("127.0.0.1", port));
            for (ChannelFuture f : batch) {
                if (!f.awaitUninterruptibly(15, TimeUnit.SECONDS) || !f.isSuccess()) {
                    closeAll(out);
                    throw new IllegalStateException("connection " + (out.size() + 1) + " of " + count + " to port " + port + " failed: "
                            + (f.cause() == null ? "timed out" : f.cause()));
                }
                out.add(f.channel());
            }
        }
        return out;
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
