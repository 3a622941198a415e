package dev.tidemill.tests.websocket;

import static dev.tidemill.tests.websocket.WsCases.PROTOCOL_ERROR;
import static dev.tidemill.tests.websocket.WsCases.autobahn;
import static dev.tidemill.tests.websocket.WsCases.chopped;
import static dev.tidemill.tests.websocket.WsCases.cont;
import static dev.tidemill.tests.websocket.WsCases.frameWise;
import static dev.tidemill.tests.websocket.WsCases.ping;
import static dev.tidemill.tests.websocket.WsCases.pong;
import static dev.tidemill.tests.websocket.WsCases.row;
import static dev.tidemill.tests.websocket.WsCases.send;
import static dev.tidemill.tests.websocket.WsCases.start;
import static dev.tidemill.tests.websocket.WsCases.text;
import static dev.tidemill.tests.websocket.WsCases.utf8;

import dev.tidemill.testing.WebSocketFrame;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Autobahn|Testsuite section 5: fragmented messages are reassembled (RFC 6455 5.4), also with
 * control frames between their fragments and whatever the TCP chopping; a fragmented control
 * frame, a continuation with nothing to continue and a new data frame inside a fragmented message
 * fail the connection with 1002.
 */
class FragmentationTest extends OnConformanceServer {
    static final String SECTION = "5 fragmentation";
    private static final int TEXT = WebSocketFrame.TEXT;
    private static final String S54 = "5.4";
    private static final String ORPHAN = "5.4: a continuation frame needs a message to continue";

