package dev.tidemill.tests.hardening;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** A test class whose cases all run against one {@link HostileServer}, started before the first and stopped after the last. */
abstract class OnHostileServer {
    private static HostileServer server;

    @BeforeAll
    static void start() {
        server = HostileServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** @return the running server of the class under test */
    static HostileServer server() {
        return server;
    }
}
