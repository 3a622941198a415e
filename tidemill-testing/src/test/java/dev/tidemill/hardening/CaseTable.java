package dev.tidemill.hardening;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A category given as a table of {@link HostileCase}s: each subclass declares
 * {@code static Stream<HostileCase> cases()}; one {@link HostileServer} serves the whole class and
 * {@link CaseRunner} runs every row against it.
 */
@Timeout(300)
abstract class CaseTable {
    private static HostileServer server;

    @BeforeAll
    static void start() {
        server = HostileServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void hostile(HostileCase c) {
        CaseRunner.check(server, c);
    }
}
