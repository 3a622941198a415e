package dev.tidemill.examples;

import dev.tidemill.Config;
import dev.tidemill.ExecutionMode;
import dev.tidemill.Mcp;
import dev.tidemill.Param;
import dev.tidemill.Problem;
import dev.tidemill.ProblemException;
import dev.tidemill.Requirement;
import dev.tidemill.Response;
import dev.tidemill.Tidemill;
import dev.tidemill.ToolCall;
import dev.tidemill.ToolContent;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * The app the MCP conformance suite ({@code @modelcontextprotocol/conformance}) is run against: the
 * tools and resources its server scenarios name, each an ordinary route marked with
 * {@code .tool(...)} or {@code .resource(...)}, nothing written for MCP but the marking (and
 * {@link ToolContent} for the mixed and embedded-resource answers).
 */
final class McpConformanceFixture {
    /** A 1x1 red PNG. */
    static final byte[] PNG = Base64.getDecoder()
            .decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==");
    static final byte[] WAV = wav();
    static final Param<String> ID = Param.path("id");
    static final Param<String> REGION = Param.query("region");
    static final Param<String> QUERY = Param.query("query");

    private McpConformanceFixture() {}

    static Tidemill create(Config config) {
        Tidemill app = Tidemill.create(config);
        app.get("/t/simple-text", req -> Response.ok().text("This is a simple text response for testing."))
                .requires(Requirement.anonymous()).tool("test_simple_text", "Answers a simple text");
        app.get("/t/image", req -> Response.ok().bytes(PNG, "image/png"))
                .requires(Requirement.anonymous()).tool("test_image_content", "Answers an image");
        app.get("/t/audio", req -> Response.ok().bytes(WAV, "audio/wav"))
                .requires(Requirement.anonymous()).tool("test_audio_content", "Answers audio");
        app.get("/t/embedded", req -> ToolContent.of(ToolContent.resource("test://embedded-resource", "text/plain",
                        "This is an embedded resource content.")))
                .requires(Requirement.anonymous()).tool("test_embedded_resource", "Answers an embedded resource");
        app.get("/t/mixed", req -> ToolContent.of(ToolContent.text("Multiple content types test:"), ToolContent.image(PNG, "image/png"),
                        ToolContent.resource("test://mixed-content-resource", "application/json", "{\"test\":\"data\",\"value\":123}")))
                .requires(Requirement.anonymous()).tool("test_multiple_content_types", "Answers text, an image and a resource");
        app.get("/t/error", req -> {
            throw new ProblemException(Problem.of(500, "Internal Server Error", "This tool intentionally returns an error for testing"));
        }).requires(Requirement.anonymous()).tool("test_error_handling", "Always fails");
        app.post("/t/logging", req -> {
            Optional<ToolCall> call = ToolCall.of(req);
            call.ifPresent(c -> c.log(ToolCall.Level.INFO, "Tool execution started"));
            Thread.sleep(50);
            call.ifPresent(c -> c.log(ToolCall.Level.INFO, "Tool processing data"));
            Thread.sleep(50);
            call.ifPresent(c -> c.log(ToolCall.Level.INFO, "Tool execution completed"));
            return Response.ok().text("Logging tool completed");
        }).mode(ExecutionMode.VIRTUAL).requires(Requirement.anonymous()).tool("test_tool_with_logging", "Logs three messages while it works");
        app.post("/t/logging-tool", req -> {
            ToolCall.of(req).ifPresent(c -> c.log(ToolCall.Level.INFO, "a log message"));
            return Response.ok().text("logged");
        }).requires(Requirement.anonymous()).tool("test_logging_tool", "Logs one message");
        app.post("/t/progress", req -> {
            Optional<ToolCall> call = ToolCall.of(req);
            for (int p = 0; p <= 100; p += 50) {
                double at = p;
                call.ifPresent(c -> c.progress(at, 100, null));
                if (p < 100) Thread.sleep(50);
            }
            return Response.ok().text("Progress tool completed");
        }).mode(ExecutionMode.VIRTUAL).requires(Requirement.anonymous()).tool("test_tool_with_progress", "Reports progress while it works");
        app.get("/t/headers", req -> Response.ok().text("region " + req.param(REGION) + ": " + req.param(QUERY)))
                .params(REGION, QUERY).requires(Requirement.anonymous()).tool("test_custom_headers", "Echoes a region sent as a header too")
                .toolHeader("region", "Region");
        app.get("/r/static-text", req -> Response.ok().text("This is the content of the static text resource."))
                .requires(Requirement.anonymous()).summary("Static text").resource("test://static-text", "A static text");
        app.get("/r/static-binary", req -> Response.ok().bytes(PNG, "image/png"))
                .requires(Requirement.anonymous()).summary("Static binary").resource("test://static-binary", "A static image");
        app.get("/r/template/{id}/data", req -> Map.of("id", req.param(ID), "templateTest", true, "data", "Data for ID: " + req.param(ID)))
                .params(ID).requires(Requirement.anonymous()).summary("Template").resource("test://template/{id}/data", "Data by id");
        app.mcp(Mcp.builder().name("tidemill-conformance-fixture").build());
        return app;
    }

    /** @return a tenth of a second of silence, 8 kHz 8-bit mono WAV */
    private static byte[] wav() {
        int samples = 800;
        ByteBuffer b = ByteBuffer.allocate(44 + samples).order(ByteOrder.LITTLE_ENDIAN);
        b.put("RIFF".getBytes()).putInt(36 + samples).put("WAVE".getBytes()).put("fmt ".getBytes()).putInt(16).putShort((short) 1)
                .putShort((short) 1).putInt(8000).putInt(8000).putShort((short) 1).putShort((short) 8).put("data".getBytes()).putInt(samples);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(b.array(), 0, 44);
        for (int i = 0; i < samples; i++) out.write(128);
        return out.toByteArray();
    }
}
