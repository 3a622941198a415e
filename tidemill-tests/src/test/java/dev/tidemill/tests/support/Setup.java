package dev.tidemill.tests.support;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tidemill.Config;
import dev.tidemill.ExecutionMode;
import dev.tidemill.Tidemill;
import dev.tidemill.Transport;
import dev.tidemill.testing.TestClient;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.uring.IoUring;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * One cell of the integration matrix: a transport, an execution mode and a protocol. Tests that matter take a
 * {@code Setup} from {@link #all()} (every transport x every mode), {@link #modes()} (every mode on
 * the default transport), {@link #modesAndProtocols()} (those, over HTTP/1.1 and over h2c) or
 * {@link #transports()} (every transport in LOOP mode); a test that needs
 * one server takes {@link #onDefaultTransport(ExecutionMode)}.
 *
 * <p>Where a native transport is missing (another OS, an old kernel, a seccomp profile without
 * io_uring, or {@code -Dio.netty.transport.noNative=true}), its cells are skipped with Netty's
 * reason by {@link #start} and {@link #config}, and the default transport is NIO, which always runs.
 *
 * @param transport the Netty transport
 * @param mode the app's default execution mode
 * @param protocol what the client's {@code send}, {@code stream} and {@code events} speak
 */
public record Setup(Transport transport, ExecutionMode mode, TestClient.Protocol protocol) {

    /**
     * A cell over HTTP/1.1.
     *
     * @param transport the Netty transport
     * @param mode the app's default execution mode
     */
    public Setup(Transport transport, ExecutionMode mode) {
        this(transport, mode, TestClient.Protocol.HTTP_1_1);
    }

    /**
     * @return every execution mode on the default transport, over HTTP/1.1 and over cleartext
     *     HTTP/2: the protocol axis, for a feature that does not depend on HTTP/1.1's connection
     *     (the client's {@code send}, {@code stream} and {@code events} speak the cell's protocol)
     */
    public static Stream<Setup> modesAndProtocols() {
        return Stream.of(TestClient.Protocol.values()).flatMap(p -> modes().map(s -> s.over(p)));
    }

    /** @return this cell over {@code p} */
    public Setup over(TestClient.Protocol p) {
        return new Setup(transport, mode, p);
    }

    /**
     * The modes a handler runs in. AUTO is not a fourth place but a choice among these, per call: its
     * own tests (modes.AutoMode*Test) show where it runs and that features work wherever it puts a route.
     */
    private static final java.util.List<ExecutionMode> FIXED = java.util.List.of(ExecutionMode.IO, ExecutionMode.LOOP, ExecutionMode.VIRTUAL);

    /** Every transport a configuration can name, AUTO aside (it is one of these). */
    private static final java.util.List<Transport> NAMED =
            java.util.List.of(Transport.NIO, Transport.EPOLL, Transport.IO_URING, Transport.IO_URING_BUFFER_RING);

    /** @return every transport x IO, LOOP and VIRTUAL */
    public static Stream<Setup> all() {
        return NAMED.stream().flatMap(t -> FIXED.stream().map(m -> new Setup(t, m)));
    }

    /** @return IO, LOOP and VIRTUAL on the default transport */
    public static Stream<Setup> modes() {
        return FIXED.stream().map(Setup::onDefaultTransport);
    }

    /**
     * @param mode the app's default execution mode
     * @return that mode on the transport the server picks by default: native epoll where Netty can
     *     load it, else NIO
     */
    public static Setup onDefaultTransport(ExecutionMode mode) {
        String named = System.getProperty(DEFAULT_TRANSPORT_PROPERTY);
        if (named != null) return new Setup(Transport.valueOf(named.toUpperCase(java.util.Locale.ROOT)), mode);
        return new Setup(Epoll.isAvailable() ? Transport.EPOLL : Transport.NIO, mode);
    }

    /**
     * A system property naming the transport {@link #onDefaultTransport} gives instead of epoll
     * (for example {@code io_uring_buffer_ring}): how the whole suite is run on another transport,
     * through {@code -Dtidemill.jvm.flags="... -Dtidemill.test.transport=io_uring"}. Unset in CI.
     */
    public static final String DEFAULT_TRANSPORT_PROPERTY = "tidemill.test.transport";

    /**
     * Skips the calling test (JUnit assumption) when this cell's transport cannot run on this
     * machine, naming Netty's reason; NIO always runs.
     */
    public void assumeAvailable() {
        switch (transport) {
            case EPOLL -> assumeTrue(Epoll.isAvailable(), () -> "native epoll unavailable: " + Epoll.unavailabilityCause());
            case IO_URING -> assumeTrue(IoUring.isAvailable(), () -> "io_uring unavailable: " + IoUring.unavailabilityCause());
            case IO_URING_BUFFER_RING -> {
                assumeTrue(IoUring.isAvailable(), () -> "io_uring unavailable: " + IoUring.unavailabilityCause());
                assumeTrue(IoUring.isRegisterBufferRingSupported(), "io_uring buffer rings unavailable on this kernel");
            }
            case NIO, AUTO -> { }
        }
    }

    /** @return every transport, LOOP mode */
    public static Stream<Setup> transports() {
        return NAMED.stream().map(t -> new Setup(t, ExecutionMode.LOOP));
    }

    /**
     * @return a test configuration for this cell: port 0, two worker loops, one I/O thread (skips
     *     the test if the transport is unavailable, see {@link #assumeAvailable()})
     */
    public Config.Builder config() {
        assumeAvailable();
        return TestClient.config().transport(transport).executionMode(mode).workerLoops(2).ioThreads(1);
    }

    /**
     * Starts an app for this cell.
     *
     * @param tweak changes to the configuration
     * @param routes registers routes
     * @return a client; closing it stops the server
     */
    public TestClient start(Consumer<Config.Builder> tweak, Consumer<Tidemill> routes) {
        Config.Builder b = config();
        tweak.accept(b);
        Tidemill app = Tidemill.create(b.build());
        routes.accept(app);
        return TestClient.start(app).timeout(Duration.ofSeconds(20)).protocol(protocol);
    }

    /**
     * Starts an app for this cell with its default configuration.
     *
     * @param routes registers routes
     * @return a client; closing it stops the server
     */
    public TestClient start(Consumer<Tidemill> routes) {
        return start(b -> { }, routes);
    }

    @Override
    public String toString() {
        return transport + "/" + mode + (protocol == TestClient.Protocol.HTTP_1_1 ? "" : "/" + protocol);
    }
}
