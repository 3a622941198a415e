package dev.tidemill.html;

import static dev.tidemill.html.Tags.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The render buffer: pages larger than a block or than what a thread keeps, renders inside renders, long strings. */
class HtmlOutputTest {

    /** A piece that renders another piece to bytes while it is itself being rendered (the thread's array is busy). */
    private static final class Nested extends Html {
        private final Html inner;

        Nested(Html inner) {
            this.inner = inner;
        }

        @Override
        void render(HtmlOutput out) {
            out.ascii("[");
            out.write(new String(inner.toBytes(), StandardCharsets.UTF_8), HtmlOutput.Escape.TEXT);
            out.ascii("]");
        }
    }

    @Test
    void aRenderInsideARenderGetsItsOwnBuffer() {
        Html page = div("before ", new Nested(p("in & out")), " after");
        assertThat(page.toString()).isEqualTo("<div>before [&lt;p&gt;in &amp;amp; out&lt;/p&gt;] after</div>");
        assertThat(page.toString()).isEqualTo("<div>before [&lt;p&gt;in &amp;amp; out&lt;/p&gt;] after</div>"); // and again, reused
    }

    @Test
    void aPageLargerThanABlockReachesTheBufferWhole() {
        Html page = ul(IntStream.range(0, 20_000).mapToObj(i -> li(data("i", i), "row <" + i + ">")));
        StringBuilder expected = new StringBuilder("<ul>");
        for (int i = 0; i < 20_000; i++) expected.append("<li data-i=\"").append(i).append("\">row &lt;").append(i).append("&gt;</li>");
        expected.append("</ul>");
        assertThat(expected.length()).isGreaterThan(HtmlOutput.KEPT_BYTES / 2);

        ByteBuf buf = Unpooled.buffer();
        try {
            HtmlOutput.render(page, buf);
            assertThat(buf.toString(StandardCharsets.UTF_8)).isEqualTo(expected.toString());
        } finally {
            buf.release();
        }
        assertThat(page.toString()).isEqualTo(expected.toString());
    }

    @Test
    void aPageLargerThanWhatAThreadKeepsRendersAndTheNextPageIsRight() {
        String big = "x&".repeat(HtmlOutput.KEPT_BYTES); // 2 MiB of chars, 6 MiB escaped
        Html page = p(big);
        byte[] bytes = page.toBytes();
        assertThat(bytes.length).isEqualTo(3 + HtmlOutput.KEPT_BYTES * 6 + 4);
        assertThat(new String(bytes, 0, 12, StandardCharsets.UTF_8)).isEqualTo("<p>x&amp;x&a");
        assertThat(p("small").toString()).isEqualTo("<p>small</p>");
    }

    @Test
    void nonAsciiAndEntitiesMixedWithLongAsciiRuns() {
        String s = "a".repeat(10_000) + "é<😀>" + "b".repeat(10_000) + "\uD800";
        assertThat(p(s).toString()).isEqualTo("<p>" + "a".repeat(10_000) + "é&lt;😀&gt;" + "b".repeat(10_000) + "\uFFFD</p>");
    }

    @Test
    void aValueWrittenTwiceIsEscapedForEachPlaceItGoes() {
        String quoted = "say \"hi\"";      // nothing to escape in a comment, a quote in text and in an attribute
        String apostrophe = "it's";
        String plain = "Ada";
        assertThat(p(Html.comment(quoted), quoted, span(attr("title", quoted), quoted)).toString())
                .isEqualTo("<p><!--say \"hi\"-->say &quot;hi&quot;<span title=\"say &quot;hi&quot;\">say &quot;hi&quot;</span></p>");
        assertThat(p(apostrophe, span(jsonAttr("data-x", apostrophe), attr("title", apostrophe), apostrophe)).toString())
                .isEqualTo("<p>it's<span data-x='it&#39;s' title=\"it's\">it's</span></p>");
        assertThat(a(href(plain), plain, attr("title", plain), Html.comment(plain)).toString())
                .isEqualTo("<a href=\"Ada\" title=\"Ada\">Ada<!--Ada--></a>");
        String amp = "a&b";
        assertThat(p(amp, attr("title", amp), amp).toString()).isEqualTo("<p title=\"a&amp;b\">a&amp;ba&amp;b</p>");
    }
}
