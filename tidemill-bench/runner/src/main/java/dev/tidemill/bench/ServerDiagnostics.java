package dev.tidemill.bench;

import dev.tidemill.bench.targets.TidemillApp;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Tidemill's diagnostic counters ({@code Server.diagnostics()}), read from the bench app's
 * {@link TidemillApp#DIAGNOSTICS_PATH} on a connection of their own, before and after each window.
 */
final class ServerDiagnostics {
    /** Worker-loop wakeups so far. */
    static final String WAKEUPS = "worker.wakeups";
    /** Reply drain tasks run so far. */
    static final String DRAINS = "reply.drains";

    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private ServerDiagnostics() {}

    /**
     * @param port the Tidemill target's port on 127.0.0.1
     * @return the counters, or empty when the target did not answer them
     */
    static Optional<Map<String, Long>> read(int port) {
        try {
            String answer = LoopbackGet.get(port, TidemillApp.DIAGNOSTICS_PATH, 2_000);
            int body = answer.indexOf("\r\n\r\n");
            if (!answer.startsWith("HTTP/1.1 200") || body < 0) return Optional.empty();
            return Optional.of(parse(answer.substring(body + 4)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** @param json a JSON object of counters @return its integral members */
    static Map<String, Long> parse(String json) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : MAPPER.readTree(json).properties()) {
            if (e.getValue().isIntegralNumber()) out.put(e.getKey(), e.getValue().asLong());
        }
        return out;
    }

    /**
     * @param before a reading before the window
     * @param after the reading after it
     * @param key a counter
     * @param requests requests completed in the window
     * @return the counter's increase per request, or null when either reading lacks it
     */
    static Double perRequest(Optional<Map<String, Long>> before, Optional<Map<String, Long>> after, String key, long requests) {
        if (before.isEmpty() || after.isEmpty() || requests <= 0) return null;
        Long b = before.get().get(key), a = after.get().get(key);
        return b == null || a == null ? null : (double) (a - b) / requests;
    }
}
