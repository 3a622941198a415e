package dev.tidemill.tests.websocket;

import static dev.tidemill.tests.websocket.WsCases.PROTOCOL_ERROR;
import static dev.tidemill.tests.websocket.WsCases.autobahn;
import static dev.tidemill.tests.websocket.WsCases.bytes;
import static dev.tidemill.tests.websocket.WsCases.chopped;
import static dev.tidemill.tests.websocket.WsCases.hex;
import static dev.tidemill.tests.websocket.WsCases.ping;
import static dev.tidemill.tests.websocket.WsCases.pong;
import static dev.tidemill.tests.websocket.WsCases.row;
import static dev.tidemill.tests.websocket.WsCases.send;
import static dev.tidemill.tests.websocket.WsCases.text;
import static dev.tidemill.tests.websocket.WsCases.utf8;

import dev.tidemill.testing.WebSocketFrame;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Autobahn|Testsuite section 2: a ping is answered with a pong carrying the identical payload
 * (RFC 6455 5.5.2, 5.5.3), a control frame over 125 bytes fails the connection (5.5), an
 * unsolicited pong is ignored (5.5.3).
 */
class PingPongTest extends OnConformanceServer {
    static final String SECTION = "2 pings and pongs";

    static Stream<WsCase> cases() {
        byte[] binary = hex("00fffefdfcfb00ff");
        List<byte[]> tenPings = new ArrayList<>();
        for (int i = 0; i < 10; i++) tenPings.add(utf8("payload-" + i));
        WebSocketFrame[] tenPingFrames = tenPings.stream().map(WebSocketFrame::ping).toArray(WebSocketFrame[]::new);
        return Stream.of(
                row(SECTION, "2.1", "ping without payload", autobahn("2.1", "5.5.2"),
                        () -> send(ping(new byte[0])).expectPong(new byte[0]).clean()),
                row(SECTION, "2.2", "ping with a small text payload", autobahn("2.2", "5.5.2"),
                        () -> send(ping("Hello, world!")).expectPong(utf8("Hello, world!")).clean()),
                row(SECTION, "2.3", "ping with a small binary payload", autobahn("2.3", "5.5.2"),
                        () -> send(ping(binary)).expectPong(binary).clean()),
                row(SECTION, "2.4", "ping with a 125-byte payload", autobahn("2.4", "5.5"),
                        () -> send(ping(bytes(125, 0xfe))).expectPong(bytes(125, 0xfe)).clean()),
                row(SECTION, "2.5", "ping with a 126-byte payload", autobahn("2.5", "5.5: control frames carry at most 125 bytes"),
                        () -> send(ping(bytes(126, 0xfe))).serverCloses(PROTOCOL_ERROR)),
                row(SECTION, "2.6", "ping with a 125-byte payload in 1-byte TCP writes", autobahn("2.6", "5.5.2"),
                        () -> chopped(1, ping(bytes(125, 0xfe))).expectPong(bytes(125, 0xfe)).clean()),
                row(SECTION, "2.7", "unsolicited pong without payload, then a text", autobahn("2.7", "5.5.3: an unsolicited pong needs no response"),
                        () -> send(pong(""), text("after")).expectText("after").clean()),
                row(SECTION, "2.8", "unsolicited pong with payload, then a text", autobahn("2.8", "5.5.3"),
                        () -> send(pong("unsolicited pong payload"), text("after")).expectText("after").clean()),
                row(SECTION, "2.9", "unsolicited pong, then a ping", autobahn("2.9", "5.5.3"),
                        () -> send(pong("unsolicited pong payload"), ping("ping payload")).expectPong(utf8("ping payload")).clean()),
                row(SECTION, "2.10", "10 pings in one write", autobahn("2.10", "5.5.3: a pong for only the latest ping is allowed"),
                        () -> send(tenPingFrames).expectPongs(tenPings).clean()),
                row(SECTION, "2.11", "10 pings in 1-byte TCP writes", autobahn("2.11", "5.5.3"),
                        () -> chopped(1, tenPingFrames).expectPongs(tenPings).clean()));
    }
}
