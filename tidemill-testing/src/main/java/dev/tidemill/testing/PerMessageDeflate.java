package dev.tidemill.testing;

import java.io.ByteArrayOutputStream;
import java.net.ProtocolException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The client's side of permessage-deflate (RFC 7692) with the JDK's raw DEFLATE: a message is
 * compressed and flushed with {@code SYNC_FLUSH}, whose trailing empty stored block
 * {@code 00 00 ff ff} is removed (7.2.1); a received message gets it appended back before it is
 * inflated (7.2.2). Context takeover is kept across messages unless the agreed parameters say
 * otherwise.
 */
final class PerMessageDeflate {
    private static final byte[] TAIL = {0, 0, (byte) 0xff, (byte) 0xff};

    private final boolean clientNoContextTakeover;
    private final boolean serverNoContextTakeover;
    private final int clientMaxWindowBits;
    private final Deflater deflater;
    private final Inflater inflater = new Inflater(true);

    private PerMessageDeflate(boolean clientNoContextTakeover, boolean serverNoContextTakeover, int clientMaxWindowBits) {
        this.clientNoContextTakeover = clientNoContextTakeover;
        this.serverNoContextTakeover = serverNoContextTakeover;
        this.clientMaxWindowBits = clientMaxWindowBits;
        this.deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        // The JDK cannot shrink DEFLATE's 32 KiB window. Huffman-only output has no back-references
        // at all, so it is valid for any window a server asks for (RFC 7692 7.1.2.2).
        if (clientMaxWindowBits < 15) deflater.setStrategy(Deflater.HUFFMAN_ONLY);
    }

    /**
     * Reads the server's answer to an offer (RFC 7692 5 and 7.1): one {@code permessage-deflate}
     * element with known parameters, each at most once, with valid values.
     *
     * @param response the {@code Sec-WebSocket-Extensions} value of the 101
     * @param offered the client's offer (a response may carry {@code client_max_window_bits} only if offered)
     * @return the agreed configuration, or null if the server did not agree to permessage-deflate
     * @throws ProtocolException if the response is not a valid acceptance of the offer
     */
    static PerMessageDeflate negotiate(String response, String offered) throws ProtocolException {
        if (response == null || response.isBlank()) return null;
        String[] elements = response.split(",");
        if (elements.length != 1) throw new ProtocolException("the server accepted more than one extension: " + response);
        String[] parts = elements[0].split(";");
        if (!parts[0].trim().equalsIgnoreCase("permessage-deflate")) {
            throw new ProtocolException("the server accepted an extension that was not offered: " + response);
        }
        boolean clientNoTakeover = false;
        boolean serverNoTakeover = false;
        int clientBits = 15;
        Set<String> seen = new HashSet<>();
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i].trim();
            int eq = p.indexOf('=');
            String name = (eq < 0 ? p : p.substring(0, eq)).trim().toLowerCase(Locale.ROOT);
            String value = eq < 0 ? null : p.substring(eq + 1).trim().replace("\"", "");
            if (!seen.add(name)) throw new ProtocolException("parameter " + name + " twice in " + response);
            switch (name) {
                case "client_no_context_takeover" -> clientNoTakeover = noValue(name, value, response);
                case "server_no_context_takeover" -> serverNoTakeover = noValue(name, value, response);
                case "server_max_window_bits" -> windowBits(name, value, response);
                case "client_max_window_bits" -> {
                    if (!offered.toLowerCase(Locale.ROOT).contains("client_max_window_bits")) {
                        throw new ProtocolException("client_max_window_bits in the response but not in the offer "
                                + "(RFC 7692 7.1.2.2): " + response);
                    }
                    clientBits = windowBits(name, value, response);
                }
                default -> throw new ProtocolException("unknown permessage-deflate parameter " + name + ": " + response);
            }
        }
        return new PerMessageDeflate(clientNoTakeover, serverNoTakeover, clientBits);
    }

    private static boolean noValue(String name, String value, String response) throws ProtocolException {
        if (value != null) throw new ProtocolException(name + " takes no value: " + response);
        return true;
    }

    private static int windowBits(String name, String value, String response) throws ProtocolException {
        if (value == null || !value.matches("[0-9]{1,2}") || Integer.parseInt(value) < 8 || Integer.parseInt(value) > 15) {
            throw new ProtocolException(name + " needs a value 8-15 in a response (RFC 7692 7.1.2): " + response);
        }
        return Integer.parseInt(value);
    }

    boolean serverNoContextTakeover() {
        return serverNoContextTakeover;
    }

    boolean clientNoContextTakeover() {
        return clientNoContextTakeover;
    }

    int clientMaxWindowBits() {
        return clientMaxWindowBits;
    }

    /** @return the compressed payload of one message, tail removed */
    byte[] compress(byte[] message) {
        deflater.setInput(message);
        ByteArrayOutputStream out = new ByteArrayOutputStream(message.length / 2 + 16);
        byte[] buf = new byte[8192];
        int n;
        do {
            n = deflater.deflate(buf, 0, buf.length, Deflater.SYNC_FLUSH);
            out.write(buf, 0, n);
        } while (n == buf.length || !deflater.needsInput());
        if (clientNoContextTakeover) deflater.reset();
        byte[] all = out.toByteArray();
        int len = all.length;
        if (len >= 4 && all[len - 4] == 0 && all[len - 3] == 0 && all[len - 2] == (byte) 0xff && all[len - 1] == (byte) 0xff) {
            len -= 4;
        }
        return java.util.Arrays.copyOf(all, len);
    }

    /**
     * Inflates one received message, refusing more than {@code max} bytes of output.
     *
     * @throws ProtocolException if the payload is not DEFLATE data (or needs a context the server
     *     promised not to use) or inflates to more than {@code max}
     */
    byte[] inflate(byte[] payload, int max) throws ProtocolException {
        byte[] in = new byte[payload.length + TAIL.length];
        System.arraycopy(payload, 0, in, 0, payload.length);
        System.arraycopy(TAIL, 0, in, payload.length, TAIL.length);
        inflater.setInput(in);
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(max, payload.length * 4 + 64));
        byte[] buf = new byte[8192];
        try {
            // Until a call yields nothing: all input read is not all output written (a match can
            // still be copying when the last input byte was consumed).
            int n;
            while ((n = inflater.inflate(buf)) > 0 || !(inflater.needsInput() || inflater.finished())) {
                if (n == 0 && inflater.needsDictionary()) throw new ProtocolException("inflating needs a preset dictionary");
                if (out.size() + n > max) throw new ProtocolException("a compressed message inflates to more than " + max + " bytes");
                out.write(buf, 0, n);
            }
        } catch (DataFormatException e) {
            throw new ProtocolException("a compressed message is not valid DEFLATE data"
                    + (serverNoContextTakeover ? " without the previous messages' context (server_no_context_takeover was agreed)" : "")
                    + ": " + e.getMessage());
        }
        // A final block ends the stream: the next message starts a fresh one (RFC 7692 7.2.3.2).
        if (serverNoContextTakeover || inflater.finished()) inflater.reset();
        return out.toByteArray();
    }

    void end() {
        deflater.end();
        inflater.end();
    }
}
