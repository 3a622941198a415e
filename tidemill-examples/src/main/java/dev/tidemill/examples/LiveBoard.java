package dev.tidemill.examples;

import static dev.tidemill.html.Tags.*;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Request;
import dev.tidemill.Response;
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
    private final String datastarUrl;

    private LiveBoard(Topic<Html> updates, String datastarUrl) {
        this.updates = updates;
        this.datastarUrl = datastarUrl;
    }

    /**
     * Registers {@code GET /board}, {@code GET /board/events} and {@code POST /board/notes}.
     *
     * @param app the app
     * @param datastarUrl where the page loads the Datastar client from
     */
    static void register(Tidemill app, String datastarUrl) {
        LiveBoard board = new LiveBoard(topic(), datastarUrl);
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
                        title("Tidemill board"), link(attr("rel", "icon"), href("data:,")), style(CSS), // no favicon request
                        script(attr("type", "module"), attr("src", datastarUrl))),
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

    private static final String CSS = """
            body { font: 16px/1.4 system-ui, sans-serif; margin: 0; background: #f4f6f8; color: #1b2733; }
            main { max-width: 40rem; margin: 2rem auto; padding: 0 1rem; }
            .hint { color: #5a6b7b; }
            .compose { display: flex; gap: .5rem; }
            .compose input { padding: .5rem; border: 1px solid #b8c4cf; border-radius: 4px; }
            #author { width: 8rem; } #draft { flex: 1; }
            button { padding: .5rem 1rem; border: 0; border-radius: 4px; background: #1c6dd0; color: white; }
            #error { color: #b00020; min-height: 1.4em; }
            #notes { list-style: none; padding: 0; }
            #notes li { background: white; margin: .4rem 0; padding: .6rem .8rem; border-radius: 4px; box-shadow: 0 1px 2px #0002; }
            .author { font-weight: 600; } .at { color: #8a99a8; font-size: .85em; float: right; }
            """;
}
