package dev.tidemill.bench.common;

import static dev.tidemill.html.Tags.*;

import dev.tidemill.html.Attr;
import dev.tidemill.html.Bake;
import dev.tidemill.html.Html;
import java.util.List;

/**
 * The benchmark page ({@link PageData}) as Tidemill's HTML builder and its baked templates write it
 * (docs/html.md): one source for the server benchmark's Tidemill target (which returns the
 * {@link Html} from its handler, so it renders straight into the response buffer) and the JMH render
 * benchmark (which calls {@link Html#toBytes()}). Both render {@link PageData#reference()} byte for
 * byte.
 *
 * <p>Needs tidemill-core, an optional dependency of this module: the peers, which use this module
 * for {@link Scenario} and {@link PageData}, never load this class and never get Tidemill on their
 * class path.
 */
public final class TidemillPages {
    private TidemillPages() {}

    /**
     * The builder: the whole page built from the rows on every call, as a handler would write it.
     *
     * @param title the page title
     * @param rows the rows
     * @return the page
     */
    public static Html builder(String title, List<PageData.Row> rows) {
        return Html.fragment(doctype(), "\n", html(attr("lang", "en"), "\n",
                head("\n", meta(attr("charset", "utf-8")), "\n", title(title), "\n",
                        link(attr("rel", "stylesheet"), href("/static/admin.css")), "\n"), "\n",
                body("\n",
                        header(cls("top"), h1("Users"), nav(a(href("/"), "Home"), " ", a(href("/users"), "Users"), " ",
                                a(href("/settings"), "Settings"))), "\n",
                        main("\n", table(cls("users"), "\n",
                                thead(tr(th("#"), th("Name"), th("E-mail"), th("Role"), th("Status"), th("Note"))), "\n",
                                tbody("\n", rows.stream().map(r -> Html.fragment(builderRow(r), "\n"))), "\n"), "\n"), "\n",
                        footer("50 users"), "\n"), "\n"), "\n");
    }

    private static Html builderRow(PageData.Row r) {
        return tr(id("user-" + r.id()), cls(r.active() ? "active" : "inactive"), data("name", r.name()),
                td(r.id()),
                td(r.name()),
                td(a(href("mailto:" + r.email()), r.email())),
                td(r.role()),
                td(r.active() ? "Active" : "Inactive"),
                td(r.note()));
    }

    /**
     * The baked page: a page template and a row template baked once (class initialisation); a call
     * fills them. A template has no conditionals, so the row's class and status text are chosen
     * here and passed in, as docs/html.md prescribes. Every value goes in as a {@code String},
     * escaped where it lands, as an application writes it.
     *
     * @param title the page title
     * @param rows the rows
     * @return the page
     */
    public static Html baked(String title, List<PageData.Row> rows) {
        Html[] out = new Html[rows.size()];
        for (int i = 0; i < out.length; i++) {
            PageData.Row r = rows.get(i);
            String id = Integer.toString(r.id());
            Attr cls = r.active() ? Baked.ACTIVE : Baked.INACTIVE;
            Html status = r.active() ? Baked.ACTIVE_TEXT : Baked.INACTIVE_TEXT;
            out[i] = Baked.ROW.render(id, cls, r.name(), r.name(), r.email(), r.email(), r.role(), status, r.note());
        }
        return Baked.PAGE.render(Html.text(title), Html.fragment((Object[]) out));
    }

    /** The templates, in a holder so that a process that only uses the builder never bakes them. */
    private static final class Baked {
        static final Bake.Template2<Html, Html> PAGE = Bake.bake("page", Html.class, Html.class, (title, rows) ->
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

        /**
         * One row as an application writes it: id, its class, name (data-name), name text, e-mail
         * (the link), e-mail text, role, status, note.
         */
        static final Bake.TemplateN ROW = Bake.bake("row",
                List.of(String.class, Attr.class, String.class, String.class, String.class, String.class, String.class, Html.class, String.class),
                p -> Html.fragment(tr(id("user-" + p[0]), (Attr) p[1], data("name", p[2]), td(p[0]), td(p[3]),
                        td(a(href("mailto:" + p[4]), p[5])), td(p[6]), td(p[7]), td(p[8])), "\n"));

        static final Attr ACTIVE = cls("active");
        static final Attr INACTIVE = cls("inactive");
        static final Html ACTIVE_TEXT = Html.text("Active");
        static final Html INACTIVE_TEXT = Html.text("Inactive");
    }
}
