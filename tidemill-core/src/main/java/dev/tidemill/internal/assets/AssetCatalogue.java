package dev.tidemill.internal.assets;

import dev.tidemill.Compression;
import dev.tidemill.internal.codec.AcceptEncoding.Choice;
import dev.tidemill.internal.codec.ContentEncoding;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every asset of one {@code StaticAssets}, built once at start: directories scanned, resources
 * added by name, each hashed (SHA-256 of its bytes) and, when it is worth it, precompressed. Looked
 * up by logical and by hashed name; immutable afterwards, so requests read it without locks.
 *
 * <p>The scan follows the rules of {@link AssetPath}: dotfiles and dot-directories are skipped
 * (unless enabled), names that could not be asked for ({@code \}, control characters) are skipped
 * with a warning, a symbolic link is served only when its real path is a regular file inside the
 * root's real path (links to directories are not walked), and anything that is not a regular file
 * is skipped. What is not in the catalogue cannot be served.
 */
public final class AssetCatalogue {
    private static final Logger LOG = LoggerFactory.getLogger(AssetCatalogue.class);

    /** Hex characters of the content hash in a hashed name: 40 bits, a 1-in-10^12 chance that a change keeps the name. */
    static final int NAME_HASH_CHARS = 10;
    /** Hex characters of the content hash in an entity-tag (it is never typed, so it can be longer). */
    static final int ETAG_HASH_CHARS = 16;

    private final Map<String, Asset> byName;

    private AssetCatalogue(Map<String, Asset> byName) {
        this.byName = byName;
    }

    /**
     * What a catalogue is built from and how.
     *
     * @param directories roots scanned, in order
     * @param resources logical name to bytes (in-memory and class-path assets), in order
     * @param dotfiles serve names with a segment starting with {@code .}
     * @param maxInMemoryBytes files larger than this are sent from disk, not held
     * @param precompression whether and how variants are computed
     * @param mediaTypes the extension table
     */
    public record Sources(List<Path> directories, Map<String, byte[]> resources, boolean dotfiles, long maxInMemoryBytes,
            Compression precompression, MediaTypes mediaTypes) {}

    /**
     * Scans, hashes and precompresses now.
     *
     * @param sources what to build from
     * @return the catalogue
     * @throws UncheckedIOException a directory cannot be read
     * @throws IllegalStateException two sources give the same name, or a hashed name is another asset's name
     * @throws IllegalArgumentException a resource name is not a valid asset name
     */
    public static AssetCatalogue build(Sources sources) {
        long start = System.nanoTime();
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Map<String, Asset> byName = new LinkedHashMap<>();
        Map<String, String> origin = new LinkedHashMap<>();
        Builder b = new Builder(sources);
        for (Path dir : sources.directories()) {
            for (Found f : scan(dir, sources.dotfiles())) {
                add(byName, origin, b.fromFile(f), f.file().toString());
            }
        }
        for (Map.Entry<String, byte[]> r : sources.resources().entrySet()) {
            if (!AssetPath.validName(r.getKey(), sources.dotfiles())) {
                throw new IllegalArgumentException("not a valid asset name (empty segments, '.' or '..', '\\', control "
                        + "characters, or a dotfile while dotfiles are off): " + r.getKey());
            }
            add(byName, origin, b.fromBytes(r.getKey(), r.getValue(), now), "resource " + r.getKey());
        }
        for (Asset a : byName.values()) {
            if (byName.containsKey(a.hashedName())) {
                throw new IllegalStateException("the hashed name of " + a.name() + " is the name of another asset: " + a.hashedName());
            }
        }
        if (LOG.isInfoEnabled()) {
            long variants = byName.values().stream().mapToLong(a -> a.variants().length).sum();
            LOG.info("static assets: {} files, {} precompressed variants, built in {} ms", byName.size(), variants,
                    (System.nanoTime() - start) / 1_000_000);
        }
        return new AssetCatalogue(java.util.Collections.unmodifiableMap(byName));
    }

    /** @return every asset, in scan order */
    java.util.Collection<Asset> assets() {
        return byName.values();
    }

    /** @return every logical name */
    public Set<String> names() {
        return byName.keySet();
    }

    /** @return the hashed name of a logical name, or null if there is no such asset */
    public String hashedName(String name) {
        Asset a = byName.get(name);
        return a == null ? null : a.hashedName();
    }

    private static void add(Map<String, Asset> byName, Map<String, String> origin, Asset a, String from) {
        String before = origin.putIfAbsent(a.name(), from);
        if (before != null) throw new IllegalStateException("two assets named " + a.name() + ": " + before + " and " + from);
        byName.put(a.name(), a);
    }

    /** A regular file the scan accepted: its logical name and real path. */
    private record Found(String name, Path file, BasicFileAttributes attrs) {}

