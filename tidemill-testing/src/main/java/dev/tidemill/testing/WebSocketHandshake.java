package dev.tidemill.testing;

import java.io.IOException;
import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.time.Duration;

/** The client's side of the opening handshake (RFC 6455 4.1), for {@link WebSocketClient}. */
final class WebSocketHandshake {
    /** The GUID of RFC 6455 1.3, appended to the key to make {@code Sec-WebSocket-Accept}. */
    static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    /** What the 101 agreed on: the response, and permessage-deflate or null. */
    record Agreed(TestResponse response, PerMessageDeflate deflate) { }

    private WebSocketHandshake() {}

    /**
     * Sends the opening handshake: {@code GET path} with {@code Host}, {@code Upgrade: websocket},
     * {@code Connection: Upgrade}, a fresh {@code Sec-WebSocket-Key} and
     * {@code Sec-WebSocket-Version: 13}, unless {@code headers} gives any of these itself.
     */
    static Agreed perform(Wire wire, String path, String... headers) {
        if (headers.length % 2 != 0) throw new IllegalArgumentException("headers are name, value pairs: odd count " + headers.length);
        try {
            TestRequest r = TestRequest.get(path);
            String key = header(headers, "Sec-WebSocket-Key");
            if (key == null) {
                byte[] nonce = new byte[16];
                new SecureRandom().nextBytes(nonce);
                key = Base64.getEncoder().encodeToString(nonce);
                r = r.header("Sec-WebSocket-Key", key);
            }
            if (header(headers, "Upgrade") == null) r = r.header("Upgrade", "websocket");
            if (header(headers, "Connection") == null) r = r.header("Connection", "Upgrade");
            if (header(headers, "Sec-WebSocket-Version") == null) r = r.header("Sec-WebSocket-Version", "13");
            for (int i = 0; i < headers.length; i += 2) r = r.header(headers[i], headers[i + 1]);
            wire.write(r.encode(wire.hostHeader, false));
            wire.in.context("the handshake response");
            ResponseReader.Head head = ResponseReader.readFinalHead(wire.in, new ArrayList<>());
            if (head.status() != 101) {
                throw new WebSocketClient.HandshakeException(ResponseReader.readBody(wire.in, "GET", head, new ArrayList<>()));
            }
            TestResponse response = new TestResponse(head.version(), 101, head.reason(), head.headers(), new byte[0], false,
                    List.of(), List.of());
            String offer = header(headers, "Sec-WebSocket-Extensions");
            PerMessageDeflate deflate = checkUpgrade(response, key, header(headers, "Sec-WebSocket-Protocol"), offer);
            return new Agreed(response, deflate);
        } catch (IOException e) {
            wire.close();
            throw Wire.unchecked(e);
        } catch (RuntimeException e) {
            wire.close();
            throw e;
        }
    }

