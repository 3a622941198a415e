package dev.tidemill.internal.assets;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code Content-Type} of an asset, from its extension: a small table of what web pages load,
 * text types with {@code charset=utf-8}, anything else {@code application/octet-stream} (with
 * {@code nosniff}, a browser then neither renders nor runs it). The app may add or replace
 * entries ({@code StaticAssets.Builder.mediaType}).
 */
public final class MediaTypes {
    /** What an unknown extension is served as. */
    public static final String UNKNOWN = "application/octet-stream";

    private static final Map<String, String> DEFAULTS = Map.ofEntries(
            Map.entry("html", "text/html; charset=utf-8"),
            Map.entry("htm", "text/html; charset=utf-8"),
            Map.entry("css", "text/css; charset=utf-8"),
            Map.entry("js", "text/javascript; charset=utf-8"),
            Map.entry("mjs", "text/javascript; charset=utf-8"),
            Map.entry("json", "application/json"),
            Map.entry("map", "application/json"),
            Map.entry("webmanifest", "application/manifest+json"),
            Map.entry("txt", "text/plain; charset=utf-8"),
            Map.entry("md", "text/markdown; charset=utf-8"),
            Map.entry("csv", "text/csv; charset=utf-8"),
            Map.entry("xml", "application/xml"),
            Map.entry("svg", "image/svg+xml"),
            Map.entry("png", "image/png"),
            Map.entry("jpg", "image/jpeg"),
            Map.entry("jpeg", "image/jpeg"),
            Map.entry("gif", "image/gif"),
            Map.entry("webp", "image/webp"),
            Map.entry("avif", "image/avif"),
            Map.entry("ico", "image/x-icon"),
            Map.entry("woff", "font/woff"),
            Map.entry("woff2", "font/woff2"),
            Map.entry("ttf", "font/ttf"),
            Map.entry("otf", "font/otf"),
            Map.entry("wasm", "application/wasm"),
            Map.entry("pdf", "application/pdf"),
            Map.entry("mp3", "audio/mpeg"),
            Map.entry("ogg", "audio/ogg"),
            Map.entry("wav", "audio/wav"),
            Map.entry("mp4", "video/mp4"),
            Map.entry("webm", "video/webm"),
            Map.entry("zip", "application/zip"),
            Map.entry("gz", "application/gzip"));

    private final Map<String, String> byExtension;

    /** @param extra extension (no dot, any case) to type, added to or replacing the defaults */
    public MediaTypes(Map<String, String> extra) {
        Map<String, String> m = new HashMap<>(DEFAULTS);
        extra.forEach((ext, type) -> m.put(ext.toLowerCase(Locale.ROOT), type));
        this.byExtension = Map.copyOf(m);
    }

    /** @param name a file name or path @return its type by extension (case-insensitive), else {@link #UNKNOWN} */
    public String of(String name) {
        int slash = name.lastIndexOf('/');
        int dot = name.lastIndexOf('.');
        if (dot <= slash + 1) return UNKNOWN; // no extension, or a name that is only one
        return byExtension.getOrDefault(name.substring(dot + 1).toLowerCase(Locale.ROOT), UNKNOWN);
    }
}
