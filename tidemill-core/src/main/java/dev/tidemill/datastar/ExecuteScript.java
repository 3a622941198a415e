package dev.tidemill.datastar;

import static dev.tidemill.html.Tags.attr;
import static dev.tidemill.html.Tags.script;

import dev.tidemill.SseEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Runs a script in the page. In 1.0 that is a {@code <script>} element appended to {@code body}
 * (a {@code datastar-patch-elements} event, as the SDK's {@code executeScript} sends it) that
 * removes itself after running unless {@link #autoRemove(boolean) autoRemove(false)}; before 1.0
 * a {@code datastar-execute-script} event. Made by {@link Datastar#executeScript} and
 * {@link Datastar#redirect}; immutable.
 *
 * <p>In 1.0 the script is HTML-parsed inside its element, so {@code </script} and {@code <!--}
 * in it are written {@code <\/script} and {@code <\!--} (the HTML builder's rule: the same inside a
 * JS string or regex, and the element cannot be ended early). The beta.11 client sets the
 * script's text directly, so there it is sent as it is.
 */
public final class ExecuteScript implements DatastarEvent {
    private final Dialect dialect;
    private final String script;
    private final boolean autoRemove;
    /** name, value, name, value... in the order given */
    private final List<String> attributes;
    private final EventOptions options;

    ExecuteScript(Dialect dialect, String script, boolean autoRemove, List<String> attributes, EventOptions options) {
        this.dialect = dialect;
        this.script = script;
        this.autoRemove = autoRemove;
        this.attributes = attributes;
        this.options = options;
    }

    /** @param remove whether the script element removes itself after running; default true @return a copy */
    public ExecuteScript autoRemove(boolean remove) {
        return new ExecuteScript(dialect, script, remove, attributes, options);
    }

    /**
     * Adds an attribute to the script element, after those already added.
     *
     * @param name a valid attribute name (as {@link dev.tidemill.html.Tags#attr})
     * @param value its value, one line; escaped for a double-quoted attribute in 1.0. Pre-1.0, a
     *     script with no attribute is a module script (the client's default {@code type module});
     *     any attribute replaces that default.
     * @return a copy with it
     */
    public ExecuteScript attribute(String name, String value) {
        attr(name, "x"); // validates the name
        DataLines.oneLine("attribute " + name, Objects.requireNonNull(value, "value"));
        List<String> a = new ArrayList<>(attributes);
        a.add(name);
        a.add(value);
        return new ExecuteScript(dialect, script, autoRemove, List.copyOf(a), options);
    }

    /** @param id the SSE event id (not empty, one line) @return a copy with it */
    public ExecuteScript id(String id) {
        return new ExecuteScript(dialect, script, autoRemove, attributes, options.withId(id));
    }

    /** @param retry the SSE reconnection delay; the default 1,000 ms is not sent @return a copy with it */
    public ExecuteScript retry(Duration retry) {
        return new ExecuteScript(dialect, script, autoRemove, attributes, options.withRetry(retry));
    }

    @Override
    public Dialect dialect() {
        return dialect;
    }

    @Override
    public SseEvent sse() {
        DataLines d = new DataLines();
        if (dialect == Dialect.V1_0) {
            List<Object> content = new ArrayList<>(attributes.size() / 2 + 2);
            for (int i = 0; i < attributes.size(); i += 2) content.add(attr(attributes.get(i), attributes.get(i + 1)));
            if (autoRemove) content.add(attr("data-effect", "el.remove()"));
            content.add(script);
            // mode before selector: the SDK's executeScript writes them in that order.
            d.line("mode", "append").line("selector", "body").lines("elements", script(content.toArray()).toString());
            return d.event("datastar-patch-elements", options.id(), options.retry());
        }
        // beta.11 reads `autoRemove` (default true), `attributes` ("name value" per line, default
        // "type module") and `script` (watchers/executeScript.js lines 14-24). Its split takes the
        // text before the first space as the name, and a line without a space loses its last
        // character (`pivot` is -1 there), so a valueless attribute is still sent as "name ".
        if (!autoRemove) d.line("autoRemove", "false");
        for (int i = 0; i < attributes.size(); i += 2) d.line("attributes", attributes.get(i) + " " + attributes.get(i + 1));
        d.lines("script", script);
        return d.event("datastar-execute-script", options.id(), options.retry());
    }

    @Override
    public String toString() {
        return sse().encode();
    }
}
