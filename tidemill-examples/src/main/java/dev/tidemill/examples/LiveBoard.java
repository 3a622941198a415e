package dev.tidemill.examples;

import static dev.tidemill.html.Tags.*;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Request;
import dev.tidemill.Requirement;
import dev.tidemill.Session;
import dev.tidemill.Response;
import dev.tidemill.StaticAssets;
import dev.tidemill.MessageId;
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
 * <p>Posting needs a signed-in session (the note shows who posted it): without other sign-in
 * configured, {@code /login} is a development sign-in that takes a name and no password, marked
 * as such on the page. {@code POST /logout} ends the session. With {@link dev.tidemill.OidcLogin}
 * configured, the server's own {@code /login} signs in through the provider instead.
 *
 * <p>The notes themselves travel on the topic {@value #TOPIC}, which keeps the last {@link #KEPT}: in
 * process by default, on Redis with {@code TIDEMILL_REDIS_URL}, where every node reads them in the
 * same order. Each node keeps the list (read back from the topic at start, then kept up to date by one
 * subscription), renders it once per note and sends it to its open pages.
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
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    /** A note on the board, as the topic carries it (JSON on Redis); {@code at} is the UTC time, HH:mm:ss. */
    public record Note(String author, String text, String at) {}

    /** A note with its message id, which names its list item. */
    private record Shown(MessageId id, Note note) {}

    /** What a post sends: Datastar's signals, as JSON. */
    record Signals(String draft) {}

    /** The development sign-in form. */
    public record SignIn(String name, String next) {}

    private final Topic<Note> topic;
    // Guarded by notes: the list, the pages, and the messages that arrived while the list was read back.
    private final ArrayDeque<Shown> notes = new ArrayDeque<>();
    private final List<java.util.function.Consumer<Html>> pages = new ArrayList<>();
    private List<Topic.Message<Note>> early = new ArrayList<>();
    private MessageId shown = MessageId.ZERO;
    private final StaticAssets assets;
    /** Whether sign-in is the development one (no provider configured): the page says so. */
    private final boolean devSignIn;

    private LiveBoard(Topic<Note> topic, StaticAssets assets, boolean devSignIn) {
        this.devSignIn = devSignIn;
        this.topic = topic;
        this.assets = assets;
    }

    /**
     * Subscribes, then reads back what the topic keeps, then applies what arrived meanwhile: no note
     * is missed and none shown twice (ids only grow). A topic that cannot be read back (Redis away at
     * start) leaves the list to fill from new notes.
     */
    private void start() {
        topic.subscribe(Runnable::run, this::arrived, "notes"); // delivered on the topic's thread: rendering is quick
        List<Topic.Message<Note>> kept;
        try {
            kept = topic.replay(MessageId.ZERO).messages();
        } catch (RuntimeException unavailable) {
            kept = List.of();
        }
        synchronized (notes) {
            kept.forEach(this::apply);
            List<Topic.Message<Note>> meanwhile = early;
            early = null;
            meanwhile.forEach(this::apply);
            Html list = notes();
            pages.forEach(p -> p.accept(list));
        }
    }

    private void arrived(Topic.Message<Note> m) {
        synchronized (notes) {
            if (early != null) {
                early.add(m);
                return;
            }
            if (!apply(m)) return;
            Html list = notes();
            pages.forEach(p -> p.accept(list)); // each only queues the event: nothing here waits on a client
        }
    }

    /** @return whether the note was new; called holding {@code notes} */
    private boolean apply(Topic.Message<Note> m) {
        if (m.id().compareTo(shown) <= 0) return false;
        shown = m.id();
        notes.addFirst(new Shown(m.id(), m.value()));
        if (notes.size() > KEPT) notes.removeLast();
        return true;
    }

    /**
     * Registers {@code GET /board}, {@code GET /board/events} and {@code POST /board/notes}.
     *
     * @param app the app
     * @param assets the static assets, holding {@link #DATASTAR_CLIENT} and {@link #STYLESHEET}
     */
    static void register(Tidemill app, StaticAssets assets) {
        LiveBoard board = new LiveBoard(topic(), assets, app.config().auth().login().isEmpty());
        board.start();
        app.get("/board", board::page);
        app.get("/board/events", req -> board.events()).mode(ExecutionMode.IO);
        app.post("/board/notes", board::post).requires(Requirement.authenticated());
        if (app.config().auth().login().isPresent()) return; // the server takes /login, /auth/callback and POST /logout
        app.get("/login", LiveBoard::loginPage);
        app.post("/login", LiveBoard::signIn).form(SignIn.class);
        app.post("/logout", req -> {
            req.session().ifPresent(Session::logout);
            return Response.status(303).header("Location", "/board");
        });
    }

    @SuppressWarnings("unchecked")
    private static Topic<Note> topic() {
        synchronized (LiveBoard.class) {
            return (Topic<Note>) Topic.find(TOPIC).orElseGet(() -> Topic.<Note>builder(TOPIC).type(Note.class)
                    .replay(KEPT, java.time.Duration.ofDays(7)).build());
        }
    }

    /** The development sign-in: a name, no password; {@code next} is where to go after, a local path only. */
    static Html loginPage(Request req) {
        String next = localPath(req.query("next").orElse("/board"));
        return document(attr("lang", "en"),
                head(meta(attr("charset", "utf-8")), title("Sign in (development)"), link(attr("rel", "icon"), href("data:,"))),
                body(main(h1("Sign in"),
                        p(cls("dev"), "Development sign-in: any name, no password. Configure OpenID Connect or bearer tokens "
                                + "for real identities (docs/auth.md)."),
                        form(attr("method", "post"), attr("action", "/login"),
                                input(id("name"), attr("name", "name"), attr("placeholder", "Your name"),
                                        attr("maxlength", MAX_AUTHOR_CHARS), attr("required", "")),
                                input(attr("type", "hidden"), attr("name", "next"), attr("value", next)),
                                button(id("sign-in"), attr("type", "submit"), "Sign in")))));
    }

    static Response signIn(Request req) {
        SignIn form = req.body(SignIn.class);
        String name = form.name() == null ? "" : form.name().strip();
        if (name.isEmpty() || name.length() > MAX_AUTHOR_CHARS || name.chars().anyMatch(Character::isISOControl)) {
            return Response.status(422).html(loginPage(req).toString());
        }
        req.session().orElseThrow(() -> dev.tidemill.Problem.of(501, "Not Implemented", "sign-in needs sessions (Auth.sessions)")
                .toException()).login(name, java.util.Set.of("notes"), java.util.Set.of());
        return Response.status(303).header("Location", localPath(form.next() == null ? "/board" : form.next()));
    }

    /** @return {@code path} if it is a path on this site ({@code /x}, not {@code //host} or a URL), else {@code /board} */
    static String localPath(String path) {
        return path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\") && path.chars().noneMatch(c -> c < 0x21)
                ? path : "/board";
    }

    Html page(Request req) {
        java.util.Optional<Session> session = req.session();
        String who = session.flatMap(Session::principal).map(p -> p.subject()).orElse(null);
        Action post = Action.post("/board/notes").header("X-CSRF-Token", session.map(Session::csrfToken).orElse(""));
        return document(attr("lang", "en"),
                head(meta(attr("charset", "utf-8")), meta(attr("name", "viewport"), attr("content", "width=device-width, initial-scale=1")),
                        title("Tidemill board"), link(attr("rel", "icon"), href("data:,")), // no favicon request
                        link(attr("rel", "stylesheet"), href(assets.href(STYLESHEET))),
                        script(attr("type", "module"), attr("src", assets.href(DATASTAR_CLIENT)))),
                body(DS.signals("{\"draft\":\"\"}"),
                        main(h1("Tidemill board"),
                                p(cls("hint"), "Open this page in two tabs: what you post here appears there."),
                                who == null
                                        ? p(id("whoami"), a(id("sign-in"), href("/login?next=%2Fboard"), "Sign in"), " to post.")
                                        : p(id("whoami"), "Signed in as ", span(cls("author"), who), devSignIn ? " (development sign-in). " : ". ",
                                                form(attr("method", "post"), attr("action", "/logout"), attr("style", "display:inline"), csrfField(req),
                                                        button(id("sign-out"), attr("type", "submit"), "Sign out"))),
                                who == null ? p() : div(cls("compose"),
                                        input(id("draft"), DS.bind("draft"), attr("placeholder", "Write a note"),
                                                attr("maxlength", MAX_NOTE_CHARS), DS.on("keydown", "evt.key === 'Enter' && " + DS.expression(post))),
                                        button(id("post"), DS.on("click", post), "Post")),
                                error(""),
                                div(id("live"), DS.on("load", Action.get("/board/events"))),
                                notes())));
    }

    Response events() {
        return Response.sse(stream -> {
            java.util.function.Consumer<Html> page = list -> stream.send(DS.patchElements(list).sse());
            synchronized (notes) { // the list now, then every later one, in order: none lost, none out of order
                pages.add(page);
                page.accept(notes());
            }
            stream.onClose(() -> {
                synchronized (notes) {
                    pages.remove(page);
                }
            });
        });
    }

    java.util.concurrent.CompletionStage<Response> post(Request req) {
        Signals s = Datastar.readSignals(req, Signals.class);
        String draft = s.draft() == null ? "" : s.draft().strip();
        String author = req.principal().orElseThrow().subject();
        if (draft.isEmpty() || draft.length() > MAX_NOTE_CHARS || author.length() > MAX_AUTHOR_CHARS) {
            return java.util.concurrent.CompletableFuture.completedFuture(Datastar.response(DS.patchElements(error("A note is 1-"
                    + MAX_NOTE_CHARS + " characters, a name at most " + MAX_AUTHOR_CHARS + "."))));
        }
        // stored (on Redis: XADD answered) before the answer; every node's pages get the list from the topic
        return topic.publishAsync("notes", new Note(author, draft, TIME.format(LocalTime.now(ZoneOffset.UTC)))).thenApply(id -> {
            DatastarEvent clear = DS.patchSignals("{\"draft\":\"\"}");
            return Datastar.response(clear, DS.patchElements(error("")));
        });
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
            for (Shown s : notes) {
                Note n = s.note();
                items.add(li(id("note-" + s.id()), span(cls("author"), n.author()), " ", span(cls("text"), n.text()), " ",
                        span(cls("at"), n.at())));
            }
        }
        return ul(id("notes"), items.isEmpty() ? li(cls("empty"), "No notes yet.") : items);
    }
}
