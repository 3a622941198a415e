package dev.tidemill.bench.html;

import dev.tidemill.bench.common.PageData;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.thymeleaf.TemplateEngine;
import org.thymeleaf.context.Context;
import org.thymeleaf.templatemode.TemplateMode;
import org.thymeleaf.templateresolver.ClassLoaderTemplateResolver;

/**
 * Thymeleaf 3.1: templates/page.html in HTML mode, parsed once and cached, processed into a
 * StringWriter, encoded to UTF-8 (OGNL expressions: the standard dialect without Spring). Its own
 * escaper is used: it writes {@code '} as {@code &#39;} where the reference keeps it; the data
 * holds none, so the bytes are the reference's.
 */
final class ThymeleafPage implements Engine {
    private final TemplateEngine engine = new TemplateEngine();

    ThymeleafPage() {
        ClassLoaderTemplateResolver resolver = new ClassLoaderTemplateResolver();
        resolver.setPrefix("templates/");
        resolver.setSuffix(".html");
        resolver.setTemplateMode(TemplateMode.HTML);
        resolver.setCharacterEncoding("UTF-8");
        resolver.setCacheable(true);
        engine.setTemplateResolver(resolver);
    }

    @Override
    public byte[] render(String title, List<PageData.Row> rows) {
        StringWriter out = new StringWriter(17 * 1024);
        engine.process("page", new Context(java.util.Locale.ROOT, Map.of("title", title, "rows", rows)), out);
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }
}