    /**
     * The opening handshake over HTTP/2 (RFC 8441 5): an extended CONNECT with
     * {@code :protocol websocket} on a stream of a fresh connection, and
     * {@code sec-websocket-version: 13} unless {@code headers} gives one; {@code Host} among the
     * headers becomes {@code :authority}. No key and no accept: the stream is the connection.
     *
     * @return the agreement and the stream, open, to carry the frames
     */
    static Over2 performOverHttp2(int port, String hostHeader, Duration timeout, String path, String... headers) {
        if (headers.length % 2 != 0) throw new IllegalArgumentException("headers are name, value pairs: odd count " + headers.length);
        String authority = hostHeader;
        List<String> fields = new ArrayList<>();
        if (header(headers, "Sec-WebSocket-Version") == null) fields.addAll(List.of("sec-websocket-version", "13"));
        for (int i = 0; i < headers.length; i += 2) {
            if (headers[i].equalsIgnoreCase("Host")) authority = headers[i + 1];
            else fields.addAll(List.of(headers[i], headers[i + 1]));
        }
        H2StreamPipe pipe;
        try {
            pipe = H2StreamPipe.open(port, authority, path, "websocket", fields, timeout);
        } catch (IOException e) {
            throw Wire.unchecked(e);
        }
        try {
            List<java.util.Map.Entry<String, String>> head = new ArrayList<>();
            pipe.head().forEach((name, values) -> {
                if (!name.startsWith(":")) values.forEach(v -> head.add(java.util.Map.entry(name, v)));
            });
            if (pipe.status() < 200 || pipe.status() > 299) {
                byte[] body = pipe.readAllBytes();
                throw new WebSocketClient.HandshakeException(new TestResponse("HTTP/2.0", pipe.status(), "", head, body, false,
                        List.of(), List.of()));
            }
            TestResponse response = new TestResponse("HTTP/2.0", pipe.status(), "", head, new byte[0], false, List.of(), List.of());
            String offer = header(headers, "Sec-WebSocket-Extensions");
            PerMessageDeflate deflate = checkAgreement(response, header(headers, "Sec-WebSocket-Protocol"), offer);
            return new Over2(pipe, new Agreed(response, deflate));
        } catch (IOException e) {
            pipe.close();
            throw Wire.unchecked(e);
        } catch (RuntimeException e) {
            pipe.close();
            throw e;
        }
    }

    /** An HTTP/2 handshake's result: the stream and what was agreed. */
    record Over2(H2StreamPipe pipe, Agreed agreed) { }

    /** The client's checks of a 101 (RFC 6455 4.1, last list; RFC 7692 5). */
    private static PerMessageDeflate checkUpgrade(TestResponse r, String key, String protocols, String offer) throws ProtocolException {
        if (!r.header("Upgrade").map(v -> v.equalsIgnoreCase("websocket")).orElse(false)) {
            throw new ProtocolException("101 without Upgrade: websocket: " + r);
        }
        boolean upgradeToken = r.header("Connection").map(v -> tokens(v).contains("upgrade")).orElse(false);
        if (!upgradeToken) throw new ProtocolException("101 without the upgrade token in Connection: " + r);
        if (!r.header("Sec-WebSocket-Accept").orElse("").equals(accept(key))) {
            throw new ProtocolException("Sec-WebSocket-Accept is not " + accept(key) + " (RFC 6455 4.2.2): " + r);
        }
        return checkAgreement(r, protocols, offer);
    }

    /** The checks of the subprotocol and extension a server agreed to, over either protocol (RFC 6455 4.1, RFC 7692 5). */
    private static PerMessageDeflate checkAgreement(TestResponse r, String protocols, String offer) throws ProtocolException {
        Optional<String> agreed = r.header("Sec-WebSocket-Protocol");
        if (agreed.isPresent() && (protocols == null || !tokens(protocols).contains(agreed.get().toLowerCase(Locale.ROOT)))) {
            throw new ProtocolException("the server chose subprotocol " + agreed.get() + ", which was not offered: " + r);
        }
        Optional<String> ext = r.header("Sec-WebSocket-Extensions");
        if (ext.isPresent() && offer == null) throw new ProtocolException("extensions in the 101 but none offered: " + r);
        return ext.isPresent() ? PerMessageDeflate.negotiate(ext.get(), offer) : null;
    }

    private static List<String> tokens(String list) {
        List<String> out = new ArrayList<>();
        for (String t : list.split(",")) out.add(t.trim().toLowerCase(Locale.ROOT));
        return out;
    }

    private static String header(String[] headers, String name) {
        for (int i = 0; i < headers.length; i += 2) {
            if (headers[i].equalsIgnoreCase(name)) return headers[i + 1];
        }
        return null;
    }

    /** @return base64(SHA-1(key + GUID)), RFC 6455 4.2.2 */
    static String accept(String key) {
        try {
            byte[] sha1 = MessageDigest.getInstance("SHA-1").digest((key + GUID).getBytes(StandardCharsets.ISO_8859_1));
            return Base64.getEncoder().encodeToString(sha1);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every JDK", e);
        }
    }
}
