package dev.tidemill.internal.websocket;

import dev.tidemill.Problem;
import dev.tidemill.WebSocketHandler;
import dev.tidemill.WebSocketOptions;
import dev.tidemill.internal.exchange.ConnectionTakeover;
import dev.tidemill.internal.exchange.Exchange;
import dev.tidemill.internal.exchange.ProtocolSwitch.Outcome;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketExtensionData;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketExtensionUtil;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketServerExtension;
import io.netty.handler.codec.http.websocketx.extensions.compression.PerMessageDeflateServerExtensionHandshaker;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * The server's opening handshake (RFC 6455 4.2): checks the request, picks the subprotocol and
 * extension, and computes {@code Sec-WebSocket-Accept}. Runs on the handler's thread when the
 * handler's answer is {@code Response.webSocket(...)}; the exchange reaches it as its
 * {@link dev.tidemill.internal.exchange.ProtocolSwitch}.
 */
public final class WebSocketUpgrade {
    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    private WebSocketUpgrade() {}

    /**
     * @param ex the handshake request
     * @param options the route's options
     * @param handler runs the connection once accepted
     * @return the decision
     */
    public static Outcome handshake(Exchange ex, WebSocketOptions options, WebSocketHandler handler) {
        // RFC 8441: over HTTP/2 the handshake is an extended CONNECT on one stream (:protocol websocket), which has
        // no Upgrade, Connection, Sec-WebSocket-Key or -Accept; the version, Origin, subprotocol and extension
        // fields mean what they mean in RFC 6455, and the answer is a 200 that leaves the stream open.
        boolean overStream = ex.extendedConnect() != null;
        if (!overStream) {
            Outcome refused = upgradeRefused(ex);
            if (refused != null) return refused;
        }
        List<String> versions = ex.headers("Sec-WebSocket-Version");
        if (versions.isEmpty()) {
            return Outcome.refuse(400, "Bad Request", "Sec-WebSocket-Version is missing (RFC 6455 4.2.1)",
                    "Sec-WebSocket-Version", "13");
        }
        if (versions.size() != 1 || !versions.get(0).trim().equals("13")) {
            // HTTP/2 has no Upgrade, so no 426 there (RFC 9113 8.6): a 400 with the version spoken
            return Outcome.refuse(overStream ? 400 : 426, overStream ? "Bad Request" : "Upgrade Required",
                    "only WebSocket version 13 is spoken here (RFC 6455 4.4)", "Sec-WebSocket-Version", "13");
        }
        List<String> keys = ex.headers("Sec-WebSocket-Key");
        if (!overStream && (keys.size() != 1 || !validKey(keys.get(0).trim()))) {
            return Outcome.refuse(400, "Bad Request", "Sec-WebSocket-Key must be one base64-encoded 16-byte value (RFC 6455 4.2.1)");
        }
        String origin = originRefused(ex, options.origins());
        if (origin != null) return Outcome.refuse(403, "Forbidden", origin);

        List<String> headers = new ArrayList<>(8);
        if (!overStream) {
            headers.add("Upgrade");
            headers.add("websocket");
            headers.add("Connection");
            headers.add("Upgrade");
            headers.add("Sec-WebSocket-Accept");
            headers.add(accept(keys.get(0).trim()));
        }
        String subprotocol = subprotocol(ex.headers("Sec-WebSocket-Protocol"), options.subprotocols());
        if (subprotocol != null) {
            headers.add("Sec-WebSocket-Protocol");
            headers.add(subprotocol);
        }
        Deflate deflate = null;
        if (options.compression()) {
            try {
                deflate = deflate(ex.headers("Sec-WebSocket-Extensions"), options);
            } catch (RuntimeException e) {
                return Outcome.refuse(400, "Bad Request", "Sec-WebSocket-Extensions is malformed (RFC 6455 9.1)");
            }
            if (deflate != null) {
                headers.add("Sec-WebSocket-Extensions");
                headers.add(deflate.answer());
            }
        }
        return new Outcome(null, headers, new Takeover(ex.streamPort(), options, handler, subprotocol, deflate == null ? null : deflate.extension()));
    }

