package dev.tidemill.tests.http2;

import static dev.tidemill.tests.http2.H2Cases.*;
import static dev.tidemill.testing.H2Fields.*;
import static dev.tidemill.testing.H2Wire.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.tests.http2.Http2ConformanceTest.Case;
import dev.tidemill.testing.H2Wire;
import java.util.ArrayList;
import java.util.List;

/**
 * Field rules and HPACK: h2spec's {@code generic/5/*} (every HPACK representation a server must
 * decode), {@code http2/8.*} (requests: pseudo-header fields, connection-specific fields,
 * content-length), {@code hpack/*} (RFC 7541 decoding errors), and {@code rfc9113/*} rows from
 * CASES.md section 13 (field values with CR, LF, NUL or edge whitespace, the other
 * connection-specific names, content-length lies, extended CONNECT). A malformed request is a
 * stream error PROTOCOL_ERROR and never a handler call.
 */
final class H2FieldCases {
    /** RFC 7541 C.4: "www.example.com", "custom-key", "custom-value" Huffman-coded. */
    static final String HUFF_WWW = "f1e3c2e5f23a6ba0ab90f4ff", HUFF_KEY = "25a849e95ba97d7f", HUFF_VALUE = "25a849e95bb8e8b4bf";
    /** :method GET, :scheme http, :path / from the static table (RFC 7541 A). */
    static final String BASE = "82 86 84";
    /** :authority 127.0.0.1, literal without indexing, indexed name. */
    static final String AUTHORITY = "01 09" + hexOf("127.0.0.1");
    /** custom-key: custom-value as a literal of the given first octet, new name, no Huffman. */
    static String custom(String first) {
        return first + " 0a" + hexOf("custom-key") + " 0c" + hexOf("custom-value");
    }

    static String hexOf(String s) {
        return " " + java.util.HexFormat.of().formatHex(ascii(s)) + " ";
    }

    private H2FieldCases() {}

    /** A block the server must decode: a GET /, answered 200. */
    static Case decodes(String id, String description, String blockHex) {
        return c(id, description, w -> {
            w.headers(1, END_HEADERS | END_STREAM, hex(blockHex));
            ok(w, 1);
        });
    }

    /** A block the server must refuse with a connection error COMPRESSION_ERROR. */
    static Case compression(String id, String description, String blockHex) {
        return c(id, description, noHandler(goAway(w -> w.headers(1, END_HEADERS | END_STREAM, hex(blockHex)), COMPRESSION_ERROR)));
    }

    /** A malformed request (a single HEADERS with END_STREAM): RST_STREAM PROTOCOL_ERROR, no handler, connection kept. */
    static Case malformed(String id, String description, String... fieldsInOrder) {
        return c(id, description, noHandler(w -> {
            w.headers(1, END_HEADERS | END_STREAM, literal(fieldsInOrder));
            w.expectRstStream(1, PROTOCOL_ERROR);
            w.expectAlive();
        }));
    }

    static java.util.function.Consumer<H2Wire> noHandler(java.util.function.Consumer<H2Wire> run) {
        return w -> {
            int before = Http2ConformanceTest.HANDLED.get();
            run.accept(w);
            assertThat(Http2ConformanceTest.HANDLED.get()).as("handler calls").isEqualTo(before);
        };
    }

    static List<Case> genericHpack() {
        List<Case> l = new ArrayList<>();
        l.add(decodes("generic/5/1", "indexed header field representations", BASE + AUTHORITY));
        l.add(decodes("generic/5/2", "literal with incremental indexing, indexed name", BASE + "41 09" + hexOf("127.0.0.1")));
        l.add(decodes("generic/5/3", "literal with incremental indexing, indexed name, Huffman value", BASE + "41 8c" + HUFF_WWW));
        l.add(decodes("generic/5/4", "literal with incremental indexing, new name", BASE + AUTHORITY + custom("40")));
        l.add(decodes("generic/5/5", "literal with incremental indexing, new name, Huffman",
                BASE + AUTHORITY + "40 88" + HUFF_KEY + "89" + HUFF_VALUE));
        l.add(decodes("generic/5/6", "literal without indexing, indexed name", BASE + AUTHORITY));
        l.add(decodes("generic/5/7", "literal without indexing, indexed name, Huffman value", BASE + "01 8c" + HUFF_WWW));
        l.add(decodes("generic/5/8", "literal without indexing, new name", BASE + AUTHORITY + custom("00")));
        l.add(decodes("generic/5/9", "literal without indexing, new name, Huffman",
                BASE + AUTHORITY + "00 88" + HUFF_KEY + "89" + HUFF_VALUE));
        l.add(decodes("generic/5/10", "literal never indexed, indexed name", BASE + "11 09" + hexOf("127.0.0.1")));
        l.add(decodes("generic/5/11", "literal never indexed, indexed name, Huffman value", BASE + "11 8c" + HUFF_WWW));
        l.add(decodes("generic/5/12", "literal never indexed, new name", BASE + AUTHORITY + custom("10")));
        l.add(decodes("generic/5/13", "literal never indexed, new name, Huffman",
                BASE + AUTHORITY + "10 88" + HUFF_KEY + "89" + HUFF_VALUE));
        l.add(decodes("generic/5/14", "a dynamic table size update (to 0) at the block's start", "20" + BASE + AUTHORITY));
        l.add(decodes("generic/5/15", "two dynamic table size updates (0, then 4096) at the block's start",
                "20 3f e1 1f" + BASE + AUTHORITY));
        return l;
    }

