package dev.tidemill.html;

import static dev.tidemill.html.Tags.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The builder's escaping against a reference escaper written the plain way (one replace per
 * character, the JDK's UTF-8 encoder), over random strings heavy in markup characters, quotes,
 * non-ASCII text and lone surrogates.
 */
class HtmlEscapingTest {

    /** The reference: {@code &} first, then the rest, as a textbook escaper does; lone surrogates as U+FFFD. */
    static String reference(String s, boolean dq, boolean sq) {
        String r = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
        if (dq) r = r.replace("\"", "&quot;");
        if (sq) r = r.replace("'", "&#39;");
        // What the JDK's encoder makes of lone surrogates ('?'), replaced by U+FFFD as the builder writes them.
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < r.length(); i++) {
            char c = r.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < r.length() && Character.isLowSurrogate(r.charAt(i + 1))) {
                b.append(c).append(r.charAt(++i));
            } else if (Character.isSurrogate(c)) {
                b.append('\uFFFD');
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    @Provide
    Arbitrary<String> hostile() {
        Arbitrary<Character> chars = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, Arbitraries.of('<', '>', '&', '"', '\'', '/', '=', '-', '!', '`', ' ', '\n')),
                net.jqwik.api.Tuple.of(4, Arbitraries.chars().range('a', 'z')),
                net.jqwik.api.Tuple.of(2, Arbitraries.chars().range('\u00a0', '\u07ff')),
                net.jqwik.api.Tuple.of(2, Arbitraries.chars().range('\u0800', '\uffff')),
                net.jqwik.api.Tuple.of(1, Arbitraries.of("\uD83C\uDF0A".charAt(0), "\uD83C\uDF0A".charAt(1))));
        return chars.list().ofMaxSize(60).map(l -> {
            StringBuilder b = new StringBuilder();
            l.forEach(b::append);
            return b.toString();
        });
    }

    @Property(tries = 2000)
    void textIsEscapedAsTheReferenceEscapesIt(@ForAll("hostile") String s) {
        assertThat(p(s).toBytes()).isEqualTo(("<p>" + reference(s, true, false) + "</p>").getBytes(StandardCharsets.UTF_8));
        assertThat(p(s).toString()).doesNotContain("<script", "</p><");
    }

    @Property(tries = 2000)
    void doubleQuotedValuesEscapeTheirQuote(@ForAll("hostile") String s) {
        String html = div(attr("title", s)).toString();
        assertThat(html).isEqualTo("<div title=\"" + reference(s, true, false) + "\"></div>");
        // Nothing in the value can close it: the only " are the two around it.
        assertThat(html.chars().filter(c -> c == '"').count()).isEqualTo(2);
    }

    @Property(tries = 2000)
    void singleQuotedValuesEscapeTheirQuote(@ForAll("hostile") String s) {
        String html = div(jsonAttr("data-signals", s)).toString();
        assertThat(html).isEqualTo("<div data-signals='" + reference(s, false, true) + "'></div>");
        assertThat(html.chars().filter(c -> c == '\'').count()).isEqualTo(2);
    }

    @Property(tries = 2000)
    void aCommentCannotBeClosedEarly(@ForAll("hostile") String s) {
        String html = Html.comment(s).toString();
        String inside = html.substring(4, html.length() - 3);
        assertThat(inside).doesNotContain(">", "<");
        assertThat(html).startsWith("<!--").endsWith("-->");
    }

    @Property(tries = 2000)
    void scriptContentCannotEndTheElement(@ForAll("hostile") String s) {
        String js = "var x = \"" + s + "</ScRiPt><b>\";";
        String html = script(js).toString();
        String inside = html.substring("<script>".length(), html.length() - "</script>".length());
        assertThat(inside.toLowerCase()).doesNotContain("</script", "<!--");
    }
}
