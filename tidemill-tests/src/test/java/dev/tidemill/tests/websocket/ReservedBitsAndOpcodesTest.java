package dev.tidemill.tests.websocket;

import static dev.tidemill.tests.websocket.WsCases.PROTOCOL_ERROR;
import static dev.tidemill.tests.websocket.WsCases.autobahn;
import static dev.tidemill.tests.websocket.WsCases.chopped;
import static dev.tidemill.tests.websocket.WsCases.frame;
import static dev.tidemill.tests.websocket.WsCases.frameWise;
import static dev.tidemill.tests.websocket.WsCases.nothing;
import static dev.tidemill.tests.websocket.WsCases.ping;
import static dev.tidemill.tests.websocket.WsCases.row;
import static dev.tidemill.tests.websocket.WsCases.send;
import static dev.tidemill.tests.websocket.WsCases.text;
import static dev.tidemill.tests.websocket.WsCases.utf8;

import dev.tidemill.testing.WebSocketFrame;
import java.util.stream.Stream;

/**
 * Autobahn|Testsuite sections 3 and 4, and masking: a frame with a reserved bit set that no
 * extension defines (RFC 6455 5.2), a reserved opcode (5.2: 3-7 and 11-15), or an unmasked client
 * frame (5.1) fails the connection with 1002 at once; a valid message before it is echoed, a ping
 * after it is not answered.
 */
class ReservedBitsAndOpcodesTest extends OnConformanceServer {
    static final String SECTION = "3/4 reserved bits, opcodes, masking";

    static Stream<WsCase> cases() {
        Stream.Builder<WsCase> rows = Stream.builder();
        String rsv = "5.2: RSV1-3 MUST be 0 unless an extension defines them";
        byte[] hello = utf8("Hello, world!");
        rows.add(row(SECTION, "3.1", "text with RSV = 1", autobahn("3.1", rsv),
                () -> send(frame(true, 1, WebSocketFrame.TEXT, hello)).serverCloses(PROTOCOL_ERROR)));
        rows.add(row(SECTION, "3.2", "text, then text with RSV = 2, then ping", autobahn("3.2", rsv),
                () -> send(text("Hello, world!"), frame(true, 2, WebSocketFrame.TEXT, hello), ping("ping"))
                        .mayEchoText("Hello, world!").serverCloses(PROTOCOL_ERROR)));
        rows.add(row(SECTION, "3.3", "text, then text with RSV = 3, then ping, one write per frame", autobahn("3.3", rsv),
                () -> frameWise(text("Hello, world!"), frame(true, 3, WebSocketFrame.TEXT, hello), ping("ping"))
                        .mayEchoText("Hello, world!").serverCloses(PROTOCOL_ERROR)));
        rows.add(row(SECTION, "3.4", "text, then text with RSV = 4, then ping, in 1-byte TCP writes", autobahn("3.4", rsv),
                () -> chopped(1, text("Hello, world!"), frame(true, 4, WebSocketFrame.TEXT, hello), ping("ping"))
                        .mayEchoText("Hello, world!").serverCloses(PROTOCOL_ERROR)));
        rows.add(row(SECTION, "3.5", "binary with RSV = 5", autobahn("3.5", rsv),
                () -> send(frame(true, 5, WebSocketFrame.BINARY, new byte[] {0, 1, 2, (byte) 0xff})).serverCloses(PROTOCOL_ERROR)));
        rows.add(row(SECTION, "3.6", "ping with RSV = 6", autobahn("3.6", rsv),
                () -> send(frame(true, 6, WebSocketFrame.PING, utf8("ping"))).serverCloses(PROTOCOL_ERROR)));
        rows.add(row(SECTION, "3.7", "close with RSV = 7", autobahn("3.7", rsv),
                () -> send(frame(true, 7, WebSocketFrame.CLOSE, new byte[] {0x03, (byte) 0xe8})).serverCloses(PROTOCOL_ERROR)));

        String opcodes = "5.2: opcodes 3-7 and 11-15 are reserved; receiving one fails the connection";
        int[][] reserved = {{3, 4, 5, 6, 7}, {11, 12, 13, 14, 15}};
        for (int group = 0; group < 2; group++) {
            for (int i = 0; i < 5; i++) {
                int op = reserved[group][i];
                String id = "4." + (group + 1) + "." + (i + 1);
                byte[] payload = i == 0 ? new byte[0] : utf8("reserved opcode payload");
                if (i < 2) {
                    rows.add(row(SECTION, id, "frame with reserved opcode " + op + (i == 0 ? "" : " and a payload"), autobahn(id, opcodes),
                            () -> send(frame(true, 0, op, payload)).serverCloses(PROTOCOL_ERROR)));
                } else {
                    rows.add(row(SECTION, id, "text, then reserved opcode " + op + ", then ping", autobahn(id, opcodes),
                            () -> send(text("Hello, world!"), frame(true, 0, op, payload), ping("ping"))
                                    .mayEchoText("Hello, world!").serverCloses(PROTOCOL_ERROR)));
                }
            }
        }

        String masking = "RFC 6455 5.1: a server MUST close the connection on an unmasked client frame; CASES.md WS-06";
        rows.add(row(SECTION, "WS-06", "unmasked text frame", masking,
                () -> nothing().unmasked(text("unmasked")).serverCloses(PROTOCOL_ERROR)));
        rows.add(row(SECTION, "WS-06b", "text, then an unmasked ping", masking,
                () -> send(text("masked")).unmasked(ping("unmasked")).mayEchoText("masked").serverCloses(PROTOCOL_ERROR)));
        rows.add(row(SECTION, "WS-06c", "unmasked close frame", masking,
                () -> nothing().unmasked(WsCases.close(1000, "")).serverCloses(PROTOCOL_ERROR)));
        return rows.build();
    }
}
