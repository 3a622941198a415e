package dev.tidemill.bench.targets;

import dev.tidemill.Config;
import dev.tidemill.Tidemill;
import dev.tidemill.bench.common.LoopsContract;
import dev.tidemill.bench.common.Scenario;

/**
 * Tidemill's server in the event-loop matrix ({@link LoopsContract}): {@code GET /plaintext} and
 * the WebSocket echo, on the plain port and on the TLS port, configured only by {@code TIDEMILL_*}
 * variables as a user would ({@code TIDEMILL_TRANSPORT}, {@code TIDEMILL_MODE},
 * {@code TIDEMILL_TLS_*}). Unlike {@link TidemillApp}, whose echo is pinned to IO mode, every route
 * here runs in the app's mode, so the LOOP and VIRTUAL columns measure their dispatch on the
 * WebSocket rows too. Tidemill has no raw TCP API, so the round-trip row is not served.
 */
public final class LoopsTidemill {
    private LoopsTidemill() {}

    /**
     * @param args none (everything comes from the environment)
     */
    public static void main(String[] args) {
        Tidemill app = Tidemill.create(Config.fromEnvironment());
        app.get(Scenario.PLAINTEXT_PATH, req -> Scenario.PLAINTEXT_BODY);
        app.ws(LoopsContract.ECHO, (ws, msg) -> ws.send(msg));
        app.run(server -> {
            System.out.println(LoopsContract.READY_PREFIX + " tidemill on " + server.port() + " (TLS "
                    + server.tlsPort().orElse(0) + "), mode " + app.config().executionMode() + ", transport " + server.transport());
            server.startupReport().forEach(line -> System.out.println("startup: " + line));
        });
    }
}
