package dev.tidemill.tests.websocket;

import static dev.tidemill.tests.websocket.WsCases.AUTOBAHN;
import static dev.tidemill.tests.websocket.WsCases.INVALID_PAYLOAD;
import static dev.tidemill.tests.websocket.WsCases.PROTOCOL_ERROR;
import static dev.tidemill.tests.websocket.WsCases.RFC7692;
import static dev.tidemill.tests.websocket.WsCases.TOO_BIG;
import static dev.tidemill.tests.websocket.WsCases.bytes;
import static dev.tidemill.tests.websocket.WsCases.frame;
import static dev.tidemill.tests.websocket.WsCases.hex;
import static dev.tidemill.tests.websocket.WsCases.jsonish;
import static dev.tidemill.tests.websocket.WsCases.nothing;
import static dev.tidemill.tests.websocket.WsCases.row;
import static dev.tidemill.tests.websocket.WsCases.send;
import static dev.tidemill.tests.websocket.WsCases.text;
import static dev.tidemill.tests.websocket.WsCases.utf8;

import dev.tidemill.testing.WebSocketFrame;
import java.util.stream.Stream;

/**
 * Autobahn|Testsuite sections 12 and 13 and RFC 7692: compressed messages are inflated and echoed
 * compressed, with context takeover across messages or without it as agreed, in one frame or
 * fragmented (RSV1 on the first frame only, 6.1); RSV1 elsewhere fails with 1002; a compression
 * bomb is refused with 1009 when the inflated size crosses the limit, before it is all inflated
 * (on a 1 MiB route, 1 GiB of zeros: a server that inflated it would run out of its test heap).
 */
class PerMessageDeflateTest extends OnConformanceServer {
    static final String SECTION = "12/13 permessage-deflate";
    private static final int TEXT = WebSocketFrame.TEXT;
    private static final int BINARY = WebSocketFrame.BINARY;
    private static final String ECHO = ConformanceServer.ECHO;
    private static final String OFFER = "permessage-deflate; client_max_window_bits";
    /** Autobahn 13.1-13.7: the client's offers (its own parameters, then what it requests of the server). */
    private static final String[] OFFERS_13 = {
        "permessage-deflate; client_no_context_takeover; client_max_window_bits",
        "permessage-deflate; client_no_context_takeover; client_max_window_bits; server_no_context_takeover",
        "permessage-deflate; client_no_context_takeover; client_max_window_bits; server_max_window_bits=8",
        "permessage-deflate; client_no_context_takeover; client_max_window_bits; server_max_window_bits=15",
        "permessage-deflate; client_no_context_takeover; client_max_window_bits; server_no_context_takeover; server_max_window_bits=8",
        "permessage-deflate; client_no_context_takeover; client_max_window_bits; server_no_context_takeover; server_max_window_bits=15",
        "permessage-deflate; client_no_context_takeover; client_max_window_bits; server_no_context_takeover; server_max_window_bits=8, "
                + "permessage-deflate; client_no_context_takeover; client_max_window_bits; server_no_context_takeover, "
                + "permessage-deflate; client_no_context_takeover; client_max_window_bits"};

