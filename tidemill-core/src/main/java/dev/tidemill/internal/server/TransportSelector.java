package dev.tidemill.internal.server;

import dev.tidemill.Transport;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringAdaptiveBufferRingAllocator;
import io.netty.channel.uring.IoUringBufferRingConfig;
import io.netty.channel.uring.IoUringChannelOption;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringIoHandlerConfig;
import io.netty.channel.uring.IoUringServerSocketChannel;
import java.util.concurrent.ThreadFactory;

/**
 * Picks the Netty transport and starts the I/O threads on it. {@link Transport#AUTO} takes native
 * epoll, else NIO; with {@value #PREFER_IO_URING_PROPERTY}{@code =true} it tries io_uring first and
 * never fails for it: where the kernel, a seccomp filter or the module graph refuses io_uring
 * (Netty's probe, or the first ring failing to be created) it starts on epoll and says why in the
 * startup report's transport line, the one line that names the cause. An explicit native choice
 * that is unavailable fails the start, with Netty's reason.
 *
 * <p>Why io_uring is not yet auto's first choice, though it is cheaper: an epoll server makes one
 * {@code recvfrom} and one {@code sendto} per keep-alive request whatever the framework (2.02-2.28
 * calls per request for Tidemill IO, raw Netty and Vert.x core alike), io_uring submits a loop
 * iteration's reads and writes in one {@code io_uring_enter} (0.33-0.53 per request), and Tidemill
 * IO's server CPU per request against Vert.x core's fell from 1.03x on epoll to 0.88x on io_uring on
 * plaintext, and from 0.83x to 0.72x on JSON (median of three rounds of {@code ./tidemill bench
 * hotpath}, bench/results/20261207T163726Z-hotpath.json). But with 100 uploads
 * paused halfway in IO mode, the pooled allocator's direct memory grew by 142 MB on io_uring against
 * 92 MB on epoll for the same bodies held ({@code StreamedBodyMemoryTest}, which prints it); until
 * that is explained, auto stays on epoll (docs/architecture.md, "Transports").
 */
final class TransportSelector {
    /**
     * A system property that makes the io_uring probe report this text as its cause, as a kernel or
     * a seccomp filter that refuses {@code io_uring_setup} would: how the fallback is tested without
     * changing the host. Unset in production; documented in docs/architecture.md.
     */
    static final String REFUSAL_PROPERTY = "tidemill.transport.ioUringRefusal";

    /**
     * A system property: {@code true} makes {@link Transport#AUTO} try io_uring before epoll (default
     * {@code false}, see the class comment for why). Read once per start.
     */
    static final String PREFER_IO_URING_PROPERTY = "tidemill.transport.autoPrefersIoUring";

    /**
     * The decision.
     *
     * @param transport what runs
     * @param ioHandlerFactory event-loop I/O handler
     * @param serverChannel server channel class
     * @param reason why, one line, for the startup log
     */
    record Choice(Transport transport, IoHandlerFactory ioHandlerFactory,
            Class<? extends ServerChannel> serverChannel, String reason) {

        /**
         * Sets the server channel and what this transport needs on every accepted connection (the
         * buffer group a ring's connections read from); both listeners, plain and TLS, take it.
         *
         * @param bootstrap a listener's bootstrap
         * @return the same bootstrap
         */
        ServerBootstrap applyTo(ServerBootstrap bootstrap) {
            bootstrap.channel(serverChannel);
            if (transport == Transport.IO_URING_BUFFER_RING) {
                bootstrap.childOption(IoUringChannelOption.IO_URING_BUFFER_GROUP_ID, RING_GROUP);
            }
            return bootstrap;
        }
    }

