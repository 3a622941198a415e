package dev.tidemill.tests.params;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Param;
import dev.tidemill.ParamType;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Typed path and query parameters through HTTP: every {@link ParamType}, optional, defaulted and
 * list parameters, and the single 422 problem that lists every failing parameter.
 */
@Timeout(60)
class TypedParametersTest {
    enum Color { RED, GREEN, DARK_BLUE }

    static final Param<String> STR = Param.path("v");
    static final Param<Integer> INT = Param.path("v", ParamType.INT);
    static final Param<Long> LONG = Param.path("v", ParamType.LONG);
    static final Param<Double> DOUBLE = Param.path("v", ParamType.DOUBLE);
    static final Param<Boolean> BOOL = Param.path("v", ParamType.BOOLEAN);
    static final Param<UUID> UUID_P = Param.path("v", ParamType.UUID_TYPE);
    static final Param<LocalDate> DATE = Param.path("v", ParamType.LOCAL_DATE);
    static final Param<OffsetDateTime> ODT = Param.path("v", ParamType.OFFSET_DATE_TIME);
    static final Param<Instant> INSTANT = Param.path("v", ParamType.INSTANT);
    static final Param<Color> COLOR = Param.path("v", ParamType.enumOf(Color.class));

    static final Param<Integer> Q_INT = Param.query("n", ParamType.INT);
    static final Param<OffsetDateTime> Q_ODT = Param.query("at", ParamType.OFFSET_DATE_TIME);
    static final Param<Instant> Q_INSTANT = Param.query("when", ParamType.INSTANT);
    static final Param<String> Q_TEXT = Param.query("q");
    static final Param<Optional<Integer>> LIMIT = Param.query("limit", ParamType.INT).optional();
    static final Param<Integer> PAGE = Param.query("page", ParamType.INT).withDefault(20);
    static final Param<Color> SHADE = Param.query("shade", ParamType.enumOf(Color.class)).withDefault(Color.GREEN);
    static final Param<List<String>> TAGS = Param.queryList("tag", ParamType.STRING);
    static final Param<List<Integer>> IDS = Param.queryList("id", ParamType.INT);

    static final Param<Integer> ITEM = Param.path("id", ParamType.INT);
    static final Param<Integer> SEARCH_LIMIT = Param.query("limit", ParamType.INT);
    static final Param<LocalDate> SINCE = Param.query("since", ParamType.LOCAL_DATE);
    static final Param<String> QUERY = Param.query("q");
    static final Param<Optional<Boolean>> FLAG = Param.query("flag", ParamType.BOOLEAN).optional();

    static TestClient client;

    @BeforeAll
    static void start() {
        // The drain deadline (250 ms by default) bounds how long a refused body may take to come; a test that sends
        // it after reading the refusal must not race that deadline, which has its own tests.
        Tidemill app = Tidemill.create(TestClient.config().workerLoops(2).ioThreads(1)
                .timeouts(dev.tidemill.Timeouts.builder().drain(Duration.ofSeconds(30)).build()).build());
        app.get("/str/{v}", req -> show(req.param(STR))).params(STR);
        app.get("/int/{v}", req -> show(req.param(INT))).params(INT);
        app.get("/long/{v}", req -> show(req.param(LONG))).params(LONG);
        app.get("/double/{v}", req -> show(req.param(DOUBLE))).params(DOUBLE);
        app.get("/bool/{v}", req -> show(req.param(BOOL))).params(BOOL);
        app.get("/uuid/{v}", req -> show(req.param(UUID_P))).params(UUID_P);
        app.get("/date/{v}", req -> show(req.param(DATE))).params(DATE);
        app.get("/odt/{v}", req -> show(req.param(ODT))).params(ODT);
        app.get("/instant/{v}", req -> show(req.param(INSTANT))).params(INSTANT);
        app.get("/color/{v}", req -> show(req.param(COLOR))).params(COLOR);
        app.get("/query", req -> show(req.param(Q_INT)) + " " + req.param(Q_TEXT)).params(Q_INT, Q_TEXT);
        app.get("/query/time", req -> show(req.param(Q_ODT)) + " " + show(req.param(Q_INSTANT))).params(Q_ODT, Q_INSTANT);
        app.get("/shapes", req -> {
            Map<String, Object> out = new LinkedHashMap<>();
            Optional<Integer> limit = req.param(LIMIT);
            out.put("limit", limit.map(Object::toString).orElse("empty"));
            out.put("page", req.param(PAGE));
            out.put("shade", req.param(SHADE).name());
            out.put("tags", req.param(TAGS));
            out.put("ids", req.param(IDS));
            return out;
        }).params(LIMIT, PAGE, SHADE, TAGS, IDS);
        app.get("/search/{id}", req -> "ok").params(ITEM, SEARCH_LIMIT, SINCE, QUERY, FLAG);
        app.post("/items/{id}", req -> "item " + req.param(ITEM)).params(ITEM);
        app.get("/users/{name}/files/{*rest}", req -> req.pathParam("name") + "|" + req.pathParam("rest"));
        app.get("/undeclared-param/{id}", req -> "never " + req.param(ITEM));
        app.get("/undeclared-segment/{id}", req -> "never " + req.pathParam("other"));
        client = TestClient.start(app).timeout(Duration.ofSeconds(20));
    }

