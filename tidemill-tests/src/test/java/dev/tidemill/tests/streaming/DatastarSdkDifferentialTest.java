package dev.tidemill.tests.streaming;

import static dev.tidemill.html.Svg.circle;
import static dev.tidemill.html.Tags.div;
import static dev.tidemill.html.Tags.id;
import static dev.tidemill.html.Tags.li;
import static dev.tidemill.html.Tags.p;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Response;
import dev.tidemill.datastar.Datastar;
import dev.tidemill.datastar.DatastarEvent;
import dev.tidemill.datastar.Namespace;
import dev.tidemill.datastar.PatchMode;
import dev.tidemill.html.Html;
import dev.tidemill.testing.StreamingResponse;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.tests.support.Setup;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * The 1.0 wire format, byte for byte against the official server SDK
 * ({@code @starfederation/datastar-sdk 1.0.0} under Node, see {@link DatastarSdk}): each case makes
 * one call on the SDK and the same call on Tidemill, whose event is sent over a real socket by an
 * SSE route (and, for every case, once more as a one-shot {@link Datastar#response}); the body
 * bytes must be equal. Cases the SDK refuses must be refused by Tidemill too.
 */
@Timeout(300)
class DatastarSdkDifferentialTest {
    private static final Datastar DS = Datastar.v1();

    /** One call on both sides; {@code tidemill} throws where the SDK should refuse. */
    record Case(String name, DatastarSdk.Call sdk, Supplier<DatastarEvent> tidemill) {}

    record Counter(String name, int count) {}

    private static final List<Case> CASES = new ArrayList<>();

    private static void add(String name, String method, List<Object> args, Supplier<DatastarEvent> tidemill) {
        CASES.add(new Case(name, new DatastarSdk.Call(method, args), tidemill));
    }

    /** An options object whose keys keep their order (the SDK writes option lines in key order). */
    private static Map<String, Object> opts(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }

    static {
        Html hello = div(id("a"), "Hello");
        add("patchElements, defaults", "patchElements", List.of(hello.toString()), () -> DS.patchElements(hello));
        Html row = li(id("r1"), "row");
        for (PatchMode mode : PatchMode.values()) {
            String wire = mode.name().toLowerCase();
            add("mode " + wire + " with a selector", "patchElements", List.of(row.toString(), opts("selector", "#list", "mode", wire)),
                    () -> DS.patchElements(row).selector("#list").mode(mode));
            add("mode " + wire + " without a selector", "patchElements", List.of(row.toString(), opts("mode", wire)),
                    () -> DS.patchElements(row).mode(mode));
        }
        add("removeElements by selector", "removeElements", List.of("#feed, #other"), () -> DS.removeElements("#feed, #other"));
        add("remove by selector, no elements", "patchElements", List.of("", opts("selector", "#gone", "mode", "remove")),
                () -> DS.patchElements(Html.EMPTY).selector("#gone").mode(PatchMode.REMOVE));
        Html two = Html.fragment(div(id("first")), div(id("second")));
        add("remove by the elements' ids", "patchElements", List.of(two.toString(), opts("mode", "remove")),
                () -> DS.patchElements(two).mode(PatchMode.REMOVE));
        Html dot = circle(id("c1"), dev.tidemill.html.Tags.attr("r", 5));
        add("namespace svg", "patchElements", List.of(dot.toString(), opts("selector", "#chart", "mode", "append", "namespace", "svg")),
                () -> DS.patchElements(dot).selector("#chart").mode(PatchMode.APPEND).namespace(Namespace.SVG));
        Html mi = Html.trusted("<mi id=\"x\">x</mi>");
        add("namespace mathml", "patchElements", List.of(mi.toString(), opts("namespace", "mathml")),
                () -> DS.patchElements(mi).namespace(Namespace.MATHML));
        add("namespace html is the default", "patchElements", List.of(hello.toString(), opts("namespace", "html")),
                () -> DS.patchElements(hello).namespace(Namespace.HTML));
        add("view transition", "patchElements", List.of(hello.toString(), opts("useViewTransition", true)),
                () -> DS.patchElements(hello).useViewTransition(true));
        add("no view transition is the default", "patchElements", List.of(hello.toString(), opts("useViewTransition", false)),
                () -> DS.patchElements(hello).useViewTransition(false));
        String lines = "<ul id=\"l\">\n  <li>a</li>\n\n  <li>b</li>\n</ul>\n";
        add("multi-line elements, an empty line and a trailing line break", "patchElements", List.of(lines),
                () -> DS.patchElements(Html.trusted(lines)));
        Html text = p(id("p"), "Tom & Jerry <3 \"quotes\" 'single' ünïcödé 😀\nsecond line");
        add("escaped text, non-ASCII and a line break in text", "patchElements", List.of(text.toString()), () -> DS.patchElements(text));
        add("event id and retry", "patchElements", List.of(hello.toString(), opts("eventId", "42", "retryDuration", 3000)),
                () -> DS.patchElements(hello).id("42").retry(Duration.ofSeconds(3)));
        add("retry 1000 ms is the default", "patchElements", List.of(hello.toString(), opts("retryDuration", 1000)),
                () -> DS.patchElements(hello).retry(Duration.ofMillis(1000)));
        add("every option at once", "patchElements", List.of(dot.toString(), opts("selector", "svg #g", "mode", "inner", "namespace", "svg",
                "useViewTransition", true, "eventId", "e-7", "retryDuration", 250)),
                () -> DS.patchElements(dot).selector("svg #g").mode(PatchMode.INNER).namespace(Namespace.SVG).useViewTransition(true)
                        .id("e-7").retry(Duration.ofMillis(250)));

        add("patchSignals", "patchSignals", List.of("{\"count\":1}"), () -> DS.patchSignals("{\"count\":1}"));
        add("patchSignals onlyIfMissing", "patchSignals", List.of("{\"count\":1}", opts("onlyIfMissing", true)),
                () -> DS.patchSignals("{\"count\":1}").onlyIfMissing(true));
        add("onlyIfMissing false is the default", "patchSignals", List.of("{\"count\":1}", opts("onlyIfMissing", false)),
                () -> DS.patchSignals("{\"count\":1}").onlyIfMissing(false));
        String pretty = "{\n  \"a\": 1,\n  \"b\": {\"c\": true}\n}";
        add("multi-line signals", "patchSignals", List.of(pretty), () -> DS.patchSignals(pretty));
        add("signals from a record, through Jackson", "patchSignals", List.of("{\"name\":\"Ada\",\"count\":3}"),
                () -> DS.patchSignals(new Counter("Ada", 3)));
        add("patchSignals with onlyIfMissing, id and retry", "patchSignals",
                List.of("{\"x\":null}", opts("onlyIfMissing", true, "eventId", "9", "retryDuration", 5000)),
                () -> DS.patchSignals("{\"x\":null}").onlyIfMissing(true).id("9").retry(Duration.ofSeconds(5)));
        add("removeSignals, one", "removeSignals", List.of("foo"), () -> DS.removeSignals("foo"));
        add("removeSignals, several", "removeSignals", List.of(List.of("foo", "bar_2")), () -> DS.removeSignals("foo", "bar_2"));

        add("executeScript", "executeScript", List.of("console.log('hi')"), () -> DS.executeScript("console.log('hi')"));
        add("executeScript, autoRemove false", "executeScript", List.of("go()", opts("autoRemove", false)),
                () -> DS.executeScript("go()").autoRemove(false));
        add("executeScript with attributes", "executeScript",
                List.of("go()", opts("attributes", opts("type", "module", "nonce", "abc123", "data-x", ""))),
                () -> DS.executeScript("go()").attribute("type", "module").attribute("nonce", "abc123").attribute("data-x", ""));
        add("executeScript with attributes, autoRemove false", "executeScript",
                List.of("go()", opts("attributes", opts("type", "module"), "autoRemove", false)),
                () -> DS.executeScript("go()").attribute("type", "module").autoRemove(false));
        String script = "const a = 1;\nif (a < 2 && a > 0) {\n  console.log(a);\n}";
        add("multi-line executeScript", "executeScript", List.of(script), () -> DS.executeScript(script));
        add("executeScript with id and retry", "executeScript", List.of("go()", opts("eventId", "s1", "retryDuration", 2000)),
                () -> DS.executeScript("go()").id("s1").retry(Duration.ofSeconds(2)));
        add("redirect is the Go SDK's script", "executeScript", List.of("setTimeout(() => window.location.href = '/done?x=1&y=2')"),
                () -> DS.redirect("/done?x=1&y=2"));
        add("redirect quotes the URL", "executeScript",
                List.of("setTimeout(() => window.location.href = '/a\\x27b\\x3C/script\\x3E')"), () -> DS.redirect("/a'b</script>"));

        add("refused alike: no elements", "patchElements", List.of(""), () -> DS.patchElements(Html.EMPTY));
        add("refused alike: blank elements", "patchElements", List.of("  \n "), () -> DS.patchElements(Html.trusted("  \n ")));
        add("refused alike: remove with neither selector nor elements", "patchElements", List.of("", opts("mode", "remove")),
                () -> DS.patchElements(Html.EMPTY).mode(PatchMode.REMOVE));
        add("refused alike: blank signals", "patchSignals", List.of(" "), () -> DS.patchSignals(" "));
    }

    @Test
    void everyCallWritesTheBytesTheOfficialSdkWrites() throws Exception {
        List<JsonNode> sdk = DatastarSdk.run(CASES.stream().map(Case::sdk).toList());
        int compared = 0;
        int refused = 0;
        try (TestClient client = Setup.onDefaultTransport(ExecutionMode.LOOP).start(app -> {
            app.get("/sse/{n}", req -> {
                DatastarEvent e = CASES.get(Integer.parseInt(req.pathParam("n"))).tidemill().get();
                return Response.sse(stream -> stream.send(e.sse()).whenComplete((v, x) -> stream.close()));
            });
            app.get("/once/{n}", req -> Datastar.response(CASES.get(Integer.parseInt(req.pathParam("n"))).tidemill().get()));
        })) {
            for (int n = 0; n < CASES.size(); n++) {
                Case c = CASES.get(n);
                JsonNode expected = sdk.get(n);
                if (expected.isObject()) {
                    assertThat(expected.get("error").asString()).as(c.name() + ": the SDK's refusal").isNotEmpty();
                    assertThatThrownBy(() -> c.tidemill().get().sse()).as(c.name() + ": refused by the SDK (%s)", expected)
                            .isInstanceOf(IllegalArgumentException.class);
                    refused++;
                    continue;
                }
                byte[] want = expected.asString().getBytes(StandardCharsets.UTF_8);
                assertThat(body(client, "/sse/" + n)).as("%s, over an SSE stream:%n%s", c.name(), expected.asString())
                        .isEqualTo(new String(want, StandardCharsets.UTF_8));
                assertThat(body(client, "/once/" + n)).as("%s, as a one-shot response", c.name())
                        .isEqualTo(new String(want, StandardCharsets.UTF_8));
                compared++;
            }
        }
        System.out.println("DatastarSdkDifferentialTest: " + compared + " cases byte for byte equal to @starfederation/datastar-sdk"
                + " 1.0.0, " + refused + " refused by both");
        assertThat(compared + refused).isEqualTo(CASES.size());
        assertThat(compared).isGreaterThanOrEqualTo(40);
    }

    /** The whole body, as text (compared as strings so that a failure shows the difference). */
    private static String body(TestClient client, String path) {
        try (StreamingResponse r = client.stream(TestRequest.get(path))) {
            assertThat(r.status()).as(path).isEqualTo(200);
            assertThat(r.header("Content-Type")).as(path).hasValue("text/event-stream; charset=utf-8");
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            for (Optional<byte[]> c = r.nextChunk(); c.isPresent(); c = r.nextChunk()) b.writeBytes(c.get());
            return b.toString(StandardCharsets.UTF_8);
        }
    }

    @Test
    void theCasesCoverEveryModeAndNamespace() {
        String all = String.join("\n", CASES.stream().map(c -> c.sdk().toString()).toList());
        for (PatchMode m : PatchMode.values()) assertThat(all).contains(m.name().toLowerCase());
        for (Namespace ns : Namespace.values()) assertThat(all).contains(ns.name().toLowerCase());
        assertThat(Arrays.stream(new String[] {"patchElements", "removeElements", "patchSignals", "removeSignals", "executeScript"}))
                .allSatisfy(m -> assertThat(CASES).anySatisfy(c -> assertThat(c.sdk().method()).isEqualTo(m)));
    }
}
