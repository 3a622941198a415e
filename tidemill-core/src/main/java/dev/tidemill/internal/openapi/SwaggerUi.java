package dev.tidemill.internal.openapi;

import dev.tidemill.Compression;
import dev.tidemill.StaticAssets;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * Swagger UI from the {@code org.webjars:swagger-ui} jar on the class path (never a CDN): its
 * stylesheet and bundle as hashed static assets, and a page that loads them and points the UI at
 * the document. The jar is an optional dependency of the core; without it, asking for the UI fails
 * at registration with what to add.
 */
public final class SwaggerUi {
    private static final String POM = "META-INF/maven/org.webjars/swagger-ui/pom.properties";
    /** What the page loads; the BaseLayout needs no standalone preset. */
    static final String STYLESHEET = "swagger-ui.css";
    static final String BUNDLE = "swagger-ui-bundle.js";

    private SwaggerUi() {}

    /**
     * Reads the UI's files from the webjar and precompresses them. Brotli 5, zstd 9 and gzip 6
     * rather than the static assets' maximum levels: the 1.5 MB bundle at brotli 11 would cost
     * seconds of every start, for a page developers open.
     *
     * @return the assets, not yet mounted
     * @throws IllegalStateException if the webjar is not on the class path
     */
    public static StaticAssets assets() {
        ClassLoader loader = SwaggerUi.class.getClassLoader();
        String base = "META-INF/resources/webjars/swagger-ui/" + version(loader) + "/";
        StaticAssets.Builder b = StaticAssets.builder()
                .precompression(Compression.builder().brotliLevel(5).zstdLevel(9).gzipLevel(6).build())
                .maxInMemoryBytes(8 << 20);
        for (String name : new String[] {STYLESHEET, BUNDLE}) b.resource(name, read(loader, base + name));
        return b.build();
    }

    private static String version(ClassLoader loader) {
        try (InputStream in = loader.getResourceAsStream(POM)) {
            if (in == null) {
                throw new IllegalStateException("Swagger UI needs the org.webjars:swagger-ui jar on the class path "
                        + "(5.34.1 is the version tested); add it, or turn the UI off with OpenApi.builder().ui(false)");
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + POM, e);
        }
    }

    private static byte[] read(ClassLoader loader, String name) {
        try (InputStream in = loader.getResourceAsStream(name)) {
            if (in == null) throw new IllegalStateException("the swagger-ui jar has no " + name);
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name, e);
        }
    }

    /**
     * @param title the API's title
     * @param assets the UI's assets, mounted
     * @param documentPath where the document is served, e.g. {@code /openapi.json}
     * @return the page
     */
    public static String page(String title, StaticAssets assets, String documentPath) {
        return "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                + "<title>" + html(title) + " - Swagger UI</title>\n"
                + "<link rel=\"icon\" href=\"data:,\">\n" // no favicon request, so no 404 in the console
                + "<link rel=\"stylesheet\" href=\"" + html(assets.href(STYLESHEET)) + "\">\n"
                + "</head>\n<body>\n<div id=\"swagger-ui\"></div>\n"
                + "<script src=\"" + html(assets.href(BUNDLE)) + "\"></script>\n"
                + "<script>\nwindow.ui = SwaggerUIBundle({url: " + js(documentPath) + ", dom_id: \"#swagger-ui\", "
                + "deepLinking: true, validatorUrl: null, presets: [SwaggerUIBundle.presets.apis], layout: \"BaseLayout\"});\n"
                + "</script>\n</body>\n</html>\n";
    }

    private static String html(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;").replace("'", "&#39;");
    }

    /** A JavaScript string literal safe inside a script element. */
    private static String js(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' || c > 0x7e) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
