package dev.tidemill.tests.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The opening handshake (RFC 6455 4.2, 4.4; RFC 7692 5, 7.1) as raw requests: a valid one is
 * upgraded with the right accept value; a plain GET gets 426 with {@code Upgrade}; a broken
 * upgrade 400; an unsupported version 426 with {@code Sec-WebSocket-Version: 13}; a foreign
 * {@code Origin} 403; another method 405; extension offers are accepted or declined as RFC 7692
 * says, never answered with parameters they did not allow.
 */
@Timeout(120)
class HandshakeTest {
    private static final String KEY = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==";
    private static final String UPGRADE = "Upgrade: websocket";
    private static final String CONNECTION = "Connection: Upgrade";
    private static final String VERSION = "Sec-WebSocket-Version: 13";
    private static final String R = "RFC 6455 ";
    private static final String PROBLEM_426 = "RFC 6455 4.2.1, 4.4; RFC 9110 15.5.22: a 426 MUST send Upgrade";
    private static final Pattern WINDOW = Pattern.compile("server_max_window_bits=(\\d+)");
    private static TestClient client;

    @BeforeAll
    static void start() {
        client = ConformanceServer.start();
    }

    @AfterAll
    static void stop() {
        client.close();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void handshake(HandshakeCase c) {
        c.run(client);
    }

    static Stream<HandshakeCase> cases() {
        String echo = ConformanceServer.ECHO;
        String proto = ConformanceServer.PROTO;
        String plain = ConformanceServer.PLAIN;
        String noDeflate = "!Sec-WebSocket-Extensions";
        // The server allows a smaller window (PerMessageDeflateServerExtensionHandshaker with
        // allowServerWindowSize): it honours the request, so the answer must carry the parameter.
        Consumer<TestResponse> window10 = r -> {
            assertThat(r.header("Sec-WebSocket-Extensions")).as("permessage-deflate agreed on: %s", r).isPresent();
            String v = r.header("Sec-WebSocket-Extensions").orElseThrow();
            Matcher m = WINDOW.matcher(v);
            assertThat(m.find()).as("accepted with server_max_window_bits (RFC 7692 7.1.2.1): %s", v).isTrue();
            assertThat(Integer.parseInt(m.group(1))).as("no larger than offered").isBetween(8, 10);
        };
        return Stream.of(
                up("H-1", "the sample handshake of RFC 6455 1.3", R + "1.3, 4.2.2", valid(echo), 101,
                        "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", "!Sec-WebSocket-Protocol", noDeflate),
                up("H-2", "Upgrade: WebSocket (case differs)", R + "4.2.1 item 3: case-insensitive", get(echo, "Upgrade: WebSocket", CONNECTION, KEY, VERSION), 101),
                up("H-3", "Connection: keep-alive, Upgrade", R + "4.2.1 item 4: includes the token", get(echo, UPGRADE, "Connection: keep-alive, Upgrade", KEY, VERSION), 101),
                up("H-4", "Connection: upgrade (lower case)", R + "4.2.1 item 4", get(echo, UPGRADE, "Connection: upgrade", KEY, VERSION), 101),
                up("H-5", "an Origin of the same host and port", R + "4.2.2, 10.2", valid(echo, "Origin: http://x"), 101),
                up("H-6", "a plain GET of a WebSocket route", PROBLEM_426, get(echo), 426, UPGRADE, VERSION),
                // RFC 6455 4.2.1 wants HTTP/1.1 (else "such as 400"); RFC 9110 7.8 says a server MUST
                // ignore Upgrade in HTTP/1.0, which makes it a plain GET (426). Never a 101.
                new HandshakeCase("H-7", "HTTP/1.0", R + "4.2.1 item 1 (400); RFC 9110 7.8 (Upgrade ignored: 426)",
                        valid(echo).replace("HTTP/1.1", "HTTP/1.0"), List.of(400, 426), List.of(), r -> { }),
                up("H-8", "no Connection header", R + "4.2.1 item 4", get(echo, UPGRADE, KEY, VERSION), 400),
                up("H-9", "Connection: keep-alive (no upgrade token)", R + "4.2.1 item 4", get(echo, UPGRADE, "Connection: keep-alive", KEY, VERSION), 400),
                up("H-10", "no Sec-WebSocket-Key", R + "4.2.1 item 5", get(echo, UPGRADE, CONNECTION, VERSION), 400),
                up("H-11", "a key that is not base64", R + "4.2.1 item 5, 4.1 (16 random bytes, base64)",
                        get(echo, UPGRADE, CONNECTION, "Sec-WebSocket-Key: not*base64*at*all!", VERSION), 400),
                up("H-12", "a key of 15 bytes", R + "4.2.1 item 5: decoded, 16 bytes", get(echo, UPGRADE, CONNECTION, "Sec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAA", VERSION), 400),
                up("H-13", "a key of 17 bytes", R + "4.2.1 item 5", get(echo, UPGRADE, CONNECTION, "Sec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAAAAA=", VERSION), 400),
                up("H-14", "an empty key", R + "4.2.1 item 5", get(echo, UPGRADE, CONNECTION, "Sec-WebSocket-Key: ", VERSION), 400),
                up("H-15", "two Sec-WebSocket-Key fields", R + "11.3.1: MUST NOT appear more than once; 4.2.1 (400)",
                        get(echo, UPGRADE, CONNECTION, KEY, "Sec-WebSocket-Key: AQIDBAUGBwgJCgsMDQ4PEA==", VERSION), 400),
                up("H-16", "no Sec-WebSocket-Version", R + "4.2.1 item 6", get(echo, UPGRADE, CONNECTION, KEY), 400),
                up("H-17", "Sec-WebSocket-Version: 8", R + "4.4: 426 and the versions supported", get(echo, UPGRADE, CONNECTION, KEY, "Sec-WebSocket-Version: 8"), 426, VERSION),
                up("H-18", "Sec-WebSocket-Version: 12", R + "4.4", get(echo, UPGRADE, CONNECTION, KEY, "Sec-WebSocket-Version: 12"), 426, VERSION),
                up("H-19", "Sec-WebSocket-Version: 14", R + "4.4", get(echo, UPGRADE, CONNECTION, KEY, "Sec-WebSocket-Version: 14"), 426, VERSION),
                up("H-20", "an upgrade with a Content-Length body", R + "4.1 (a handshake is a GET without content); RFC 9110 9.3.1",
                        valid(echo, "Content-Length: 5") + "hello", 400),
                up("H-21", "an upgrade with a chunked body", R + "4.1; RFC 9110 9.3.1",
                        valid(echo, "Transfer-Encoding: chunked") + "5\r\nhello\r\n0\r\n\r\n", 400),
                up("H-22", "POST with the upgrade headers", R + "4.1 item 2 (GET); the router's 405",
                        valid(echo).replaceFirst("GET", "POST").replace(VERSION, VERSION + "\r\nContent-Length: 0"), 405),
                up("H-23", "PUT with the upgrade headers", R + "4.1 item 2", valid(echo).replaceFirst("GET", "PUT").replace(VERSION, VERSION + "\r\nContent-Length: 0"), 405),
                up("H-24", "a foreign Origin", R + "4.2.2 item 4 (403), 10.2; CASES.md WS-07", valid(echo, "Origin: http://evil.example"), 403),
                up("H-25", "Origin: null", R + "10.2 (an opaque origin is not ours)", valid(echo, "Origin: null"), 403),
                up("H-26", "an Origin of the same host on another port", R + "10.2; RFC 6454 (the port is part of the origin)",
                        valid(echo, "Origin: http://x:8443"), 403),
                up("H-27", "subprotocol chat offered to a route speaking chat, superchat", R + "4.2.2 item 5.4, 11.3.4",
                        valid(proto, "Sec-WebSocket-Protocol: chat"), 101, "Sec-WebSocket-Protocol: chat"),
                up("H-28", "subprotocols superchat, chat offered: the route's first preference wins", R + "4.2.2 item 5.4 (the server selects)",
                        valid(proto, "Sec-WebSocket-Protocol: superchat, chat"), 101, "Sec-WebSocket-Protocol: chat"),
                up("H-29", "an unknown subprotocol: accepted without one", R + "4.2.2 item 5.4 (null: no header)",
                        valid(proto, "Sec-WebSocket-Protocol: other"), 101, "!Sec-WebSocket-Protocol"),
                up("H-30", "a subprotocol offered to a route that speaks none", R + "4.2.2 item 5.4", valid(echo, "Sec-WebSocket-Protocol: chat"), 101,
                        "!Sec-WebSocket-Protocol"),
                up("H-31", "permessage-deflate offered", "RFC 7692 5, 7.1.2.2: no client_max_window_bits unless offered",
                        valid(echo, "Sec-WebSocket-Extensions: permessage-deflate"), 101, "Sec-WebSocket-Extensions~permessage-deflate"),
                up("H-32", "server_max_window_bits=7", "RFC 7692 7.1.2.1: 8-15, else the offer is declined",
                        valid(echo, "Sec-WebSocket-Extensions: permessage-deflate; server_max_window_bits=7"), 101, noDeflate),
                up("H-33", "server_max_window_bits=16", "RFC 7692 7.1.2.1; CASES.md WS-08",
                        valid(echo, "Sec-WebSocket-Extensions: permessage-deflate; server_max_window_bits=16"), 101, noDeflate),
                up("H-34", "server_no_context_takeover twice", "RFC 7692 7: an offer with a parameter twice is declined",
                        valid(echo, "Sec-WebSocket-Extensions: permessage-deflate; server_no_context_takeover; server_no_context_takeover"), 101, noDeflate),
                up("H-35", "an unknown parameter", "RFC 7692 7: an offer with an unknown parameter is declined",
                        valid(echo, "Sec-WebSocket-Extensions: permessage-deflate; foo=1"), 101, noDeflate),
                up("H-36", "client_max_window_bits=16", "RFC 7692 7.1.2.2: 8-15",
                        valid(echo, "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits=16"), 101, noDeflate),
                up("H-37", "server_no_context_takeover=1 (takes no value)", "RFC 7692 7.1.1.1: no value",
                        valid(echo, "Sec-WebSocket-Extensions: permessage-deflate; server_no_context_takeover=1"), 101, noDeflate),
                up("H-38", "an unknown extension only", "RFC 6455 9.1: the server accepts only extensions it supports",
                        valid(echo, "Sec-WebSocket-Extensions: x-webkit-deflate-frame"), 101, noDeflate),
                up("H-39", "an invalid offer, then a valid one", "RFC 7692 5: the server picks an offer it accepts",
                        valid(echo, "Sec-WebSocket-Extensions: permessage-deflate; server_max_window_bits=7, permessage-deflate"), 101,
                        "Sec-WebSocket-Extensions~permessage-deflate", "!Sec-WebSocket-Extensions~max_window_bits=7"),
                up("H-40", "permessage-deflate offered to a route with compression off", "RFC 7692 5 (a server may decline)",
                        valid(plain, "Sec-WebSocket-Extensions: permessage-deflate"), 101, noDeflate),
                up("H-41", "server_no_context_takeover requested", "RFC 7692 7.1.1.1: accepted by including it",
                        valid(echo, "Sec-WebSocket-Extensions: permessage-deflate; server_no_context_takeover"), 101,
                        "Sec-WebSocket-Extensions~server_no_context_takeover"),
                new HandshakeCase("H-42", "server_max_window_bits=10 requested: honoured", "RFC 7692 7.1.2.1",
                        valid(echo, "Sec-WebSocket-Extensions: permessage-deflate; server_max_window_bits=10"), List.of(101), List.of(), window10));
    }

    /** A GET of {@code path} with {@code Host: x} and these header lines. */
    private static String get(String path, String... lines) {
        StringBuilder s = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: x\r\n");
        for (String l : lines) s.append(l).append("\r\n");
        return s.append("\r\n").toString();
    }

    /** A valid handshake with the sample key, and more header lines. */
    private static String valid(String path, String... more) {
        String[] lines = new String[4 + more.length];
        lines[0] = UPGRADE;
        lines[1] = CONNECTION;
        lines[2] = KEY;
        lines[3] = VERSION;
        System.arraycopy(more, 0, lines, 4, more.length);
        return get(path, lines);
    }

    private static HandshakeCase up(String id, String name, String source, String request, int status, String... headers) {
        return new HandshakeCase(id, name, source, request, List.of(status), List.of(headers), r -> { });
    }
}
