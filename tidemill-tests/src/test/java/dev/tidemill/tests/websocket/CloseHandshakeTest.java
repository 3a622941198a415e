package dev.tidemill.tests.websocket;

import static dev.tidemill.tests.websocket.WsCases.INVALID_PAYLOAD;
import static dev.tidemill.tests.websocket.WsCases.NORMAL;
import static dev.tidemill.tests.websocket.WsCases.NO_STATUS;
import static dev.tidemill.tests.websocket.WsCases.PROTOCOL_ERROR;
import static dev.tidemill.tests.websocket.WsCases.autobahn;
import static dev.tidemill.tests.websocket.WsCases.close;
import static dev.tidemill.tests.websocket.WsCases.closeEmpty;
import static dev.tidemill.tests.websocket.WsCases.concat;
import static dev.tidemill.tests.websocket.WsCases.cont;
import static dev.tidemill.tests.websocket.WsCases.frame;
import static dev.tidemill.tests.websocket.WsCases.hex;
import static dev.tidemill.tests.websocket.WsCases.ping;
import static dev.tidemill.tests.websocket.WsCases.row;
import static dev.tidemill.tests.websocket.WsCases.send;
import static dev.tidemill.tests.websocket.WsCases.stars;
import static dev.tidemill.tests.websocket.WsCases.start;
import static dev.tidemill.tests.websocket.WsCases.text;
import static dev.tidemill.tests.websocket.WsCases.utf8;

import dev.tidemill.testing.WebSocketFrame;
import java.util.stream.Stream;

/**
 * Autobahn|Testsuite section 7: the closing handshake (RFC 6455 5.5.1, 7): a close frame is
 * answered with a close frame echoing its code (an empty one with an empty one), then the server
 * closes TCP; nothing it receives after a close is answered; invalid close payloads (1 byte, a
 * code that is not allowed on the wire, a reason that is not UTF-8 or too long) fail the
 * connection.
 */
class CloseHandshakeTest extends OnConformanceServer {
    static final String SECTION = "7 close";
    private static final String S551 = "5.5.1: after a close, an endpoint sends no more data; the close is answered";
    private static final String CODES = "7.4.1, 7.4.2; IANA WebSocket Close Code Number Registry";

    /** Autobahn 7.7.x: codes that may be sent; 1012-1014 were registered later (IANA) and are valid too. */
    private static final int[] VALID = {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999};
    /** Autobahn 7.9.x: codes never allowed on the wire. */
    private static final int[] INVALID = {0, 999, 1004, 1005, 1006, 1016, 1100, 2000, 2999};

