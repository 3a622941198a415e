package dev.tidemill.tests.support;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.aayushatharva.brotli4j.decoder.BrotliInputStream;
import com.aayushatharva.brotli4j.decoder.DecoderJNI;
import com.github.luben.zstd.ZstdInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;

/** Real decoders for the codings the server sends: brotli4j's, zstd-jni's and the JDK's gzip. */
public final class Decoders {
    private Decoders() {}

    /** @return {@code bytes} decoded whole; throws if they are not one complete stream of {@code coding} */
    public static byte[] decode(String coding, byte[] bytes) {
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
    public static byte[] decodePrefix(String coding, byte[] bytes) {
        if (coding.equals("br")) return brotliPrefix(bytes);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[256];
        try (InputStream in = open(coding, bytes)) {
            for (int n; (n = in.read(buf)) > 0; ) out.write(buf, 0, n);
        } catch (IOException | RuntimeException truncated) {
            // the stream is not finished: what was decoded before is the answer
        }
        return out.toByteArray();
    }

    /**
     * brotli4j's (and Google's) input streams decode ahead and throw at a truncated end without
     * handing over what they decoded, so the prefix goes through brotli4j's push/pull decoder.
     */
    private static byte[] brotliPrefix(byte[] bytes) {
        Brotli4jLoader.ensureAvailability();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            DecoderJNI.Wrapper w = new DecoderJNI.Wrapper(Math.max(1, bytes.length));
            try {
                w.getInputBuffer().put(bytes);
                w.push(bytes.length);
                while (true) {
                    DecoderJNI.Status status = w.getStatus();
                    if (w.hasOutput() || status == DecoderJNI.Status.NEEDS_MORE_OUTPUT) {
                        ByteBuffer o = w.pull();
                        byte[] b = new byte[o.remaining()];
                        o.get(b);
                        out.writeBytes(b);
                    } else if (status == DecoderJNI.Status.OK) {
                        w.push(0);
                    } else {
                        return out.toByteArray(); // NEEDS_MORE_INPUT, DONE or ERROR: all decoded so far
                    }
                }
            } finally {
                w.destroy();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
