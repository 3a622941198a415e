package dev.tidemill.tests.websocket;

import static dev.tidemill.tests.websocket.WsCases.INVALID_PAYLOAD;
import static dev.tidemill.tests.websocket.WsCases.autobahn;
import static dev.tidemill.tests.websocket.WsCases.binary;
import static dev.tidemill.tests.websocket.WsCases.concat;
import static dev.tidemill.tests.websocket.WsCases.cont;
import static dev.tidemill.tests.websocket.WsCases.fragments;
import static dev.tidemill.tests.websocket.WsCases.hex;
import static dev.tidemill.tests.websocket.WsCases.nothing;
import static dev.tidemill.tests.websocket.WsCases.row;
import static dev.tidemill.tests.websocket.WsCases.send;
import static dev.tidemill.tests.websocket.WsCases.start;
import static dev.tidemill.tests.websocket.WsCases.text;
import static dev.tidemill.tests.websocket.WsCases.utf8;

import dev.tidemill.testing.WebSocketFrame;
import java.util.Arrays;
import java.util.stream.Stream;

/**
 * Autobahn|Testsuite section 6: a text message must be UTF-8 (RFC 6455 5.6, 8.1); an invalid one
 * fails the connection with 1007, and as soon as the fragment with the offending byte arrives,
 * not at the end of the message (6.4.1, 6.4.2 never send the rest). Valid text is echoed however
 * it is split, also inside a code point, across fragments or TCP writes.
 */
class Utf8Test extends OnConformanceServer {
    static final String SECTION = "6 UTF-8";
    private static final int TEXT = WebSocketFrame.TEXT;
    private static final String UTF8 = "8.1: an endpoint that finds a text payload is not UTF-8 MUST fail the connection";
    /** Autobahn 6.4.x's message: κόσμε, then U+110000 in the UTF-8 integer scheme (invalid at its 2nd byte), then "edited". */
    private static final byte[] PART1 = Utf8Sequences.KOSME;
    private static final byte[] PART2 = hex("f4908080");
    private static final byte[] PART3 = utf8("edited");

