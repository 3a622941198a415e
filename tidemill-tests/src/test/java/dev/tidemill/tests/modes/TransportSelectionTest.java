package dev.tidemill.tests.modes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Tidemill;
import dev.tidemill.Transport;
import dev.tidemill.testing.TestClient;
import dev.tidemill.tests.support.Setup;
import io.netty.channel.epoll.Epoll;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Transport selection: each transport starts and reports itself; the startup report names the
 * transport, the reason and the worker-loop decision; AUTO picks native epoll on Linux (NIO, with
 * the reason, where Netty cannot load epoll). A native transport Netty cannot load is skipped.
 */
@Timeout(60)
class TransportSelectionTest {

    private static TestClient start(Transport transport, int workerLoops) {
        Tidemill app = Tidemill.create(TestClient.config().transport(transport).workerLoops(workerLoops).ioThreads(1).build());
        app.get("/hello", req -> "hi");
        return TestClient.start(app);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Transport.class, names = {"NIO", "EPOLL", "IO_URING", "IO_URING_BUFFER_RING"})
    void explicitTransportStartsAndReportsItself(Transport transport) {
        new Setup(transport, ExecutionMode.LOOP).assumeAvailable();
        try (TestClient client = start(transport, 2)) {
            assertThat(client.server().transport()).isEqualTo(transport);
            assertThat(client.get("/hello").text()).isEqualTo("hi");
            List<String> report = client.server().startupReport();
            assertThat(report).as("startup report").isNotEmpty();
            String all = String.join("\n", report);
            assertThat(all).contains("transport " + transport).contains("requested");
            if (transport != Transport.NIO && transport != Transport.EPOLL) assertThat(all).contains("io_uring available");
            assertThat(all).as("worker-loop decision").contains("worker loops 2 (configured)");
            assertThat(client.server().workerLoops()).isEqualTo(2);
        }
    }

    @Test
    void autoPicksEpollOnLinuxAndSaysWhy() {
        assertThat(System.getProperty("os.name")).startsWith("Linux");
        try (TestClient client = start(Transport.AUTO, 0)) {
            String all = String.join("\n", client.server().startupReport());
            if (Epoll.isAvailable()) {
                assertThat(client.server().transport()).isEqualTo(Transport.EPOLL);
                assertThat(all).contains("transport EPOLL").contains("auto");
            } else {
                // where Netty cannot load epoll, AUTO falls back to NIO and the report says why
                assertThat(client.server().transport()).isEqualTo(Transport.NIO);
                assertThat(all).contains("transport NIO").contains("native epoll unavailable");
            }
            assertThat(all).as("io_uring is probed only when asked for").contains("io_uring not probed");
            int cpus = Runtime.getRuntime().availableProcessors();
            assertThat(client.server().workerLoops()).isEqualTo(cpus);
            assertThat(all).as("worker-loop decision").contains("worker loops " + cpus + " (one per CPU)");
            assertThat(client.get("/hello").text()).isEqualTo("hi");
        }
    }
}
