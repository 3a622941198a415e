package dev.tidemill.bench.peers.vertxcore;

import static dev.tidemill.bench.common.PageData.escape;

import dev.tidemill.bench.common.PageData;

/**
 * The admin page rendered per request from {@link PageData#rows()} with a StringBuilder and
 * {@link PageData#escape}: Vert.x core has no template engine.
 */
final class Page {
    private Page() {}

    static String render() {
        StringBuilder b = new StringBuilder(17 * 1024);
        b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
                .append(escape(PageData.TITLE)).append("</title>\n")
                .append("<link rel=\"stylesheet\" href=\"/static/admin.css\">\n</head>\n<body>\n")
                .append("<header class=\"top\"><h1>Users</h1><nav><a href=\"/\">Home</a> <a href=\"/users\">Users</a> ")
                .append("<a href=\"/settings\">Settings</a></nav></header>\n")
                .append("<main>\n<table class=\"users\">\n<thead><tr><th>#</th><th>Name</th><th>E-mail</th>")
                .append("<th>Role</th><th>Status</th><th>Note</th></tr></thead>\n<tbody>\n");
        for (PageData.Row r : PageData.rows()) {
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
}
