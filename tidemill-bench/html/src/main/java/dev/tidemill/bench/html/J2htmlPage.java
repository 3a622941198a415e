package dev.tidemill.bench.html;

import static j2html.TagCreator.*;

import dev.tidemill.bench.common.PageData;
import j2html.rendering.FlatHtml;
import j2html.tags.DomContent;
import j2html.tags.specialized.HtmlTag;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * j2html 1.6: the page built per render with {@code TagCreator}, rendered with {@code FlatHtml}
 * into a StringBuilder (j2html's {@code document()} puts no newline after the doctype), encoded to
 * UTF-8. Its own escaper is used: it writes {@code '} as {@code &#x27;} where the reference keeps
 * it, and the data holds none, so the bytes are the reference's.
 */
final class J2htmlPage implements Engine {
    @Override
    public byte[] render(String title, List<PageData.Row> rows) {
        List<DomContent> body = new ArrayList<>(rows.size() * 2);
        for (PageData.Row r : rows) {
            body.add(tr(
                    td(String.valueOf(r.id())),
                    td(r.name()),
                    td(a(r.email()).withHref("mailto:" + r.email())),
                    td(r.role()),
                    td(r.active() ? "Active" : "Inactive"),
                    td(r.note()))
                    .withId("user-" + r.id()).withClass(r.active() ? "active" : "inactive").attr("data-name", r.name()));
            body.add(text("\n"));
        }
        HtmlTag page = html(text("\n"),
                head(text("\n"), meta().attr("charset", "utf-8"), text("\n"), title(title), text("\n"),
                        link().withRel("stylesheet").withHref("/static/admin.css"), text("\n")), text("\n"),
                body(text("\n"),
                        header(h1("Users"), nav(a("Home").withHref("/"), text(" "), a("Users").withHref("/users"), text(" "),
                                a("Settings").withHref("/settings"))).withClass("top"), text("\n"),
                        main(text("\n"), table(text("\n"),
                                thead(tr(th("#"), th("Name"), th("E-mail"), th("Role"), th("Status"), th("Note"))), text("\n"),
                                tbody(text("\n")).with(body), text("\n")).withClass("users"), text("\n")), text("\n"),
                        footer("50 users"), text("\n")), text("\n")).attr("lang", "en");
        StringBuilder out = new StringBuilder(17 * 1024).append("<!DOCTYPE html>\n");
        try {
            page.render(FlatHtml.into(out), null);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringBuilder does not throw
        }
        return out.append('\n').toString().getBytes(StandardCharsets.UTF_8);
    }
}