    /** The buffer group id of the one ring each I/O thread registers under {@link Transport#IO_URING_BUFFER_RING}. */
    static final short RING_GROUP = 1;
    /**
     * The most buffers a ring holds (a power of two, as the kernel requires). A buffer is lent only
     * while a read's bytes wait to be decoded or, for a paused request body, until its handler takes
     * them, so 1,024 covers that many connections mid-read on one I/O thread; the documented figure
     * in {@link Transport#IO_URING_BUFFER_RING}.
     */
    static final short RING_BUFFERS = 1024;
    /**
     * Netty's system property for multishot receive, which {@link Transport#IO_URING_BUFFER_RING}
     * turns off: a multishot receive stays armed across completions, and on Netty 4.2.18 it went on
     * reading into the ring after a paused request body turned the channel's auto-read off. 100
     * uploads paused halfway in IO mode then held 1.0 GB in their streams, where the high-water mark
     * allows 118 MB; with one-shot receives they held 107 MB ({@code StreamedBodyMemoryTest} with
     * {@code -Dtidemill.test.transport=io_uring_buffer_ring}, with and without the property). Plain
     * io_uring never uses multishot receive (it needs a buffer ring), so the switch changes nothing else.
     */
    static final String MULTISHOT_PROPERTY = "io.netty.iouring.recvMultiShotEnabled";

    /** Buffers the ring starts with and adds each time a read finds it empty. */
    static final int RING_BATCH = 64;

    /**
     * The transport running, with its I/O threads.
     *
     * @param choice what runs and why
     * @param group the I/O threads, on that transport
     */
    record Started(Choice choice, EventLoopGroup group) {}

    private TransportSelector() {}

    /**
     * Picks the transport and creates the I/O threads on it; under {@link Transport#AUTO}, a ring
     * that cannot be created (memory limits, a filter that lets the probe through but not a second
     * ring) falls back to epoll as a refused probe does.
     *
     * @param requested the configured transport
     * @param ioThreads I/O threads
     * @param threads their factory
     * @return the transport and its threads
     * @throws IllegalStateException when an explicit transport is unavailable
     */
    static Started start(Transport requested, int ioThreads, ThreadFactory threads) {
        Choice choice = select(requested);
        try {
            return new Started(choice, new MultiThreadIoEventLoopGroup(ioThreads, threads, choice.ioHandlerFactory()));
        } catch (RuntimeException | LinkageError e) {
            if (requested != Transport.AUTO || choice.transport() != Transport.IO_URING) throw e;
            // Netty's group shuts down the loops it had made before the one that failed.
            Choice fallback = afterRefusal("io_uring refused when its ring was created (" + cause(e) + ")");
            return new Started(fallback, new MultiThreadIoEventLoopGroup(ioThreads, threads, fallback.ioHandlerFactory()));
        }
    }