    private static List<Found> scan(Path dir, boolean dotfiles) {
        List<Found> found = new ArrayList<>();
        try {
            Path root = dir.toRealPath();
            if (!Files.isDirectory(root)) throw new IllegalArgumentException("not a directory: " + dir);
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
                    if (d.equals(root)) return FileVisitResult.CONTINUE;
                    return d.getFileName().toString().startsWith(".") && !dotfiles ? FileVisitResult.SKIP_SUBTREE
                            : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    String name = nameOf(root, file);
                    if (!AssetPath.validName(name, dotfiles)) {
                        if (!file.getFileName().toString().startsWith(".")) LOG.warn("static assets: skipped {}: not a name a URL can ask for", file);
                        return FileVisitResult.CONTINUE;
                    }
                    Path real = file;
                    BasicFileAttributes a = attrs;
                    if (attrs.isSymbolicLink()) {
                        try {
                            real = file.toRealPath();
                        } catch (IOException e) {
                            LOG.warn("static assets: skipped {}: a link to nothing", file);
                            return FileVisitResult.CONTINUE;
                        }
                        if (!real.startsWith(root)) {
                            LOG.warn("static assets: skipped {}: a link out of the root", file);
                            return FileVisitResult.CONTINUE;
                        }
                        if (!AssetPath.validName(nameOf(root, real), dotfiles)) {
                            LOG.warn("static assets: skipped {}: a link to a file that is not served itself", file);
                            return FileVisitResult.CONTINUE;
                        }
                        a = Files.readAttributes(real, BasicFileAttributes.class);
                    }
                    if (a.isRegularFile()) found.add(new Found(name, real, a));
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    LOG.warn("static assets: skipped {}: {}", file, e.toString());
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("static assets: cannot read " + dir, e);
        }
        return found;
    }

    private static String nameOf(Path root, Path file) {
        Path rel = root.relativize(file);
        StringBuilder s = new StringBuilder();
        for (Path part : rel) {
            if (!s.isEmpty()) s.append('/');
            s.append(part);
        }
        return s.toString();
    }

    /** Turns bytes or a file into an {@link Asset}: hash, names, type, variants. */
    private static final class Builder {
        private final Sources sources;
        private final boolean brotli = ContentEncoding.brotliAvailable();
        private final boolean zstd = ContentEncoding.zstdAvailable();

        Builder(Sources sources) {
            this.sources = sources;
        }

        Asset fromBytes(String name, byte[] bytes, Instant modified) {
            String hash = HexFormat.of().formatHex(sha256(bytes));
            String type = sources.mediaTypes().of(name);
            String etag = "\"" + hash.substring(0, ETAG_HASH_CHARS) + "\"";
            return new Asset(name, hashedName(name, hash), type, modified, bytes.length, bytes, null, etag, variants(bytes, type, hash));
        }

        Asset fromFile(Found f) {
            Instant modified = f.attrs().lastModifiedTime().toInstant().truncatedTo(ChronoUnit.SECONDS);
            try {
                if (f.attrs().size() <= sources.maxInMemoryBytes()) return fromBytes(f.name(), Files.readAllBytes(f.file()), modified);
                String hash = HexFormat.of().formatHex(sha256(f.file()));
                String type = sources.mediaTypes().of(f.name());
                String etag = "\"" + hash.substring(0, ETAG_HASH_CHARS) + "\"";
                // Large files are sent as they are, from disk: a compressed form would have to be
                // held in memory or written somewhere, and most files this large are media anyway.
                return new Asset(f.name(), hashedName(f.name(), hash), type, modified, f.attrs().size(), null, f.file(), etag,
                        new Asset.Variant[0]);
            } catch (IOException e) {
                throw new UncheckedIOException("static assets: cannot read " + f.file(), e);
            }
        }

        private Asset.Variant[] variants(byte[] bytes, String type, String hash) {
            Compression c = sources.precompression();
            if (!c.enabled() || bytes.length < c.minBytes() || ContentEncoding.alreadyCompressed(type)) return new Asset.Variant[0];
            List<Asset.Variant> kept = new ArrayList<>(3);
            ByteBuf in = Unpooled.wrappedBuffer(bytes);
            for (Choice coding : new Choice[] {Choice.BR, Choice.ZSTD, Choice.GZIP}) {
                if (coding == Choice.BR && !brotli || coding == Choice.ZSTD && !zstd) continue;
                int level = switch (coding) {
                    case BR -> c.brotliLevel();
                    case ZSTD -> c.zstdLevel();
                    default -> c.gzipLevel();
                };
                ByteBuf out = ContentEncoding.encode(coding, in, level, UnpooledByteBufAllocator.DEFAULT);
                try {
                    // Kept only when smaller: otherwise a client asking for it gets more bytes for nothing.
                    if (out.readableBytes() < bytes.length) {
                        String token = ContentEncoding.token(coding);
                        kept.add(new Asset.Variant(coding, ByteBufUtil.getBytes(out),
                                "\"" + hash.substring(0, ETAG_HASH_CHARS) + "-" + token + "\""));
                    }
                } finally {
                    out.release();
                }
            }
            return kept.toArray(Asset.Variant[]::new);
        }
    }

    /** {@code app.min.css} -> {@code app.min.<hash>.css}; {@code LICENSE} -> {@code LICENSE.<hash>}. */
    static String hashedName(String name, String hash) {
        String h = hash.substring(0, NAME_HASH_CHARS);
        int slash = name.lastIndexOf('/');
        int dot = name.lastIndexOf('.');
        if (dot <= slash + 1) return name + "." + h;
        return name.substring(0, dot) + "." + h + name.substring(dot);
    }

    private static byte[] sha256(byte[] bytes) {
        return digest().digest(bytes);
    }

    private static byte[] sha256(Path file) throws IOException {
        MessageDigest md = digest();
        byte[] buf = new byte[64 * 1024];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buf)) > 0; ) md.update(buf, 0, n);
        }
        return md.digest();
    }

    private static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
