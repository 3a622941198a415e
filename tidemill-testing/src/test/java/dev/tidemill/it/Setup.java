package dev.tidemill.it;

import dev.tidemill.Config;
import dev.tidemill.ExecutionMode;
import dev.tidemill.Tidemill;
import dev.tidemill.Transport;
import dev.tidemill.testing.TestClient;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * One cell of the integration matrix: a transport and an execution mode. Tests that matter take a
 * {@code Setup} from {@link #all()} (every transport x every mode), {@link #modes()} (every mode on
 * the default transport) or {@link #transports()} (every transport in LOOP mode).
 *
 * @param transport the Netty transport
 * @param mode the app's default execution mode
 */
public record Setup(Transport transport, ExecutionMode mode) {

    /** @return every transport x every execution mode */
    public static Stream<Setup> all() {
        return Stream.of(Transport.NIO, Transport.EPOLL, Transport.IO_URING)
                .flatMap(t -> Stream.of(ExecutionMode.values()).map(m -> new Setup(t, m)));
    }

    /** @return every execution mode on epoll */
    public static Stream<Setup> modes() {
        return Stream.of(ExecutionMode.values()).map(m -> new Setup(Transport.EPOLL, m));
    }

    /** @return every transport, LOOP mode */
    public static Stream<Setup> transports() {
        return Stream.of(Transport.NIO, Transport.EPOLL, Transport.IO_URING).map(t -> new Setup(t, ExecutionMode.LOOP));
    }

    /** @return a test configuration for this cell: port 0, two worker loops, one I/O thread */
    public Config.Builder config() {
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
        return TestClient.start(app).timeout(Duration.ofSeconds(20));
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
        return transport + "/" + mode;
    }
}
