package dev.tidemill;

import java.util.Optional;

/**
 * The MCP tool call a request runs for, when a route marked with {@link Route#tool} is called by an
 * agent through the app's MCP endpoint: the route reports progress and log messages to the agent
 * while it works (2025-11-25 basic/utilities/progress and server/utilities/logging). They reach the
 * agent only if it asked for them (a progress token; a log level, for the session or in the
 * request), and then the call's answer is an SSE stream carrying them before the result. Called
 * over plain HTTP, the route finds no tool call and reports nothing.
 *
 * <pre>{@code
 * app.post("/imports", req -> {
 *     Optional<ToolCall> call = ToolCall.of(req);
 *     for (int i = 0; i < files.size(); i++) {
 *         importOne(files.get(i));
 *         call.ifPresent(c -> c.progress(i + 1, files.size(), null));
 *     }
 *     call.ifPresent(c -> c.log(ToolCall.Level.INFO, "imported " + files.size() + " files"));
 *     return Response.noContent();
 * }).mode(ExecutionMode.VIRTUAL).requires(Requirement.scope("import")).tool("import_files", "Imports the staged files");
 * }</pre>
 */
public interface ToolCall {
    /** The request attribute the endpoint sets on a tool call's request. */
    String ATTRIBUTE = "dev.tidemill.toolCall";

    /** Log levels, least severe first (RFC 5424, as MCP names them). */
    enum Level {
        /** Detailed information for debugging. */
        DEBUG,
        /** Normal messages. */
        INFO,
        /** Normal but significant. */
        NOTICE,
        /** Warnings. */
        WARNING,
        /** Errors. */
        ERROR,
        /** Critical conditions. */
        CRITICAL,
        /** Action must be taken at once. */
        ALERT,
        /** The system is unusable. */
        EMERGENCY;

        /** @return the name on the wire ({@code info}) */
        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * @param request the route's request
     * @return the tool call it runs for; empty for a request made over plain HTTP
     */
    static Optional<ToolCall> of(Request request) {
        return request.attribute(ATTRIBUTE).map(ToolCall.class::cast);
    }

    /** @return the tool's name */
    String tool();

    /**
     * Reports progress, if the agent asked for it; otherwise nothing happens. Progress must
     * increase from one report to the next.
     *
     * @param progress how far, in any unit
     * @param total how far it goes, or a negative number when unknown
     * @param message what is happening, or null
     */
    void progress(double progress, double total, String message);

    /**
     * Sends a log message, if the agent asked for messages of this level or a more severe one.
     *
     * @param level how severe
     * @param data the message: text, or anything the JSON codec writes
     */
    void log(Level level, Object data);
}