    static Stream<WsCase> cases() {
        Stream.Builder<WsCase> rows = Stream.builder();
        rows.add(row(SECTION, "5.1", "ping in 2 fragments", autobahn("5.1", "5.4, 5.5: control frames MUST NOT be fragmented"),
                () -> send(start(WebSocketFrame.PING, false, "fragment1"), cont(true, "fragment2")).serverCloses(PROTOCOL_ERROR)));
        rows.add(row(SECTION, "5.2", "pong in 2 fragments", autobahn("5.2", "5.4, 5.5"),
                () -> send(start(WebSocketFrame.PONG, false, "fragment1"), cont(true, "fragment2")).serverCloses(PROTOCOL_ERROR)));

        WebSocketFrame[] twoFragments = {start(TEXT, false, "fragment1"), cont(true, "fragment2")};
        WebSocketFrame[] withPing = {start(TEXT, false, "fragment1"), ping("pongme!"), cont(true, "fragment2")};
        WebSocketFrame[] orphanFin = {cont(true, "non-continuation payload"), text("Hello, world!")};
        WebSocketFrame[] orphan = {cont(false, "non-continuation payload"), text("Hello, world!")};
        String[] chops = {"one write", "one write per frame", "1-byte TCP writes"};
        for (int i = 0; i < 3; i++) {
            Function<WebSocketFrame[], WsCase.Script> how = writer(i);
            String way = chops[i];
            rows.add(row(SECTION, "5." + (3 + i), "text in 2 fragments, " + way, autobahn("5." + (3 + i), S54),
                    () -> how.apply(twoFragments).expectText("fragment1fragment2").clean()));
            rows.add(row(SECTION, "5." + (6 + i), "text in 2 fragments with a ping between, " + way,
                    autobahn("5." + (6 + i), "5.4: control frames MAY be injected in the middle of a fragmented message"),
                    () -> how.apply(withPing).expectPong(utf8("pongme!")).expectText("fragment1fragment2").clean()));
            rows.add(row(SECTION, "5." + (9 + i), "continuation FIN=1 with nothing to continue, then text, " + way,
                    autobahn("5." + (9 + i), ORPHAN), () -> how.apply(orphanFin).serverCloses(PROTOCOL_ERROR)));
            rows.add(row(SECTION, "5." + (12 + i), "continuation FIN=0 with nothing to continue, then text, " + way,
                    autobahn("5." + (12 + i), ORPHAN), () -> how.apply(orphan).serverCloses(PROTOCOL_ERROR)));
        }
        rows.add(row(SECTION, "5.15", "text in 2 fragments, then a continuation FIN=0 with nothing to continue", autobahn("5.15", ORPHAN),
                () -> send(start(TEXT, false, "fragment1"), cont(true, "fragment2"), cont(false, "fragment3"), cont(true, "fragment4"))
                        .mayEchoText("fragment1fragment2").serverCloses(PROTOCOL_ERROR)));
        rows.add(row(SECTION, "5.16", "twice: continuation FIN=0 with nothing to continue, text FIN=0, continuation FIN=1",
                autobahn("5.16", ORPHAN), () -> send(cont(false, "fragment1"), start(TEXT, false, "fragment2"), cont(true, "fragment3"),
                        cont(false, "fragment1"), start(TEXT, false, "fragment2"), cont(true, "fragment3")).serverCloses(PROTOCOL_ERROR)));
        rows.add(row(SECTION, "5.17", "twice: continuation FIN=1 with nothing to continue, text FIN=0, continuation FIN=1",
                autobahn("5.17", ORPHAN), () -> send(cont(true, "fragment1"), start(TEXT, false, "fragment2"), cont(true, "fragment3"),
                        cont(true, "fragment1"), start(TEXT, false, "fragment2"), cont(true, "fragment3")).serverCloses(PROTOCOL_ERROR)));
        rows.add(row(SECTION, "5.18", "text FIN=0, then a second text frame instead of a continuation",
                autobahn("5.18", "5.4: fragments of one message are continuation frames"),
                () -> send(start(TEXT, false, "fragment1"), start(TEXT, true, "fragment2")).serverCloses(PROTOCOL_ERROR)));
        WebSocketFrame[] five = {start(TEXT, false, "fragment1"), cont(false, "fragment2"), ping("pongme 1!"),
            cont(false, "fragment3"), cont(false, "fragment4"), ping("pongme 2!"), cont(true, "fragment5")};
        rows.add(row(SECTION, "5.19", "text in 5 fragments, pings after the 2nd and the 4th, pauses between", autobahn("5.19", S54),
                () -> frameWise(five[0], five[1], five[2]).pause(100).frameWise(five[3], five[4], five[5]).pause(100).frameWise(five[6])
                        .expectPong(utf8("pongme 1!")).expectPong(utf8("pongme 2!"))
                        .expectText("fragment1fragment2fragment3fragment4fragment5").clean()));
        rows.add(row(SECTION, "5.20", "the same as 5.19 in 1-byte TCP writes", autobahn("5.20", S54),
                () -> chopped(1, five).expectPong(utf8("pongme 1!")).expectPong(utf8("pongme 2!"))
                        .expectText("fragment1fragment2fragment3fragment4fragment5").clean()));
        rows.add(row(SECTION, "5.x-binary", "binary in 3 fragments", "RFC 6455 5.4",
                () -> send(start(WebSocketFrame.BINARY, false, new byte[] {1}), cont(false, new byte[] {2}), cont(true, new byte[] {3}))
                        .expectBinary(new byte[] {1, 2, 3}).clean()));
        rows.add(row(SECTION, "5.x-pong", "text in 2 fragments with an unsolicited pong between", "RFC 6455 5.4, 5.5.3",
                () -> send(start(TEXT, false, "fragment1"), pong("ignored"), cont(true, "fragment2")).expectText("fragment1fragment2").clean()));
        rows.add(row(SECTION, "5.x-binary-in-text", "text FIN=0, then a binary frame", "RFC 6455 5.4",
                () -> send(start(TEXT, false, "fragment1"), start(WebSocketFrame.BINARY, true, new byte[] {1})).serverCloses(PROTOCOL_ERROR)));
        return rows.build();
    }

    /** 0: all frames in one write; 1: one write per frame; 2: 1-byte writes. */
    private static Function<WebSocketFrame[], WsCase.Script> writer(int way) {
        return switch (way) {
            case 0 -> WsCases::send;
            case 1 -> WsCases::frameWise;
            default -> frames -> chopped(1, frames);
        };
    }
}
