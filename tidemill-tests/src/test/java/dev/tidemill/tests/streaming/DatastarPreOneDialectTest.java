package dev.tidemill.tests.streaming;

import static dev.tidemill.html.Tags.div;
import static dev.tidemill.html.Tags.id;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.ExecutionMode;
import dev.tidemill.datastar.Datastar;
import dev.tidemill.datastar.DatastarEvent;
import dev.tidemill.datastar.Dialect;
import dev.tidemill.datastar.Namespace;
import dev.tidemill.datastar.PatchMode;
import dev.tidemill.html.Html;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The pre-1.0 dialect: what the {@code @starfederation/datastar 1.0.0-beta.11} client reads, from
 * its source ({@code dist/} of the npm package; files and lines cited at each expectation). Its
 * SSE handler ({@code plugins/official/backend/actions/sse.js} lines 55-76) takes events whose type
 * starts with {@code datastar}, splits each data line at its first space into key and value, and
 * joins the values of one key with LF; each watcher then reads its keys, with defaults.
 */
class DatastarPreOneDialectTest {
    private static final Datastar DS = Datastar.of(Dialect.PRE_1_0);
    private static final Html HELLO = div(id("a"), "Hello");

    @Test
    void mergeFragmentsLeavesOutTheClientsDefaults() {
        // watchers/mergeFragments.js line 51: fragments, selector (default ''), mergeMode (default
        // morph, consts.js DefaultFragmentMergeMode), useViewTransition (default false).
        assertThat(DS.patchElements(HELLO).sse().encode())
                .isEqualTo("event: datastar-merge-fragments\ndata: fragments <div id=\"a\">Hello</div>\n\n");
        assertThat(DS.patchElements(HELLO).selector("#list").mode(PatchMode.APPEND).useViewTransition(true).sse().encode())
                .isEqualTo("event: datastar-merge-fragments\ndata: selector #list\ndata: mergeMode append\n"
                        + "data: useViewTransition true\ndata: fragments <div id=\"a\">Hello</div>\n\n");
        assertThat(DS.patchElements(Html.trusted("<ul id=\"l\">\n<li>a</li>\n</ul>")).sse().encode())
                .as("one fragments line per line; the client joins them with LF")
                .isEqualTo("event: datastar-merge-fragments\ndata: fragments <ul id=\"l\">\ndata: fragments <li>a</li>\n"
                        + "data: fragments </ul>\n\n");
    }

    @Test
    void everyOneZeroModeMapsOntoAMergeModeOrTheRemoveEvent() {
        // consts.js FragmentMergeModes: morph, inner, outer, prepend, append, before, after,
        // upsertAttributes; mergeFragments.js applyToTargets lines 80-133 says what each does.
        Map<PatchMode, String> expected = new LinkedHashMap<>();
        expected.put(PatchMode.OUTER, null); // morph: the default, not sent
        expected.put(PatchMode.INNER, "inner");
        expected.put(PatchMode.REPLACE, "outer"); // beta.11 outer is target.replaceWith: 1.0's replace
        expected.put(PatchMode.PREPEND, "prepend");
        expected.put(PatchMode.APPEND, "append");
        expected.put(PatchMode.BEFORE, "before");
        expected.put(PatchMode.AFTER, "after");
        expected.forEach((mode, merge) -> assertThat(DS.patchElements(HELLO).selector("#t").mode(mode).sse().encode())
                .as(mode.name()).isEqualTo("event: datastar-merge-fragments\ndata: selector #t\n"
                        + (merge == null ? "" : "data: mergeMode " + merge + "\n") + "data: fragments <div id=\"a\">Hello</div>\n\n"));
        assertThat(expected).hasSize(PatchMode.values().length - 1);
        // watchers/removeFragments.js line 170: selector (required) and useViewTransition.
        assertThat(DS.removeElements("#gone").sse().encode()).isEqualTo("event: datastar-remove-fragments\ndata: selector #gone\n\n");
        assertThat(DS.patchElements(HELLO).mode(PatchMode.REMOVE).selector(".old").useViewTransition(true).sse().encode())
                .isEqualTo("event: datastar-remove-fragments\ndata: selector .old\ndata: useViewTransition true\n\n");
    }

