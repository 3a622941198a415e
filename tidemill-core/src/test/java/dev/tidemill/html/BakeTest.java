package dev.tidemill.html;

import static dev.tidemill.html.Tags.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** Baked templates render exactly what the builder renders, and refuse what a placeholder cannot survive. */
class BakeTest {
    static final Bake.Template2<String, String> ROW = Bake.bake("row", String.class, String.class,
            (name, note) -> tr(cls("row"), td(name), td(attr("title", note), jsonAttr("data-note", note), "note: ", note)));

    static Html unbakedRow(String name, String note) {
        return tr(cls("row"), td(name), td(attr("title", note), jsonAttr("data-note", note), "note: ", note));
    }

    @Property(tries = 1000)
    void aBakedTemplateRendersWhatTheBuilderRenders(@ForAll("hostile") String name, @ForAll("hostile") String note) {
        assertThat(ROW.render(name, note).toBytes()).isEqualTo(unbakedRow(name, note).toBytes());
    }

    @net.jqwik.api.Provide
    net.jqwik.api.Arbitrary<String> hostile() {
        return new HtmlEscapingTest().hostile();
    }

    @Test
    void templatesNestAndTakeFinishedFragments() {
        Bake.Template2<String, Html> page = Bake.bake("page", String.class, Html.class,
                (title, rows) -> document(head(title(title)), body(h1(title), table(rows))));
        List<String[]> data = List.of(new String[] {"Ada", "<b>"}, new String[] {"Grace", "O'Neil & co"});
        Html rows = Html.fragment(data.stream().map(r -> ROW.render(r[0], r[1])));
        Html expected = document(head(title("Tides")), body(h1("Tides"), table(data.stream().map(r -> unbakedRow(r[0], r[1])))));
        assertThat(page.render("Tides", rows).toString()).isEqualTo(expected.toString());
    }

    @Test
    void aWholeAttributeIsASlotAndNullsRenderNothing() {
        Bake.Template1<Attr> t = Bake.bake("button", Attr.class, extra -> button(cls("b"), extra, "Go"));
        assertThat(t.render(attr("disabled", true)).toString()).isEqualTo("<button class=\"b\" disabled>Go</button>");
        assertThat(t.render(attr("disabled", false)).toString()).isEqualTo("<button class=\"b\">Go</button>");
        assertThat(t.render(null).toString()).isEqualTo("<button class=\"b\">Go</button>");
        Bake.Template1<String> p = Bake.bake("p", String.class, s -> p("[", s, "]"));
        assertThat(p.render(null).toString()).isEqualTo("<p>[]</p>");
    }

    @Test
    void aStringOperationOnAParameterIsRefused() {
        assertThatThrownBy(() -> Bake.bake("shout", String.class, s -> p(s.toUpperCase())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("template shout").hasMessageContaining("string operation");
        assertThatThrownBy(() -> Bake.bake("cut", String.class, s -> p(s.substring(1))))
                .hasMessageContaining("template cut").hasMessageContaining("string operation");
    }

    @Test
    void outputThatDependsOnAParameterIsRefused() {
        assertThatThrownBy(() -> Bake.bake("long", String.class, s -> s.length() > 20 ? p(s) : div(s)))
                .hasMessageContaining("template long").hasMessageContaining("depends on a parameter's value");
    }

    @Test
    void aParameterWhereNothingCanBeEscapedIsRefused() {
        assertThatThrownBy(() -> Bake.bake("name", String.class, s -> div(attr(s, "x"))))
                .hasMessageContaining("template name, parameter 1").hasMessageContaining("attribute name");
        assertThatThrownBy(() -> Bake.bake("js", String.class, s -> script("var x = '" + s + "';")))
                .hasMessageContaining("parameter 1").hasMessageContaining("<script>");
        assertThatThrownBy(() -> Bake.bake("raw", String.class, s -> div(Html.trusted(s))))
                .hasMessageContaining("Html.trusted");
    }

    @Test
    void unusedParametersAndOtherTypesAreRefused() {
        assertThatThrownBy(() -> Bake.bake("unused", String.class, String.class, (a, b) -> p(a)))
                .hasMessageContaining("template unused, parameter 2").hasMessageContaining("never reaches the output");
        assertThatThrownBy(() -> Bake.bake("num", Integer.class, i -> p(i)))
                .hasMessageContaining("template num, parameter 1").hasMessageContaining("java.lang.Integer");
        assertThatThrownBy(() -> Bake.bake("parse", String.class, s -> p(Integer.toString(Integer.parseInt(s)))))
                .hasMessageContaining("template parse").hasMessageContaining("traced with placeholders");
    }

    @Test
    void anyNumberOfParameters() {
        Bake.TemplateN row = Bake.bake("wide", List.of(String.class, String.class, String.class, String.class, Attr.class),
                a -> tr((Attr) a[4], td(a[0]), td(a[1]), td(attr("title", a[2]), a[3])));
        assertThat(row.render("1", "<Ada>", "a\"b", "x & y", cls("on")).toString())
                .isEqualTo(tr(cls("on"), td("1"), td("<Ada>"), td(attr("title", "a\"b"), "x & y")).toString());
        assertThatThrownBy(() -> row.render("1")).hasMessageContaining("takes 5 parameters");
        assertThatThrownBy(() -> row.render(1, "a", "b", "c", null)).hasMessageContaining("parameter 1");
    }
}