    @AfterAll
    static void stop() {
        if (client != null) client.close();
    }

    /** The value and its Java type, so that the test sees what the handler got. */
    private static String show(Object value) {
        return value + ":" + value.getClass().getSimpleName();
    }

    private static String ok(String path) {
        TestResponse r = client.get(path);
        assertThat(r.status()).as("%s -> %s", path, r).isEqualTo(200);
        return r.text();
    }

    /** Asserts a 422 with exactly one error entry and returns it. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> singleError(String path) {
        TestResponse r = client.get(path);
        Map<String, Object> p = validationProblem(r);
        List<Map<String, Object>> errors = (List<Map<String, Object>>) p.get("errors");
        assertThat(errors).as("%s -> %s", path, r).hasSize(1);
        return errors.get(0);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> validationProblem(TestResponse r) {
        assertThat(r.status()).as("%s", r).isEqualTo(422);
        assertThat(r.header("Content-Type")).as("%s", r).hasValue("application/problem+json");
        Map<String, Object> p = r.json(Map.class);
        assertThat(p).as("%s", r)
                .containsEntry("type", "about:blank")
                .containsEntry("title", "Validation failed")
                .containsEntry("status", 422)
                .containsKey("errors");
        return p;
    }

    private static Map<String, Object> error(String type, List<String> loc, String msg, String input) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("type", type);
        e.put("loc", loc);
        e.put("msg", msg);
        if (input != null) e.put("input", input);
        return e;
    }

    @Test
    void stringIsPercentDecodedAndPlusStaysPlusInThePath() {
        assertThat(ok("/str/caf%C3%A9%20au%20lait")).isEqualTo("café au lait:String");
        assertThat(ok("/str/a+b")).isEqualTo("a+b:String");
        assertThat(ok("/str/%E2%82%AC")).isEqualTo("€:String");
    }

    @Test
    void intAcceptsSignedDecimalAndRefusesTheRest() {
        assertThat(ok("/int/42")).isEqualTo("42:Integer");
        assertThat(ok("/int/-7")).isEqualTo("-7:Integer");
        assertThat(ok("/int/+5")).isEqualTo("5:Integer");
        assertThat(ok("/int/2147483647")).isEqualTo("2147483647:Integer");
        assertThat(ok("/int/-2147483648")).isEqualTo("-2147483648:Integer");
        assertThat(singleError("/int/abc"))
                .isEqualTo(error("int_parsing", List.of("path", "v"), "Input should be a valid integer", "abc"));
        assertThat(singleError("/int/2147483648")).containsEntry("type", "int_parsing")
                .containsEntry("loc", List.of("path", "v")).containsEntry("input", "2147483648");
        assertThat(singleError("/int/1.0")).containsEntry("type", "int_parsing").containsEntry("input", "1.0");
        assertThat(singleError("/int/0x10")).containsEntry("type", "int_parsing");
        assertThat(singleError("/int/%20")).containsEntry("type", "int_parsing").containsEntry("input", " ");
    }

    @Test
    void longCoversTheInt64Range() {
        assertThat(ok("/long/9223372036854775807")).isEqualTo("9223372036854775807:Long");
        assertThat(ok("/long/-9223372036854775808")).isEqualTo("-9223372036854775808:Long");
        assertThat(singleError("/long/9223372036854775808")).containsEntry("type", "int_parsing")
                .containsEntry("loc", List.of("path", "v")).containsEntry("input", "9223372036854775808");
    }

    @Test
    void doubleAcceptsFiniteNumbersOnly() {
        assertThat(ok("/double/1.5")).isEqualTo("1.5:Double");
        assertThat(ok("/double/-2e3")).isEqualTo("-2000.0:Double");
        assertThat(ok("/double/.25")).isEqualTo("0.25:Double");
        assertThat(ok("/double/7")).isEqualTo("7.0:Double");
        assertThat(singleError("/double/NaN")).isEqualTo(
                error("float_parsing", List.of("path", "v"), "Input should be a finite number", "NaN"));
        assertThat(singleError("/double/Infinity")).containsEntry("type", "float_parsing").containsEntry("input", "Infinity");
        assertThat(singleError("/double/-Infinity")).containsEntry("type", "float_parsing");
        assertThat(singleError("/double/1e999")).containsEntry("type", "float_parsing").containsEntry("input", "1e999");
        assertThat(singleError("/double/abc")).containsEntry("type", "float_parsing").containsEntry("input", "abc");
        assertThat(singleError("/double/0x1p3")).containsEntry("type", "float_parsing");
    }

    @Test
    void booleanAcceptsTheEightSpellingsInAnyCase() {
        for (String t : List.of("true", "1", "yes", "on", "TRUE", "Yes", "ON")) {
            assertThat(ok("/bool/" + t)).as(t).isEqualTo("true:Boolean");
        }
        for (String f : List.of("false", "0", "no", "off", "FALSE", "No", "Off")) {
            assertThat(ok("/bool/" + f)).as(f).isEqualTo("false:Boolean");
        }
        assertThat(singleError("/bool/maybe")).isEqualTo(
                error("bool_parsing", List.of("path", "v"), "Input should be a valid boolean", "maybe"));
        assertThat(singleError("/bool/2")).containsEntry("type", "bool_parsing");
        assertThat(singleError("/bool/t")).containsEntry("type", "bool_parsing");
    }

    @Test
    void uuidInCanonicalForm() {
        UUID id = UUID.randomUUID();
        assertThat(ok("/uuid/" + id)).isEqualTo(id + ":UUID");
        assertThat(ok("/uuid/" + id.toString().toUpperCase())).isEqualTo(id + ":UUID");
        assertThat(singleError("/uuid/not-a-uuid")).isEqualTo(
                error("uuid_parsing", List.of("path", "v"), "Input should be a valid UUID", "not-a-uuid"));
        assertThat(singleError("/uuid/1-1-1-1-1")).containsEntry("type", "uuid_parsing");
    }

    @Test
    void localDateRefusesImpossibleDates() {
        assertThat(ok("/date/2026-02-28")).isEqualTo("2026-02-28:LocalDate");
        assertThat(ok("/date/2024-02-29")).isEqualTo("2024-02-29:LocalDate");
        assertThat(singleError("/date/2026-02-30")).isEqualTo(error("date_parsing", List.of("path", "v"),
                "Input should be a valid date in the format YYYY-MM-DD", "2026-02-30"));
        assertThat(singleError("/date/2025-02-29")).containsEntry("type", "date_parsing");
        assertThat(singleError("/date/2026-13-01")).containsEntry("type", "date_parsing");
        assertThat(singleError("/date/26-1-1")).containsEntry("type", "date_parsing");
    }

    @Test
    void offsetDateTimeAndInstantAreIso8601WithAnOffsetOrZ() {
        assertThat(ok("/odt/2026-11-30T10:15:30Z")).isEqualTo("2026-11-30T10:15:30Z:OffsetDateTime");
        assertThat(ok("/odt/2026-11-30T10:15:30+02:00")).isEqualTo("2026-11-30T10:15:30+02:00:OffsetDateTime");
        assertThat(ok("/odt/2026-11-30T10:15:30.123-05:00")).isEqualTo("2026-11-30T10:15:30.123-05:00:OffsetDateTime");
        assertThat(ok("/instant/2026-11-30T10:15:30Z")).isEqualTo("2026-11-30T10:15:30Z:Instant");
        assertThat(ok("/instant/2026-11-30T10:15:30+01:00")).isEqualTo("2026-11-30T09:15:30Z:Instant");
        assertThat(singleError("/odt/2026-11-30T10:15:30")).isEqualTo(error("datetime_parsing", List.of("path", "v"),
                "Input should be a valid ISO 8601 date-time with an offset, e.g. 2026-11-30T10:15:30Z",
                "2026-11-30T10:15:30"));
        assertThat(singleError("/instant/2026-11-30")).containsEntry("type", "datetime_parsing")
                .containsEntry("input", "2026-11-30");
        assertThat(singleError("/odt/2026-02-30T10:00:00Z")).containsEntry("type", "datetime_parsing");
        // In a query, '+' means a space: an offset is sent as %2B.
        assertThat(ok("/query/time?at=2026-11-30T10:15:30%2B02:00&when=2026-11-30T10:15:30Z"))
                .isEqualTo("2026-11-30T10:15:30+02:00:OffsetDateTime 2026-11-30T10:15:30Z:Instant");
    }

    @Test
    void enumMatchesTheConstantNameInAnyCase() {
        assertThat(ok("/color/RED")).isEqualTo("RED:Color");
        assertThat(ok("/color/green")).isEqualTo("GREEN:Color");
        assertThat(ok("/color/Dark_Blue")).isEqualTo("DARK_BLUE:Color");
        assertThat(singleError("/color/purple")).isEqualTo(error("enum", List.of("path", "v"),
                "Input should be one of: RED, GREEN, DARK_BLUE", "purple"));
    }

    @Test
    void requiredQueryParametersAreCoercedAndDecoded() {
        assertThat(ok("/query?n=3&q=a+b%26c%3D")).isEqualTo("3:Integer a b&c=");
        assertThat(ok("/query?n=1&n=2&q=first&q=second")).as("a repeated key: the first value counts")
                .isEqualTo("1:Integer first");
        assertThat(ok("/query?q=&n=0")).isEqualTo("0:Integer ");
        assertThat(ok("/query?q&n=0")).as("a key without '=' has the value \"\"").isEqualTo("0:Integer ");
    }

    @Test
    @SuppressWarnings("unchecked")
    void optionalDefaultedAndListParameters() {
        TestResponse absent = client.get("/shapes");
        assertThat(absent.status()).as("%s", absent).isEqualTo(200);
        assertThat(absent.json(Map.class)).isEqualTo(Map.of(
                "limit", "empty", "page", 20, "shade", "GREEN", "tags", List.of(), "ids", List.of()));

        TestResponse present = client.get("/shapes?limit=5&page=7&shade=red&tag=b&tag=a&tag=b&id=3&id=1");
        assertThat(present.status()).as("%s", present).isEqualTo(200);
        assertThat(present.json(Map.class)).isEqualTo(Map.of(
                "limit", "5", "page", 7, "shade", "RED", "tags", List.of("b", "a", "b"), "ids", List.of(3, 1)));

        TestResponse tags = client.get("/shapes?tag=a&tag=b");
        assertThat(tags.json(Map.class)).containsEntry("tags", List.of("a", "b"));
        assertThat(client.get("/shapes?tag=x%20y&tag=").json(Map.class)).containsEntry("tags", List.of("x y", ""));

        // Optional and defaulted parameters are still typed: a bad value is a 422, not the default.
        assertThat(singleError("/shapes?limit=ten")).isEqualTo(
                error("int_parsing", List.of("query", "limit"), "Input should be a valid integer", "ten"));
        assertThat(singleError("/shapes?page=x")).containsEntry("type", "int_parsing")
                .containsEntry("loc", List.of("query", "page")).containsEntry("input", "x");
        Map<String, Object> listError = singleError("/shapes?id=1&id=two");
        assertThat(listError).containsEntry("type", "int_parsing").containsEntry("input", "two");
        assertThat((List<Object>) listError.get("loc")).startsWith("query", "id");
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyFailingParameterIsListedInOne422() {
        TestResponse r = client.get("/search/abc?limit=x&since=2026-02-30&flag=perhaps");
        Map<String, Object> p = validationProblem(r);
        assertThat((List<Map<String, Object>>) p.get("errors")).containsExactlyInAnyOrder(
                error("int_parsing", List.of("path", "id"), "Input should be a valid integer", "abc"),
                error("int_parsing", List.of("query", "limit"), "Input should be a valid integer", "x"),
                error("date_parsing", List.of("query", "since"), "Input should be a valid date in the format YYYY-MM-DD",
                        "2026-02-30"),
                error("missing", List.of("query", "q"), "Field required", null),
                error("bool_parsing", List.of("query", "flag"), "Input should be a valid boolean", "perhaps"));
        for (Map<String, Object> e : (List<Map<String, Object>>) p.get("errors")) {
            if (e.get("type").equals("missing")) assertThat(e).doesNotContainKey("input");
        }

        TestResponse onlyMissing = client.get("/search/1");
        Map<String, Object> missing = validationProblem(onlyMissing);
        assertThat((List<Map<String, Object>>) missing.get("errors")).containsExactlyInAnyOrder(
                error("missing", List.of("query", "limit"), "Field required", null),
                error("missing", List.of("query", "since"), "Field required", null),
                error("missing", List.of("query", "q"), "Field required", null));

        assertThat(ok("/search/1?limit=10&since=2026-01-31&q=tide")).isEqualTo("ok");
    }

    @Test
    void afterA422TheKeepAliveConnectionServesTheNextRequest() {
        byte[] body = new byte[100];
        Arrays.fill(body, (byte) 'x');
        try (Connection c = client.connect()) {
            TestResponse bad = c.send(TestRequest.of("POST", "/items/abc").body("text/plain", body));
            validationProblem(bad);
            assertThat(bad.header("Connection")).isEmpty();
            TestResponse next = c.send(TestRequest.of("POST", "/items/7").body("text/plain", body));
            assertThat(next.status()).as("%s", next).isEqualTo(200);
            assertThat(next.text()).isEqualTo("item 7");
            validationProblem(c.send(TestRequest.of("POST", "/items/x").body("text/plain", "small")));
            assertThat(c.send(TestRequest.get("/int/1")).text()).isEqualTo("1:Integer");
            assertThat(c.send(TestRequest.get("/int/2")).text()).as("the connection still serves").isEqualTo("2:Integer");
        }
    }

    @Test
    void afterA422TheBodyIsDrainedEvenWhenTheClientSendsItAfterReadingTheRefusal() {
        try (Connection c = client.connect()) {
            c.write("POST /items/abc HTTP/1.1\r\nHost: tidemill\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            validationProblem(c.read("POST"));
            c.write(("x".repeat(100) + "POST /items/5 HTTP/1.1\r\nHost: tidemill\r\nContent-Length: 3\r\n\r\nabc")
                    .getBytes(StandardCharsets.US_ASCII));
            TestResponse next = c.read("POST");
            assertThat(next.status()).as("%s", next).isEqualTo(200);
            assertThat(next.text()).isEqualTo("item 5");
        }
    }

    @Test
    void afterA422ForAChunkedBodyTheConnectionServesTheNextRequest() {
        try (Connection c = client.connect()) {
            TestResponse bad = c.send(TestRequest.of("POST", "/items/abc").body("text/plain", "unused")
                    .chunked(List.of("abc".getBytes(StandardCharsets.US_ASCII), "defg".getBytes(StandardCharsets.US_ASCII))));
            validationProblem(bad);
            TestResponse next = c.send(TestRequest.of("POST", "/items/6").body("text/plain", "unused")
                    .chunked(List.of("abc".getBytes(StandardCharsets.US_ASCII))));
            assertThat(next.status()).as("%s", next).isEqualTo(200);
            assertThat(next.text()).isEqualTo("item 6");
        }
    }

    @Test
    void afterA422PipelinedRequestsAreStillAnsweredInOrder() {
        byte[] body = "0123456789".repeat(10).getBytes(StandardCharsets.US_ASCII);
        try (Connection c = client.connect()) {
            List<TestResponse> rs = c.pipeline(List.of(
                    TestRequest.of("POST", "/items/nope").body("application/octet-stream", body),
                    TestRequest.get("/int/2"),
                    TestRequest.of("POST", "/items/3").body("application/octet-stream", body)));
            assertThat(rs.get(0).status()).isEqualTo(422);
            assertThat(rs.get(1).text()).isEqualTo("2:Integer");
            assertThat(rs.get(2).text()).isEqualTo("item 3");
        }
    }

    @Test
    void pathParamReturnsTheDecodedTextOfUndeclaredSegments() {
        assertThat(ok("/users/j%C3%B6rg/files/a%2Fb/c%20d.txt")).isEqualTo("jörg|a/b/c d.txt");
        assertThat(ok("/users/ann/files/")).isEqualTo("ann|");
    }

    @Test
    @SuppressWarnings("unchecked")
    void readingAnUndeclaredParameterIsAServerError() {
        for (String path : List.of("/undeclared-param/5", "/undeclared-segment/5")) {
            TestResponse r = client.get(path);
            assertThat(r.status()).as("%s", r).isEqualTo(500);
            assertThat(r.header("Content-Type")).hasValue("application/problem+json");
            assertThat(r.json(Map.class)).isEqualTo(
                    Map.of("type", "about:blank", "title", "Internal Server Error", "status", 500));
        }
    }
}
