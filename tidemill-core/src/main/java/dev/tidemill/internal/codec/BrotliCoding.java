package dev.tidemill.internal.codec;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.aayushatharva.brotli4j.encoder.BrotliOutputStream;
import com.aayushatharva.brotli4j.encoder.Encoder;
import java.io.IOException;
import java.io.OutputStream;

/**
 * brotli4j, the only class of the codec that references it: loaded only once
 * {@link ContentEncoding#brotliAvailable()} found the jar, so a server without it never links
 * against brotli4j.
 */
final class BrotliCoding {
    private BrotliCoding() {}

    /** @return whether the native library loads on this platform (loading it the first time) */
    static boolean loaded() {
        return Brotli4jLoader.isAvailable();
    }

    /** @return why the native library does not load, or null */
    static Throwable cause() {
        return Brotli4jLoader.getUnavailabilityCause();
    }

    static byte[] compress(byte[] in, int off, int len, int level) throws IOException {
        return Encoder.compress(in, off, len, new Encoder.Parameters().setQuality(level));
    }

    static OutputStream stream(OutputStream sink, int level, int window) throws IOException {
        return new BrotliOutputStream(sink, new Encoder.Parameters().setQuality(level).setWindow(window), 4096);
    }
}
