package dev.tidemill;

import dev.tidemill.internal.assets.AssetCatalogue;
import dev.tidemill.internal.assets.AssetHandler;
import dev.tidemill.internal.assets.MediaTypes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Static files served with content-hashed names: a directory scanned at start and resources added
 * by name, each hashed, precompressed and held ready, served under a prefix by
 * {@link Routes#assets(String, StaticAssets)}.
 *
 * <pre>{@code
 * StaticAssets assets = StaticAssets.builder()
 *         .directory(Path.of("web"))                        // web/css/app.css ...
 *         .classpath(App.class, "datastar.js")              // a resource next to App.class
 *         .build();                                         // scans, hashes, compresses now
 * app.assets("/assets", assets);
 * String href = assets.href("css/app.css");                 // /assets/css/app.3f2a9c01bd.css
 * }</pre>
 *
 * <p>A hashed name ({@code app.<10 hex digits of SHA-256>.css}) is answered with
 * {@code Cache-Control: public, max-age=31536000, immutable}, a strong {@code ETag} per coding,
 * {@code Last-Modified}, {@code X-Content-Type-Options: nosniff}; the br, zstd or gzip form that
 * {@code Accept-Encoding} prefers among those kept (each kept only when smaller than the file, never
 * for images, audio, video, fonts or archives); 304 for {@code If-None-Match}/{@code If-Modified-Since};
 * one {@code Range} of the identity form (206, 416; {@code If-Range}). The logical name is redirected
 * with 307 to the hashed one; anything else is 404. Files are never looked up on disk by the
 * request's path: only what the scan accepted can be served. See docs/static-assets.md.
 *
 * <p>The catalogue is fixed at {@link Builder#build()}: files changed later are not noticed (and
 * a large file, sent from disk, must not change while the server runs).
 */
public final class StaticAssets {
    /** The range of {@link #maxInMemoryBytes()}: 0 (every file from disk) to 1 GiB. */
    static final Range MAX_IN_MEMORY = Range.bytes("maxInMemoryBytes", 0, 1 << 30);

    private final AssetHandler handler;
    private final boolean dotfiles;
    private final long maxInMemoryBytes;
    private final Compression precompression;

    private StaticAssets(Builder b) {
        this.dotfiles = b.dotfiles;
        this.maxInMemoryBytes = b.maxInMemoryBytes;
        this.precompression = b.precompression;
        AssetCatalogue catalogue = AssetCatalogue.build(new AssetCatalogue.Sources(List.copyOf(b.directories),
                b.resources, dotfiles, maxInMemoryBytes, precompression, new MediaTypes(b.mediaTypes)));
        this.handler = new AssetHandler(catalogue, dotfiles);
    }

    /** @return a builder holding the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The URL path of an asset, for templates: the prefix it was registered at and its hashed
     * name, percent-encoded.
     *
     * @param name a logical name, e.g. {@code css/app.css}
     * @return e.g. {@code /assets/css/app.3f2a9c01bd.css}
     * @throws IllegalArgumentException if there is no asset of that name
     * @throws IllegalStateException if the assets are not registered yet ({@link Routes#assets})
     */
    public String href(String name) {
        return handler.href(Objects.requireNonNull(name, "name"));
    }

    /** @return every logical name, in the order they were found */
    public List<String> names() {
        return handler.names();
    }

    /** @return whether names with a segment starting with {@code .} are served; default false */
    public boolean dotfiles() {
        return dotfiles;
    }

    /**
     * @return files larger than this, in bytes, are sent from disk rather than held in memory (and
     *     are not precompressed); default 1 MiB (1,048,576), range 0 B-1 GiB
     */
    public long maxInMemoryBytes() {
        return maxInMemoryBytes;
    }

    /**
     * @return how variants are computed at start: {@link Compression#enabled()} to compute any,
     *     {@link Compression#minBytes()} the smallest file compressed (default 512, as for responses),
     *     and the levels (defaults br 11, zstd 19, gzip 9: the smallest output, since it is
     *     paid once at start and saved on every response)
     */
    public Compression precompression() {
        return precompression;
    }

    Handler handler() {
        return handler;
    }

    void checkNotMounted() {
        handler.checkNotMounted();
    }

    void mounted(String pattern) {
        handler.mount(pattern);
    }

    static String catchAll() {
        return AssetHandler.catchAll();
    }

    /** Builder for {@link StaticAssets}; starts from the defaults, which are defined here and nowhere else. */
    public static final class Builder {
        private final List<Path> directories = new ArrayList<>();
        private final Map<String, byte[]> resources = new LinkedHashMap<>();
        private final Map<String, String> mediaTypes = new LinkedHashMap<>();
        private boolean dotfiles = false;
        private long maxInMemoryBytes = 1 << 20;
        private Compression precompression = Compression.builder().brotliLevel(11).zstdLevel(19).gzipLevel(9).build();

        private Builder() {}

        /**
         * Adds every regular file under a directory, named by its path relative to it with
         * {@code /} separators ({@code css/app.css}). Scanned at {@link #build()}.
         *
         * @param root the directory
         * @return this
         */
        public Builder directory(Path root) {
            directories.add(Objects.requireNonNull(root, "root"));
            return this;
        }

        /**
         * Adds an asset held in memory.
         *
         * @param name its logical name, e.g. {@code js/datastar.js} (no leading {@code /}, no
         *     {@code .} or {@code ..} segments, no {@code \} or control characters)
         * @param content its bytes (not copied: do not change them afterwards)
         * @return this
         */
        public Builder resource(String name, byte[] content) {
            Objects.requireNonNull(name, "name");
            resources.put(name, Objects.requireNonNull(content, "content"));
            return this;
        }

        /**
         * Adds resources found with {@link Class#getResourceAsStream(String)} of {@code anchor}:
         * names relative to its package (or absolute with a leading {@code /}), each becoming an
         * asset of the same name without the leading {@code /}. Read now.
         *
         * @param anchor a class of the module or jar that holds the resources
         * @param names the resource names, e.g. {@code web/datastar.js}
         * @return this
         * @throws IllegalArgumentException if a resource is not found
         * @throws UncheckedIOException if one cannot be read
         */
        public Builder classpath(Class<?> anchor, String... names) {
            Objects.requireNonNull(anchor, "anchor");
            for (String name : names) {
                try (InputStream in = anchor.getResourceAsStream(name)) {
                    if (in == null) throw new IllegalArgumentException("no resource " + name + " next to " + anchor.getName());
                    resource(name.startsWith("/") ? name.substring(1) : name, in.readAllBytes());
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read resource " + name, e);
                }
            }
            return this;
        }

        /** @param v see {@link StaticAssets#dotfiles()} @return this */
        public Builder dotfiles(boolean v) {
            dotfiles = v;
            return this;
        }

        /** @param bytes see {@link StaticAssets#maxInMemoryBytes()} @return this */
        public Builder maxInMemoryBytes(long bytes) {
            MAX_IN_MEMORY.check(bytes);
            maxInMemoryBytes = bytes;
            return this;
        }

        /** @param settings see {@link StaticAssets#precompression()} @return this */
        public Builder precompression(Compression settings) {
            precompression = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /**
         * Adds or replaces an entry of the extension table (the built-in one covers what pages
         * load: html, css, js, json, svg, png, woff2, wasm...; anything else is
         * {@code application/octet-stream}).
         *
         * @param extension without the dot, any case, e.g. {@code glb}
         * @param contentType e.g. {@code model/gltf-binary}
         * @return this
         */
        public Builder mediaType(String extension, String contentType) {
            mediaTypes.put(Objects.requireNonNull(extension, "extension"), Objects.requireNonNull(contentType, "contentType"));
            return this;
        }

        /**
         * Scans the directories, reads, hashes and precompresses everything now.
         *
         * @return the assets
         * @throws UncheckedIOException a directory or file cannot be read
         * @throws IllegalStateException two assets have the same name, or a hashed name is another asset's
         * @throws IllegalArgumentException a resource name is not a valid asset name
         */
        public StaticAssets build() {
            return new StaticAssets(this);
        }
    }
}
