package dev.tidemill.tests.websocket;

import static dev.tidemill.tests.websocket.WsCases.PROTOCOL_ERROR;
import static dev.tidemill.tests.websocket.WsCases.TOO_BIG;
import static dev.tidemill.tests.websocket.WsCases.autobahn;
import static dev.tidemill.tests.websocket.WsCases.binary;
import static dev.tidemill.tests.websocket.WsCases.bytes;
import static dev.tidemill.tests.websocket.WsCases.chopped;
import static dev.tidemill.tests.websocket.WsCases.concat;
import static dev.tidemill.tests.websocket.WsCases.cont;
import static dev.tidemill.tests.websocket.WsCases.fragments;
import static dev.tidemill.tests.websocket.WsCases.header;
import static dev.tidemill.tests.websocket.WsCases.nothing;
import static dev.tidemill.tests.websocket.WsCases.row;
import static dev.tidemill.tests.websocket.WsCases.send;
import static dev.tidemill.tests.websocket.WsCases.start;
import static dev.tidemill.tests.websocket.WsCases.text;
import static dev.tidemill.tests.websocket.WsCases.utf8;

import dev.tidemill.testing.WebSocketFrame;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Autobahn|Testsuite sections 9 and 10 (large messages, many fragments, many small messages),
 * kept to the sizes that run in well under a second each, and the limits: a frame over
 * {@code maxFrameBytes} is refused with 1009 as soon as its header is read, a message over
 * {@code maxMessageBytes} as soon as the fragment that crosses it arrives (RFC 6455 10.4).
 */
class LimitsTest extends OnConformanceServer {
    static final String SECTION = "9 limits";
    private static final int MiB = 1 << 20;
    private static final int TEXT = WebSocketFrame.TEXT;
    private static final int BINARY = WebSocketFrame.BINARY;
    private static final String S104 = "RFC 6455 10.4: an endpoint MAY limit frame and message sizes, then closes with 1009 (7.4.1)";

