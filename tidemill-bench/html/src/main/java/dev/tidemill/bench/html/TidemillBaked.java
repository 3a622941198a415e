package dev.tidemill.bench.html;

import static dev.tidemill.html.Tags.*;

import dev.tidemill.bench.common.PageData;
import dev.tidemill.html.Bake;
import dev.tidemill.html.Html;
import java.util.List;

/**
 * Tidemill's baked templates (docs/html.md): the page and its row are baked once; a render fills
 * them. A template takes at most three parameters and no conditionals, so a row is three nested
 * templates, and the active/inactive row is a choice between two baked rows made outside, as
 * the docs prescribe. Text goes in as {@link ReferenceText} {@code Html} (a {@code String} slot
 * in text would escape {@code & < >} only); attribute values go in as {@code String}s, escaped as
 * the reference does ({@code & < > "}).
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

    private static final Bake.Template3<String, String, Html> ACTIVE = row("active");
    private static final Bake.Template3<String, String, Html> INACTIVE = row("inactive");

    /** name text, e-mail (the link), e-mail text */
    private static final Bake.Template3<Html, String, Html> CONTACT = Bake.bake("contact", Html.class, String.class, Html.class,
            (name, email, emailText) -> Html.fragment(td(name), td(a(href("mailto:" + email), emailText))));

    private static final Bake.Template2<Html, Html> TAIL_ACTIVE = tail("Active");
    private static final Bake.Template2<Html, Html> TAIL_INACTIVE = tail("Inactive");

    /** id, name (the data-name attribute), the cells after the id */
    private static Bake.Template3<String, String, Html> row(String rowClass) {
        return Bake.bake("row-" + rowClass, String.class, String.class, Html.class,
                (n, name, cells) -> Html.fragment(tr(id("user-" + n), cls(rowClass), data("name", name), td(n), cells), "\n"));
    }

    /** role text, note text */
    private static Bake.Template2<Html, Html> tail(String status) {
        return Bake.bake("tail-" + status, Html.class, Html.class, (role, note) -> Html.fragment(td(role), td(status), td(note)));
    }

    @Override
    public byte[] render(String title, List<PageData.Row> rows) {
        Html[] out = new Html[rows.size()];
        for (int i = 0; i < out.length; i++) {
            PageData.Row r = rows.get(i);
            Html cells = Html.fragment(
                    CONTACT.render(ReferenceText.of(r.name()), r.email(), ReferenceText.of(r.email())),
                    (r.active() ? TAIL_ACTIVE : TAIL_INACTIVE).render(ReferenceText.of(r.role()), ReferenceText.of(r.note())));
            out[i] = (r.active() ? ACTIVE : INACTIVE).render(Integer.toString(r.id()), r.name(), cells);
        }
        return PAGE.render(ReferenceText.of(title), Html.fragment((Object[]) out)).toBytes();
    }
}
