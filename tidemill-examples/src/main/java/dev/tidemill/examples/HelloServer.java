package dev.tidemill.examples;

import dev.tidemill.Config;
import dev.tidemill.Tidemill;

/**
 * A hello-world app for quick benchmark runs: {@code GET /plaintext} answers {@code Hello, World!}
 * in whatever execution mode {@code TIDEMILL_MODE} selects.
 */
public final class HelloServer {
    private HelloServer() {}

    /** @param args ignored; configure with TIDEMILL_* variables */
    public static void main(String[] args) {
        Tidemill app = Tidemill.create(Config.fromEnvironment());
        app.get("/plaintext", req -> "Hello, World!");
        app.run(server -> System.out.println("hello server on http://" + server.host() + ":" + server.port()
                + " mode " + app.config().executionMode()));
    }
}
