package dev.tidemill.tests.websocket;

import dev.tidemill.ExecutionMode;
import dev.tidemill.WebSocketHandler;
import dev.tidemill.WebSocketOptions;
import dev.tidemill.tests.support.Setup;
import dev.tidemill.testing.TestClient;

/**
 * The app every conformance case talks to (on the default transport, LOOP mode by default):
 *
 * <ul>
 *   <li>{@value #ECHO}: echoes text and binary, default options (16 MiB limits, permessage-deflate on);</li>
 *   <li>{@value #PLAIN}: the same with compression off;</li>
 *   <li>{@value #SMALL}: frames up to 1 KiB, messages up to 4 KiB;</li>
 *   <li>{@value #SMALL_DEFLATE}: messages up to 1 MiB after inflation, for compression bombs;</li>
 *   <li>{@value #BYE}: echoes, but answers the text {@code bye} by closing with 1000 itself;</li>
 *   <li>{@value #PROTO}: speaks the subprotocols {@code chat} and {@code superchat}, in that order;</li>
 *   <li>{@code /mode/io}, {@code /mode/loop}, {@code /mode/virtual}: echo routes in each execution mode.</li>
 * </ul>
 */
final class ConformanceServer {
    static final String ECHO = "/echo";
    static final String PLAIN = "/echo/plain";
    static final String SMALL = "/small";
    static final String SMALL_DEFLATE = "/small/deflate";
    static final String BYE = "/bye";
    static final String PROTO = "/proto";
    static final int SMALL_FRAME = 1024;
    static final int SMALL_MESSAGE = 4096;
    static final int SMALL_DEFLATE_MESSAGE = 1 << 20;

    /** Echoes a message as it came: text as text, binary as binary. */
    static final WebSocketHandler ECHO_HANDLER = (ws, m) -> {
        if (m.isText()) ws.send(m.text());
        else ws.send(m.bytes());
    };

    private ConformanceServer() {}

    /** @param mode the execution mode of a {@code /mode/...} route @return its path */
    static String modeRoute(ExecutionMode mode) {
        return "/mode/" + mode.name().toLowerCase(java.util.Locale.ROOT);
    }

    static TestClient start() {
        return Setup.onDefaultTransport(ExecutionMode.LOOP).start(app -> {
            app.ws(ECHO, ECHO_HANDLER);
            app.ws(PLAIN, WebSocketOptions.builder().compression(false).build(), ECHO_HANDLER);
            app.ws(SMALL, WebSocketOptions.builder().maxFrameBytes(SMALL_FRAME).maxMessageBytes(SMALL_MESSAGE).build(), ECHO_HANDLER);
            app.ws(SMALL_DEFLATE, WebSocketOptions.builder().maxMessageBytes(SMALL_DEFLATE_MESSAGE).build(), ECHO_HANDLER);
            app.ws(BYE, (ws, m) -> {
                if (m.isText() && m.text().equals("bye")) ws.close(1000, "bye");
                else ECHO_HANDLER.onMessage(ws, m);
            });
            app.ws(PROTO, WebSocketOptions.builder().subprotocols("chat", "superchat").build(), ECHO_HANDLER);
            for (ExecutionMode mode : ExecutionMode.values()) app.ws(modeRoute(mode), ECHO_HANDLER).mode(mode);
        });
    }
}
