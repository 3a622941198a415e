package dev.tidemill.it;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.aayushatharva.brotli4j.decoder.BrotliInputStream;
import com.github.luben.zstd.ZstdInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.zip.GZIPInputStream;

/** Real decoders for the codings the server sends: brotli4j's, zstd-jni's and the JDK's gzip. */
final class Decoders {
    private Decoders() {}

    /** @return {@code bytes} decoded whole; throws if they are not one complete stream of {@code coding} */
    static byte[] decode(String coding, byte[] bytes) {
        try (InputStream in = open(coding, bytes)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(coding + " did not decode", e);
        }
    }

    /**
     * @return what a streaming decoder can give from the start of a stream that is not finished
     *     yet: every byte before the end of the input (which the decoder reports as truncation)
     */
    static byte[] decodePrefix(String coding, byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[256];
        try (InputStream in = open(coding, bytes)) {
            for (int n; (n = in.read(buf)) > 0; ) out.write(buf, 0, n);
        } catch (IOException | RuntimeException truncated) {
            // the stream is not finished: what was decoded before is the answer
        }
        return out.toByteArray();
    }

    private static InputStream open(String coding, byte[] bytes) throws IOException {
        InputStream raw = new ByteArrayInputStream(bytes);
        return switch (coding) {
            case "br" -> {
                Brotli4jLoader.ensureAvailability();
                yield new BrotliInputStream(raw);
            }
            case "zstd" -> new ZstdInputStream(raw);
            case "gzip" -> new GZIPInputStream(raw);
            default -> throw new IllegalArgumentException(coding);
        };
    }
}