    /** @return why an HTTP/1.1 request is not an upgrade to WebSocket (RFC 6455 4.1, 4.2.1), or null when it is one */
    private static Outcome upgradeRefused(Exchange ex) {
        if (!hasToken(ex.headers("Upgrade"), "websocket")) {
            return Outcome.refuse(426, "Upgrade Required", "this is a WebSocket endpoint: send a WebSocket handshake"
                    + " (Upgrade: websocket, RFC 6455 4.1)", "Upgrade", "websocket", "Sec-WebSocket-Version", "13");
        }
        if (!ex.method().equals("GET")) {
            return Outcome.refuse(400, "Bad Request", "a WebSocket handshake is a GET request (RFC 6455 4.1)");
        }
        if (!hasToken(ex.headers("Connection"), "upgrade")) {
            return Outcome.refuse(400, "Bad Request", "a WebSocket handshake needs Connection: Upgrade (RFC 6455 4.2.1)");
        }
        if (ex.header("Transfer-Encoding").isPresent() || ex.header("Content-Length").filter(v -> !v.trim().equals("0")).isPresent()) {
            return Outcome.refuse(400, "Bad Request", "a WebSocket handshake carries no body");
        }
        return null;
    }

    /** @return whether some value of a comma-separated header holds {@code token}, in any case */
    static boolean hasToken(List<String> values, String token) {
        for (String v : values) {
            for (String part : v.split(",")) {
                if (part.trim().equalsIgnoreCase(token)) return true;
            }
        }
        return false;
    }