    @Test
    void whatHasNoEquivalentIsRefused() {
        assertThatThrownBy(() -> DS.patchElements(HELLO).mode(PatchMode.REMOVE).sse())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("by selector only");
        assertThatThrownBy(() -> DS.patchElements(HELLO).namespace(Namespace.SVG))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("no namespace");
        assertThat(DS.patchElements(HELLO).namespace(Namespace.HTML).sse().encode()).contains("data: fragments ");
        assertThatThrownBy(() -> DS.removeSignals("a").onlyIfMissing(true).sse()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DS.patchElements(Html.EMPTY).sse()).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void mergeAndRemoveSignals() {
        // watchers/mergeSignals.js line 149: signals (default '{}'), onlyIfMissing (default false).
        assertThat(DS.patchSignals("{\"a\":1}").sse().encode()).isEqualTo("event: datastar-merge-signals\ndata: signals {\"a\":1}\n\n");
        assertThat(DS.patchSignals("{\n\"a\": 1\n}").onlyIfMissing(true).sse().encode())
                .isEqualTo("event: datastar-merge-signals\ndata: onlyIfMissing true\ndata: signals {\ndata: signals \"a\": 1\n"
                        + "data: signals }\n\n");
        // watchers/removeSignals.js line 202: paths, one per line.
        assertThat(DS.removeSignals("a", "user.name").sse().encode())
                .isEqualTo("event: datastar-remove-signals\ndata: paths a\ndata: paths user.name\n\n");
    }

    @Test
    void executeScriptEvents() {
        // watchers/executeScript.js lines 14-27: autoRemove (default true), attributes ("name value"
        // lines, default "type module"), script, whose text is set as it is (no HTML parsing).
        assertThat(DS.executeScript("a = '</script>'").sse().encode())
                .isEqualTo("event: datastar-execute-script\ndata: script a = '</script>'\n\n");
        assertThat(DS.executeScript("go()\nstop()").autoRemove(false).attribute("type", "module").attribute("async", "").sse().encode())
                .as("a valueless attribute keeps its space: line 21 takes indexOf(' ') as the pivot, and -1 would cut a letter")
                .isEqualTo("event: datastar-execute-script\ndata: autoRemove false\ndata: attributes type module\n"
                        + "data: attributes async \ndata: script go()\ndata: script stop()\n\n");
        assertThat(DS.redirect("/next").id("5").retry(Duration.ofSeconds(2)).sse().encode())
                .isEqualTo("event: datastar-execute-script\nid: 5\nretry: 2000\n"
                        + "data: script setTimeout(() => window.location.href = '/next')\n\n");
        assertThatThrownBy(() -> DS.executeScript("go()").attribute("type", "a\nb")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DS.executeScript("go()").attribute("on load", "x")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theClientReadsBackWhatWasMeant() {
        // The client's own reading of data lines (sse.js lines 59-75), done here on what was sent.
        Map<String, String> args = clientArgs(DS.patchElements(Html.trusted("<p id=\"p\">a b\n\nc</p>")).selector("#x  .y").sse().data());
        assertThat(args).containsEntry("selector", "#x  .y").containsEntry("fragments", "<p id=\"p\">a b\n\nc</p>");
        args = clientArgs(DS.executeScript("x()").attribute("data-a", "1 2").sse().data());
        assertThat(args).containsEntry("attributes", "data-a 1 2").containsEntry("script", "x()");
    }

    @Test
    void eventsReachAClientOverARealSocket() {
        DatastarEvent[] events = {DS.patchElements(HELLO).mode(PatchMode.INNER).id("1"), DS.patchSignals("{\"n\":2}"),
                DS.removeElements("#old"), DS.executeScript("go()")};
        try (TestClient client = Setup.onDefaultTransport(ExecutionMode.VIRTUAL).start(app -> app.get("/once",
                req -> Datastar.response(events)))) {
            TestResponse r = client.get("/once");
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("Content-Type")).hasValue("text/event-stream; charset=utf-8");
            assertThat(r.header("Cache-Control")).hasValue("no-cache");
            assertThat(r.text()).isEqualTo("event: datastar-merge-fragments\nid: 1\ndata: mergeMode inner\n"
                    + "data: fragments <div id=\"a\">Hello</div>\n\n"
                    + "event: datastar-merge-signals\ndata: signals {\"n\":2}\n\n"
                    + "event: datastar-remove-fragments\ndata: selector #old\n\n"
                    + "event: datastar-execute-script\ndata: script go()\n\n");
        }
    }

    /** The event's data as the client splits it: key before the first space, lines of a key joined with LF. */
    static Map<String, String> clientArgs(String data) {
        Map<String, String> args = new LinkedHashMap<>();
        for (String line : List.of(data.split("\n", -1))) {
            int sp = line.indexOf(' ');
            args.merge(line.substring(0, sp), line.substring(sp + 1), (a, b) -> a + "\n" + b);
        }
        return args;
    }
}
