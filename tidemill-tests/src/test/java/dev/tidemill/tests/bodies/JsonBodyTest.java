package dev.tidemill.tests.bodies;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Tidemill;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code req.body(Type.class)}: JSON and URL-encoded forms bound to records and validated with
 * Jakarta constraints; 422 per field, 400 for malformed or hostile JSON, 415 for other content
 * types.
 */
@Timeout(60)
class JsonBodyTest {
    record Address(@NotBlank String city, @Size(min = 5, max = 5) String zip) {}

    record NewUser(@NotBlank String name, @Min(18) @Max(150) int age, @Size(max = 3) List<String> tags,
            @Valid @NotNull Address address) {}

    record Signup(@NotBlank String name, @Min(18) @Max(150) int age, @Size(min = 3, max = 10) String nick) {}

    record Survey(@NotBlank String name, @Size(max = 2) List<String> choices) {}

    record Order(List<@Valid Address> addresses, List<@NotBlank String> tags, Map<String, @Valid Address> byName,
            Map<String, @Min(1) Integer> counts) {}

    static TestClient client;

    @BeforeAll
    static void start() {
        Tidemill app = Tidemill.create(TestClient.config().workerLoops(2).ioThreads(1).build());
        app.post("/users", req -> req.body(NewUser.class));
        app.post("/signup", req -> req.body(Signup.class));
        app.post("/orders", req -> req.body(Order.class));
        app.post("/surveys", req -> req.body(Survey.class));
        app.get("/ping", req -> "pong");
        client = TestClient.start(app).timeout(Duration.ofSeconds(20));
    }

    @AfterAll
    static void stop() {
        if (client != null) client.close();
    }

