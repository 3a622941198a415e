package dev.tidemill.bench;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;

/**
 * Decodes a response body by its {@code Content-Encoding}, with the decoders on the runner's class
 * path (the JDK's zlib, Google's Java brotli decoder, zstd-jni), so the runner can check that a
 * compressed answer holds the expected bytes.
 */
final class Decoders {
    private Decoders() {}

    /**
     * @param coding {@code identity}, {@code gzip}, {@code x-gzip}, {@code deflate}, {@code br} or {@code zstd}
     * @param body the encoded body
     * @return the decoded bytes
     * @throws IOException if the body is not valid in that coding
     * @throws IllegalArgumentException for another coding
     */
    static byte[] decode(String coding, byte[] body) throws IOException {
        InputStream in = new ByteArrayInputStream(body);
        InputStream decoded = switch (coding) {
            case "identity" -> in;
            case "gzip", "x-gzip" -> new GZIPInputStream(in);
            case "deflate" -> new InflaterInputStream(in); // RFC 9110: the zlib format
            case "br" -> new org.brotli.dec.BrotliInputStream(in);
            case "zstd" -> new com.github.luben.zstd.ZstdInputStream(in);
            default -> throw new IllegalArgumentException("no decoder for " + coding);
        };
        try (decoded) {
            return decoded.readAllBytes();
        }
    }
}
