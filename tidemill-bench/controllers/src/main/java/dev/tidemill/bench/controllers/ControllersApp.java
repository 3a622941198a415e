package dev.tidemill.bench.controllers;

import dev.tidemill.Config;
import dev.tidemill.Param;
import dev.tidemill.ParamType;
import dev.tidemill.Tidemill;
import java.util.List;

/**
 * The target of {@code ./tidemill bench controllers}: one app, so one JVM, serving each endpoint
 * three times: written with the lambda DSL under {@value #DSL_PREFIX}, as {@link ItemsController}
 * (compiled by tidemill-processor) under {@value #CONTROLLER_PREFIX}, and with the DSL again under
 * {@value #DSL_TWIN_PREFIX}, the A/A twin that shows how far two identical routes differ.
 *
 * <p>The DSL routes are the routes tidemill-processor writes for the controller, as a person would
 * write them: the same {@code Param} declarations, the same handler, the same {@code returns}.
 * Configured only by {@code TIDEMILL_*} variables ({@code TIDEMILL_MODE}, {@code TIDEMILL_PORT}...).
 */
public final class ControllersApp {
    /** The DSL routes' prefix. */
    public static final String DSL_PREFIX = "/dsl1";
    /** The controller's prefix. */
    public static final String CONTROLLER_PREFIX = "/ctrl";
    /** The A/A twin's prefix: the same DSL routes again. */
    public static final String DSL_TWIN_PREFIX = "/dsl2";
    /** The prefixes in registration order (the controller's in the middle). */
    public static final List<String> PREFIXES = List.of(DSL_PREFIX, CONTROLLER_PREFIX, DSL_TWIN_PREFIX);
    /** The JSON endpoint, after the prefix. */
    public static final String ITEM_PATTERN = "/items/{id}";
    /** The plaintext endpoint, after the prefix. */
    public static final String PLAINTEXT_PATH = "/plaintext";

    static final Param<Long> ID = Param.path("id", ParamType.LONG);
    static final Param<Boolean> VERBOSE = Param.query("verbose", ParamType.BOOLEAN).withDefault(false);

    private ControllersApp() {}

    /**
     * @param config the configuration
     * @return the app, not started
     */
    public static Tidemill create(Config config) {
        Tidemill app = Tidemill.create(config);
        dsl(app, DSL_PREFIX);
        app.controllers(new ItemsController());
        dsl(app, DSL_TWIN_PREFIX);
        return app;
    }

    /** The routes tidemill-processor writes for {@link ItemsController}, by hand, under another prefix. */
    private static void dsl(Tidemill app, String prefix) {
        app.get(prefix + ITEM_PATTERN, req -> Items.item(req.param(ID), req.param(VERBOSE)))
                .params(ID, VERBOSE)
                .returns(Items.Item.class);
        app.get(prefix + PLAINTEXT_PATH, req -> Items.HELLO)
                .returns(String.class);
    }

    /** @param args none; configure with TIDEMILL_* variables */
    public static void main(String[] args) {
        Tidemill app = create(Config.fromEnvironment());
        app.run(server -> {
            System.out.println("tidemill controllers bench app on http://" + server.host() + ":" + server.port() + " mode "
                    + app.config().executionMode());
            server.startupReport().forEach(line -> System.out.println("startup: " + line));
        });
    }
}