    static Stream<WsCase> cases() {
        Stream.Builder<WsCase> rows = Stream.builder();
        rows.add(row(SECTION, "7.1.1", "text, then close", autobahn("7.1.1", "7.1.2"),
                () -> send(text("Hello World")).expectText("Hello World").clean()));
        rows.add(row(SECTION, "7.1.2", "close twice", autobahn("7.1.2", S551),
                () -> send(close(NORMAL, ""), close(NORMAL, "")).answered(NORMAL)));
        rows.add(row(SECTION, "7.1.3", "close, then ping", autobahn("7.1.3", S551),
                () -> send(close(NORMAL, ""), ping("after close")).answered(NORMAL)));
        rows.add(row(SECTION, "7.1.4", "close, then text", autobahn("7.1.4", S551),
                () -> send(close(NORMAL, ""), text("after close")).answered(NORMAL)));
        rows.add(row(SECTION, "7.1.5", "text fragment, close, then the last fragment", autobahn("7.1.5", S551),
                () -> send(start(WebSocketFrame.TEXT, false, "fragment1"), close(NORMAL, ""), cont(true, "fragment2")).answered(NORMAL)));
        rows.add(row(SECTION, "7.1.6", "256 KiB text, close, then ping", autobahn("7.1.6", S551),
                () -> send(text(stars(262_144)), close(NORMAL, ""), ping("after close")).mayEchoText(stars(262_144)).answered(NORMAL)));
        rows.add(row(SECTION, "7.3.1", "close without payload", autobahn("7.3.1", "5.5.1, 7.1.5: answered with an empty close"),
                () -> send(closeEmpty()).answered(NO_STATUS)));
        rows.add(row(SECTION, "7.3.2", "close with a 1-byte payload", autobahn("7.3.2", "5.5.1: a close body starts with a 2-byte code"),
                () -> send(frame(true, 0, WebSocketFrame.CLOSE, new byte[] {0x03})).serverCloses(PROTOCOL_ERROR)));
        rows.add(row(SECTION, "7.3.3", "close 1000 without reason", autobahn("7.3.3", "5.5.1"),
                () -> send(close(NORMAL, "")).answered(NORMAL)));
        rows.add(row(SECTION, "7.3.4", "close 1000 with a reason", autobahn("7.3.4", "5.5.1"),
                () -> send(close(NORMAL, "Hello World!")).answered(NORMAL)));
        rows.add(row(SECTION, "7.3.5", "close 1000 with a 123-byte reason (125-byte payload)", autobahn("7.3.5", "5.5"),
                () -> send(close(NORMAL, stars(123))).answered(NORMAL)));
        rows.add(row(SECTION, "7.3.6", "close 1000 with a 124-byte reason (126-byte payload)", autobahn("7.3.6", "5.5: at most 125 bytes"),
                () -> send(close(NORMAL, stars(124))).serverCloses(PROTOCOL_ERROR)));
        rows.add(row(SECTION, "7.5.1", "close 1000 with a reason that is not UTF-8", autobahn("7.5.1", "5.5.1: the reason is UTF-8; 8.1"),
                () -> send(close(NORMAL, concat(Utf8Sequences.KOSME, hex("eda080"), utf8("edited")))).serverCloses(INVALID_PAYLOAD)));
        rows.add(row(SECTION, "7.5.x-multibyte", "close 1000 with a multi-byte UTF-8 reason", "RFC 6455 5.5.1",
                () -> send(close(NORMAL, "Größe κόσμε")).answered(NORMAL)));
        for (int i = 0; i < VALID.length; i++) {
            int code = VALID[i];
            rows.add(row(SECTION, "7.7." + (i + 1), "close with valid code " + code, autobahn("7.7." + (i + 1), CODES),
                    () -> send(close(code, "")).answered(code)));
        }
        for (int code : new int[] {1012, 1013, 1014}) {
            rows.add(row(SECTION, "7.7.x-" + code, "close with registered code " + code, "RFC 6455 7.4.2, 11.7; IANA registry (1012-1014)",
                    () -> send(close(code, "")).answered(code)));
        }
        for (int i = 0; i < INVALID.length; i++) {
            int code = INVALID[i];
            rows.add(row(SECTION, "7.9." + (i + 1), "close with invalid code " + code, autobahn("7.9." + (i + 1), CODES),
                    () -> send(close(code, "")).serverCloses(PROTOCOL_ERROR)));
        }
        rows.add(row(SECTION, "7.9.x-1015", "close with 1015 (TLS handshake failure, never sent)", "RFC 6455 7.4.1: 1015 MUST NOT be sent",
                () -> send(close(1015, "")).serverCloses(PROTOCOL_ERROR)));
        rows.add(row(SECTION, "7.13.1", "close with code 5000", autobahn("7.13.1", "7.4.2: codes are 0-4999"),
                () -> send(close(5000, "")).serverCloses(PROTOCOL_ERROR)));
        rows.add(row(SECTION, "7.13.2", "close with code 65535", autobahn("7.13.2", "7.4.2"),
                () -> send(close(65_535, "")).serverCloses(PROTOCOL_ERROR)));
        rows.add(row(SECTION, ConformanceServer.BYE, "", "7.x-server-first", "the server closes first, then ignores a text",
                "RFC 6455 5.5.1: after sending a close frame an endpoint MUST NOT send any more data frames",
                // no ping here: one that arrives before the server's close may rightly be answered first
                () -> send(text("bye"), text("after the server's close")).serverCloses(NORMAL)));
        return rows.build();
    }
}
