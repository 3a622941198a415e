package dev.tidemill.html;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A piece of HTML: an element, escaped text, a comment, a fragment of several, or HTML the
 * application vouches for ({@link #trusted}). Only this package makes them, so whatever reaches a
 * page went through the escaping: text and double-quoted attribute values escape {@code & < > "},
 * single-quoted values {@code & < > '}, attribute names are validated, comments cannot be closed
 * early, and {@code <script>} / {@code <style>} content cannot end its element. Immutable and thread-safe: build a piece once,
 * render it from any thread, any number of times.
 *
 * <p>Build pages with {@link Tags} ({@code import static dev.tidemill.html.Tags.*}); a handler
 * that returns one answers {@code 200 text/html; charset=utf-8}, rendered straight into the
 * response's pooled buffer as UTF-8, with no {@code String} of the page in between.
 */
public abstract class Html {
    static {
        dev.tidemill.internal.exchange.Markup.install((html, buf) -> HtmlOutput.render((Html) html, buf));
    }

    /** Nothing: renders no bytes (for an absent optional part). */
    public static final Html EMPTY = new Fragment(new Html[0]);

    Html() {} // only this package makes HTML: that is what keeps it escaped

    /** Writes this piece. */
    abstract void render(HtmlOutput out);

    /** @return the UTF-8 bytes of this piece (rendered into the thread's reusable array, then copied once) */
    public final byte[] toBytes() {
        return HtmlOutput.bytes(this);
    }

    /** @return the markup, as a string (for tests and logs; a response is rendered as bytes) */
    @Override
    public final String toString() {
        return new String(toBytes(), StandardCharsets.UTF_8);
    }

    /**
     * @param text any text: {@code & < > "} are escaped
     * @return the text as HTML
     */
    public static Html text(CharSequence text) {
        return new Text(Objects.requireNonNull(text, "text").toString());
    }

    /**
     * HTML written by the application, rendered as it is, never escaped. The one way to put raw
     * markup on a page, named so that a review can find every use: only for markup the code
     * itself produced or sanitised, never for anything a user sent.
     *
     * @param markup the HTML
     * @return it, unescaped
     */
    public static Html trusted(String markup) {
        return new Trusted(Objects.requireNonNull(markup, "markup"));
    }

    /**
     * @param text the comment's text: {@code <} and {@code >} are escaped, so neither {@code -->}
     *     nor {@code --!>} can end it early and nothing after it can become markup
     * @return an HTML comment
     */
    public static Html comment(String text) {
        return new Comment(Objects.requireNonNull(text, "text"));
    }

    /**
     * @param content pieces, text (escaped), or iterables and arrays of them; nulls are skipped
     * @return them one after another, without an element around them
     */
    public static Html fragment(Object... content) {
        return new Fragment(Content.children(content, "a fragment"));
    }

    /** Escaped text. */
    static final class Text extends Html {
        final String text;

        Text(String text) {
            this.text = text;
        }

        @Override
        void render(HtmlOutput out) {
            out.write(text, HtmlOutput.Escape.TEXT);
        }
    }

    /** Markup the application vouches for. */
    static final class Trusted extends Html {
        private final String markup;

        Trusted(String markup) {
            this.markup = markup;
        }

        @Override
        void render(HtmlOutput out) {
            out.write(markup, HtmlOutput.Escape.NONE);
        }
    }

    /** A comment that cannot be broken out of. */
    static final class Comment extends Html {
        private final String text;

        Comment(String text) {
            this.text = text;
        }

        @Override
        void render(HtmlOutput out) {
            out.ascii("<!--").write(text, HtmlOutput.Escape.COMMENT).ascii("-->");
        }
    }

    /** Several pieces in a row. */
    static final class Fragment extends Html {
        private final Html[] children;

        Fragment(Html[] children) {
            this.children = children;
        }

        @Override
        void render(HtmlOutput out) {
            for (Html c : children) c.render(out);
        }
    }
}
