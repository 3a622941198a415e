package dev.tidemill.datastar;

import dev.tidemill.JsonCodec;
import dev.tidemill.Request;
import dev.tidemill.Response;
import dev.tidemill.Topic;
import dev.tidemill.html.Attr;
import dev.tidemill.html.Html;
import dev.tidemill.html.Tags;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Datastar on the server, in one {@link Dialect}: the events a handler sends and the attributes a
 * page carries. Immutable and thread-safe; keep one per dialect in a constant.
 *
 * <pre>{@code
 * static final Datastar DS = Datastar.of(Dialect.PRE_1_0);
 *
 * app.post("/todos", req -> {
 *     Todo t = Datastar.readSignals(req, Todo.class);
 *     return Datastar.response(DS.patchElements(li(id("t" + n), t.text())).selector("#list").mode(PatchMode.APPEND),
 *             DS.patchSignals("{\"text\":\"\"}"));
 * });
 * app.get("/board", req -> Datastar.sse(board, "*", m -> DS.patchElements(render(m.value()))));
 * // in a page:  input(DS.bind("text")), button(DS.on("click", Action.post("/todos")), "Add")
 * }</pre>
 *
 * <p>Static methods read requests and make responses, the same in both dialects.
 */
public final class Datastar {
    /** The query parameter that carries the signals of a GET or DELETE. */
    public static final String QUERY_PARAMETER = "datastar";
    /** The header a Datastar client sends with every request it makes, with the value {@code true}. */
    public static final String REQUEST_HEADER = "Datastar-Request";

    private static final Pattern SIGNAL_PATH = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*");
    /** camelCase with no two capitals together: kebab-cased into a key and back it is the same name in both clients. */
    private static final Pattern KEY_SIGNAL = Pattern.compile("[a-z][a-z0-9]*(?:[A-Z][a-z0-9]+)*[A-Z]?");

    private final Dialect dialect;
    private final JsonCodec json;

    private Datastar(Dialect dialect, JsonCodec json) {
        this.dialect = dialect;
        this.json = json;
    }

    /**
     * @param dialect what the page's client speaks
     * @return a Datastar of that dialect, serialising signal objects with Tidemill's default
     *     Jackson codec
     */
    public static Datastar of(Dialect dialect) {
        return new Datastar(Objects.requireNonNull(dialect, "dialect"), SignalReader.DEFAULT_CODEC);
    }

    /** @return a Datastar of the 1.0 protocol */
    public static Datastar v1() {
        return of(Dialect.V1_0);
    }

    /**
     * @param codec serialises the objects given to {@link #patchSignals(Object)} and
     *     {@link #signals(Object)}: pass the one given to {@code Tidemill.json(...)}, if any
     * @return a copy using it
     */
    public Datastar json(JsonCodec codec) {
        return new Datastar(dialect, Objects.requireNonNull(codec, "codec"));
    }

    /** @return the dialect */
    public Dialect dialect() {
        return dialect;
    }

    // ---- events

    /**
     * @param elements the elements; each top-level one needs an {@code id} unless a selector is
     *     set. Markup from elsewhere goes through {@link Html#trusted}, where a review sees it.
     * @return the event, in mode {@link PatchMode#OUTER}
     */
    public PatchElements patchElements(Html elements) {
        return new PatchElements(dialect, elements.toString(), null, PatchMode.OUTER, Namespace.HTML, false, EventOptions.NONE);
    }

    /** @param selector the elements to remove, a CSS selector @return the event */
    public PatchElements removeElements(String selector) {
        return new PatchElements(dialect, "", null, PatchMode.REMOVE, Namespace.HTML, false, EventOptions.NONE).selector(selector);
    }

    /**
     * @param json a JSON object, as the app wrote it (sent as it is; several lines are fine)
     * @return the event
     */
    public PatchSignals patchSignals(String json) {
        Objects.requireNonNull(json, "json");
        if (json.isBlank()) throw new IllegalArgumentException("Datastar signals are not blank");
        return new PatchSignals(dialect, json, null, false, EventOptions.NONE);
    }

    /**
     * @param value a record, map or bean, serialised with this Datastar's codec into a JSON object
     * @return the event
     * @throws IllegalArgumentException if it does not serialise to a JSON object
     */
    public PatchSignals patchSignals(Object value) {
        return patchSignals(object(value));
    }

    /**
     * @param paths the signals to remove, dotted for nested ones ({@code user.name})
     * @return in 1.0 a patch that sets them to {@code null}; pre-1.0 a remove-signals event
     */
    public PatchSignals removeSignals(String... paths) {
        if (paths.length == 0) throw new IllegalArgumentException("name a signal to remove");
        for (String p : paths) signalPath(p);
        return new PatchSignals(dialect, null, List.of(paths), false, EventOptions.NONE);
    }

