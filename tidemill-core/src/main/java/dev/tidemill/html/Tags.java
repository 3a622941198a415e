package dev.tidemill.html;

import java.util.Map;
import java.util.Objects;

/**
 * The HTML builder: one method per HTML element and per common SVG element, and the attribute
 * helpers. Use it with {@code import static dev.tidemill.html.Tags.*}:
 *
 * <pre>{@code
 * Html page = html(
 *     head(meta(attr("charset", "utf-8")), title("Orders")),
 *     body(cls("dark"),
 *         h1("Orders for ", user.name()),                          // text is escaped
 *         ul(orders.stream().map(o -> li(data("id", o.id()), o.label()))),
 *         button(attr("disabled", !user.canOrder()), "Order")));   // false: no attribute
 * }</pre>
 *
 * <p>Each element method takes attributes ({@link Attr}) and children in any order: other
 * elements, text ({@code CharSequence}, numbers: escaped), {@code Html} pieces, and iterables,
 * streams, arrays or {@code Optional}s of those; {@code null} is skipped. Anything else is refused
 * when the element is built. Generated from the element lists of the HTML standard (void and
 * raw-text elements marked) rather than written by hand.
 */
public final class Tags {
    private Tags() {}

    // ------------------------------------------------------------------ attributes

    /**
     * @param name the attribute's name: validated, never escaped (no whitespace, controls,
     *     {@code " ' < > / = &} or backtick)
     * @param value a string or number (escaped, double-quoted), {@code true} (the bare name, as
     *     in {@code disabled}), {@code false} or {@code null} (no attribute)
     * @return the attribute
     */
    public static Attr attr(String name, Object value) {
        return Attr.of(name, value);
    }

    /**
     * An attribute whose value is JSON (or holds many {@code "}): single-quoted, its {@code '}
     * escaped as {@code &#39;} and its {@code "} left readable, e.g.
     * {@code data-signals='{"count":1}'}.
     *
     * @param name the attribute's name
     * @param json the value; null: no attribute
     * @return the attribute
     */
    public static Attr jsonAttr(String name, String json) {
        return Attr.singleQuoted(name, json);
    }

    /** @param id the element's id @return {@code id="..."} */
    public static Attr id(String id) {
        return Attr.of("id", id);
    }

    /** @param url the link target @return {@code href="..."} */
    public static Attr href(String url) {
        return Attr.of("href", url);
    }

    /**
     * The CSRF synchronizer token as a hidden form field, for forms posted by browsers that send
     * neither {@code Sec-Fetch-Site} nor {@code Origin} (docs/auth.md): put it in every
     * {@code method="post"} form of a page served to a signed-in session.
     *
     * @param request the request the page answers
     * @return {@code <input type="hidden" name="_csrf" value="...">}, or nothing when the request has no session
     */
    public static Html csrfField(dev.tidemill.Request request) {
        return request.session().<Html>map(s -> input(attr("type", "hidden"), attr("name", dev.tidemill.Session.CSRF_FIELD),
                attr("value", s.csrfToken()))).orElse(Html.EMPTY);
    }

    /**
     * @param names class names; null and empty ones are skipped (several {@code cls} on one element are joined)
     * @return {@code class="a b"}, or no attribute when no name is left
     */
    public static Attr cls(String... names) {
        StringBuilder b = new StringBuilder();
        for (String n : names) {
            if (n == null || n.isBlank()) continue;
            if (!b.isEmpty()) b.append(' ');
            b.append(n);
        }
        return b.isEmpty() ? Attr.NONE : Attr.of("class", b.toString());
    }

    /**
     * @param names class name -> whether it applies, in the map's order
     * @return the class attribute of the names that apply
     */
    public static Attr classes(Map<String, Boolean> names) {
        return cls(names.entrySet().stream().filter(e -> Boolean.TRUE.equals(e.getValue())).map(Map.Entry::getKey).toArray(String[]::new));
    }

