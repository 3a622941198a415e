package dev.tidemill.bench.html;

import dev.tidemill.bench.common.PageData;
import htmlflow.HtmlFlow;
import htmlflow.HtmlPage;
import htmlflow.HtmlView;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.xmlet.htmlapifaster.EnumRelType;
import org.xmlet.htmlapifaster.Tbody;

/**
 * HtmlFlow 5 (com.github.xmlet:htmlflow): a view made once with {@link HtmlFlow#view}, not indented,
 * its static parts pre-encoded (HtmlFlow's default), the rows and title filled in by {@code dynamic}
 * blocks on each render, written into a StringBuilder and encoded to UTF-8.
 *
 * <p>Two things differ from the other engines, and both are said in the report:
 * <ul>
 *   <li>HtmlFlow escapes text ({@code & < > " '}) but writes attribute values as they are given: a
 *       {@code "} in a value would end the attribute. The two attributes that carry data
 *       ({@code data-name} and the {@code mailto:} link) are escaped here with
 *       {@link PageData#escape}, as a careful HtmlFlow user must.</li>
 *   <li>HtmlFlow writes {@code <!DOCTYPE html>} and {@code <html>} with nothing between them and
 *       offers no way to put the reference's newline there, so {@link DoctypeNewline} adds that one
 *       byte as HtmlFlow's first write goes by (no copy of the page, no other byte touched).</li>
 * </ul>
 */
final class HtmlFlowPage implements Engine {
    /** What a render is given. */
    record Model(String title, List<PageData.Row> rows) {}

    private final HtmlView<Model> view = HtmlFlow.<Model>view(HtmlFlowPage::template).setIndented(false);

    @Override
    public byte[] render(String title, List<PageData.Row> rows) {
        StringBuilder out = new StringBuilder(17 * 1024);
        view.setOut(new DoctypeNewline(out)).write(new Model(title, rows));
        return out.append('\n').toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void template(HtmlPage page) {
        page.html().attrLang("en").text("\n")
                .head().text("\n").meta().attrCharset("utf-8").__().text("\n")
                .title().<Model>dynamic((t, m) -> t.text(m.title())).__().text("\n")
                .link().attrRel(EnumRelType.STYLESHEET).attrHref("/static/admin.css").__().text("\n")
                .__().text("\n")
                .body().text("\n")
                .header().attrClass("top").h1().text("Users").__()
                .nav().a().attrHref("/").text("Home").__().text(" ").a().attrHref("/users").text("Users").__().text(" ")
                .a().attrHref("/settings").text("Settings").__().__().__().text("\n")
                .main().text("\n")
                .table().attrClass("users").text("\n")
                .thead().tr().th().text("#").__().th().text("Name").__().th().text("E-mail").__().th().text("Role").__()
                .th().text("Status").__().th().text("Note").__().__().__().text("\n")
                .tbody().<Model>dynamic(HtmlFlowPage::rows).__().text("\n")
                .__().text("\n")
                .__().text("\n")
                .footer().text("50 users").__().text("\n")
                .__().text("\n")
                .__();
    }

    private static void rows(Tbody<?> tbody, Model m) {
        // inside the dynamic block: a static text("\n") just before it was dropped from the output (HtmlFlow 5.0.3)
        tbody.text("\n");
        for (PageData.Row r : m.rows()) {
            tbody.tr().attrId("user-" + r.id()).attrClass(r.active() ? "active" : "inactive")
                    .addAttr("data-name", PageData.escape(r.name())) // HtmlFlow does not escape attribute values
                    .td().text(Integer.toString(r.id())).__()
                    .td().text(r.name()).__()
                    .td().a().attrHref("mailto:" + PageData.escape(r.email())).text(r.email()).__().__()
                    .td().text(r.role()).__()
                    .td().text(r.active() ? "Active" : "Inactive").__()
                    .td().text(r.note()).__()
                    .__().text("\n");
        }
    }

    /** Forwards to a StringBuilder, adding a newline right after the doctype HtmlFlow writes first. */
    private static final class DoctypeNewline implements Appendable {
        private static final String DOCTYPE = "<!DOCTYPE html>";
        private final StringBuilder to;
        private boolean started;

        DoctypeNewline(StringBuilder to) {
            this.to = to;
        }

        @Override
        public Appendable append(CharSequence s) {
            if (started) {
                to.append(s);
                return this;
            }
            // The first write is the doctype, alone or at the head of the pre-encoded static part that follows it.
            started = true;
            if (s.length() < DOCTYPE.length() || !DOCTYPE.contentEquals(s.subSequence(0, DOCTYPE.length()))) {
                throw new UncheckedIOException(new IOException("HtmlFlow's first write does not start with the doctype"));
            }
            to.append(s, 0, DOCTYPE.length()).append('\n').append(s, DOCTYPE.length(), s.length());
            return this;
        }

        @Override
        public Appendable append(CharSequence s, int start, int end) {
            return append(s.subSequence(start, end));
        }

        @Override
        public Appendable append(char c) {
            return append(String.valueOf(c));
        }
    }
}
