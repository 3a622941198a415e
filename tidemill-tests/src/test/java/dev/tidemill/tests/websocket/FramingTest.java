package dev.tidemill.tests.websocket;

import static dev.tidemill.tests.websocket.WsCases.autobahn;
import static dev.tidemill.tests.websocket.WsCases.binary;
import static dev.tidemill.tests.websocket.WsCases.bytes;
import static dev.tidemill.tests.websocket.WsCases.chopped;
import static dev.tidemill.tests.websocket.WsCases.row;
import static dev.tidemill.tests.websocket.WsCases.send;
import static dev.tidemill.tests.websocket.WsCases.stars;
import static dev.tidemill.tests.websocket.WsCases.text;

import java.util.stream.Stream;

/**
 * Autobahn|Testsuite section 1: text and binary messages of the sizes where the length encoding
 * changes (RFC 6455 5.2: 7-bit, 16-bit and 64-bit lengths), echoed, then a clean close.
 */
class FramingTest extends OnConformanceServer {
    static final String SECTION = "1 framing";

    /** Payload sizes of cases 1.x.1-7; 1.x.8 sends the last one in 997-byte chops. */
    private static final int[] SIZES = {0, 125, 126, 127, 128, 65_535, 65_536};

    static Stream<WsCase> cases() {
        Stream.Builder<WsCase> rows = Stream.builder();
        for (int i = 0; i < SIZES.length; i++) {
            int n = SIZES[i];
            rows.add(row(SECTION, "1.1." + (i + 1), "text message, " + n + " bytes", autobahn("1.1." + (i + 1), "5.2, 5.6"),
                    () -> send(text(stars(n))).expectText(stars(n)).clean()));
        }
        rows.add(row(SECTION, "1.1.8", "text message, 65536 bytes, in 997-byte TCP writes", autobahn("1.1.8", "5.2, 5.6"),
                () -> chopped(997, text(stars(65_536))).expectText(stars(65_536)).clean()));
        for (int i = 0; i < SIZES.length; i++) {
            int n = SIZES[i];
            rows.add(row(SECTION, "1.2." + (i + 1), "binary message, " + n + " bytes", autobahn("1.2." + (i + 1), "5.2, 5.6"),
                    () -> send(binary(bytes(n, 0xfe))).expectBinary(bytes(n, 0xfe)).clean()));
        }
        rows.add(row(SECTION, "1.2.8", "binary message, 65536 bytes, in 997-byte TCP writes", autobahn("1.2.8", "5.2, 5.6"),
                () -> chopped(997, binary(bytes(65_536, 0xfe))).expectBinary(bytes(65_536, 0xfe)).clean()));
        return rows.build();
    }
}