    /**
     * @param script JavaScript, not blank; several lines are fine
     * @return the event (the script element removes itself after running)
     */
    public ExecuteScript executeScript(String script) {
        Objects.requireNonNull(script, "script");
        if (script.isBlank()) throw new IllegalArgumentException("a script is not blank");
        return new ExecuteScript(dialect, script, true, List.of(), EventOptions.NONE);
    }

    /**
     * @param url where the page goes, quoted as a JS string literal nothing can break out of
     * @return a script that sets {@code window.location.href} (as the Go SDK's {@code Redirect})
     */
    public ExecuteScript redirect(String url) {
        return executeScript("setTimeout(() => window.location.href = " + Js.quote(Objects.requireNonNull(url, "url")) + ")");
    }

    // ---- attributes

    /**
     * @param event the DOM event, with Datastar modifiers if any ({@code click},
     *     {@code keydown__debounce.500ms}); lower case, as HTML attribute names are
     * @param expression what runs, a Datastar expression written by the app (never user input:
     *     pass that in signals)
     * @return {@code data-on:event} in 1.0, {@code data-on-event} pre-1.0
     */
    public Attr on(String event, String expression) {
        return Tags.attr(key("on", event), Objects.requireNonNull(expression, "expression"));
    }

    /** @param event as {@link #on(String, String)} @param action the request to make @return the attribute */
    public Attr on(String event, Action action) {
        return on(event, expression(action));
    }

    /**
     * @param action a backend action
     * @return its expression in this dialect, to combine with others ({@code $busy = true; ...})
     */
    public String expression(Action action) {
        return action.expression(dialect);
    }

    /** @param signal a signal path ({@code user.name}) @return {@code data-bind="signal"} */
    public Attr bind(String signal) {
        return Tags.attr("data-bind", signalPath(signal));
    }

    /**
     * @param json signals to define, a JSON object (or Datastar's object syntax) the app wrote
     * @return {@code data-signals='...'}, single-quoted with {@code '} escaped
     */
    public Attr signals(String json) {
        return Tags.jsonAttr("data-signals", Objects.requireNonNull(json, "json"));
    }

    /**
     * @param value a record, map or bean, serialised with this Datastar's codec; its {@code $}
     *     and {@code @} are written {@code \u0024} and {@code \u0040} (JSON has them only inside
     *     strings, where they mean the same), since the client rewrites {@code $name} and
     *     {@code @name(} in an attribute's text before it reads it
     * @return {@code data-signals='{...}'}
     */
    public Attr signals(Object value) {
        return signals(object(value).replace("$", "\\u0024").replace("@", "\\u0040"));
    }

    /** @param expression what the element's text becomes @return {@code data-text="expression"} */
    public Attr text(String expression) {
        return Tags.attr("data-text", Objects.requireNonNull(expression, "expression"));
    }

    /** @param expression whether the element shows @return {@code data-show="expression"} */
    public Attr show(String expression) {
        return Tags.attr("data-show", Objects.requireNonNull(expression, "expression"));
    }

    /**
     * @param attributes attribute name to expression; its value when true-ish, absent when false
     * @return {@code data-attr="{'name': expression, ...}"}, one per element
     */
    public Attr attr(Map<String, String> attributes) {
        return Tags.attr("data-attr", jsObject(attributes));
    }

    /**
     * @param classes class name to expression; the class is on while it is true
     * @return {@code data-class="{'name': expression, ...}"}, one per element (the object form
     *     keeps a class name exact in both clients, where the key form would re-case it)
     */
    public Attr cls(Map<String, String> classes) {
        return Tags.attr("data-class", jsObject(classes));
    }

    /** @param signal a signal path, true while a request of this element runs @return {@code data-indicator="signal"} */
    public Attr indicator(String signal) {
        return Tags.attr("data-indicator", signalPath(signal));
    }

    /**
     * @param signal camelCase name of the computed signal ({@code totalPrice}; no two capitals
     *     together)
     * @param expression its value
     * @return {@code data-computed:total-price} in 1.0, {@code data-computed-total-price} pre-1.0
     *     (HTML attribute names are lower case; both clients read the kebab-case back as camelCase)
     */
    public Attr computed(String signal, String expression) {
        Objects.requireNonNull(signal, "signal");
        if (!KEY_SIGNAL.matcher(signal).matches()) {
            throw new IllegalArgumentException("a computed signal's name is camelCase letters and digits, no two capitals"
                    + " together: " + signal);
        }
        return Tags.attr(key("computed", signal.replaceAll("([A-Z])", "-$1").toLowerCase(java.util.Locale.ROOT)),
                Objects.requireNonNull(expression, "expression"));
    }

    // ---- reading requests

