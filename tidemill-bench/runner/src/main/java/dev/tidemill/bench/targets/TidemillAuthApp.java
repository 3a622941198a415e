package dev.tidemill.bench.targets;

import dev.tidemill.Config;
import dev.tidemill.Requirement;
import dev.tidemill.Tidemill;
import dev.tidemill.bench.common.AuthContract;
import dev.tidemill.bench.common.Scenario;

/**
 * Tidemill's target of the authentication suite ({@link AuthContract}): the same handler on an
 * anonymous route and on one that requires an authenticated caller, configured only by
 * {@code TIDEMILL_*} variables ({@code TIDEMILL_AUTH_ISSUER}, {@code TIDEMILL_AUTH_AUDIENCE},
 * {@code TIDEMILL_AUTH_JWKS_URI}, {@code TIDEMILL_MODE}, {@code TIDEMILL_PORT}...), as a user would
 * write it.
 */
public final class TidemillAuthApp {
    private TidemillAuthApp() {}

    /**
     * @param config the configuration, with bearer tokens
     * @return the app, not started
     */
    public static Tidemill create(Config config) {
        Tidemill app = Tidemill.create(config);
        app.get(AuthContract.ANONYMOUS_PATH, req -> Scenario.PLAINTEXT_BODY);
        app.get(AuthContract.BEARER_PATH, req -> Scenario.PLAINTEXT_BODY).requires(Requirement.authenticated());
        return app;
    }

    /** @param args none; configure with TIDEMILL_* variables */
    public static void main(String[] args) {
        Tidemill app = create(Config.fromEnvironment());
        app.run(server -> {
            System.out.println("tidemill auth bench app on http://" + server.host() + ":" + server.port() + " mode "
                    + app.config().executionMode());
            server.startupReport().forEach(line -> System.out.println("startup: " + line));
        });
    }
}
