package dev.tidemill.bench.html;

import dev.tidemill.bench.common.PageData;
import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.html.HtmlTemplateOutput;
import gg.jte.output.Utf8ByteOutput;
import java.util.List;
import java.util.Map;

/**
 * JTE, precompiled: src/main/jte/page.jte is turned into Java by jte-maven-plugin's
 * {@code generate} goal at build time (static parts as pre-encoded UTF-8, {@code
 * binaryStaticContent}), and rendered into JTE's {@link Utf8ByteOutput}.
 *
 * <p>Escaping: JTE's own HTML output (OWASP-style) writes {@code "} as {@code &#34;} and leaves
 * {@code >} alone in attribute values, where the reference writes {@code &quot;} and {@code &gt;}.
 * So the page is rendered through {@link ReferenceEscaping}, an {@link HtmlTemplateOutput} with
 * the reference's rule ({@code & < > "}, the same in text and attributes); JTE's generated code
 * and binary output are unchanged.
 */
final class JtePage implements Engine {
    private final TemplateEngine engine = TemplateEngine.createPrecompiled(ContentType.Html);

    @Override
    public byte[] render(String title, List<PageData.Row> rows) {
        Utf8ByteOutput out = new Utf8ByteOutput();
        engine.render("page.jte", Map.of("title", title, "rows", rows), new ReferenceEscaping(out));
        return out.toByteArray();
    }

    /** JTE output escaping user content by the reference's rule, wherever it lands. */
    static final class ReferenceEscaping implements HtmlTemplateOutput {
        private final Utf8ByteOutput out;

        ReferenceEscaping(Utf8ByteOutput out) {
            this.out = out;
        }

        @Override
        public void setContext(String tagName, String attributeName) {
            // one rule for text and double-quoted attribute values: nothing depends on where we are
        }

        @Override
        public void writeContent(String value) {
            out.writeContent(value);
        }

        @Override
        public void writeContent(String value, int beginIndex, int endIndex) {
            out.writeContent(value, beginIndex, endIndex);
        }

        @Override
        public void writeBinaryContent(byte[] value) {
            out.writeBinaryContent(value);
        }

        @Override
        public void writeUserContent(String value) {
            if (value == null) return;
            int from = 0;
            for (int i = 0, n = value.length(); i < n; i++) {
                String rep = switch (value.charAt(i)) {
                    case '&' -> "&amp;";
                    case '<' -> "&lt;";
                    case '>' -> "&gt;";
                    case '"' -> "&quot;";
                    default -> null;
                };
                if (rep == null) continue;
                if (i > from) out.writeContent(value, from, i);
                out.writeContent(rep);
                from = i + 1;
            }
            if (from < value.length()) out.writeContent(value, from, value.length());
        }
    }
}
