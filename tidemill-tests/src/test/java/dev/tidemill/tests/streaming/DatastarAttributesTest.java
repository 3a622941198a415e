package dev.tidemill.tests.streaming;

import static dev.tidemill.html.Tags.button;
import static dev.tidemill.html.Tags.div;
import static dev.tidemill.html.Tags.input;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.datastar.Action;
import dev.tidemill.datastar.Datastar;
import dev.tidemill.datastar.Dialect;
import dev.tidemill.html.Attr;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The attribute and action helpers: the attribute names each dialect's client reads
 * ({@code data-on:click} in 1.0, {@code data-on-click} in beta.11, whose attribute plugins take
 * the key after the plugin name from the dataset: {@code engine/engine.js} lines 155-171), and
 * values that survive hostile text: a URL or option with {@code ' " </script> & \ $ @} and line
 * breaks is a JS literal a JavaScript engine reads back as the same string, inside an attribute
 * the builder escapes.
 */
class DatastarAttributesTest {
    private static final Datastar V1 = Datastar.v1();
    private static final Datastar PRE = Datastar.of(Dialect.PRE_1_0);
    private static final String HOSTILE = "/a'b\"c</script><!--&amp;\\d$e@f(`g`)\n\r\u2028;x";

    record Note(String text) {}

    private static String render(Attr a) {
        return div(a).toString();
    }

    @Test
    void attributeNamesFollowTheDialect() {
        assertThat(button(V1.on("click", Action.post("/todos")), "Add").toString())
                .isEqualTo("<button data-on:click=\"@post('/todos')\">Add</button>");
        assertThat(button(PRE.on("click", Action.post("/todos")), "Add").toString())
                .isEqualTo("<button data-on-click=\"@post('/todos')\">Add</button>");
        assertThat(render(V1.on("keydown__debounce.500ms", "$n++"))).isEqualTo("<div data-on:keydown__debounce.500ms=\"$n++\"></div>");
        assertThat(render(PRE.on("keydown__debounce.500ms", "$n++"))).isEqualTo("<div data-on-keydown__debounce.500ms=\"$n++\"></div>");
        assertThat(render(V1.computed("totalPrice", "$a * $b"))).isEqualTo("<div data-computed:total-price=\"$a * $b\"></div>");
        assertThat(render(PRE.computed("item2Count", "$a"))).isEqualTo("<div data-computed-item2-count=\"$a\"></div>");
        assertThatThrownBy(() -> V1.computed("fooBAR", "1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> V1.on("cl ick", "1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> V1.on("x\"y", "1")).isInstanceOf(IllegalArgumentException.class);
        for (Datastar ds : List.of(V1, PRE)) {
            assertThat(input(ds.bind("user.name")).toString()).isEqualTo("<input data-bind=\"user.name\">");
            assertThat(render(ds.indicator("fetching"))).isEqualTo("<div data-indicator=\"fetching\"></div>");
            assertThat(render(ds.text("$a && \"<b>\""))).isEqualTo("<div data-text=\"$a &amp;&amp; &quot;&lt;b&gt;&quot;\"></div>");
            assertThat(render(ds.show("$open"))).isEqualTo("<div data-show=\"$open\"></div>");
            assertThat(render(ds.cls(Map.of("text-2xl", "$big")))).isEqualTo("<div data-class=\"{'text-2xl': $big}\"></div>");
            assertThat(render(ds.attr(Map.of("aria-label", "$label")))).isEqualTo("<div data-attr=\"{'aria-label': $label}\"></div>");
            assertThatThrownBy(() -> ds.bind("a b")).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> ds.bind("a\"onclick=\"x")).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void signalsAttributesAreSingleQuotedJson() {
        assertThat(render(V1.signals("{\"q\":\"it's </script> & \\\"x\\\"\"}")))
                .isEqualTo("<div data-signals='{\"q\":\"it&#39;s &lt;/script&gt; &amp; \\\"x\\\"\"}'></div>");
        assertThat(render(PRE.signals(new Note("a$b@c</script>&'"))))
                .as("$ and @ as JSON escapes, so the client's $signal and @action rewriting cannot touch the text")
                .isEqualTo("<div data-signals='{\"text\":\"a\\u0024b\\u0040c&lt;/script&gt;&amp;&#39;\"}'></div>");
        assertThatThrownBy(() -> V1.signals(List.of(1, 2))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void actionOptionsInBothDialects() {
        Action a = Action.put("/t/1").form().selector("#f").header("X-Csrf", "tok").includeLocal(true).openWhenHidden(true)
                .retryInterval(Duration.ofMillis(500)).retryScaler(1.5).retryMaxWait(Duration.ofSeconds(10)).retryMaxCount(3);
        assertThat(PRE.expression(a)).isEqualTo("@put('/t/1', {contentType: 'form', selector: '#f', headers: {'X-Csrf': 'tok'},"
                + " includeLocal: true, openWhenHidden: true, retryInterval: 500, retryScaler: 1.5, retryMaxWaitMs: 10000,"
                + " retryMaxCount: 3})");
        assertThat(V1.expression(a)).isEqualTo("@put('/t/1', {contentType: 'form', selector: '#f', headers: {'X-Csrf': 'tok'},"
                + " filterSignals: {exclude: new RegExp('(?!)')}, openWhenHidden: true, retryInterval: 500, retryScaler: 1.5,"
                + " retryMaxWaitMs: 10000, retryMaxCount: 3})");
        assertThat(V1.expression(Action.get("/x").filterSignals("^todo\\.", "^_"))).isEqualTo(
                "@get('/x', {filterSignals: {include: new RegExp('^todo.'), exclude: new RegExp('^_')}})".replace("^todo.", "^todo\\x5C."));
        assertThatThrownBy(() -> PRE.expression(Action.get("/x").filterSignals(".*", "^_"))).isInstanceOf(IllegalArgumentException.class);
        assertThat(V1.expression(Action.delete("/t/1").retryScaler(2))).isEqualTo("@delete('/t/1', {retryScaler: 2})");
        assertThat(V1.expression(Action.patch("/t/1"))).isEqualTo("@patch('/t/1')");
    }

    @Test
    void hostileUrlsAndOptionsStayInsideTheirLiteral() throws Exception {
        Action a = Action.get(HOSTILE).header(HOSTILE, HOSTILE).selector(HOSTILE);
        String attr = render(V1.on("click", a));
        assertThat(attr).doesNotContain("</script").doesNotContain("<!--").startsWith("<div data-on:click=\"@get('");
        assertThat(attr.substring("<div data-on:click=\"".length(), attr.length() - "\"></div>".length()))
                .as("no quote of the attribute inside it").doesNotContain("\"");
        String expression = V1.expression(a);
        assertThat(expression).doesNotContain("$").doesNotContain("<").doesNotContain("\n").doesNotContain("\\'")
                .doesNotContain("`");
        // Read every literal back with a JavaScript engine: @get(...) is not JS, but its argument list is.
        String args = expression.substring("@get".length());
        List<String> literals = new ArrayList<>(List.of(PRE.expression(Action.post(HOSTILE)).substring("@post".length())));
        literals.add(0, args);
        String out = DatastarSdk.node("""
                let text = ''; process.stdin.setEncoding('utf8');
                process.stdin.on('data', c => text += c);
                process.stdin.on('end', () => {
                  const f = (...xs) => xs;
                  process.stdout.write(JSON.stringify(JSON.parse(text).map(a => eval('f' + a))));
                });
                """, JsonMapper.builder().build().writeValueAsBytes(literals));
        Map<String, Object> options = new LinkedHashMap<>();
        options.put("selector", HOSTILE);
        options.put("headers", Map.of(HOSTILE, HOSTILE));
        assertThat(JsonMapper.builder().build().readValue(out.getBytes(StandardCharsets.UTF_8), List.class))
                .isEqualTo(List.of(List.of(HOSTILE, options), List.of(HOSTILE)));
    }
}
