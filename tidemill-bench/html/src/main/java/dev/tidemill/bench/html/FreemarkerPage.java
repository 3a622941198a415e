package dev.tidemill.bench.html;

import dev.tidemill.bench.common.PageData;
import freemarker.template.Configuration;
import freemarker.template.Template;
import freemarker.template.TemplateException;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * FreeMarker 2.3: templates/page.ftlh (the {@code .ftlh} name selects the HTML output format, so
 * {@code ${...}} is escaped), parsed once, processed into a StringWriter, encoded to UTF-8. Its
 * own escaper is used: it writes {@code '} as {@code &#39;} where the reference keeps it; the
 * data holds none, so the bytes are the reference's.
 */
final class FreemarkerPage implements Engine {
    private final Template template;

    FreemarkerPage() {
        Configuration c = new Configuration(Configuration.VERSION_2_3_34);
        c.setClassForTemplateLoading(FreemarkerPage.class, "/templates");
        c.setDefaultEncoding("UTF-8");
        try {
            template = c.getTemplate("page.ftlh");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public byte[] render(String title, List<PageData.Row> rows) {
        StringWriter out = new StringWriter(17 * 1024);
        try {
            template.process(Map.of("title", title, "rows", rows), out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (TemplateException e) {
            throw new IllegalStateException(e);
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }
}