    private static Map<String, Object> user(String name, int age, List<String> tags, String city, String zip) {
        Map<String, Object> address = new LinkedHashMap<>();
        address.put("city", city);
        address.put("zip", zip);
        Map<String, Object> u = new LinkedHashMap<>();
        u.put("name", name);
        u.put("age", age);
        u.put("tags", tags);
        u.put("address", address);
        return u;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> problem(TestResponse r, int status) {
        assertThat(r.status()).as("%s", r).isEqualTo(status);
        assertThat(r.header("Content-Type")).as("%s", r).hasValue("application/problem+json");
        Map<String, Object> p = r.json(Map.class);
        assertThat(p).as("%s", r).containsEntry("status", status).containsKey("type").containsKey("title");
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

    private static TestRequest post(String path, String contentType, String body) {
        return TestRequest.of("POST", path).body(contentType, body);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aValidBodyIsBound() {
        Map<String, Object> sent = user("Ann", 30, List.of("a", "b"), "Lyon", "69001");
        TestResponse r = client.postJson("/users", sent);
        assertThat(r.status()).as("%s", r).isEqualTo(200);
        assertThat(r.header("Content-Type")).hasValue("application/json");
        assertThat(r.json(Map.class)).isEqualTo(sent);
        // Unknown properties are ignored.
        TestResponse extra = client.post("/users", "application/json",
                "{\"name\":\"Bo\",\"age\":40,\"tags\":[],\"address\":{\"city\":\"Oslo\",\"zip\":\"01500\"},\"x\":1}");
        assertThat(extra.status()).as("%s", extra).isEqualTo(200);
        assertThat(extra.json(Map.class)).containsEntry("name", "Bo");
    }

    @Test
    @SuppressWarnings("unchecked")
    void violationsAre422WithOneEntryPerField() {
        Map<String, Object> sent = user(" ", 10, List.of("a", "b", "c", "d"), "", "123");
        try (Connection c = client.connect()) {
            TestResponse r = c.send(TestRequest.of("POST", "/users").json(sent));
            Map<String, Object> p = problem(r, 422);
            assertThat(p).containsEntry("type", "about:blank").containsEntry("title", "Validation failed");
            List<Map<String, Object>> errors = (List<Map<String, Object>>) p.get("errors");
            assertThat(errors).containsExactlyInAnyOrder(
                    error("NotBlank", List.of("body", "address", "city"), "must not be blank", ""),
                    error("Size", List.of("body", "address", "zip"), "size must be between 5 and 5", "123"),
                    error("Min", List.of("body", "age"), "must be greater than or equal to 18", "10"),
                    error("NotBlank", List.of("body", "name"), "must not be blank", " "),
                    error("Size", List.of("body", "tags"), "size must be between 0 and 3", null));

            TestResponse tooOld = c.send(TestRequest.of("POST", "/users")
                    .json(user("Old", 151, List.of(), "Rome", "00100")));
            assertThat((List<Map<String, Object>>) problem(tooOld, 422).get("errors")).containsExactly(
                    error("Max", List.of("body", "age"), "must be less than or equal to 150", "151"));

            Map<String, Object> noAddress = user("Ann", 30, List.of(), "x", "x");
            noAddress.remove("address");
            TestResponse missing = c.send(TestRequest.of("POST", "/users").json(noAddress));
            assertThat((List<Map<String, Object>>) problem(missing, 422).get("errors")).containsExactly(
                    error("NotNull", List.of("body", "address"), "must not be null", null));

            assertThat(c.send(TestRequest.get("/ping")).text()).as("the connection survives").isEqualTo("pong");
        }
    }

    @Test
    void malformedJsonIsA400Problem() {
        try (Connection c = client.connect()) {
            for (String bad : List.of("{\"name\":", "{name: \"x\"}", "not json", "", "null", "[1,2]",
                    "{\"name\":\"a\",\"age\":\"old\",\"address\":{\"city\":\"c\",\"zip\":\"12345\"}}")) {
                TestResponse r = c.send(post("/users", "application/json", bad));
                assertThat(r.status()).as("body %s -> %s", bad, r).isEqualTo(400);
                problem(r, 400);
            }
            assertThat(c.send(TestRequest.get("/ping")).text()).as("the connection survives").isEqualTo("pong");
        }
    }

    @Test
    void aMissingOrNonJsonContentTypeIs415() {
        String json = "{\"name\":\"Ann\",\"age\":30,\"nick\":\"annie\"}";
        try (Connection c = client.connect()) {
            TestRequest noType = new TestRequest("POST", "/signup", List.of(), json.getBytes(StandardCharsets.UTF_8));
            Map<String, Object> p = problem(c.send(noType), 415);
            assertThat(p).containsEntry("title", "Unsupported Media Type");
            problem(c.send(post("/signup", "text/plain", json)), 415);
            problem(c.send(post("/signup", "application/xml", json)), 415);
            problem(c.send(post("/signup", "multipart/mixed; boundary=x", json)), 415);
            // multipart/form-data is bound too (MultipartFormsTest); JSON sent as one is a malformed form
            assertThat(problem(c.send(post("/signup", "multipart/form-data; boundary=x", json)), 400))
                    .containsEntry("detail", "the body holds no boundary delimiter");
            assertThat(c.send(TestRequest.get("/ping")).text()).as("the connection survives").isEqualTo("pong");
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void jsonWithACharsetAndPlusJsonTypesAreAccepted() {
        String json = "{\"name\":\"Zoë\",\"age\":30,\"nick\":\"zozo\"}";
        Map<String, Object> expected = Map.of("name", "Zoë", "age", 30, "nick", "zozo");
        for (String type : List.of("application/json; charset=utf-8", "application/json;charset=UTF-8",
                "Application/JSON", "application/problem+json", "application/vnd.tidemill.user+json")) {
            TestResponse r = client.post("/signup", type, json);
            assertThat(r.status()).as("%s -> %s", type, r).isEqualTo(200);
            assertThat(r.json(Map.class)).as(type).isEqualTo(expected);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aUrlEncodedFormIsBoundAndValidatedTheSameWay() {
        TestResponse ok = client.post("/signup", "application/x-www-form-urlencoded", "name=Ann+Lee&age=30&nick=ann%26co");
        assertThat(ok.status()).as("%s", ok).isEqualTo(200);
        assertThat(ok.json(Map.class)).isEqualTo(Map.of("name", "Ann Lee", "age", 30, "nick", "ann&co"));

        TestResponse utf8 = client.post("/signup", "application/x-www-form-urlencoded; charset=utf-8",
                "name=Zo%C3%AB&age=20&nick=zoe");
        assertThat(utf8.json(Map.class)).containsEntry("name", "Zoë");

        TestResponse bad = client.post("/signup", "application/x-www-form-urlencoded", "name=&age=10&nick=ab");
        List<Map<String, Object>> errors = (List<Map<String, Object>>) problem(bad, 422).get("errors");
        assertThat(errors).containsExactlyInAnyOrder(
                error("Min", List.of("body", "age"), "must be greater than or equal to 18", "10"),
                error("NotBlank", List.of("body", "name"), "must not be blank", ""),
                error("Size", List.of("body", "nick"), "size must be between 3 and 10", "ab"));

        // The same violations as JSON give the same errors.
        TestResponse badJson = client.post("/signup", "application/json", "{\"name\":\"\",\"age\":10,\"nick\":\"ab\"}");
        assertThat((List<Map<String, Object>>) problem(badJson, 422).get("errors")).isEqualTo(errors);

        problem(client.post("/signup", "application/x-www-form-urlencoded", "name=a&age=%zz&nick=abc"), 400);
    }

    @Test
    void deeplyNestedJsonIsA400NotA500() {
        int depth = 10_000;
        String arrays = "[".repeat(depth) + "]".repeat(depth);
        String objects = "{\"a\":".repeat(depth) + "1" + "}".repeat(depth);
        try (Connection c = client.connect()) {
            for (String body : List.of(arrays, objects,
                    "{\"name\":\"Ann\",\"age\":30,\"nick\":\"abc\",\"extra\":" + arrays + "}",
                    "{\"name\":\"Ann\",\"age\":30,\"nick\":\"abc\",\"extra\":" + objects + "}")) {
                TestResponse r = c.send(post("/signup", "application/json", body));
                assertThat(r.status()).as("%s", r).isEqualTo(400);
                problem(r, 400);
            }
            assertThat(c.send(TestRequest.get("/ping")).text()).as("the connection survives").isEqualTo("pong");
        }
    }

    @Test
    void duplicateKeysAreA400() {
        TestResponse r = client.post("/signup", "application/json",
                "{\"name\":\"Ann\",\"age\":30,\"nick\":\"abc\",\"name\":\"Eve\"}");
        problem(r, 400);
        TestResponse nested = client.post("/users", "application/json",
                "{\"name\":\"Ann\",\"age\":30,\"tags\":[],\"address\":{\"city\":\"a\",\"city\":\"b\",\"zip\":\"12345\"}}");
        problem(nested, 400);
    }

    @Test
    @SuppressWarnings("unchecked")
    void violationsInsideListsAndMapsAreLocatedByIndexOrKeyInPathOrder() {
        TestResponse r = client.post("/orders", "application/json", """
                {"addresses":[{"city":"Lyon","zip":"69001"},{"city":"","zip":"69002"}],
                 "tags":["ok"," "],
                 "byName":{"home":{"city":"","zip":"75001"}},
                 "counts":{"pens":0}}""");
        List<Map<String, Object>> errors = (List<Map<String, Object>>) problem(r, 422).get("errors");
        assertThat(errors).containsExactlyInAnyOrder(
                error("NotBlank", List.of("body", "addresses", "1", "city"), "must not be blank", ""),
                error("NotBlank", List.of("body", "tags", "1"), "must not be blank", " "),
                error("NotBlank", List.of("body", "byName", "home", "city"), "must not be blank", ""),
                error("Min", List.of("body", "counts", "pens"), "must be greater than or equal to 1", "0"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void aFormKeyGivenOnceBindsToAListComponentLikeARepeatedOne() {
        // A form cannot tell "one value" from "a list of one": a multi-select with one choice sends
        // choices=x once. Binding it must give [x], as JSON ["x"] does.
        TestResponse two = client.post("/surveys", "application/x-www-form-urlencoded", "name=a&choices=x&choices=y");
        assertThat(two.status()).as("%s", two).isEqualTo(200);
        assertThat(two.json(Map.class)).isEqualTo(Map.of("name", "a", "choices", List.of("x", "y")));
        TestResponse three = client.post("/surveys", "application/x-www-form-urlencoded", "name=a&choices=x&choices=y&choices=z");
        assertThat((List<Map<String, Object>>) problem(three, 422).get("errors")).containsExactly(
                error("Size", List.of("body", "choices"), "size must be between 0 and 2", null));
        TestResponse one = client.post("/surveys", "application/x-www-form-urlencoded", "name=a&choices=x");
        assertThat(one.status()).as("%s", one).isEqualTo(200);
        assertThat(one.json(Map.class)).isEqualTo(Map.of("name", "a", "choices", List.of("x")));
    }
}
