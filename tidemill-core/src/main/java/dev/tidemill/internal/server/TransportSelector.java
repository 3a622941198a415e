package dev.tidemill.internal.server;

import dev.tidemill.Transport;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;

/**
 * Picks the Netty transport: native epoll by default on Linux, io_uring when asked for, NIO as the
 * fallback. {@link Transport#AUTO} never fails; an explicit native choice that is unavailable does,
 * with Netty's reason.
 */
final class TransportSelector {

    /**
     * The decision.
     *
     * @param transport what runs
     * @param ioHandlerFactory event-loop I/O handler
     * @param serverChannel server channel class
     * @param reason why, one line, for the startup log
     */
    record Choice(Transport transport, IoHandlerFactory ioHandlerFactory,
            Class<? extends ServerChannel> serverChannel, String reason) {}

    private TransportSelector() {}

    static Choice select(Transport requested) {
        return switch (requested) {
            case EPOLL -> {
                if (!Epoll.isAvailable()) {
                    throw new IllegalStateException("transport EPOLL requested but unavailable: " + cause(Epoll.unavailabilityCause()));
                }
                yield epoll("requested");
            }
            case IO_URING -> {
                if (!IoUring.isAvailable()) {
                    throw new IllegalStateException("transport IO_URING requested but unavailable: " + cause(IoUring.unavailabilityCause()));
                }
                yield new Choice(Transport.IO_URING, IoUringIoHandler.newFactory(), IoUringServerSocketChannel.class, "requested");
            }
            case NIO -> nio("requested");
            case AUTO -> Epoll.isAvailable()
                    ? epoll("auto: native epoll available")
                    : nio("auto: native epoll unavailable (" + cause(Epoll.unavailabilityCause()) + "), using NIO");
        };
    }

    /**
     * @param chosen what {@link #select} picked
     * @return whether each transport can run here, with Netty's reason when not. io_uring is probed
     *     only when it is the one chosen: after epoll's probe, {@code IoUring.isAvailable()} still
     *     took 14-23 ms (median 16, five fresh JVMs) and loaded 130 classes and a native library,
     *     which a server on epoll would pay at every start for one word in a log line
     *     ({@code taskset -c 0 java -Xms1g -Xmx1g -XX:+UseParallelGC} with Netty 4.2.18 on the
     *     class path, a main that times {@code Epoll.isAvailable()} then {@code IoUring.isAvailable()};
     *     JDK 25.0.3, 2-CPU VM, 2026-12-01).
     */
    static String availability(Transport chosen) {
        String uring = chosen == Transport.IO_URING
                ? (IoUring.isAvailable() ? "available" : "unavailable (" + cause(IoUring.unavailabilityCause()) + ")")
                : "not probed (probed only when io_uring is asked for)";
        return "epoll " + (Epoll.isAvailable() ? "available" : "unavailable (" + cause(Epoll.unavailabilityCause()) + ")")
                + ", io_uring " + uring + ", nio available";
    }

    private static Choice epoll(String reason) {
        return new Choice(Transport.EPOLL, EpollIoHandler.newFactory(), EpollServerSocketChannel.class, reason);
    }

    private static Choice nio(String reason) {
        return new Choice(Transport.NIO, NioIoHandler.newFactory(), NioServerSocketChannel.class, reason);
    }

    private static String cause(Throwable t) {
        if (t == null) return "unknown reason";
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }
}
