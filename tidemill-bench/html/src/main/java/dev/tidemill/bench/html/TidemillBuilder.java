package dev.tidemill.bench.html;

import static dev.tidemill.html.Tags.*;

import dev.tidemill.bench.common.PageData;
import dev.tidemill.html.Html;
import java.util.List;

/** Tidemill's builder: the page built per render from the rows, as a handler would write it, then {@link Html#toBytes()}. */
final class TidemillBuilder implements Engine {
    @Override
    public byte[] render(String title, List<PageData.Row> rows) {
        return page(title, rows).toBytes();
    }

    static Html page(String title, List<PageData.Row> rows) {
        return Html.fragment(doctype(), "\n", html(attr("lang", "en"), "\n",
                head("\n", meta(attr("charset", "utf-8")), "\n", title(ReferenceText.of(title)), "\n",
                        link(attr("rel", "stylesheet"), href("/static/admin.css")), "\n"), "\n",
                body("\n",
                        header(cls("top"), h1("Users"), nav(a(href("/"), "Home"), " ", a(href("/users"), "Users"), " ",
                                a(href("/settings"), "Settings"))), "\n",
                        main("\n", table(cls("users"), "\n",
                                thead(tr(th("#"), th("Name"), th("E-mail"), th("Role"), th("Status"), th("Note"))), "\n",
                                tbody("\n", rows.stream().map(r -> Html.fragment(row(r), "\n"))), "\n"), "\n"), "\n",
                        footer("50 users"), "\n"), "\n"), "\n");
    }

    private static Html row(PageData.Row r) {
        return tr(id("user-" + r.id()), cls(r.active() ? "active" : "inactive"), data("name", r.name()),
                td(r.id()),
                td(ReferenceText.of(r.name())),
                td(a(href("mailto:" + r.email()), ReferenceText.of(r.email()))),
                td(ReferenceText.of(r.role())),
                td(r.active() ? "Active" : "Inactive"),
                td(ReferenceText.of(r.note())));
    }
}
