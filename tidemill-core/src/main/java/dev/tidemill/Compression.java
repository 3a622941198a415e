package dev.tidemill;

import dev.tidemill.internal.codec.ContentEncoding;
import dev.tidemill.internal.integration.OptionalDependency;

/**
 * Response compression: whether it is on, the smallest body worth it, and the level of each
 * coding. Every default is defined here and only here (in {@link Builder}'s starting values),
 * every range once (in this record's range constants); the README's defaults table is checked
 * against this record by a test. The levels were picked from a measurement of the bench's 16 KiB
 * page; docs/compression.md has the table and the command.
 *
 * <p>{@code br} needs {@code com.aayushatharva.brotli4j:brotli4j} and its native jar for the
 * platform, {@code zstd} needs {@code com.github.luben:zstd-jni}; without them the coding is never
 * chosen (gzip, from the JDK, always can be) unless {@link Builder#requireBrotli()} or
 * {@link Builder#requireZstd()} asked for it, when {@link Builder#build()} fails naming the artifact.
 *
 * @param enabled compress responses whose client asks for it ({@code Accept-Encoding}); a route
 *     can say otherwise ({@link Route#compress(boolean)}). Default true.
 * @param minBytes smallest full body that is compressed, in bytes; smaller ones go as they are
 *     (a streamed body has no length and is always compressed). 0 B-1 GiB; default 512.
 * @param brotliLevel brotli quality for {@code br}. 0-11; default 4 (the bench's 14,765-byte page:
 *     9.0 % of its size for 56 us of CPU, what gzip's 6 costs; level 5 saves 104 more bytes for
 *     29 us more, level 9 costs 26 times as much).
 * @param zstdLevel zstd level for {@code zstd}. 1-22; default 3 (10.8 % for 33 us; level 6 gets
 *     9.6 % for 58 us). Streamed bodies use at most 3.
 * @param gzipLevel deflate level for {@code gzip}. 1-9; default 6 (11.5 % for 56 us; 5 is 0.2
 *     points worse for 10 % less, 9 saves 13 bytes for twice the CPU).
 */
public record Compression(boolean enabled, int minBytes, int brotliLevel, int zstdLevel, int gzipLevel) {

    // The ranges, one per numeric component. Declared before DEFAULTS: the constructor reads them.
    static final Range MIN_BYTES = Range.bytes("minBytes", 0, 1 << 30);
    static final Range BROTLI_LEVEL = Range.count("brotliLevel", 0, 11);
    static final Range ZSTD_LEVEL = Range.count("zstdLevel", 1, 22);
    static final Range GZIP_LEVEL = Range.count("gzipLevel", 1, 9);

    /** The defaults, as documented on each component. */
    public static final Compression DEFAULTS = new Builder().build();

    /** Checks every field; throws {@link IllegalArgumentException} naming the first bad one, never its value. */
    public Compression {
        MIN_BYTES.check(minBytes);
        BROTLI_LEVEL.check(brotliLevel);
        ZSTD_LEVEL.check(zstdLevel);
        GZIP_LEVEL.check(gzipLevel);
    }

    /** @return a builder holding the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder starting from these settings */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Builder for {@link Compression}; starts from the defaults, which are defined here and nowhere else. */
    public static final class Builder {
        private boolean enabled = true;
        private int minBytes = 512;
        private int brotliLevel = 4;
        private int zstdLevel = 3;
        private int gzipLevel = 6;
        private boolean requireBrotli;
        private boolean requireZstd;

        private Builder() {}

        private Builder(Compression c) {
            enabled = c.enabled;
            minBytes = c.minBytes;
            brotliLevel = c.brotliLevel;
            zstdLevel = c.zstdLevel;
            gzipLevel = c.gzipLevel;
        }

        /** @param v see {@link Compression#enabled()} @return this */
        public Builder enabled(boolean v) { enabled = v; return this; }
        /** @param v see {@link Compression#minBytes()} @return this */
        public Builder minBytes(int v) { minBytes = v; return this; }
        /** @param v see {@link Compression#brotliLevel()} @return this */
        public Builder brotliLevel(int v) { brotliLevel = v; return this; }
        /** @param v see {@link Compression#zstdLevel()} @return this */
        public Builder zstdLevel(int v) { zstdLevel = v; return this; }
        /** @param v see {@link Compression#gzipLevel()} @return this */
        public Builder gzipLevel(int v) { gzipLevel = v; return this; }

        /**
         * Asks for {@code br}: {@link #build()} throws {@link IllegalStateException} naming the
         * artifact when brotli4j or its native library for this platform is missing. Not a setting
         * of the record: it is checked here, once.
         *
         * @return this
         */
        public Builder requireBrotli() { requireBrotli = true; return this; }

        /**
         * Asks for {@code zstd}: {@link #build()} throws {@link IllegalStateException} naming
         * {@code com.github.luben:zstd-jni} when it is missing.
         *
         * @return this
         */
        public Builder requireZstd() { requireZstd = true; return this; }

        /**
         * @return the settings; throws {@link IllegalArgumentException} naming a bad field, and
         *     {@link IllegalStateException} when a required coding's library is missing
         */
        public Compression build() {
            if (requireBrotli) {
                ContentEncoding.brotliMissing().ifPresent(artifact -> {
                    throw new IllegalStateException("br compression was asked for (Compression.builder().requireBrotli(), "
                            + "or TIDEMILL_COMPRESSION_REQUIRE) but needs " + artifact + ", which is not on the class path; "
                            + "add that dependency (on the module path also `requires com.aayushatharva.brotli4j`)");
                });
            }
            if (requireZstd) OptionalDependency.ZSTD.require("Compression.builder().requireZstd(), or TIDEMILL_COMPRESSION_REQUIRE");
            return new Compression(enabled, minBytes, brotliLevel, zstdLevel, gzipLevel);
        }
    }
}
