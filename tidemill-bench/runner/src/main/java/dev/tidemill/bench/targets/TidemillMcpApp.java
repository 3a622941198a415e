package dev.tidemill.bench.targets;

import dev.tidemill.Config;
import dev.tidemill.ExecutionMode;
import dev.tidemill.Param;
import dev.tidemill.ParamType;
import dev.tidemill.Requirement;
import dev.tidemill.Tidemill;

/**
 * Tidemill's target of the MCP suite ({@code ./tidemill bench mcp}), written as an application would
 * be: {@code GET /items/{id}} answers a small JSON record and is the tool {@value #ITEM_TOOL};
 * {@code GET /slow} sleeps {@value #SLOW_MILLIS} ms on a virtual thread, then answers, and is the
 * tool {@value #SLOW_TOOL}; {@code app.mcp()} serves both at {@code /mcp} with the default settings.
 * Configured only by {@code TIDEMILL_*} variables ({@code TIDEMILL_MODE}, {@code TIDEMILL_PORT}...).
 */
public final class TidemillMcpApp {
    /** The item route's pattern. */
    public static final String ITEM_PATTERN = "/items/{id}";
    /** The item route's tool. */
    public static final String ITEM_TOOL = "get_item";
    /** The slow route. */
    public static final String SLOW_PATH = "/slow";
    /** The slow route's tool. */
    public static final String SLOW_TOOL = "slow";
    /** How long the slow route sleeps. */
    public static final long SLOW_MILLIS = 200;

    static final Param<Long> ITEM_ID = Param.path("id", ParamType.LONG);

    /**
     * The item the route answers.
     *
     * @param id the id asked for
     * @param name its name
     * @param stock units in stock
     */
    public record Item(long id, String name, int stock) {}

    private TidemillMcpApp() {}

    /**
     * @param config the configuration
     * @return the app, not started
     */
    public static Tidemill create(Config config) {
        Tidemill app = Tidemill.create(config);
        app.get(ITEM_PATTERN, req -> {
            long id = req.param(ITEM_ID);
            return new Item(id, "item " + id, (int) (id % 100));
        }).params(ITEM_ID).returns(Item.class).requires(Requirement.anonymous()).tool(ITEM_TOOL, "One item by its id");
        app.get(SLOW_PATH, req -> {
            Thread.sleep(SLOW_MILLIS);
            return "done";
        }).mode(ExecutionMode.VIRTUAL).requires(Requirement.anonymous()).tool(SLOW_TOOL, "Answers after " + SLOW_MILLIS + " ms");
        app.mcp();
        return app;
    }

    /** @param args none; configure with TIDEMILL_* variables */
    public static void main(String[] args) {
        Tidemill app = create(Config.fromEnvironment());
        app.run(server -> {
            System.out.println("tidemill mcp bench app on http://" + server.host() + ":" + server.port() + " mode "
                    + app.config().executionMode());
            server.startupReport().forEach(line -> System.out.println("startup: " + line));
        });
    }
}