    /**
     * @param propertiesAndValues CSS property names (validated: letters, digits and {@code -},
     *     custom properties {@code --x} too) each followed by its value (escaped as an attribute
     *     value; a null value drops the pair)
     * @return {@code style="color: red; margin: 0"}
     */
    public static Attr styles(String... propertiesAndValues) {
        if (propertiesAndValues.length % 2 != 0) throw new IllegalArgumentException("styles takes property, value pairs");
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < propertiesAndValues.length; i += 2) {
            String p = Objects.requireNonNull(propertiesAndValues[i], "a style property");
            if (!p.matches("-{0,2}[A-Za-z][A-Za-z0-9-]*")) throw new IllegalArgumentException("style property " + p + ": letters, digits and -");
            String v = propertiesAndValues[i + 1];
            if (v == null) continue;
            if (!b.isEmpty()) b.append("; ");
            b.append(p).append(": ").append(v);
        }
        return b.isEmpty() ? Attr.NONE : Attr.of("style", b.toString());
    }

    /**
     * @param name what follows {@code data-}: validated like any attribute name (so Datastar's
     *     {@code on:click__debounce.500ms} is fine)
     * @param value as {@link #attr}
     * @return {@code data-name="value"}
     */
    public static Attr data(String name, Object value) {
        return Attr.of("data-" + name, value);
    }

    /** @param name what follows {@code aria-} @param value as {@link #attr} @return {@code aria-name="value"} */
    public static Attr aria(String name, Object value) {
        return Attr.of("aria-" + name, value);
    }

    // ------------------------------------------------------------------ text

    /** @param text escaped text @return it as HTML (same as a plain string argument) */
    public static Html text(CharSequence text) {
        return Html.text(text);
    }

    /** @return {@code <!DOCTYPE html>}, to put before {@link #html} */
    public static Html doctype() {
        return DOCTYPE;
    }

    private static final Html DOCTYPE = Html.trusted("<!DOCTYPE html>");

    /**
     * @param content the page: {@code <!DOCTYPE html>} then {@code <html>} with these attributes and children
     * @return the whole document
     */
    public static Html document(Object... content) {
        return Html.fragment(DOCTYPE, html(content));
    }

    // ------------------------------------------------------------------ elements (SVG's are in Svg)

    /** @param content attributes and children @return {@code <a>} */
    public static Element a(Object... content) { return Element.of("a", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <abbr>} */
    public static Element abbr(Object... content) { return Element.of("abbr", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <address>} */
    public static Element address(Object... content) { return Element.of("address", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <article>} */
    public static Element article(Object... content) { return Element.of("article", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <aside>} */
    public static Element aside(Object... content) { return Element.of("aside", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <audio>} */
    public static Element audio(Object... content) { return Element.of("audio", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <b>} */
    public static Element b(Object... content) { return Element.of("b", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <bdi>} */
    public static Element bdi(Object... content) { return Element.of("bdi", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <bdo>} */
    public static Element bdo(Object... content) { return Element.of("bdo", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <blockquote>} */
    public static Element blockquote(Object... content) { return Element.of("blockquote", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <body>} */
    public static Element body(Object... content) { return Element.of("body", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <button>} */
    public static Element button(Object... content) { return Element.of("button", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <canvas>} */
    public static Element canvas(Object... content) { return Element.of("canvas", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <caption>} */
    public static Element caption(Object... content) { return Element.of("caption", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <cite>} */
    public static Element cite(Object... content) { return Element.of("cite", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <code>} */
    public static Element code(Object... content) { return Element.of("code", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <colgroup>} */
    public static Element colgroup(Object... content) { return Element.of("colgroup", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <data>} */
    public static Element data(Object... content) { return Element.of("data", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <datalist>} */
    public static Element datalist(Object... content) { return Element.of("datalist", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <dd>} */
    public static Element dd(Object... content) { return Element.of("dd", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <del>} */
    public static Element del(Object... content) { return Element.of("del", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <details>} */
    public static Element details(Object... content) { return Element.of("details", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <dfn>} */
    public static Element dfn(Object... content) { return Element.of("dfn", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <dialog>} */
    public static Element dialog(Object... content) { return Element.of("dialog", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <div>} */
    public static Element div(Object... content) { return Element.of("div", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <dl>} */
    public static Element dl(Object... content) { return Element.of("dl", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <dt>} */
    public static Element dt(Object... content) { return Element.of("dt", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <em>} */
    public static Element em(Object... content) { return Element.of("em", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <fieldset>} */
    public static Element fieldset(Object... content) { return Element.of("fieldset", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <figcaption>} */
    public static Element figcaption(Object... content) { return Element.of("figcaption", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <figure>} */
    public static Element figure(Object... content) { return Element.of("figure", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <footer>} */
    public static Element footer(Object... content) { return Element.of("footer", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <form>} */
    public static Element form(Object... content) { return Element.of("form", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <h1>} */
    public static Element h1(Object... content) { return Element.of("h1", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <h2>} */
    public static Element h2(Object... content) { return Element.of("h2", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <h3>} */
    public static Element h3(Object... content) { return Element.of("h3", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <h4>} */
    public static Element h4(Object... content) { return Element.of("h4", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <h5>} */
    public static Element h5(Object... content) { return Element.of("h5", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <h6>} */
    public static Element h6(Object... content) { return Element.of("h6", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <head>} */
    public static Element head(Object... content) { return Element.of("head", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <header>} */
    public static Element header(Object... content) { return Element.of("header", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <hgroup>} */
    public static Element hgroup(Object... content) { return Element.of("hgroup", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <html>} */
    public static Element html(Object... content) { return Element.of("html", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <i>} */
    public static Element i(Object... content) { return Element.of("i", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <iframe>} */
    public static Element iframe(Object... content) { return Element.of("iframe", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <ins>} */
    public static Element ins(Object... content) { return Element.of("ins", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <kbd>} */
    public static Element kbd(Object... content) { return Element.of("kbd", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <label>} */
    public static Element label(Object... content) { return Element.of("label", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <legend>} */
    public static Element legend(Object... content) { return Element.of("legend", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <li>} */
    public static Element li(Object... content) { return Element.of("li", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <main>} */
    public static Element main(Object... content) { return Element.of("main", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <map>} */
    public static Element map(Object... content) { return Element.of("map", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <mark>} */
    public static Element mark(Object... content) { return Element.of("mark", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <menu>} */
    public static Element menu(Object... content) { return Element.of("menu", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <meter>} */
    public static Element meter(Object... content) { return Element.of("meter", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <nav>} */
    public static Element nav(Object... content) { return Element.of("nav", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <noscript>} */
    public static Element noscript(Object... content) { return Element.of("noscript", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <object>} */
    public static Element object(Object... content) { return Element.of("object", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <ol>} */
    public static Element ol(Object... content) { return Element.of("ol", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <optgroup>} */
    public static Element optgroup(Object... content) { return Element.of("optgroup", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <option>} */
    public static Element option(Object... content) { return Element.of("option", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <output>} */
    public static Element output(Object... content) { return Element.of("output", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <p>} */
    public static Element p(Object... content) { return Element.of("p", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <picture>} */
    public static Element picture(Object... content) { return Element.of("picture", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <pre>} */
    public static Element pre(Object... content) { return Element.of("pre", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <progress>} */
    public static Element progress(Object... content) { return Element.of("progress", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <q>} */
    public static Element q(Object... content) { return Element.of("q", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <rp>} */
    public static Element rp(Object... content) { return Element.of("rp", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <rt>} */
    public static Element rt(Object... content) { return Element.of("rt", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <ruby>} */
    public static Element ruby(Object... content) { return Element.of("ruby", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <s>} */
    public static Element s(Object... content) { return Element.of("s", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <samp>} */
    public static Element samp(Object... content) { return Element.of("samp", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <search>} */
    public static Element search(Object... content) { return Element.of("search", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <section>} */
    public static Element section(Object... content) { return Element.of("section", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <select>} */
    public static Element select(Object... content) { return Element.of("select", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <slot>} */
    public static Element slot(Object... content) { return Element.of("slot", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <small>} */
    public static Element small(Object... content) { return Element.of("small", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <span>} */
    public static Element span(Object... content) { return Element.of("span", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <strong>} */
    public static Element strong(Object... content) { return Element.of("strong", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <sub>} */
    public static Element sub(Object... content) { return Element.of("sub", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <summary>} */
    public static Element summary(Object... content) { return Element.of("summary", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <sup>} */
    public static Element sup(Object... content) { return Element.of("sup", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <table>} */
    public static Element table(Object... content) { return Element.of("table", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <tbody>} */
    public static Element tbody(Object... content) { return Element.of("tbody", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <td>} */
    public static Element td(Object... content) { return Element.of("td", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <template>} */
    public static Element template(Object... content) { return Element.of("template", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <textarea>} */
    public static Element textarea(Object... content) { return Element.of("textarea", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <tfoot>} */
    public static Element tfoot(Object... content) { return Element.of("tfoot", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <th>} */
    public static Element th(Object... content) { return Element.of("th", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <thead>} */
    public static Element thead(Object... content) { return Element.of("thead", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <time>} */
    public static Element time(Object... content) { return Element.of("time", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <title>} */
    public static Element title(Object... content) { return Element.of("title", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <tr>} */
    public static Element tr(Object... content) { return Element.of("tr", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <u>} */
    public static Element u(Object... content) { return Element.of("u", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <ul>} */
    public static Element ul(Object... content) { return Element.of("ul", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <var>} */
    public static Element var(Object... content) { return Element.of("var", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <video>} */
    public static Element video(Object... content) { return Element.of("video", Element.NORMAL, content); }
    /** @param content attributes and children @return {@code <area>}, a void element (attributes only) */
    public static Element area(Object... content) { return Element.of("area", Element.VOID, content); }
    /** @param content attributes and children @return {@code <base>}, a void element (attributes only) */
    public static Element base(Object... content) { return Element.of("base", Element.VOID, content); }
    /** @param content attributes and children @return {@code <br>}, a void element (attributes only) */
    public static Element br(Object... content) { return Element.of("br", Element.VOID, content); }
    /** @param content attributes and children @return {@code <col>}, a void element (attributes only) */
    public static Element col(Object... content) { return Element.of("col", Element.VOID, content); }
    /** @param content attributes and children @return {@code <embed>}, a void element (attributes only) */
    public static Element embed(Object... content) { return Element.of("embed", Element.VOID, content); }
    /** @param content attributes and children @return {@code <hr>}, a void element (attributes only) */
    public static Element hr(Object... content) { return Element.of("hr", Element.VOID, content); }
    /** @param content attributes and children @return {@code <img>}, a void element (attributes only) */
    public static Element img(Object... content) { return Element.of("img", Element.VOID, content); }
    /** @param content attributes and children @return {@code <input>}, a void element (attributes only) */
    public static Element input(Object... content) { return Element.of("input", Element.VOID, content); }
    /** @param content attributes and children @return {@code <link>}, a void element (attributes only) */
    public static Element link(Object... content) { return Element.of("link", Element.VOID, content); }
    /** @param content attributes and children @return {@code <meta>}, a void element (attributes only) */
    public static Element meta(Object... content) { return Element.of("meta", Element.VOID, content); }
    /** @param content attributes and children @return {@code <source>}, a void element (attributes only) */
    public static Element source(Object... content) { return Element.of("source", Element.VOID, content); }
    /** @param content attributes and children @return {@code <track>}, a void element (attributes only) */
    public static Element track(Object... content) { return Element.of("track", Element.VOID, content); }
    /** @param content attributes and children @return {@code <wbr>}, a void element (attributes only) */
    public static Element wbr(Object... content) { return Element.of("wbr", Element.VOID, content); }
    /** @param content attributes and children @return {@code <script>}, whose children are text only, kept as code */
    public static Element script(Object... content) { return Element.of("script", Element.RAW_TEXT, content); }
    /** @param content attributes and children @return {@code <style>}, whose children are text only, kept as code */
    public static Element style(Object... content) { return Element.of("style", Element.RAW_TEXT, content); }
    /** @param content attributes and children @return SVG {@code <svg>} */
    public static Element svg(Object... content) { return Element.of("svg", Element.NORMAL, content); }
}
