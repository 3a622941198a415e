package dev.tidemill.examples;

import static dev.tidemill.html.Tags.*;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Request;
import dev.tidemill.Response;
import dev.tidemill.SseEvent;
import dev.tidemill.Subscription;
import dev.tidemill.Tidemill;
import dev.tidemill.Topic;
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
                body(jsonAttr("data-signals", "{\"author\":\"\",\"draft\":\"\"}"),
                        main(h1("Tidemill board"),
                                p(cls("hint"), "Open this page in two tabs: what you post here appears there."),
                                div(cls("compose"),
                                        input(id("author"), attr("data-bind-author", true), attr("placeholder", "Your name"),
                                                attr("maxlength", MAX_AUTHOR_CHARS)),
                                        input(id("draft"), attr("data-bind-draft", true), attr("placeholder", "Write a note"),
                                                attr("maxlength", MAX_NOTE_CHARS), attr("data-on-keydown", "evt.key === 'Enter' && @post('/board/notes')")),
                                        button(id("post"), attr("data-on-click", "@post('/board/notes')"), "Post")),
                                p(id("error")),
                                div(id("live"), attr("data-on-load", "@get('/board/events')")),
                                ul(id("notes"), list()))));
    }

    Response events() {
        return Response.sse(stream -> {
            Subscription<Html> s = updates.subscribe(Runnable::run, m -> stream.send(patchNotes(m.value())), "notes");
            stream.onClose(s::close);
            stream.send(patchNotes(list())); // after subscribing: an update racing this one is sent after it, never lost
        });
    }

    Object post(Request req) {
        Signals s = req.body(Signals.class);
        String draft = s.draft() == null ? "" : s.draft().strip();
        String author = s.author() == null || s.author().isBlank() ? "anonymous" : s.author().strip();
        if (draft.isEmpty() || draft.length() > MAX_NOTE_CHARS || author.length() > MAX_AUTHOR_CHARS) {
            return events(patch("#error", "inner", Html.text("A note is 1-" + MAX_NOTE_CHARS + " characters, a name at most "
                    + MAX_AUTHOR_CHARS + ".")));
        }
        Html list;
        synchronized (notes) {
            notes.addFirst(new Note(++posted, author, draft, LocalTime.now(ZoneOffset.UTC)));
            if (notes.size() > KEPT) notes.removeLast();
            list = list();
        }
        updates.publish("notes", list);
        return events(SseEvent.data("signals {\"draft\":\"\"}").event("datastar-merge-signals"), patch("#error", "inner", Html.EMPTY));
    }

    /** @return the notes as list items, newest first */
    Html list() {
        List<Html> items = new ArrayList<>();
        synchronized (notes) {
            for (Note n : notes) {
                items.add(li(id("note-" + n.number()), span(cls("author"), n.author()), " ", span(cls("text"), n.text()), " ",
                        span(cls("at"), TIME.format(n.at()))));
            }
        }
        return items.isEmpty() ? li(cls("empty"), "No notes yet.") : Html.fragment(items);
    }

    private static SseEvent patchNotes(Html list) {
        return patch("#notes", "inner", list);
    }

    /** A pre-1.0 Datastar {@code datastar-merge-fragments} event: the dialect of the client on the npm registry. */
    private static SseEvent patch(String selector, String mode, Html html) {
        StringBuilder d = new StringBuilder("selector ").append(selector).append("\nmergeMode ").append(mode);
        for (String line : html.toString().split("\n", -1)) d.append("\nfragments ").append(line);
        return SseEvent.data(d.toString()).event("datastar-merge-fragments");
    }

    /** @return a {@code text/event-stream} answer of these events, then the end */
    private static Response events(SseEvent... events) {
        return Response.sse(stream -> {
            for (SseEvent e : events) stream.send(e);
            stream.close();
        });
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