    static Stream<WsCase> cases() {
        Stream.Builder<WsCase> rows = Stream.builder();
        int[] sizes = {16, 64, 256, 1024, 4096, 8192, 16_384, 32_768, 65_536, 131_072};
        for (int i = 0; i < sizes.length; i++) {
            int n = sizes[i];
            String id = "12.1." + (i + 1);
            rows.add(row(SECTION, ECHO, OFFER, id, "10 compressed text messages of " + n + " bytes, context takeover",
                    AUTOBAHN + id + "; " + RFC7692 + "7.2.3.2", () -> echoes(TEXT, n, 10, 0)));
        }
        int[][] fragmented = {{8192, 256}, {16_384, 256}, {32_768, 256}, {65_536, 256}, {131_072, 256}, {131_072, 1024},
            {131_072, 4096}, {131_072, 32_768}};
        for (int i = 0; i < fragmented.length; i++) {
            int n = fragmented[i][0];
            int f = fragmented[i][1];
            String id = "12.1." + (11 + i);
            rows.add(row(SECTION, ECHO, OFFER, id, "10 compressed messages of " + n + " bytes in " + f + "-byte fragments",
                    AUTOBAHN + id + "; " + RFC7692 + "6.1: RSV1 on the first fragment only", () -> echoes(TEXT, n, 10, f)));
        }
        for (int j = 0; j < OFFERS_13.length; j++) {
            String offer = OFFERS_13[j];
            // A server may decline an offer that requests server_max_window_bits (RFC 7692 7.1.2.1,
            // "MAY decline"; zlib has no 8-bit window at all); 13.7 lists plain alternatives, and
            // 13.1/13.2 request nothing a server could not do, so those must be accepted.
            boolean declinable = offer.contains("server_max_window_bits") && !offer.contains(",");
            for (int n : new int[] {64, 16_384}) {
                String id = "13." + (j + 1) + "." + (n == 64 ? 2 : 7);
                WsCase c = row(SECTION, ECHO, offer, id, "10 compressed messages of " + n + " bytes, offer " + (j + 1),
                        AUTOBAHN + id + "; " + RFC7692 + "7.1 (parameters honoured or declined)", () -> echoes(BINARY, n, 10, 0));
                rows.add(declinable ? c.mayDecline() : c);
            }
        }
        rows.add(row(SECTION, ECHO, "permessage-deflate", "RFC7692-takeover", "the same 8 KiB message 5 times: each refers back to the last",
                RFC7692 + "7.2.3.2: context takeover is the default", () -> repeat(jsonish(8192, 3), 5)));
        rows.add(row(SECTION, ECHO, "permessage-deflate; server_no_context_takeover", "RFC7692-server-nct",
                "server_no_context_takeover: our inflater resets per message, so a server that kept its context fails it",
                RFC7692 + "7.1.1.1", () -> repeat(jsonish(8192, 4), 5)));
        rows.add(row(SECTION, ECHO, OFFER, "RFC7692-uncompressed", "an uncompressed message (RSV1 clear) on a compressing connection",
                RFC7692 + "6: compression is per message", () -> send(text("plain")).expectText("plain").clean()));
        rows.add(row(SECTION, ECHO, OFFER, "RFC7692-empty", "an empty compressed message (the single byte 00)", RFC7692 + "7.2.3.6",
                () -> send(frame(true, WebSocketFrame.RSV1, TEXT, new byte[] {0})).expectText("").clean()));
        rows.add(row(SECTION, ECHO, OFFER, "RFC7692-stored", "a compressed message in a stored (uncompressed) DEFLATE block", RFC7692 + "7.2.3.3",
                () -> send(frame(true, WebSocketFrame.RSV1, TEXT, hex("000500faff48656c6c6f00"))).expectText("Hello").clean()));
        rows.add(row(SECTION, ECHO, OFFER, "RFC7692-split-utf8", "compressed text fragmented inside a code point",
                RFC7692 + "6.1; RFC 6455 8.1", () -> nothing().compressed(TEXT, utf8("κόσμε κόσμε κόσμε"), 3)
                        .expectCompressed(TEXT, utf8("κόσμε κόσμε κόσμε")).clean()));
        rows.add(row(SECTION, ECHO, OFFER, "RFC7692-bad-utf8", "compressed text that inflates to invalid UTF-8",
                RFC7692 + "6; RFC 6455 8.1", () -> nothing().compressed(TEXT, hex("48656c6ceda080"), 0).serverCloses(INVALID_PAYLOAD)));
        rows.add(row(SECTION, ECHO, OFFER, "RFC7692-bad-deflate", "RSV1 payload that is not DEFLATE data",
                RFC7692 + "6.2: the connection is failed (1002 or 1007: the RFC names no code)",
                () -> send(frame(true, WebSocketFrame.RSV1, BINARY, hex("ffffffffffff"))).serverCloses(PROTOCOL_ERROR, INVALID_PAYLOAD)));
        rows.add(row(SECTION, ECHO, "", "RFC7692-rsv1-unagreed", "RSV1 set without permessage-deflate agreed",
                "RFC 6455 5.2: RSV1 without a negotiated extension fails the connection",
                () -> send(frame(true, WebSocketFrame.RSV1, TEXT, hex("f248cdc9c90700"))).serverCloses(PROTOCOL_ERROR)));
        rows.add(row(SECTION, ECHO, OFFER, "RFC7692-rsv1-continuation", "RSV1 on a continuation frame",
                RFC7692 + "6.1: RSV1 only on the first frame of a message",
                () -> send(frame(false, WebSocketFrame.RSV1, TEXT, hex("f248cd")), frame(true, WebSocketFrame.RSV1, 0, hex("c9c90700")))
                        .serverCloses(PROTOCOL_ERROR)));
        rows.add(row(SECTION, ECHO, OFFER, "RFC7692-rsv1-ping", "RSV1 on a ping", RFC7692 + "6.1: never on control frames",
                () -> send(frame(true, WebSocketFrame.RSV1, WebSocketFrame.PING, utf8("x"))).serverCloses(PROTOCOL_ERROR)));
        rows.add(row(SECTION, ECHO, OFFER, "RFC7692-rsv2", "RSV2 on a compressing connection", "RFC 6455 5.2; " + RFC7692 + "6 (defines RSV1 only)",
                () -> send(frame(true, 2, TEXT, utf8("x"))).serverCloses(PROTOCOL_ERROR)));
        String bomb = RFC7692 + "8.1 (the inflated size is what the limit counts); CASES.md WS-05; python-websockets CVE-2018-1000518";
        rows.add(row(SECTION, ConformanceServer.SMALL_DEFLATE, OFFER, "WS-05", "1 GiB of zeros in a ~1 MB compressed frame, 1 MiB limit",
                bomb, () -> nothing().raw(bombFrame(1024, false)).serverCloses(TOO_BIG)));
        rows.add(row(SECTION, ConformanceServer.SMALL_DEFLATE, OFFER, "WS-05b", "the same bomb in 16 KiB fragments", bomb,
                () -> nothing().raw(bombFrame(1024, true)).serverCloses(TOO_BIG)));
        rows.add(row(SECTION, ECHO, OFFER, "WS-05c", "100 MiB of zeros compressed, default 16 MiB limit", bomb,
                () -> nothing().raw(bombFrame(100, false)).serverCloses(TOO_BIG)));
        rows.add(row(SECTION, ConformanceServer.SMALL, OFFER, "WS-05d", "8 KiB of zeros compressed to a tiny frame, 4 KiB message limit",
                bomb, () -> nothing().compressed(BINARY, bytes(8192, 0), 0).serverCloses(TOO_BIG)));
        return rows.build();
    }

