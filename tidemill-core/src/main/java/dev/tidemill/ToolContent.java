package dev.tidemill;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.json.JsonMapper;

/**
 * An answer made of MCP content blocks (2025-11-25 server/tools, "Tool Result"): text, images,
 * audio and embedded resources, for a route that is a {@link Route#tool tool} and answers more than
 * one JSON value or bytes of one media type. Called as a tool, its blocks are the result's
 * {@code content} as they are; called over plain HTTP, it is the same JSON,
 * {@code {"content": [...]}}, of media type {@value #MEDIA_TYPE}.
 *
 * <p>A route needs this only for mixed content or an embedded resource: a JSON answer becomes
 * structured content with a text copy, {@code text/*} text, {@code image/*} an image and
 * {@code audio/*} audio by themselves.
 *
 * <pre>{@code
 * app.get("/report", req -> ToolContent.of(ToolContent.text("Sales, week 49"), ToolContent.image(png, "image/png")))
 *    .requires(Requirement.anonymous()).tool("weekly_report", "The week's sales, with a chart");
 * }</pre>
 *
 * @param json one content block as JSON, as the specification writes it
 */
public record ToolContent(String json) {
    /** The media type of an answer of content blocks. */
    public static final String MEDIA_TYPE = "application/vnd.tidemill.tool-content+json";
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    /** Checks the block is there. */
    public ToolContent {
        Objects.requireNonNull(json, "json");
    }

    /** @param text the text @return a text block */
    public static ToolContent text(String text) {
        return block(fields("type", "text", "text", Objects.requireNonNull(text, "text")));
    }

    /** @param data the image's bytes @param mimeType e.g. {@code image/png} @return an image block */
    public static ToolContent image(byte[] data, String mimeType) {
        return binary("image", data, mimeType);
    }

    /** @param data the audio's bytes @param mimeType e.g. {@code audio/wav} @return an audio block */
    public static ToolContent audio(byte[] data, String mimeType) {
        return binary("audio", data, mimeType);
    }

    /**
     * @param uri the resource's URI
     * @param mimeType its media type
     * @param text its contents
     * @return an embedded resource block with text contents
     */
    public static ToolContent resource(String uri, String mimeType, String text) {
        return block(fields("type", "resource", "resource", fields("uri", Objects.requireNonNull(uri, "uri"),
                "mimeType", Objects.requireNonNull(mimeType, "mimeType"), "text", Objects.requireNonNull(text, "text"))));
    }

    /**
     * @param blocks the content, in order
     * @return the answer: 200, {@value #MEDIA_TYPE}, {@code {"content": [...]}}
     */
    public static Response of(ToolContent... blocks) {
        List<String> parts = new ArrayList<>();
        for (ToolContent b : blocks) parts.add(Objects.requireNonNull(b, "block").json());
        String body = "{\"content\":[" + String.join(",", parts) + "]}";
        return Response.ok().bytes(body.getBytes(StandardCharsets.UTF_8), MEDIA_TYPE);
    }

    private static ToolContent binary(String type, byte[] data, String mimeType) {
        return block(fields("type", type, "data", Base64.getEncoder().encodeToString(Objects.requireNonNull(data, "data")),
                "mimeType", Objects.requireNonNull(mimeType, "mimeType")));
    }

    private static Map<String, Object> fields(Object... pairs) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) m.put((String) pairs[i], pairs[i + 1]);
        return m;
    }

    private static ToolContent block(Map<String, Object> fields) {
        return new ToolContent(MAPPER.writeValueAsString(fields));
    }
}