    static List<Case> all() {
        List<Case> l = new ArrayList<>();
        String[] g = {":method", "GET", ":scheme", "http", ":path", "/", ":authority", "127.0.0.1"};
        l.add(c("http2/8.1/1", "a second HEADERS without END_STREAM: stream error PROTOCOL_ERROR", noHandler(w -> {
            openPost(w, 1);
            w.headers(1, END_HEADERS, literal("x-trailer", "t"));
            w.expectRstStream(1, PROTOCOL_ERROR);
        })));
        l.add(malformed("http2/8.1.2/1", "an upper-case field name", with(g, "X-Test", "ok")));
        l.add(malformed("http2/8.1.2.1/1", "an unknown pseudo-header field", with(g, ":test", "ok")));
        l.add(malformed("http2/8.1.2.1/2", "a response pseudo-header field (:status) in a request", with(g, ":status", "200")));
        l.add(c("http2/8.1.2.1/3", "a pseudo-header field in trailers: stream error PROTOCOL_ERROR", noHandler(w -> {
            openPost(w, 1);
            w.data(1, 0, ascii("test"));
            w.headers(1, END_HEADERS | END_STREAM, literal(":method", "POST"));
            w.expectRstStream(1, PROTOCOL_ERROR);
        })));
        l.add(malformed("http2/8.1.2.1/4", "a pseudo-header field after a regular one",
                ":method", "GET", ":scheme", "http", "x-test", "ok", ":path", "/", ":authority", "127.0.0.1"));
        l.add(malformed("http2/8.1.2.2/1", "a connection-specific field (connection: keep-alive)", with(g, "connection", "keep-alive")));
        l.add(malformed("http2/8.1.2.2/2", "te other than trailers (te: trailers, gzip)", with(g, "te", "trailers, gzip")));
        l.add(malformed("http2/8.1.2.3/1", "an empty :path", ":method", "GET", ":scheme", "http", ":path", "", ":authority", "a"));
        l.add(malformed("http2/8.1.2.3/2", "no :method", ":scheme", "http", ":path", "/", ":authority", "a"));
        l.add(malformed("http2/8.1.2.3/3", "no :scheme", ":method", "GET", ":path", "/", ":authority", "a"));
        l.add(malformed("http2/8.1.2.3/4", "no :path", ":method", "GET", ":scheme", "http", ":authority", "a"));
        l.add(malformed("http2/8.1.2.3/5", "a duplicated :method", ":method", "GET", ":method", "GET", ":scheme", "http",
                ":path", "/", ":authority", "a"));
        l.add(malformed("http2/8.1.2.3/6", "a duplicated :scheme", ":method", "GET", ":scheme", "http", ":scheme", "http",
                ":path", "/", ":authority", "a"));
        l.add(malformed("http2/8.1.2.3/7", "a duplicated :path", ":method", "GET", ":scheme", "http", ":path", "/",
                ":path", "/", ":authority", "a"));
        l.add(c("http2/8.1.2.6/1", "content-length 1 with 4 bytes of DATA: stream error PROTOCOL_ERROR", noHandler(w -> {
            w.headers(1, END_HEADERS, literal(with(post(), "content-length", "1")));
            w.data(1, END_STREAM, ascii("test"));
            w.expectRstStream(1, PROTOCOL_ERROR);
        })));
        l.add(c("http2/8.1.2.6/2", "content-length 10 with two DATA frames of 4 + 4 bytes: stream error PROTOCOL_ERROR",
                noHandler(w -> {
                    w.headers(1, END_HEADERS, literal(with(post(), "content-length", "10")));
                    w.data(1, 0, ascii("test"));
                    w.data(1, END_STREAM, ascii("test"));
                    w.expectRstStream(1, PROTOCOL_ERROR);
                })));
        l.add(c("http2/8.2/1", "a PUSH_PROMISE from the client: connection error PROTOCOL_ERROR",
                noHandler(goAway(w -> w.frame(PUSH_PROMISE, END_HEADERS, 1, concat(intBytes(2), literal(g))), PROTOCOL_ERROR))));

        l.add(compression("hpack/2.3.3/1", "an indexed field with an index past both tables", BASE + AUTHORITY + "be"));
        l.add(compression("hpack/2.3.3/2", "a literal field whose name index is past both tables", BASE + AUTHORITY + "7e 01 61"));
        l.add(compression("hpack/4.2/1", "a dynamic table size update at the end of the block", BASE + AUTHORITY + "20"));
        l.add(compression("hpack/5.2/1", "a Huffman string with more than 7 bits of padding",
                BASE + AUTHORITY + "40 89" + HUFF_KEY + "ff 0c" + hexOf("custom-value")));
        l.add(compression("hpack/5.2/2", "a Huffman string padded with zeros, not the EOS prefix",
                BASE + AUTHORITY + "40 88 25a849e95ba97d00 0c" + hexOf("custom-value")));
        l.add(compression("hpack/5.2/3", "a Huffman string containing the EOS symbol",
                BASE + AUTHORITY + "40 84 ffffffff 0c" + hexOf("custom-value")));
        l.add(compression("hpack/6.1/1", "an indexed field with index 0", BASE + AUTHORITY + "80"));
        l.add(compression("hpack/6.3/1", "a dynamic table size update past SETTINGS_HEADER_TABLE_SIZE (4097 > 4096)",
                "3f e2 1f" + BASE + AUTHORITY));

        l.add(malformed("rfc9113/8.2.1/1", "a CR in a field value", with(g, "x-test", "a\rb")));
        l.add(malformed("rfc9113/8.2.1/2", "an LF in a field value", with(g, "x-test", "a\nb")));
        l.add(malformed("rfc9113/8.2.1/3", "a NUL in a field value", with(g, "x-test", "a\0b")));
        l.add(malformed("rfc9113/8.2.1/4", "a field value with a leading space", with(g, "x-test", " a")));
        l.add(malformed("rfc9113/8.2.1/5", "a field value with a trailing tab", with(g, "x-test", "a\t")));
        l.add(malformed("rfc9113/8.2.1/6", "an empty field name", with(g, "", "a")));
        l.add(malformed("rfc9113/8.2.1/7", "a space in a field name", with(g, "x test", "a")));
        l.add(malformed("rfc9113/8.2.2/1", "keep-alive", with(g, "keep-alive", "timeout=5")));
        l.add(malformed("rfc9113/8.2.2/2", "proxy-connection", with(g, "proxy-connection", "keep-alive")));
        l.add(malformed("rfc9113/8.2.2/3", "transfer-encoding (H2.TE downgrade)", with(g, "transfer-encoding", "chunked")));
        l.add(malformed("rfc9113/8.2.2/4", "upgrade", with(g, "upgrade", "websocket")));
        l.add(c("rfc9113/8.2.2/5", "te: trailers is the one te allowed: answered", w -> {
            w.headers(1, END_HEADERS | END_STREAM, literal(with(g, "te", "trailers")));
            ok(w, 1);
        }));
        l.add(c("rfc9113/8.1.1/1", "one HEADERS with END_STREAM and content-length 10: stream error PROTOCOL_ERROR",
                noHandler(w -> {
                    w.headers(1, END_HEADERS | END_STREAM, literal(with(post(), "content-length", "10")));
                    w.expectRstStream(1, PROTOCOL_ERROR);
                })));
        l.add(c("rfc9113/8.1.1/2", "content-length 10 with 5 bytes of DATA and END_STREAM: stream error PROTOCOL_ERROR",
                noHandler(w -> {
                    w.headers(1, END_HEADERS, literal(with(post(), "content-length", "10")));
                    w.data(1, END_STREAM, ascii("12345"));
                    w.expectRstStream(1, PROTOCOL_ERROR);
                })));
        l.add(c("rfc8441/4/1", ":protocol on a GET (only an extended CONNECT carries it): stream error PROTOCOL_ERROR,"
                + " never a handler", noHandler(w -> {
            w.headers(1, END_HEADERS | END_STREAM, literal(with(g, ":protocol", "websocket")));
            H2Wire.Frame f = w.expectFrame(RST_STREAM);
            assertThat(f.errorCode()).isEqualTo(PROTOCOL_ERROR);
        })));
        l.add(c("rfc8441/5/1", "extended CONNECT (:protocol websocket) to a route that answers without switching:"
                + " 400, never the 2xx that would mean the WebSocket opened", w -> {
            w.headers(1, END_HEADERS, literal(":method", "CONNECT", ":protocol", "websocket", ":scheme", "http",
                    ":path", "/", ":authority", "127.0.0.1", "sec-websocket-version", "13"));
            assertThat(w.expectStatus(1)).isEqualTo(400);
        }));
        l.add(c("rfc9113/8.3.1/1", "a request with both :authority and host is answered (host kept)", w -> {
            w.headers(1, END_HEADERS | END_STREAM, literal(with(g, "host", "127.0.0.1")));
            ok(w, 1);
        }));
        return l;
    }
}
