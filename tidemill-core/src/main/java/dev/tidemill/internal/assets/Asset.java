package dev.tidemill.internal.assets;

import dev.tidemill.internal.codec.AcceptEncoding.Choice;
import java.nio.file.Path;
import java.time.Instant;

/**
 * One asset of the catalogue, as the scan found it: immutable, shared by every request.
 *
 * @param name the logical name, e.g. {@code css/app.css}
 * @param hashedName the name with the content hash, e.g. {@code css/app.3f2a9c01bd.css}
 * @param contentType its {@code Content-Type}
 * @param lastModified the file's modification time (a resource's: the catalogue's build time), whole seconds
 * @param length bytes of the identity form
 * @param bytes the identity form in memory, or null when it is sent from {@code file}
 * @param file the file sent from disk (its real path, checked inside the root), or null when in memory
 * @param etag the identity form's strong entity-tag, quotes included
 * @param variants the precompressed forms kept (each smaller than the identity form), best first: br, zstd, gzip
 */
record Asset(String name, String hashedName, String contentType, Instant lastModified, long length, byte[] bytes, Path file,
        String etag, Variant[] variants) {

    /**
     * A precompressed form.
     *
     * @param coding br, zstd or gzip
     * @param bytes the compressed bytes
     * @param etag its own strong entity-tag: another representation, other bytes (RFC 9110 8.8.3)
     */
    record Variant(Choice coding, byte[] bytes, String etag) {}

    /** @return the variant of {@code coding}, or null */
    Variant variant(Choice coding) {
        for (Variant v : variants) if (v.coding() == coding) return v;
        return null;
    }
}