    static Stream<WsCase> cases() {
        Stream.Builder<WsCase> rows = Stream.builder();
        int[] sizes = {64 * 1024, 256 * 1024, MiB, 4 * MiB, 16 * MiB};
        String[] ids = {"1", "2", "3", "4", "6"};
        for (int i = 0; i < sizes.length; i++) {
            int n = sizes[i];
            String label = n >= MiB ? n / MiB + " MiB" : n / 1024 + " KiB";
            rows.add(row(SECTION, "9.1." + ids[i], "text message of " + label + (n == 16 * MiB ? " (exactly the default limit)" : ""),
                    autobahn("9.1." + ids[i], "5.6"), () -> send(text(WsCases.stars(n))).expectText(WsCases.stars(n)).clean()));
            if (n == 64 * 1024 || n == MiB || n == 16 * MiB) {
                rows.add(row(SECTION, "9.2." + ids[i], "binary message of " + label, autobahn("9.2." + ids[i], "5.6"),
                        () -> send(binary(bytes(n, 0xfe))).expectBinary(bytes(n, 0xfe)).clean()));
            }
        }
        int[] fragmentSizes = {64, 4096, 65_536, 4 * MiB};
        String[] fragmentIds = {"1", "4", "6", "9"};
        for (int i = 0; i < fragmentSizes.length; i++) {
            int f = fragmentSizes[i];
            rows.add(row(SECTION, "9.3." + fragmentIds[i], "4 MiB text in fragments of " + f + " bytes", autobahn("9.3." + fragmentIds[i], "5.4"),
                    () -> send(fragments(TEXT, utf8(WsCases.stars(4 * MiB)), f)).expectText(WsCases.stars(4 * MiB)).clean()));
            rows.add(row(SECTION, "9.4." + fragmentIds[i], "4 MiB binary in fragments of " + f + " bytes", autobahn("9.4." + fragmentIds[i], "5.4"),
                    () -> send(fragments(BINARY, bytes(4 * MiB, 0xfe), f)).expectBinary(bytes(4 * MiB, 0xfe)).clean()));
        }
        rows.add(row(SECTION, "9.5.1", "1 MiB text in 64-byte TCP writes", autobahn("9.5.1", "5.2"),
                () -> chopped(64, text(WsCases.stars(MiB))).expectText(WsCases.stars(MiB)).clean()));
        rows.add(row(SECTION, "9.5.6", "1 MiB text in 2 KiB TCP writes", autobahn("9.5.6", "5.2"),
                () -> chopped(2048, text(WsCases.stars(MiB))).expectText(WsCases.stars(MiB)).clean()));
        rows.add(row(SECTION, "9.6.1", "1 MiB binary in 64-byte TCP writes", autobahn("9.6.1", "5.2"),
                () -> chopped(64, binary(bytes(MiB, 0xfe))).expectBinary(bytes(MiB, 0xfe)).clean()));
        rows.add(row(SECTION, "9.7.x", "1000 text messages of 64 bytes in one write, echoed in order", AUTOBAHN_9_7,
                () -> many(TEXT, 1000, 64)));
        rows.add(row(SECTION, "9.8.x", "1000 binary messages of 64 bytes in one write, echoed in order", AUTOBAHN_9_8,
                () -> many(BINARY, 1000, 64)));
        rows.add(row(SECTION, "10.1.1", "64 KiB text in 1300-byte fragments", autobahn("10.1.1", "5.4"),
                () -> send(fragments(TEXT, utf8(WsCases.stars(65_536)), 1300)).expectText(WsCases.stars(65_536)).clean()));

        rows.add(row(SECTION, "9.x-frame+1", "a frame of 16 MiB + 1 announced: refused at its header", S104,
                () -> nothing().raw(concat(header(BINARY, true, 16L * MiB + 1), bytes(1024, 0))).serverCloses(TOO_BIG)));
        rows.add(row(SECTION, "9.x-message+1", "16 MiB in one fragment, then 1 more byte", S104,
                () -> send(start(BINARY, false, bytes(16 * MiB, 0xfe))).then(cont(true, new byte[] {1})).serverCloses(TOO_BIG)));
        rows.add(row(SECTION, "WS-01", "a frame header announcing 2^62 bytes", S104 + "; CASES.md WS-01; ws (npm) advisory 120",
                () -> nothing().raw(concat(header(BINARY, true, 1L << 62), bytes(16, 0))).serverCloses(TOO_BIG)));
        rows.add(row(SECTION, "WS-02", "a 64-bit length with its most significant bit set",
                "RFC 6455 5.2: the most significant bit of a 64-bit length MUST be 0; CASES.md WS-02",
                () -> nothing().raw(concat(header(BINARY, true, 0x8000_0000_0000_0010L), bytes(16, 0))).serverCloses(PROTOCOL_ERROR)));
        String small = ConformanceServer.SMALL;
        int frame = ConformanceServer.SMALL_FRAME;
        int message = ConformanceServer.SMALL_MESSAGE;
        rows.add(row(SECTION, small, "", "9.x-small-frame", "a frame of exactly maxFrameBytes (1 KiB)", S104,
                () -> send(binary(bytes(frame, 1))).expectBinary(bytes(frame, 1)).clean()));
        rows.add(row(SECTION, small, "", "9.x-small-frame+1", "a frame of maxFrameBytes + 1", S104,
                () -> send(binary(bytes(frame + 1, 1))).serverCloses(TOO_BIG)));
        rows.add(row(SECTION, small, "", "9.x-small-message", "a message of exactly maxMessageBytes (4 KiB) in 1 KiB fragments", S104,
                () -> send(fragments(TEXT, utf8(WsCases.stars(message)), frame)).expectText(WsCases.stars(message)).clean()));
        rows.add(row(SECTION, small, "", "9.x-small-message+1", "maxMessageBytes + 1 in fragments", S104,
                () -> send(fragments(BINARY, bytes(message + 1, 1), frame)).serverCloses(TOO_BIG)));
        rows.add(row(SECTION, small, "", "WS-03", "a text that never ends: FIN=0, then 1 KiB continuations, never FIN=1",
                S104 + "; CASES.md WS-03; undici CVE-2026-9675", () -> endless()));
        rows.add(row(SECTION, small, "", "9.x-small-control", "a 125-byte ping on a route with small limits is still answered",
                "RFC 6455 5.5: control frames are up to 125 bytes whatever the data limits",
                () -> send(WsCases.ping(bytes(125, 7))).expectPong(bytes(125, 7)).clean()));
        return rows.build();
    }

    private static final String AUTOBAHN_9_7 = autobahn("9.7.1-6", "5.6 (Autobahn sends them one at a time; here pipelined)");
    private static final String AUTOBAHN_9_8 = autobahn("9.8.1-6", "5.6");

    private static WsCase.Plan many(int opcode, int count, int size) {
        List<WebSocketFrame> frames = new ArrayList<>();
        WsCase.Script s = new WsCase.Script();
        for (int i = 0; i < count; i++) {
            byte[] data = utf8(String.format("%0" + size + "d", i));
            frames.add(new WebSocketFrame(true, 0, opcode, data));
        }
        s.then(frames.toArray(WebSocketFrame[]::new));
        for (WebSocketFrame f : frames) {
            if (opcode == TEXT) s.expectText(f.payload());
            else s.expectBinary(f.payload());
        }
        return s.clean();
    }

    /** 8 KiB of continuations after the first fragment: twice the message limit, and no final fragment. */
    private static WsCase.Plan endless() {
        WsCase.Script s = send(start(TEXT, false, WsCases.stars(1024)));
        for (int i = 0; i < 8; i++) s.then(cont(false, WsCases.stars(1024)));
        return s.serverCloses(TOO_BIG);
    }
}
