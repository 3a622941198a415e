package dev.tidemill.bench.html;

import com.github.mustachejava.DefaultMustacheFactory;
import com.github.mustachejava.Mustache;
import dev.tidemill.bench.common.PageData;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Mustache.java 0.9: templates/page.mustache, compiled once, executed into a StringWriter, encoded
 * to UTF-8. Its own escaper is used: it also writes {@code '}, {@code `} and {@code =} as
 * entities where the reference keeps them; the data holds none, so the bytes are the reference's.
 */
final class MustachePage implements Engine {
    private final Mustache template = new DefaultMustacheFactory("templates").compile("page.mustache");

    @Override
    public byte[] render(String title, List<PageData.Row> rows) {
        StringWriter out = new StringWriter(17 * 1024);
        template.execute(out, Map.of("title", title, "rows", rows));
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }
}
