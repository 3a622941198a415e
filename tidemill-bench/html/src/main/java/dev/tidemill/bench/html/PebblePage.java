package dev.tidemill.bench.html;

import dev.tidemill.bench.common.PageData;
import io.pebbletemplates.pebble.PebbleEngine;
import io.pebbletemplates.pebble.loader.ClasspathLoader;
import io.pebbletemplates.pebble.template.PebbleTemplate;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Pebble 3.2: templates/page.peb, compiled once (autoescaping on, the default), evaluated into a
 * StringWriter, encoded to UTF-8. {@code newLineTrimming} is off so the newline after a tag stays,
 * as in every other engine's page. Its own escaper is used: it writes {@code '} as {@code &#39;}
 * where the reference keeps it; the data holds none, so the bytes are the reference's.
 */
final class PebblePage implements Engine {
    private final PebbleTemplate template;

    PebblePage() {
        ClasspathLoader loader = new ClasspathLoader();
        loader.setPrefix("templates");
        template = new PebbleEngine.Builder().loader(loader).newLineTrimming(false).build().getTemplate("page.peb");
    }

    @Override
    public byte[] render(String title, List<PageData.Row> rows) {
        StringWriter out = new StringWriter(17 * 1024);
        try {
            template.evaluate(out, Map.of("title", title, "rows", rows));
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not throw
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }
}
