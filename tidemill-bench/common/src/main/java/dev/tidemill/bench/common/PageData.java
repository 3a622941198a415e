package dev.tidemill.bench.common;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The data of the benchmark's HTML page: a 16 KB admin page with a 50-row table where one row in
 * seven holds characters that need escaping ({@code < > & "}). Every target renders it per request
 * with its own recommended tooling; the output must equal {@link #reference()} byte for byte.
 *
 * <p>Escaping rule, the same for text and attribute values: {@code &} -> {@code &amp;},
 * {@code <} -> {@code &lt;}, {@code >} -> {@code &gt;}, {@code "} -> {@code &quot;}. The data holds
 * no apostrophes, so escapers that also encode {@code '} produce the same bytes.
 */
public final class PageData {

    /**
     * One table row.
     *
     * @param id row id
     * @param name display name (may need escaping)
     * @param email e-mail address
     * @param role role label
     * @param active whether the account is active
     * @param note free text (may need escaping)
     */
    public record Row(int id, String name, String email, String role, boolean active, String note) {}

    /** The page title. */
    public static final String TITLE = "Tidemill admin - users";

    private static final List<Row> ROWS;

    static {
        List<Row> rows = new ArrayList<>(50);
        String[] roles = {"admin", "editor", "viewer", "billing", "support"};
        for (int i = 1; i <= 50; i++) {
            boolean tricky = i % 7 == 0;
            String name = tricky ? "Eve <script>alert(\"" + i + "\")</script> & co" : "User number " + i;
            String note = tricky
                    ? "Says \"5 > 3 & 2 < 4\" in <b>bold</b>"
                    : "Joined in week " + (i % 52 + 1) + ", last seen on the dashboard and the reports page";
            rows.add(new Row(i, name, "user" + i + "@example.com", roles[i % roles.length], i % 3 != 0, note));
        }
        ROWS = Collections.unmodifiableList(rows);
    }

    private PageData() {}

    /** @return the 50 rows, in order */
    public static List<Row> rows() {
        return ROWS;
    }

    /** @param s text @return it escaped by the page's rule */
    public static String escape(String s) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String rep = switch (c) {
                case '&' -> "&amp;";
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '"' -> "&quot;";
                default -> null;
            };
            if (rep != null) {
                if (b == null) b = new StringBuilder(s.length() + 16).append(s, 0, i);
                b.append(rep);
            } else if (b != null) {
                b.append(c);
            }
        }
        return b == null ? s : b.toString();
    }

    /**
     * Renders the page from {@link #rows()} with a StringBuilder and {@link #escape}, per call. The
     * peers whose framework ships no template engine (Vert.x, Helidon SE, Jetty, Undertow, the JDK's
     * HttpServer) or whose template starters would add a library to that peer only (Javalin, Spring
     * WebFlux) all serve the page through this one renderer, so the page scenario compares the
     * servers, not eight copies of a renderer.
     *
     * @return the page
     */
    public static String render() {
        StringBuilder b = new StringBuilder(17 * 1024);
        b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
                .append(escape(TITLE)).append("</title>\n")
                .append("<link rel=\"stylesheet\" href=\"/static/admin.css\">\n</head>\n<body>\n")
                .append("<header class=\"top\"><h1>Users</h1><nav><a href=\"/\">Home</a> <a href=\"/users\">Users</a> ")
                .append("<a href=\"/settings\">Settings</a></nav></header>\n")
                .append("<main>\n<table class=\"users\">\n<thead><tr><th>#</th><th>Name</th><th>E-mail</th>")
                .append("<th>Role</th><th>Status</th><th>Note</th></tr></thead>\n<tbody>\n");
        for (Row r : ROWS) {
            String name = escape(r.name());
            String email = escape(r.email());
            b.append("<tr id=\"user-").append(r.id()).append("\" class=\"").append(r.active() ? "active" : "inactive")
                    .append("\" data-name=\"").append(name).append("\">")
                    .append("<td>").append(r.id()).append("</td>")
                    .append("<td>").append(name).append("</td>")
                    .append("<td><a href=\"mailto:").append(email).append("\">").append(email).append("</a></td>")
                    .append("<td>").append(escape(r.role())).append("</td>")
                    .append("<td>").append(r.active() ? "Active" : "Inactive").append("</td>")
                    .append("<td>").append(escape(r.note())).append("</td></tr>\n");
        }
        b.append("</tbody>\n</table>\n</main>\n<footer>50 users</footer>\n</body>\n</html>\n");
        return b.toString();
    }

    /**
     * The reference page every target's answer is checked against, byte for byte: {@link #render()}
     * run once. The peers serve exactly this renderer's output, so for them the check proves their
     * framework sends the bytes unchanged; Tidemill's writer and the baseline's renderer are
     * independent code checked against it.
     *
     * @return the page
     */
    public static String reference() {
        return REFERENCE;
    }

    private static final String REFERENCE = render();
}
