package dev.tidemill.tests.websocket;

import static dev.tidemill.tests.websocket.WsCases.INVALID_PAYLOAD;
import static dev.tidemill.tests.websocket.WsCases.PROTOCOL_ERROR;
import static dev.tidemill.tests.websocket.WsCases.autobahn;
import static dev.tidemill.tests.websocket.WsCases.close;
import static dev.tidemill.tests.websocket.WsCases.concat;
import static dev.tidemill.tests.websocket.WsCases.cont;
import static dev.tidemill.tests.websocket.WsCases.frame;
import static dev.tidemill.tests.websocket.WsCases.hex;
import static dev.tidemill.tests.websocket.WsCases.ping;
import static dev.tidemill.tests.websocket.WsCases.row;
import static dev.tidemill.tests.websocket.WsCases.send;
import static dev.tidemill.tests.websocket.WsCases.start;
import static dev.tidemill.tests.websocket.WsCases.text;
import static dev.tidemill.tests.websocket.WsCases.utf8;

import dev.tidemill.ExecutionMode;
import dev.tidemill.testing.WebSocketFrame;
import java.util.stream.Stream;

/**
 * A few cases of each section against echo routes in each execution mode ({@code IO} on the event
 * loop, {@code LOOP} on a worker loop, {@code VIRTUAL} on a virtual thread): the protocol is the
 * same whichever thread runs the handler, and messages are handled in order per connection.
 */
class ExecutionModesConformanceTest extends OnConformanceServer {
    static final String SECTION = "M execution modes";

    static Stream<WsCase> cases() {
        Stream.Builder<WsCase> rows = Stream.builder();
        for (ExecutionMode mode : ExecutionMode.values()) {
            String route = ConformanceServer.modeRoute(mode);
            String m = mode.name();
            rows.add(row(SECTION, route, "", "M-" + m + "-5.3", m + ": text in 2 fragments", autobahn("5.3", "5.4"),
                    () -> send(start(WebSocketFrame.TEXT, false, "fragment1"), cont(true, "fragment2")).expectText("fragment1fragment2").clean()));
            rows.add(row(SECTION, route, "", "M-" + m + "-5.6", m + ": text in 2 fragments with a ping between", autobahn("5.6", "5.4"),
                    () -> send(start(WebSocketFrame.TEXT, false, "fragment1"), ping("pongme!"), cont(true, "fragment2"))
                            .expectPong(utf8("pongme!")).expectText("fragment1fragment2").clean()));
            rows.add(row(SECTION, route, "", "M-" + m + "-6.3.1", m + ": invalid UTF-8", autobahn("6.3.1", "8.1"),
                    () -> send(text(concat(Utf8Sequences.KOSME, hex("eda080")))).serverCloses(INVALID_PAYLOAD)));
            rows.add(row(SECTION, route, "", "M-" + m + "-3.1", m + ": RSV set", autobahn("3.1", "5.2"),
                    () -> send(frame(true, 1, WebSocketFrame.TEXT, utf8("x"))).serverCloses(PROTOCOL_ERROR)));
            rows.add(row(SECTION, route, "", "M-" + m + "-7.7.10", m + ": close 3000 echoed", autobahn("7.7.10", "7.4.2"),
                    () -> send(close(3000, "")).answered(3000)));
            rows.add(row(SECTION, route, "", "M-" + m + "-order", m + ": 200 text and binary messages in one write, echoed in order",
                    "RFC 6455 5.4 (frames in order); WebSocketHandler: one message at a time per connection, in order", () -> inOrder(200)));
        }
        return rows.build();
    }

    private static WsCase.Plan inOrder(int n) {
        WsCase.Script s = new WsCase.Script();
        WebSocketFrame[] frames = new WebSocketFrame[n];
        for (int i = 0; i < n; i++) frames[i] = i % 2 == 0 ? WebSocketFrame.text("m" + i) : WebSocketFrame.binary(utf8("b" + i));
        s.then(frames);
        for (int i = 0; i < n; i++) {
            if (i % 2 == 0) s.expectText("m" + i);
            else s.expectBinary(utf8("b" + i));
        }
        return s.clean();
    }
}
