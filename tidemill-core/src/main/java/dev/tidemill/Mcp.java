package dev.tidemill;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Settings of the Model Context Protocol endpoint an app serves, turned on with {@link Tidemill#mcp()}
 * or {@link Tidemill#mcp(Mcp)}: the app's routes marked with {@link Route#tool(String, String)} become
 * tools an AI agent lists and calls at {@link #path()}, over the Streamable HTTP transport, in both
 * protocol eras (the session-based revisions 2025-03-26, 2025-06-18 and 2025-11-25, and the stateless
 * 2026-07-28). A tool call runs the real route, with its coercion, filters, requirements, rate limit,
 * execution mode and timeout; the caller is whoever the MCP request's own credentials say. See docs/mcp.md.
 *
 * <pre>{@code
 * app.get("/items/{id}", req -> repo.find(req.param(ID))).params(ID).returns(Item.class)
 *    .tool("get_item", "One item by its id");
 * app.mcp();                                                    // POST /mcp
 * app.mcp(Mcp.builder().path("/agent").maxSessions(500).build());
 * }</pre>
 */
public final class Mcp {
    /** The defaults: {@code /mcp}, 10,000 sessions idle at most 30 minutes, 50 tools per page, same-origin browsers only. */
    public static final Mcp DEFAULTS = builder().build();

    private final String path;
    private final String name;
    private final String version;
    private final String instructions;
    private final int maxSessions;
    private final Duration sessionIdle;
    private final int pageSize;
    private final List<String> allowedOrigins;

    private Mcp(Builder b) {
        this.path = b.path;
        this.name = b.name;
        this.version = b.version;
        this.instructions = b.instructions;
        this.maxSessions = b.maxSessions;
        this.sessionIdle = b.sessionIdle;
        this.pageSize = b.pageSize;
        this.allowedOrigins = List.copyOf(b.allowedOrigins);
    }

    /** @return a builder holding the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the MCP endpoint's path; default {@code /mcp} */
    public String path() {
        return path;
    }

    /** @return {@code serverInfo.name} in {@code initialize} and {@code server/discover}; default {@code tidemill} */
    public String name() {
        return name;
    }

    /** @return {@code serverInfo.version}; default {@code 1.0.0} */
    public String version() {
        return version;
    }

    /** @return the {@code instructions} given to clients, if any; none by default */
    public Optional<String> instructions() {
        return Optional.ofNullable(instructions);
    }

    /**
     * @return the most session-era sessions held at once; an {@code initialize} past it is answered
     *     503 with Retry-After; default 10,000
     */
    public int maxSessions() {
        return maxSessions;
    }

    /** @return how long a session may go unused before it ends (then 404); default 30 minutes */
    public Duration sessionIdle() {
        return sessionIdle;
    }

    /** @return tools per page of {@code tools/list} (the rest behind {@code nextCursor}); default 50 */
    public int pageSize() {
        return pageSize;
    }

    /**
     * @return origins (scheme://host[:port]) a browser's request may come from besides the
     *     endpoint's own; any other {@code Origin} is answered 403 (DNS rebinding). Empty by default:
     *     requests without an {@code Origin} (agents, command-line clients) and same-origin ones pass
     */
    public List<String> allowedOrigins() {
        return allowedOrigins;
    }

    /** Builds {@link Mcp} settings; every setting has the default {@link Mcp#DEFAULTS} shows. */
    public static final class Builder {
        private String path = "/mcp";
        private String name = "tidemill";
        private String version = "1.0.0";
        private String instructions;
        private int maxSessions = 10_000;
        private Duration sessionIdle = Duration.ofMinutes(30);
        private int pageSize = 50;
        private List<String> allowedOrigins = List.of();

        private Builder() {}

        /** @param value the endpoint's path, starting with {@code /} @return this */
        public Builder path(String value) {
            Objects.requireNonNull(value, "path");
            if (!value.startsWith("/") || value.contains("{") || value.contains("?")) {
                throw new IllegalArgumentException("the MCP path must start with / and hold no pattern or query: " + value);
            }
            this.path = value;
            return this;
        }

        /** @param value the server's name @return this */
        public Builder name(String value) {
            this.name = requireText(value, "name");
            return this;
        }

        /** @param value the server's version @return this */
        public Builder version(String value) {
            this.version = requireText(value, "version");
            return this;
        }

        /** @param value instructions for clients (null: none) @return this */
        public Builder instructions(String value) {
            this.instructions = value;
            return this;
        }

        /** @param value sessions held at most, 1 to 1,000,000 @return this */
        public Builder maxSessions(int value) {
            if (value < 1 || value > 1_000_000) throw new IllegalArgumentException("maxSessions must be 1 to 1,000,000: " + value);
            this.maxSessions = value;
            return this;
        }

        /** @param value idle time before a session ends, 1 s to 1 day @return this */
        public Builder sessionIdle(Duration value) {
            Objects.requireNonNull(value, "sessionIdle");
            if (value.compareTo(Duration.ofSeconds(1)) < 0 || value.compareTo(Duration.ofDays(1)) > 0) {
                throw new IllegalArgumentException("sessionIdle must be 1 s to 1 day: " + value);
            }
            this.sessionIdle = value;
            return this;
        }

        /** @param value tools per {@code tools/list} page, 1 to 1,000 @return this */
        public Builder pageSize(int value) {
            if (value < 1 || value > 1_000) throw new IllegalArgumentException("pageSize must be 1 to 1,000: " + value);
            this.pageSize = value;
            return this;
        }

        /** @param origins origins allowed besides the endpoint's own, as {@code https://app.example} @return this */
        public Builder allowedOrigins(String... origins) {
            for (String o : origins) {
                if (!o.matches("https?://[^/?#\\s]+")) throw new IllegalArgumentException("an origin is scheme://host[:port]: " + o);
            }
            this.allowedOrigins = List.of(origins);
            return this;
        }

        /** @return the settings */
        public Mcp build() {
            return new Mcp(this);
        }

        private static String requireText(String value, String what) {
            Objects.requireNonNull(value, what);
            if (value.isBlank()) throw new IllegalArgumentException(what + " must not be blank");
            return value;
        }
    }
}