    static Stream<WsCase> cases() {
        Stream.Builder<WsCase> rows = Stream.builder();
        String hello = "Hello-µ@ßöäüàá-UTF-8!!";
        byte[] helloBytes = utf8(hello);
        rows.add(row(SECTION, "6.1.1", "empty text message", autobahn("6.1.1", "5.6"), () -> send(text("")).expectText("").clean()));
        rows.add(row(SECTION, "6.1.2", "text message in 3 empty fragments", autobahn("6.1.2", "5.4"),
                () -> send(start(TEXT, false, ""), cont(false, ""), cont(true, "")).expectText("").clean()));
        rows.add(row(SECTION, "6.1.3", "text message in 3 fragments, the first and last empty", autobahn("6.1.3", "5.4"),
                () -> send(start(TEXT, false, ""), cont(false, "middle frame payload"), cont(true, ""))
                        .expectText("middle frame payload").clean()));
        rows.add(row(SECTION, "6.2.1", "valid UTF-8 in one fragment", autobahn("6.2.1", "5.6"),
                () -> send(text(hello)).expectText(hello).clean()));
        rows.add(row(SECTION, "6.2.2", "valid UTF-8 in 2 fragments split at a code point boundary", autobahn("6.2.2", "5.6"),
                () -> send(start(TEXT, false, "Hello-µ@ßöä"), cont(true, "üàá-UTF-8!!")).expectText(hello).clean()));
        rows.add(row(SECTION, "6.2.3", "valid UTF-8 in 1-byte fragments (code points split)", autobahn("6.2.3", "5.6, 8.1"),
                () -> send(fragments(TEXT, helloBytes, 1)).expectText(hello).clean()));
        rows.add(row(SECTION, "6.2.4", "κόσμε in 1-byte fragments", autobahn("6.2.4", "5.6, 8.1"),
                () -> send(fragments(TEXT, PART1, 1)).expectText(PART1).clean()));
        byte[] invalid = concat(PART1, hex("eda080"), PART3);
        rows.add(row(SECTION, "6.3.1", "a surrogate (ED A0 80) in one fragment", autobahn("6.3.1", UTF8),
                () -> send(text(invalid)).serverCloses(INVALID_PAYLOAD)));
        rows.add(row(SECTION, "6.3.2", "a surrogate in 1-byte fragments", autobahn("6.3.2", UTF8),
                () -> send(fragments(TEXT, invalid, 1)).serverCloses(INVALID_PAYLOAD)));
        byte[] whole = concat(PART1, PART2, PART3);
        rows.add(row(SECTION, "6.4.1", "fail fast: valid fragment, then the fragment with U+110000, the rest never sent",
                autobahn("6.4.1", UTF8 + " (fail fast: the message never completes)"),
                () -> send(start(TEXT, false, PART1)).pause(50).then(cont(false, PART2)).serverCloses(INVALID_PAYLOAD)));
        rows.add(row(SECTION, "6.4.2", "fail fast: the 2nd fragment is the single byte that makes it invalid, the rest never sent",
                autobahn("6.4.2", UTF8 + " (fail fast)"),
                () -> send(start(TEXT, false, Arrays.copyOf(whole, 12))).pause(50).then(cont(false, new byte[] {whole[12]}))
                        .serverCloses(INVALID_PAYLOAD)));
        // 6.4.3/4 split one frame across TCP writes: failing at the offending write is Autobahn's
        // "OK", at the frame's end its "NON-STRICT"; both fail with 1007, so the rest is sent.
        rows.add(row(SECTION, "6.4.3", "one frame in 3 TCP writes, the 2nd with U+110000", autobahn("6.4.3", UTF8),
                () -> nothing().split(text(whole), 50, PART1.length, PART1.length + PART2.length).serverCloses(INVALID_PAYLOAD)));
        rows.add(row(SECTION, "6.4.4", "one frame in 3 TCP writes, the 2nd the single offending byte", autobahn("6.4.4", UTF8),
                () -> nothing().split(text(whole), 50, 12, 13).serverCloses(INVALID_PAYLOAD)));

        for (Utf8Sequences.Group g : Utf8Sequences.groups()) {
            int j = 1;
            for (Utf8Sequences.Sequence s : g.sequences()) {
                String id = "6." + g.subsection() + "." + j++;
                String name = g.title() + ": " + (s.valid() ? "valid " : "invalid ") + java.util.HexFormat.of().formatHex(s.bytes());
                rows.add(row(SECTION, id, name.length() > 90 ? name.substring(0, 90) + "..." : name,
                        autobahn(id, s.valid() ? "5.6" : UTF8 + "; RFC 3629 3, 10"),
                        s.valid() ? () -> send(text(s.bytes())).expectText(s.bytes()).clean()
                                : () -> send(text(s.bytes())).serverCloses(INVALID_PAYLOAD)));
            }
        }

        String split = "RFC 6455 5.4, 8.1: fragments are not code point aligned; UTF-8 is checked across them";
        byte[][] points = {hex("c3bc"), hex("e282ac"), hex("f09f9880")}; // ü, €, 😀
        for (byte[] p : points) {
            for (int cut = 1; cut < p.length; cut++) {
                byte[] msg = concat(utf8("<"), p, utf8(">"));
                int at = 1 + cut;
                rows.add(row(SECTION, "6.x-frag-" + p.length + "-" + cut, p.length + "-byte code point split after byte " + cut + " across fragments",
                        split, () -> send(start(TEXT, false, Arrays.copyOf(msg, at)), cont(true, Arrays.copyOfRange(msg, at, msg.length)))
                                .expectText(msg).clean()));
            }
            byte[] msg = concat(utf8("<"), p, utf8(">"));
            rows.add(row(SECTION, "6.x-tcp-" + p.length, p.length + "-byte code point split across TCP writes inside one frame",
                    "RFC 6455 5.6, 8.1", () -> nothing().split(text(msg), 20, 2).expectText(msg).clean()));
        }
        rows.add(row(SECTION, "6.x-bad-continuation", "fail fast: E2 82 in one fragment, an ASCII byte in the next, no final fragment",
                split + " (fail fast)", () -> send(start(TEXT, false, hex("e282"))).then(cont(false, utf8("A"))).serverCloses(INVALID_PAYLOAD)));
        rows.add(row(SECTION, "6.x-surrogate-first", "fail fast: a surrogate in the first fragment, no final fragment", UTF8 + " (fail fast)",
                () -> send(start(TEXT, false, hex("eda080"))).serverCloses(INVALID_PAYLOAD)));
        rows.add(row(SECTION, "6.x-truncated-end", "a 4-byte code point cut short by the final fragment", UTF8,
                () -> send(start(TEXT, false, hex("f09f98")), cont(true, new byte[0])).serverCloses(INVALID_PAYLOAD)));
        rows.add(row(SECTION, "6.x-binary", "a binary message is never checked as UTF-8", "RFC 6455 5.6: binary data is for the application",
                () -> send(binary(hex("eda080fffe"))).expectBinary(hex("eda080fffe")).clean()));
        return rows.build();
    }
}
