package dev.tidemill.bench.html;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.bench.common.PageData;
import dev.tidemill.html.Html;
import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.Utf8ByteOutput;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Why two engines render through an escaper of the reference's rule: their own escaping gives
 * different bytes for this page (the same page to a browser). If either ever matched, the
 * workaround could go.
 */
class ReferenceEscapingTest {
    @Test
    void jteOwnEscapingDiffersFromTheReference() {
        Utf8ByteOutput out = new Utf8ByteOutput();
        TemplateEngine.createPrecompiled(ContentType.Html).render("page.jte", Map.of("title", PageData.TITLE, "rows", PageData.rows()), out);
        String page = new String(out.toByteArray(), StandardCharsets.UTF_8);
        assertThat(page).isNotEqualTo(PageData.reference()).contains("&#34;");
    }

    @Test
    void tidemillTextLeavesQuotesWhereTheReferenceEscapesThem() {
        String note = "Says \"5 > 3\"";
        assertThat(Html.text(note).toString()).isEqualTo("Says \"5 &gt; 3\"");
        assertThat(ReferenceText.of(note).toString()).isEqualTo(PageData.escape(note)).isEqualTo("Says &quot;5 &gt; 3&quot;");
        assertThat(ReferenceText.of("\"a\"\"").toString()).isEqualTo(PageData.escape("\"a\"\""));
        assertThat(ReferenceText.of("no quote & <b>").toString()).isEqualTo(PageData.escape("no quote & <b>"));
    }
}
