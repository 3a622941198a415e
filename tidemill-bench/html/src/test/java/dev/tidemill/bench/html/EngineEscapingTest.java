package dev.tidemill.bench.html;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.bench.common.PageData;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How each engine escapes the characters the benchmark data does not hold ({@code ' = `}), next to
 * {@code " >} which it does: pins what the report says about each engine's escaping. The engines
 * that differ from the reference only in characters the data lacks are timed with their own
 * escaper; if one changes, this test says so.
 */
class EngineEscapingTest {
    private static final String VALUE = "a'b=c`d\"e>f";

    @Test
    void eachEngineEscapesAsTheReportSays() {
        String reference = "a'b=c`d&quot;e&gt;f";
        assertThat(PageData.escape(VALUE)).isEqualTo(reference);
        Map<String, String> expected = Map.of(
                "tidemill-builder", reference,
                "tidemill-baked", reference,
                "jte", reference, // through ReferenceEscaping
                "j2html", "a&#x27;b=c`d&quot;e&gt;f",
                "mustache", "a&#39;b&#61;c&#96;d&quot;e&gt;f",
                "pebble", "a&#39;b=c`d&quot;e&gt;f",
                "freemarker", "a&#39;b=c`d&quot;e&gt;f",
                "thymeleaf", "a&#39;b=c`d&quot;e&gt;f",
                "rocker", "a&#39;b=c`d&quot;e&gt;f");
        List<PageData.Row> rows = List.of(new PageData.Row(1, VALUE, "x", "y", true, VALUE));
        for (Map.Entry<String, String> e : expected.entrySet()) {
            String page = new String(Engine.named(e.getKey()).render("t", rows), StandardCharsets.UTF_8);
            String v = e.getValue();
            assertThat(page).as(e.getKey()).contains("data-name=\"" + v + "\"", "<td>" + v + "</td><td><a", "<td>" + v + "</td></tr>\n");
        }
    }
}
