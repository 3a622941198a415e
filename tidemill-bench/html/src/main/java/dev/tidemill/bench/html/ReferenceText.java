package dev.tidemill.bench.html;

import dev.tidemill.html.Html;
import java.util.ArrayList;
import java.util.List;

/**
 * Text for Tidemill's builder that renders to the reference's bytes. Tidemill escapes
 * {@code & < >} in text, as the HTML standard needs; the reference ({@link
 * dev.tidemill.bench.common.PageData#escape}) also writes a {@code "} in text as {@code &quot;}.
 * Same page to a browser, different bytes, so here each {@code "} becomes a trusted
 * {@code &quot;} between pieces that Tidemill still escapes itself. Only the rows with a quote
 * (one in seven) pay for it; the reference is not weakened.
 */
final class ReferenceText {
    private static final Html QUOT = Html.trusted("&quot;");

    private ReferenceText() {}

    /** @param s text @return it as HTML that renders as the reference escapes it */
    static Html of(String s) {
        int q = s.indexOf('"');
        if (q < 0) return Html.text(s);
        List<Object> parts = new ArrayList<>();
        int from = 0;
        for (; q >= 0; q = s.indexOf('"', from)) {
            if (q > from) parts.add(s.substring(from, q));
            parts.add(QUOT);
            from = q + 1;
        }
        if (from < s.length()) parts.add(s.substring(from));
        return Html.fragment(parts.toArray());
    }
}
