package dev.tidemill.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@link H2Wire} connection's HPACK state (RFC 7541): Netty's encoder for the blocks it sends,
 * and Netty's decoder for the server's, each with the dynamic table the connection builds up.
 */
final class H2Hpack {
    private final DefaultHttp2HeadersEncoder encoder = new DefaultHttp2HeadersEncoder(Http2HeadersEncoder.NEVER_SENSITIVE, true);
    private final DefaultHttp2HeadersDecoder decoder = new DefaultHttp2HeadersDecoder(false, 1 << 24);

    /**
     * @param nameValues name, value, name, value... (Netty puts pseudo-header fields first)
     * @return the header block, encoded against this connection's table
     */
    byte[] encode(String... nameValues) {
        Http2Headers h = new DefaultHttp2Headers(false);
        for (int i = 0; i + 1 < nameValues.length; i += 2) h.add(nameValues[i], nameValues[i + 1]);
        ByteBuf b = Unpooled.buffer();
        try {
            encoder.encodeHeaders(0, h, b);
            byte[] r = new byte[b.readableBytes()];
            b.readBytes(r);
            return r;
        } catch (Http2Exception e) {
            throw new IllegalStateException(e);
        } finally {
            b.release();
        }
    }

    /**
     * @param block a header block the server sent
     * @return its fields, name to values in order
     * @throws AssertionError when it does not decode
     */
    Map<String, List<String>> decode(byte[] block) {
        ByteBuf b = Unpooled.wrappedBuffer(block);
        try {
            Http2Headers h = decoder.decodeHeaders(0, b);
            Map<String, List<String>> m = new LinkedHashMap<>();
            for (Map.Entry<CharSequence, CharSequence> e : h) {
                m.computeIfAbsent(e.getKey().toString(), k -> new ArrayList<>()).add(e.getValue().toString());
            }
            return m;
        } catch (Http2Exception e) {
            throw new AssertionError("the server's header block does not decode: " + e);
        } finally {
            b.release();
        }
    }

    /** @param bytes the largest dynamic table the server's blocks may use (SETTINGS_HEADER_TABLE_SIZE as advertised) */
    void decoderTableSize(long bytes) {
        try {
            decoder.maxHeaderTableSize(bytes);
        } catch (Http2Exception e) {
            throw new IllegalArgumentException(e);
        }
    }
}
