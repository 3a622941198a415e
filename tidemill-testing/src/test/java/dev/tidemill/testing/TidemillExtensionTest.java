package dev.tidemill.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.tidemill.Config;
import dev.tidemill.InMemoryServer;
import dev.tidemill.Server;
import dev.tidemill.Tidemill;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * {@link TidemillTest} as a user meets it: the class's app started once (socket or in memory),
 * injected into tests, lifecycle methods and nested classes, and stopped after the class. The
 * fixtures below are run by a JUnit launcher inside this test (Surefire skips nested classes), so
 * that what happens after their last test and their failures can be checked.
 */
@Timeout(60)
class TidemillExtensionTest {
    /** Every client the fixtures were given, and every server, to check after the run. */
    static final Set<TestClient> CLIENTS = ConcurrentHashMap.newKeySet();
    static final Set<Object> SERVERS = ConcurrentHashMap.newKeySet();
    static final List<String> BUILT = new ArrayList<>();

    @TidemillTest
    static class SocketFixture {
        @TidemillApp
        static Tidemill app(Config.Builder config) {
            synchronized (BUILT) {
                BUILT.add("socket");
            }
            Tidemill app = Tidemill.create(config.workerLoops(1).build());
            app.get("/hello", req -> "Hello, " + req.query("name").orElse("World"));
            return app;
        }

        @BeforeAll
        static void before(TestClient client, Server server) {
            CLIENTS.add(client);
            SERVERS.add(server);
        }

        @Test
        void first(TestClient client, Server server) {
            CLIENTS.add(client);
            SERVERS.add(server);
            assertThat(server.port()).isPositive().isEqualTo(client.port());
            assertThat(client.get("/hello?name=Ada").text()).isEqualTo("Hello, Ada");
        }

        @Test
        void second(TestClient client) {
            CLIENTS.add(client);
            assertThat(client.get("/hello").text()).isEqualTo("Hello, World");
        }

        @Nested
        class Inner {
            @Test
            void sharesTheEnclosingApp(TestClient client) {
                CLIENTS.add(client);
                assertThat(client.get("/hello").status()).isEqualTo(200);
            }
        }
    }

    @TidemillTest(inMemory = true)
    static class InMemoryFixture {
        @TidemillApp
        static Tidemill app() {
            synchronized (BUILT) {
                BUILT.add("memory");
            }
            Tidemill app = Tidemill.create(Config.builder().workerLoops(1).build()); // port unused in memory
            app.get("/hello", req -> "Hello from memory");
            return app;
        }

        @Test
        void answers(TestClient client, InMemoryServer server) {
            CLIENTS.add(client);
            SERVERS.add(server);
            assertThat(client.isInMemory()).isTrue();
            assertThat(client.get("/hello").text()).isEqualTo("Hello from memory");
        }
    }

    @TidemillTest
    static class NoAppFixture {
        @Test
        void never() {}
    }

    @TidemillTest(inMemory = true)
    static class ServerInMemoryFixture {
        @TidemillApp
        static Tidemill app() {
            return Tidemill.create();
        }

        @Test
        void asksForASocketServer(Server server) {}
    }

    @TidemillTest
    static class FixedPortFixture {
        @TidemillApp
        static Tidemill app() {
            return Tidemill.create(Config.builder().port(8080).build());
        }

        @Test
        void never() {}
    }

    @Test
    void aSocketAppStartsOnceIsSharedAndStopsAfterTheClass() throws Exception {
        CLIENTS.clear();
        SERVERS.clear();
        BUILT.clear();
        TestExecutionSummary s = run(SocketFixture.class);
        assertThat(s.getFailures()).extracting(f -> f.getException().toString()).isEmpty();
        assertThat(s.getTestsSucceededCount()).isEqualTo(3);
        assertThat(BUILT).containsExactly("socket");
        assertThat(CLIENTS).as("one client for every test and the nested class").hasSize(1);
        assertThat(SERVERS).hasSize(1);
        Server server = (Server) SERVERS.iterator().next();
        server.terminated().toCompletableFuture().get(10, TimeUnit.SECONDS); // stopped after the class
        try (TestClient after = TestClient.connectTo("127.0.0.1", server.port()).timeout(java.time.Duration.ofSeconds(2))) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> after.get("/hello"))
                    .as("nothing listens any more").isInstanceOf(java.io.UncheckedIOException.class);
        }
    }

    @Test
    void anInMemoryAppIsInjectedAndClosedAfterTheClass() {
        CLIENTS.clear();
        SERVERS.clear();
        BUILT.clear();
        TestExecutionSummary s = run(InMemoryFixture.class);
        assertThat(s.getFailures()).extracting(f -> f.getException().toString()).isEmpty();
        assertThat(s.getTestsSucceededCount()).isEqualTo(1);
        assertThat(BUILT).containsExactly("memory");
        InMemoryServer server = (InMemoryServer) SERVERS.iterator().next();
        org.assertj.core.api.Assertions.assertThatThrownBy(server::connect).as("closed after the class")
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void configurationMistakesFailTheClassNamingTheFix() {
        assertThat(failure(run(NoAppFixture.class))).contains("@TidemillApp");
        assertThat(failure(run(ServerInMemoryFixture.class))).contains("InMemoryServer");
        assertThat(failure(run(FixedPortFixture.class))).contains("port 0");
    }

    private static String failure(TestExecutionSummary s) {
        assertThat(s.getFailures()).hasSize(1);
        return s.getFailures().get(0).getException().getMessage();
    }

    private static TestExecutionSummary run(Class<?> fixture) {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(fixture)).build(), listener);
        return listener.getSummary();
    }
}