    /** {@code count} different messages of {@code n} bytes each, compressed, echoed compressed. */
    private static WsCase.Plan echoes(int opcode, int n, int count, int fragment) {
        WsCase.Script s = nothing();
        for (int i = 0; i < count; i++) s.compressed(opcode, jsonish(n, i), fragment);
        for (int i = 0; i < count; i++) s.expectCompressed(opcode, jsonish(n, i));
        return s.clean();
    }

    private static WsCase.Plan repeat(byte[] message, int times) {
        WsCase.Script s = nothing();
        for (int i = 0; i < times; i++) s.compressed(TEXT, message, 0).expectCompressed(TEXT, message);
        return s.clean();
    }

    /**
     * {@code mib} MiB of zeros, compressed: one MiB compressed once and its output repeated (each
     * copy starts with a literal and refers back one byte, so the copies form one valid stream).
     */
    private static byte[] bombFrame(int mib, boolean fragmented) {
        java.util.zip.Deflater d = new java.util.zip.Deflater(9, true);
        d.setInput(new byte[1 << 20]);
        byte[] buf = new byte[64 * 1024];
        int n = d.deflate(buf, 0, buf.length, java.util.zip.Deflater.SYNC_FLUSH);
        d.end();
        java.io.ByteArrayOutputStream payload = new java.io.ByteArrayOutputStream(n * mib);
        for (int i = 0; i < mib; i++) payload.write(buf, 0, n);
        byte[] all = payload.toByteArray();
        byte[] p = java.util.Arrays.copyOf(all, all.length - 4); // RFC 7692 7.2.1: the tail removed
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(p.length + 1024);
        WebSocketFrame[] frames = fragmented ? WsCases.fragments(BINARY, p, 16 * 1024) : new WebSocketFrame[] {WebSocketFrame.binary(p)};
        for (int i = 0; i < frames.length; i++) {
            WebSocketFrame f = frames[i];
            out.writeBytes(new WebSocketFrame(f.fin(), i == 0 ? WebSocketFrame.RSV1 : 0, f.opcode(), f.payload()).encode(true));
        }
        return out.toByteArray();
    }
}
