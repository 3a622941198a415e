package dev.tidemill.tests.hardening;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A category given as a table of {@link HostileCase}s: each subclass declares
 * {@code static Stream<HostileCase> cases()}, and {@link CaseRunner} runs every row against the
 * class's server.
 */
@Timeout(300)
abstract class CaseTable extends OnHostileServer {
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void hostile(HostileCase c) {
        CaseRunner.check(server(), c);
    }
}