    static Choice select(Transport requested) {
        return switch (requested) {
            case EPOLL -> {
                if (!Epoll.isAvailable()) {
                    throw new IllegalStateException("transport EPOLL requested but unavailable: " + cause(Epoll.unavailabilityCause()));
                }
                yield epoll("requested");
            }
            case IO_URING -> {
                Throwable refused = ioUringRefusal();
                if (refused != null) {
                    throw new IllegalStateException("transport IO_URING requested but unavailable: " + cause(refused));
                }
                yield uring("requested");
            }
            case IO_URING_BUFFER_RING -> {
                // Netty reads its multishot switch once, when its IoUring class initializes: set it
                // first unless the JVM was started with it (see MULTISHOT_PROPERTY for why it is off).
                if (System.getProperty(MULTISHOT_PROPERTY) == null) System.setProperty(MULTISHOT_PROPERTY, "false");
                Throwable refused = ioUringRefusal();
                if (refused == null && !IoUring.isRegisterBufferRingSupported()) {
                    refused = new UnsupportedOperationException("this kernel cannot register buffer rings (5.19 or later can)");
                }
                if (refused != null) {
                    throw new IllegalStateException("transport IO_URING_BUFFER_RING requested but unavailable: " + cause(refused));
                }
                if (IoUring.isRecvMultishotEnabled()) {
                    throw new IllegalStateException("transport IO_URING_BUFFER_RING needs Netty's multishot receive off, "
                            + "since it keeps reading while a request body is paused: start the JVM with -D"
                            + MULTISHOT_PROPERTY + "=false (io_uring was loaded with it on before the server started)");
                }
                yield new Choice(Transport.IO_URING_BUFFER_RING, IoUringIoHandler.newFactory(new IoUringIoHandlerConfig()
                        .setBufferRingConfig(IoUringBufferRingConfig.builder().bufferGroupId(RING_GROUP)
                                .bufferRingSize(RING_BUFFERS).batchSize(RING_BATCH)
                                .allocator(new IoUringAdaptiveBufferRingAllocator(HttpServer.ALLOCATOR)).build())),
                        IoUringServerSocketChannel.class, "requested");
            }
            case NIO -> nio("requested");
            case AUTO -> {
                if (!Boolean.getBoolean(PREFER_IO_URING_PROPERTY)) {
                    yield Epoll.isAvailable() ? epoll("auto: native epoll available")
                            : nio("auto: native epoll unavailable (" + cause(Epoll.unavailabilityCause()) + "), using NIO");
                }
                Throwable refused = ioUringRefusal();
                yield refused == null ? uring("auto: io_uring available") : afterRefusal("io_uring unavailable (" + cause(refused) + ")");
            }
        };
    }

    /**
     * @param chosen what {@link #start} picked
     * @return whether each transport can run here, with Netty's reason when not; io_uring's reason
     *     is left out when the transport line's reason already gives it, so the cause is named once.
     *     io_uring is probed only when it is asked for or preferred: after epoll's probe,
     *     {@code IoUring.isAvailable()} still took 14-23 ms (median 16, five fresh JVMs) and loaded 130
     *     classes and a native library, which a server on epoll would pay at every start for one word
     *     in a log line ({@code taskset -c 0 java -Xms1g -Xmx1g -XX:+UseParallelGC} with Netty 4.2.18 on
     *     the class path, a main that times {@code Epoll.isAvailable()} then {@code IoUring.isAvailable()};
     *     JDK 25.0.3, 2-CPU VM, 2026-12-01).
     */
    static String availability(Transport chosen) {
        String uring;
        boolean uringAsked = chosen == Transport.IO_URING || chosen == Transport.IO_URING_BUFFER_RING;
        if (!uringAsked && !Boolean.getBoolean(PREFER_IO_URING_PROPERTY)) {
            uring = "not probed (probed only when io_uring is asked for)";
        } else {
            Throwable refused = ioUringRefusal();
            uring = refused == null ? "available"
                    : uringAsked ? "unavailable (" + cause(refused) + ")" : "unavailable (the reason above)";
        }
        return "epoll " + (Epoll.isAvailable() ? "available" : "unavailable (" + cause(Epoll.unavailabilityCause()) + ")")
                + ", io_uring " + uring + ", nio available";
    }

    /** @return why io_uring cannot run here, or null when it can */
    private static Throwable ioUringRefusal() {
        String forced = System.getProperty(REFUSAL_PROPERTY);
        if (forced != null) return new UnsupportedOperationException(forced);
        try {
            return IoUring.isAvailable() ? null : IoUring.unavailabilityCause();
        } catch (LinkageError e) {
            return e; // Netty's io_uring classes outside the module graph
        }
    }

    /** AUTO after io_uring was refused: epoll, else NIO; the reason carries the refusal's cause. */
    private static Choice afterRefusal(String why) {
        return Epoll.isAvailable()
                ? epoll("auto: " + why + ", using epoll")
                : nio("auto: " + why + ", native epoll unavailable (" + cause(Epoll.unavailabilityCause()) + "), using NIO");
    }

    private static Choice uring(String reason) {
        return new Choice(Transport.IO_URING, IoUringIoHandler.newFactory(), IoUringServerSocketChannel.class, reason);
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