    private static boolean validKey(String key) {
        if (key.length() != 24) return false;
        try {
            return Base64.getDecoder().decode(key).length == 16;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** @return {@code Sec-WebSocket-Accept} for {@code key}: base64(SHA-1(key + GUID)), RFC 6455 4.2.2 */
    static String accept(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest((key + GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every JDK", e);
        }
    }

    /** @return why the Origin is refused, or null when it may connect */
    static String originRefused(Exchange ex, List<String> allowed) {
        List<String> origins = ex.headers("Origin");
        if (origins.isEmpty()) return null; // not a browser: the check guards against cross-site pages only
        if (origins.size() > 1) return "more than one Origin header";
        String origin = origins.get(0).trim();
        if (allowed.equals(List.of("*"))) return null;
        if (!allowed.isEmpty()) {
            for (String a : allowed) {
                if (a.equalsIgnoreCase(origin)) return null;
            }
            return "the Origin is not among this endpoint's allowed origins";
        }
        String host = ex.header("Host").map(h -> h.trim().toLowerCase(Locale.ROOT)).orElse(null);
        if (host == null) return "no Host to compare the Origin with";
        try {
            URI uri = new URI(origin);
            if (uri.getScheme() == null || uri.getHost() == null) return "the Origin is not same-origin";
            String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
            int port = uri.getPort() >= 0 ? uri.getPort() : scheme.equals("https") || scheme.equals("wss") ? 443 : 80;
            String originHost = uri.getHost().toLowerCase(Locale.ROOT);
            int colon = host.lastIndexOf(':');
            boolean bracketed = host.endsWith("]");
            String hostName = colon > 0 && !bracketed ? host.substring(0, colon) : host;
            // A Host without a port names the scheme's default port (RFC 9110 7.2), not any port.
            int defaultPort = scheme.equals("https") || scheme.equals("wss") ? 443 : 80;
            int hostPort = colon > 0 && !bracketed ? Integer.parseInt(host.substring(colon + 1)) : defaultPort;
            if (originHost.equals(hostName) && port == hostPort) return null;
        } catch (java.net.URISyntaxException | NumberFormatException e) {
            return "the Origin is malformed";
        }
        return "the Origin is not same-origin (WebSocketOptions.origins)";
    }

    /** @return the first of the route's subprotocols the client offered, or null */
    static String subprotocol(List<String> offeredValues, List<String> supported) {
        if (supported.isEmpty() || offeredValues.isEmpty()) return null;
        List<String> offered = new ArrayList<>();
        for (String v : offeredValues) {
            for (String part : v.split(",")) {
                String p = part.trim();
                if (!p.isEmpty()) offered.add(p);
            }
        }
        for (String s : supported) {
            if (offered.contains(s)) return s;
        }
        return null;
    }

    /**
     * The checks of RFC 7692 7 that Netty's handshaker leaves out: an offer with a parameter
     * twice, a value on a parameter that takes none, or a window size out of range is declined
     * (the next offer, if any, is considered). A server window of 8 bits is declined too: zlib
     * cannot compress raw DEFLATE in a 256-byte window (it silently uses 9), and a server must not
     * use more than it agreed to.
     *
     * @param offer one element of Sec-WebSocket-Extensions, e.g. {@code permessage-deflate; client_max_window_bits}
     */
    static boolean acceptableOffer(String offer) {
        String[] parts = offer.split(";");
        if (!parts[0].trim().equalsIgnoreCase("permessage-deflate")) return false;
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i].trim();
            int eq = p.indexOf('=');
            String name = (eq < 0 ? p : p.substring(0, eq)).trim().toLowerCase(Locale.ROOT);
            String value = eq < 0 ? null : p.substring(eq + 1).trim().replace("\"", "");
            if (!seen.add(name)) return false;
            switch (name) {
                case "server_no_context_takeover", "client_no_context_takeover" -> {
                    if (value != null) return false;
                }
                case "server_max_window_bits" -> {
                    if (value == null || !value.matches("9|1[0-5]")) return false;
                }
                case "client_max_window_bits" -> {
                    if (value != null && !value.matches("[89]|1[0-5]")) return false;
                }
                default -> {
                    return false;
                }
            }
        }
        return true;
    }

    /** An accepted permessage-deflate offer and the header value that answers it. */
    private record Deflate(WebSocketServerExtension extension, String answer) {}

    /** @return the accepted permessage-deflate, or null when not offered or no offer is acceptable (RFC 7692 5) */
    private static Deflate deflate(List<String> values, WebSocketOptions options) {
        if (values.isEmpty()) return null;
        // maxAllocation bounds what one frame may inflate to: a compressed bomb stops there (1009).
        int maxAllocation = (int) Math.min(Integer.MAX_VALUE, options.maxMessageBytes());
        PerMessageDeflateServerExtensionHandshaker handshaker =
                new PerMessageDeflateServerExtensionHandshaker(6, true, 15, true, false, maxAllocation);
        // A client's server_max_window_bits below 15 is honoured: Netty then compresses with JZlib
        // (the JDK's Deflater only has the 15-bit window), which is why jzlib is a dependency.
        for (String offer : String.join(",", values).split(",")) {
            if (!acceptableOffer(offer)) continue;
            List<WebSocketExtensionData> parsed = WebSocketExtensionUtil.extractExtensions(offer);
            if (parsed.isEmpty()) continue;
            WebSocketExtensionData data = parsed.get(0);
            WebSocketServerExtension accepted = handshaker.handshakeExtension(data);
            if (accepted != null) {
                return new Deflate(accepted, render(accepted.newReponseData(), data.parameters().get("server_max_window_bits")));
            }
        }
        return null;
    }

    /**
     * @param offeredServerWindow the server_max_window_bits of the accepted offer, or null. Netty
     *     leaves the parameter out of its answer when it is 15, but RFC 7692 7.1.2.1 accepts it
     *     only by echoing it, and clients (python-websockets) fail the connection otherwise.
     */
    private static String render(WebSocketExtensionData data, String offeredServerWindow) {
        StringBuilder b = new StringBuilder(data.name());
        data.parameters().forEach((k, v) -> {
            b.append("; ").append(k);
            if (v != null) b.append('=').append(v);
        });
        if (offeredServerWindow != null && !data.parameters().containsKey("server_max_window_bits")) {
            b.append("; server_max_window_bits=").append(offeredServerWindow);
        }
        return b.toString();
    }
}
