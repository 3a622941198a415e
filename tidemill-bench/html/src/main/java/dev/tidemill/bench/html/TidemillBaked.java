package dev.tidemill.bench.html;

import static dev.tidemill.html.Tags.*;

import dev.tidemill.bench.common.PageData;
import dev.tidemill.html.Attr;
import dev.tidemill.html.Bake;
import dev.tidemill.html.Html;
import java.util.List;

/**
 * Tidemill's baked templates (docs/html.md): the page and its row are baked once; a render fills
 * them. A template has no conditionals, so the row's class and status text are chosen outside and
 * passed in, as the docs prescribe. Text goes in as {@link ReferenceText} {@code Html} (a
 * {@code String} slot in text would escape {@code & < >} only, the reference also escapes
 * {@code "}); attribute values go in as {@code String}s, escaped as the reference does.
 */
final class TidemillBaked implements Engine {
    private static final Bake.Template2<Html, Html> PAGE = Bake.bake("page", Html.class, Html.class, (title, rows) ->
            Html.fragment(doctype(), "\n", html(attr("lang", "en"), "\n",
                    head("\n", meta(attr("charset", "utf-8")), "\n", title(title), "\n",
                            link(attr("rel", "stylesheet"), href("/static/admin.css")), "\n"), "\n",
                    body("\n",
                            header(cls("top"), h1("Users"), nav(a(href("/"), "Home"), " ", a(href("/users"), "Users"), " ",
                                    a(href("/settings"), "Settings"))), "\n",
                            main("\n", table(cls("users"), "\n",
                                    thead(tr(th("#"), th("Name"), th("E-mail"), th("Role"), th("Status"), th("Note"))), "\n",
                                    tbody("\n", rows), "\n"), "\n"), "\n",
                            footer("50 users"), "\n"), "\n"), "\n"));

    /** One row: id, its class, name (data-name), name text, e-mail (the link), e-mail text, role, status, note. */
    private static final Bake.TemplateN ROW = Bake.bake("row", List.of(String.class, Attr.class, String.class, Html.class,
            String.class, Html.class, Html.class, Html.class, Html.class), p -> Html.fragment(tr(id("user-" + p[0]), (Attr) p[1],
            data("name", p[2]), td(p[0]), td(p[3]), td(a(href("mailto:" + p[4]), p[5])), td(p[6]), td(p[7]), td(p[8])), "\n"));
    private static final Attr ACTIVE = cls("active");
    private static final Attr INACTIVE = cls("inactive");
    private static final Html ACTIVE_TEXT = Html.text("Active");
    private static final Html INACTIVE_TEXT = Html.text("Inactive");

    @Override
    public byte[] render(String title, List<PageData.Row> rows) {
        Html[] out = new Html[rows.size()];
        for (int i = 0; i < out.length; i++) {
            PageData.Row r = rows.get(i);
            out[i] = ROW.render(Integer.toString(r.id()), r.active() ? ACTIVE : INACTIVE, r.name(), ReferenceText.of(r.name()),
                    r.email(), ReferenceText.of(r.email()), ReferenceText.of(r.role()), r.active() ? ACTIVE_TEXT : INACTIVE_TEXT,
                    ReferenceText.of(r.note()));
        }
        return PAGE.render(ReferenceText.of(title), Html.fragment((Object[]) out)).toBytes();
    }
}
