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
 * Why some engines render through an escaper of the reference's rule, or get a byte added: their
 * own output differs from the reference for this page (JTE: the same page to a browser; HtmlFlow:
 * attribute values not escaped at all). If one ever matched, its workaround could go. Tidemill's
 * own escaping is the reference's, with no workaround, which the Tidemill test keeps true.
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
    void tidemillTextEscapesAsTheReferenceDoes() {
        String note = "Says \"5 > 3\" & <b>";
        assertThat(Html.text(note).toString()).isEqualTo(PageData.escape(note)).isEqualTo("Says &quot;5 &gt; 3&quot; &amp; &lt;b&gt;");
    }

    @Test
    void htmlFlowWritesAttributeValuesUnescapedAndNoNewlineAfterTheDoctype() {
        htmlflow.HtmlView<String> view = htmlflow.HtmlFlow.<String>view(page -> page.html().body().div()
                .<String>dynamic((div, v) -> div.addAttr("data-name", v).text(v)).__().__().__()).setIndented(false);
        assertThat(view.render("a\"<b"))
                .startsWith("<!DOCTYPE html><html>")
                .contains("data-name=\"a\"<b\"")    // the attribute value as given: the quote ends it
                .contains(">a&quot;&lt;b</div>");     // text is escaped
    }
}
