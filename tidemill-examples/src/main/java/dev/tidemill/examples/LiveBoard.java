package dev.tidemill.examples;

import static dev.tidemill.html.Tags.*;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Request;
import dev.tidemill.Response;
import dev.tidemill.StaticAssets;
import dev.tidemill.Subscription;
import dev.tidemill.Tidemill;
import dev.tidemill.Topic;
import dev.tidemill.datastar.Action;
import dev.tidemill.datastar.Datastar;
import dev.tidemill.datastar.DatastarEvent;
import dev.tidemill.datastar.Dialect;
import dev.tidemill.html.Html;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The demo's live page, {@code /board}: a shared board of notes. A browser posts a note with
 * Datastar ({@code @post}); every open page receives the new list over Server-Sent Events and
 * Datastar patches it into the DOM. Built with the HTML builder; the notes travel between
 * requests on a topic, so any number of pages (and processes, once topics are shared) see them.
 *
 * <p>Each update sends the whole list (at most {@link #KEPT} notes), not only the new note: an
 * update is then idempotent, so a page that subscribes while a note is being posted can neither
 * miss it nor show it twice, and Datastar's morphing keeps the DOM work to what changed.
 */
final class LiveBoard {
    /** Notes kept and shown: the newest 50. */
    static final int KEPT = 50;
    /** The longest note, in chars; longer is refused with a message on the page. */
    static final int MAX_NOTE_CHARS = 280;
    /** The longest author name, in chars. */
    static final int MAX_AUTHOR_CHARS = 40;
    static final String TOPIC = "demo.board";
    /** The Datastar browser client: fetched from npm by the build into the examples' classes (pom.xml). */
    static final String DATASTAR_CLIENT = "web/datastar.js";
    /** The board's stylesheet, a resource of the examples. */
    static final String STYLESHEET = "web/board.css";
    /**
     * The pre-1.0 dialect: the browser client on the npm registry, which the demo serves, is
     * {@code @starfederation/datastar} 1.0.0-beta.11 (docs/datastar.md).
     */
    static final Datastar DS = Datastar.of(Dialect.PRE_1_0);
    private static final Action POST = Action.post("/board/notes");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    /** A note on the board. */
    record Note(long number, String author, String text, LocalTime at) {}

    /** What a post sends: Datastar's signals, as JSON. */
    record Signals(String author, String draft) {}

    private final Topic<Html> updates;
    private final ArrayDeque<Note> notes = new ArrayDeque<>();
    private long posted;
    private final StaticAssets assets;

    private LiveBoard(Topic<Html> updates, StaticAssets assets) {
        this.updates = updates;
        this.assets = assets;
    }

    /**
     * Registers {@code GET /board}, {@code GET /board/events} and {@code POST /board/notes}.
     *
     * @param app the app
     * @param assets the static assets, holding {@link #DATASTAR_CLIENT} and {@link #STYLESHEET}
     */
    static void register(Tidemill app, StaticAssets assets) {
        LiveBoard board = new LiveBoard(topic(), assets);
        app.get("/board", req -> board.page());
        app.get("/board/events", req -> board.events()).mode(ExecutionMode.IO);
        app.post("/board/notes", board::post);
    }

    @SuppressWarnings("unchecked")
    private static Topic<Html> topic() {
        synchronized (LiveBoard.class) {
            return (Topic<Html>) Topic.find(TOPIC).orElseGet(() -> Topic.<Html>builder(TOPIC).build());
        }
    }

    Html page() {
        return document(attr("lang", "en"),
                head(meta(attr("charset", "utf-8")), meta(attr("name", "viewport"), attr("content", "width=device-width, initial-scale=1")),
                        title("Tidemill board"), link(attr("rel", "icon"), href("data:,")), // no favicon request
                        link(attr("rel", "stylesheet"), href(assets.href(STYLESHEET))),
                        script(attr("type", "module"), attr("src", assets.href(DATASTAR_CLIENT)))),
                body(DS.signals("{\"author\":\"\",\"draft\":\"\"}"),
                        main(h1("Tidemill board"),
                                p(cls("hint"), "Open this page in two tabs: what you post here appears there."),
                                div(cls("compose"),
                                        input(id("author"), DS.bind("author"), attr("placeholder", "Your name"),
                                                attr("maxlength", MAX_AUTHOR_CHARS)),
                                        input(id("draft"), DS.bind("draft"), attr("placeholder", "Write a note"),
                                                attr("maxlength", MAX_NOTE_CHARS), DS.on("keydown", "evt.key === 'Enter' && " + DS.expression(POST))),
                                        button(id("post"), DS.on("click", POST), "Post")),
                                error(""),
                                div(id("live"), DS.on("load", Action.get("/board/events"))),
                                notes())));
    }

    Response events() {
        return Response.sse(stream -> {
            Subscription<Html> s = updates.subscribe(Runnable::run, m -> stream.send(DS.patchElements(m.value()).sse()), "notes");
            stream.onClose(s::close);
            stream.send(DS.patchElements(notes()).sse()); // after subscribing: an update racing this one is sent after it, never lost
        });
    }

    Response post(Request req) {
        Signals s = Datastar.readSignals(req, Signals.class);
        String draft = s.draft() == null ? "" : s.draft().strip();
        String author = s.author() == null || s.author().isBlank() ? "anonymous" : s.author().strip();
        if (draft.isEmpty() || draft.length() > MAX_NOTE_CHARS || author.length() > MAX_AUTHOR_CHARS) {
            return Datastar.response(DS.patchElements(error("A note is 1-" + MAX_NOTE_CHARS + " characters, a name at most "
                    + MAX_AUTHOR_CHARS + ".")));
        }
        Html list;
        synchronized (notes) {
            notes.addFirst(new Note(++posted, author, draft, LocalTime.now(ZoneOffset.UTC)));
            if (notes.size() > KEPT) notes.removeLast();
            list = notes();
        }
        updates.publish("notes", list);
        DatastarEvent clear = DS.patchSignals("{\"draft\":\"\"}");
        return Datastar.response(clear, DS.patchElements(error("")));
    }

    /** @return the error line; patched by its id (Datastar morphs it), empty when there is none */
    private static Html error(String message) {
        return p(id("error"), message);
    }

    /**
     * @return the list of notes, newest first, as one element: it replaces the page's list by its
     *     id (the pre-1.0 client's {@code inner} mode keeps only the last of several top-level elements)
     */
    Html notes() {
        List<Html> items = new ArrayList<>();
        synchronized (notes) {
            for (Note n : notes) {
                items.add(li(id("note-" + n.number()), span(cls("author"), n.author()), " ", span(cls("text"), n.text()), " ",
                        span(cls("at"), TIME.format(n.at()))));
            }
        }
        return ul(id("notes"), items.isEmpty() ? li(cls("empty"), "No notes yet.") : items);
    }
}
