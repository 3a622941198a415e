package dev.tidemill.examples;

import dev.tidemill.Config;
import dev.tidemill.Mcp;
import dev.tidemill.Param;
import dev.tidemill.Problem;
import dev.tidemill.ProblemException;
import dev.tidemill.Requirement;
import dev.tidemill.Response;
import dev.tidemill.Tidemill;
import dev.tidemill.ToolContent;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;
import java.util.Map;

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