    /** @param request a request @return whether a Datastar client made it ({@code Datastar-Request: true}) */
    public static boolean isDatastarRequest(Request request) {
        return request.header(REQUEST_HEADER).map(v -> v.trim().equalsIgnoreCase("true")).orElse(false);
    }

    /**
     * The request's signals as a tree of maps, lists, strings, numbers, booleans and nulls, within
     * {@link SignalLimits#DEFAULTS}; see {@link #readSignals(Request, Class, SignalLimits)}.
     *
     * @param request the request
     * @return the signals; empty if the request carries none
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> readSignals(Request request) {
        return readSignals(request, Map.class, SignalLimits.DEFAULTS);
    }

    /**
     * @param request the request
     * @param type a record or bean the signals bind to (unknown signals are ignored)
     * @param <T> the type
     * @return the bound signals, within {@link SignalLimits#DEFAULTS}
     */
    public static <T> T readSignals(Request request, Class<T> type) {
        return readSignals(request, type, SignalLimits.DEFAULTS);
    }

    /**
     * Reads and binds the request's signals with the app's JSON codec: from the {@code datastar}
     * query parameter on GET, HEAD and DELETE (a DELETE without it: its body, where the beta.11
     * client puts them), from the body otherwise. None at all read as {@code {}}.
     *
     * @param request the request
     * @param type what to bind to; {@code Map.class} for a tree
     * @param limits the bounds
     * @param <T> the type
     * @return the bound signals
     * @throws dev.tidemill.ProblemException 413 over {@link SignalLimits#maxBytes()}; 400 for
     *     signals that are not a JSON object, nest deeper than {@link SignalLimits#maxDepth()},
     *     are malformed or do not fit {@code type} (the detail says which)
     */
    public static <T> T readSignals(Request request, Class<T> type, SignalLimits limits) {
        return SignalReader.read(Objects.requireNonNull(request, "request"), Objects.requireNonNull(type, "type"),
                Objects.requireNonNull(limits, "limits"));
    }

    // ---- responses

    /**
     * A stream of a topic's messages as Datastar events ({@link Response#sse(Topic, String, Function)}:
     * replay on {@code Last-Event-ID}, the message id as the event id).
     *
     * @param topic the topic
     * @param pattern a subject, a prefix wildcard ({@code room.*}) or {@code *}
     * @param toEvent the event of a message
     * @param <T> the message type
     * @return a 200 event stream
     */
    public static <T> Response sse(Topic<T> topic, String pattern, Function<Topic.Message<T>, ? extends DatastarEvent> toEvent) {
        Objects.requireNonNull(toEvent, "toEvent");
        return Response.sse(topic, pattern, m -> toEvent.apply(m).sse());
    }

    /**
     * A one-shot answer: a {@code text/event-stream} body holding {@code events}, then its end
     * (sent with a {@code Content-Length}; compressed like any body of its size).
     *
     * @param events the events, in order
     * @return a 200 response
     */
    public static Response response(DatastarEvent... events) {
        StringBuilder b = new StringBuilder();
        for (DatastarEvent e : events) b.append(e.sse().encode());
        return Response.ok().header("Cache-Control", "no-cache")
                .bytes(b.toString().getBytes(StandardCharsets.UTF_8), "text/event-stream; charset=utf-8");
    }

    // ----

    private String key(String plugin, String key) {
        Objects.requireNonNull(key, plugin);
        if (key.isEmpty()) throw new IllegalArgumentException("data-" + plugin + " needs a key");
        return "data-" + plugin + (dialect == Dialect.V1_0 ? ":" : "-") + key;
    }

    private static String signalPath(String signal) {
        Objects.requireNonNull(signal, "signal");
        if (!SIGNAL_PATH.matcher(signal).matches()) {
            throw new IllegalArgumentException("a signal path is dotted identifiers (letters, digits, _): " + signal);
        }
        return signal;
    }

    private String object(Object value) {
        Objects.requireNonNull(value, "value");
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        try {
            json.write(value, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String s = out.toString(StandardCharsets.UTF_8);
        if (!s.stripLeading().startsWith("{")) {
            throw new IllegalArgumentException("signals are a JSON object; " + value.getClass().getName() + " is written as " + s);
        }
        return s;
    }

    /** {@code {'key': expression, ...}}: keys quoted, expressions as the app wrote them. */
    private static String jsObject(Map<String, String> entries) {
        if (entries.isEmpty()) throw new IllegalArgumentException("give at least one entry");
        StringBuilder b = new StringBuilder("{");
        for (Map.Entry<String, String> e : entries.entrySet()) {
            if (b.length() > 1) b.append(", ");
            b.append(Js.quote(e.getKey())).append(": ").append(Objects.requireNonNull(e.getValue(), e.getKey()));
        }
        return b.append('}').toString();
    }
}
