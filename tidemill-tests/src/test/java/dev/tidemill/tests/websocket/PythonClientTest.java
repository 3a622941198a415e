package dev.tidemill.tests.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.WebSocketOptions;
import dev.tidemill.tests.support.Setup;
import dev.tidemill.testing.TestClient;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A real client that is not ours, python-websockets 10.4 ({@code src/test/resources/websocket/client.py}),
 * against a Tidemill server in each execution mode: text, binary and UTF-8 echo, a fragmented
 * message, 1 MiB and 4 MiB messages, ping/pong, its close code echoed, the server's close code
 * received, permessage-deflate with and without context takeover, a subprotocol. Skipped where
 * {@code /usr/bin/python3} or its {@code websockets} module is missing (CI installs
 * {@code python3-websockets}).
 */
class PythonClientTest {
    private static final List<String> SCENARIOS = List.of("echo_text_and_binary", "fragmented_message", "large_messages",
            "ping_pong", "client_close_code", "server_close_code", "permessage_deflate",
            "permessage_deflate_no_context_takeover", "subprotocol");

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modes")
    void pythonWebsocketsTalksToTidemill(Setup setup) {
        Python.require();
        try (TestClient client = setup.start(app -> {
            app.ws("/ws/echo", ConformanceServer.ECHO_HANDLER);
            app.ws("/ws/close", (ws, m) -> ws.close(4001, "as asked"));
            app.ws("/ws/proto", WebSocketOptions.builder().subprotocols("chat").build(), ConformanceServer.ECHO_HANDLER);
        }); Python py = Python.start("client.py", "ws://127.0.0.1:" + client.port())) {
            List<String> lines = new ArrayList<>();
            for (String line; (line = py.readLine()) != null; ) lines.add(line);
            assertThat(py.waitFor(60)).as("the script's exit code; its output: %s", lines).isZero();
            assertThat(lines).as("every scenario passed").containsExactlyElementsOf(SCENARIOS.stream().map(s -> "OK " + s).toList());
        }
    }
}
