package dev.tidemill.bench;

import dev.tidemill.bench.common.Scenario;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A measured scenario: which request wrk sends (a path, or a Lua script for POST, the mix and
 * pipelining) and at how many connections. Each has a fixed number from 1 to 8, in declaration
 * order; variants of one request share theirs (6: the mix with and without a browser's
 * {@code Accept-Encoding}; 7: plaintext at 256 and 1024 connections).
 */
public enum ScenarioRun {
    /** 1: {@code GET /plaintext}. */
    PLAINTEXT("plaintext", 1, "GET " + Scenario.PLAINTEXT_PATH, Scenario.PLAINTEXT_PATH, null, 0, true),
    /** 2: {@code GET /json}. */
    JSON("json", 2, "GET " + Scenario.JSON_PATH, Scenario.JSON_PATH, null, 0, false),
    /** 3: {@code GET /user/{id}}. */
    USER("user", 3, "GET /user/{id}", Scenario.USER_PATH_PREFIX + "42", null, 0, false),
    /** 4: validated {@code POST /validate}. */
    VALIDATE("validate", 4, "POST " + Scenario.VALIDATE_PATH, Scenario.VALIDATE_PATH, "post.lua", 0, false),
    /** 5: the 16 KB HTML page. */
    PAGE("page", 5, "GET " + Scenario.PAGE_PATH, Scenario.PAGE_PATH, null, 0, false),
    /** 6: browser-shaped mix with Chrome's headers and cookies, but no {@code Accept-Encoding}: every answer identity. */
    MIX("mix", 6, "40% page, 30% user, 20% json, 10% POST, Chrome headers without Accept-Encoding", "/", "mix.lua", 0, false),
    /** 6b: the same mix with the {@code Accept-Encoding} a browser sends, so servers that compress do. */
    BROWSER_MIX("browser-mix", 6, "the mix with a browser's Accept-Encoding: gzip, deflate, br, zstd", "/", "mix.lua", 0, false),
    /** 7a: plaintext at 256 connections. */
    PLAINTEXT_256("plaintext-256", 7, "GET /plaintext at 256 connections", Scenario.PLAINTEXT_PATH, null, 256, true),
    /** 7b: plaintext at 1,024 connections. */
    PLAINTEXT_1024("plaintext-1024", 7, "GET /plaintext at 1024 connections", Scenario.PLAINTEXT_PATH, null, 1024, true),
    /** 8: plaintext pipelined 16 deep. */
    PIPELINED("pipelined", 8, "GET /plaintext pipelined 16 deep", Scenario.PLAINTEXT_PATH, "pipeline.lua", 0, true);

    /** Pipelining depth of {@link #PIPELINED}, as in TechEmpower's plaintext test. */
    public static final int PIPELINE_DEPTH = 16;

    private final String id;
    private final int number;
    private final String description;
    private final String path;
    private final String script;
    private final int connections;
    private final boolean plaintext;

    ScenarioRun(String id, int number, String description, String path, String script, int connections, boolean plaintext) {
        this.id = id;
        this.number = number;
        this.description = description;
        this.path = path;
        this.script = script;
        this.connections = connections;
        this.plaintext = plaintext;
    }

    /** @return the name used on the command line and in result files */
    public String id() { return id; }

    /** @return the scenario's fixed number (1 to 8; variants of one request share it) */
    public int number() { return number; }

    /** @return what is sent, for people */
    public String description() { return description; }

    /** @return the URL path wrk is pointed at */
    public String path() { return path; }

    /** @return the wrk Lua script (a resource under {@code wrk/}), if any */
    public Optional<String> script() { return Optional.ofNullable(script); }

    /** @return the arguments wrk passes to the script's {@code init} (after {@code --}) */
    public List<String> scriptArgs() {
        return switch (this) {
            case PIPELINED -> List.of(Integer.toString(PIPELINE_DEPTH));
            case BROWSER_MIX -> List.of(MIX_COMPRESSED);
            default -> List.of();
        };
    }

    /** The argument that makes {@code mix.lua} send a browser's {@code Accept-Encoding}. */
    public static final String MIX_COMPRESSED = "accept-encoding";

    /** The {@code Accept-Encoding} of {@link #BROWSER_MIX}: what Chrome sends. */
    public static final String BROWSER_ACCEPT_ENCODING = "gzip, deflate, br, zstd";

    /** @return whether wrk reports the bytes it read (the mix scripts print them from {@code done}) */
    public boolean reportsBytes() { return "mix.lua".equals(script); }

    /**
     * @param defaultConnections the run's default connection count
     * @return connections for this scenario
     */
    public int connections(int defaultConnections) { return connections > 0 ? connections : defaultConnections; }

    /** @return whether it only needs {@code /plaintext} (so plaintext-only targets such as nginx run it) */
    public boolean plaintextOnly() { return plaintext; }

    /**
     * @param id a scenario id
     * @return the scenario
     * @throws IllegalArgumentException naming the known ids
     */
    public static ScenarioRun byId(String id) {
        for (ScenarioRun s : values()) if (s.id.equals(id)) return s;
        throw new IllegalArgumentException("unknown scenario " + id + "; known: "
                + String.join(", ", Arrays.stream(values()).map(ScenarioRun::id).toList()));
    }

    /** @return every scenario, in number order */
    public static List<ScenarioRun> all() { return List.of(values()); }
}
