package dev.tidemill.html;

import static dev.tidemill.html.Svg.*;
import static dev.tidemill.html.Tags.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What the builder renders, and what it refuses. */
class HtmlBuilderTest {

    @Test
    void aPageRendersAsWritten() {
        Html page = document(attr("lang", "en"),
                head(meta(attr("charset", "utf-8")), title("Tides & <currents>")),
                body(cls("dark"), h1("Hello, ", "Ada"), ul(Stream.of("a", "b").map(x -> li(data("id", x), x)))));
        assertThat(page.toString()).isEqualTo("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<title>Tides &amp; &lt;currents&gt;</title></head><body class=\"dark\"><h1>Hello, Ada</h1>"
                + "<ul><li data-id=\"a\">a</li><li data-id=\"b\">b</li></ul></body></html>");
    }

    @Test
    void booleansAreBareOrAbsentAndNullsAreSkipped() {
        assertThat(button(attr("disabled", true), "Go").toString()).isEqualTo("<button disabled>Go</button>");
        assertThat(button(attr("disabled", false), "Go").toString()).isEqualTo("<button>Go</button>");
        assertThat(button(attr("disabled", null), null, "Go", Optional.empty()).toString()).isEqualTo("<button>Go</button>");
        assertThat(input(attr("value", 42), attr("step", 0.5)).toString()).isEqualTo("<input value=\"42\" step=\"0.5\">");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a b", "a\tb", "on\nclick", "x\"y", "x'y", "a<b", "a>b", "a/b", "a=b", "a&b", "a`b", "\u0000", "\u007f", "\u0085"})
    void attributeNamesAreValidatedNeverEscaped(String name) {
        assertThatThrownBy(() -> attr(name, "v")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> data(name.isEmpty() ? "a b" : name, "v")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void datastarStyleNamesAreValid() {
        assertThat(button(data("on:click__debounce.500ms", "@post('/x')"), "x").toString())
                .isEqualTo("<button data-on:click__debounce.500ms=\"@post('/x')\">x</button>");
        assertThat(div(aria("label", "Close"), attr("@click", "go()")).toString()).isEqualTo("<div aria-label=\"Close\" @click=\"go()\"></div>");
    }

    @ParameterizedTest
    @ValueSource(strings = {"br", "img", "input", "meta", "link", "hr", "source", "wbr"})
    void voidElementsRefuseChildren(String tag) throws Exception {
        java.lang.reflect.Method m = Tags.class.getMethod(tag, Object[].class);
        assertThat(m.invoke(null, (Object) new Object[] {attr("class", "x")}).toString()).isEqualTo("<" + tag + " class=\"x\">");
        assertThatThrownBy(() -> {
            try {
                m.invoke(null, (Object) new Object[] {"child"});
            } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
            }
        }).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("void element");
    }

    @Test
    void commentsCannotBeBrokenOutOf() {
        assertThat(Html.comment("a --> <script>alert(1)</script> --!> <!-- x").toString())
                .isEqualTo("<!--a --&gt; &lt;script&gt;alert(1)&lt;/script&gt; --!&gt; &lt;!-- x-->");
    }

    @Test
    void scriptAndStyleKeepCodeButCannotBeEnded() {
        assertThat(script("if (a < b && c > d) go('</script><b>x</b>');").toString())
                .isEqualTo("<script>if (a < b && c > d) go('<\\/script><b>x</b>');</script>");
        assertThat(style("a > b { color: red } </STYLE><script>").toString()).isEqualTo("<style>a > b { color: red } <\\/STYLE><script></style>");
        assertThat(script("x = '<!-- y';").toString()).isEqualTo("<script>x = '<\\!-- y';</script>");
        assertThatThrownBy(() -> script(b("bold"))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("only text");
    }

    @Test
    void rawHtmlOnlyThroughTrusted() {
        assertThat(div("<b>x</b>").toString()).isEqualTo("<div>&lt;b&gt;x&lt;/b&gt;</div>");
        assertThat(div(Html.trusted("<b>x</b>")).toString()).isEqualTo("<div><b>x</b></div>");
    }

    @Test
    void classesStylesAndJsonAttributes() {
        assertThat(div(cls("a", null, " ", "b"), cls("c")).toString()).isEqualTo("<div class=\"a b c\"></div>");
        assertThat(div(cls()).toString()).isEqualTo("<div></div>");
        Map<String, Boolean> m = new LinkedHashMap<>();
        m.put("on", true);
        m.put("off", false);
        assertThat(div(classes(m)).toString()).isEqualTo("<div class=\"on\"></div>");
        assertThat(div(styles("color", "red", "--gap", "1px", "margin", null)).toString())
                .isEqualTo("<div style=\"color: red; --gap: 1px\"></div>");
        assertThatThrownBy(() -> styles("color;x", "red")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> styles("color")).isInstanceOf(IllegalArgumentException.class);
        assertThat(div(jsonAttr("data-signals", "{\"name\":\"O'Hara\"}")).toString())
                .isEqualTo("<div data-signals='{\"name\":\"O&#39;Hara\"}'></div>");
    }

    @Test
    void contentThatIsNotHtmlIsRefused() {
        assertThatThrownBy(() -> div(new Object())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not HTML content");
        assertThatThrownBy(() -> Html.fragment(attr("a", "b"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> attr("x", List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void iterablesArraysAndFragmentsFlatten() {
        assertThat(ul(List.of(li("1"), li("2")), new Object[] {li("3")}, Html.fragment(li("4"), Html.EMPTY)).toString())
                .isEqualTo("<ul><li>1</li><li>2</li><li>3</li><li>4</li></ul>");
    }

    @Test
    void utf8IsWrittenStraight() {
        assertThat(p("naïve ☃ 🌊").toBytes()).isEqualTo("<p>naïve ☃ 🌊</p>".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(p("lone \uD800 surrogate").toString()).isEqualTo("<p>lone \uFFFD surrogate</p>");
    }

    @Test
    void svgKeepsItsCase() {
        assertThat(svg(attr("viewBox", "0 0 10 10"), linearGradient(id("g"), stop(attr("offset", "0"))), svgText("hi")).toString())
                .isEqualTo("<svg viewBox=\"0 0 10 10\"><linearGradient id=\"g\"><stop offset=\"0\"></stop></linearGradient><text>hi</text></svg>");
    }
}
