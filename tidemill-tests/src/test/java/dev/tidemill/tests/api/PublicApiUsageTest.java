package dev.tidemill.tests.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Config;
import dev.tidemill.Param;
import dev.tidemill.ParamType;
import dev.tidemill.Problem;
import dev.tidemill.Response;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A small app written the way a user writes one, started with {@link TestClient} and exercised end
 * to end. It doubles as documentation: everything here is public API.
 */
@Timeout(60)
class PublicApiUsageTest {

    // ---------------------------------------------------------------- the app

    record Item(int id, String name, int quantity) {}

    record NewItem(@NotBlank String name, @Min(1) int quantity) {}

    static final Param<Integer> ID = Param.path("id", ParamType.INT);
    static final Param<Integer> LIMIT = Param.query("limit", ParamType.INT).withDefault(10);

    static Tidemill inventory(Config config) {
        Map<Integer, Item> items = new ConcurrentHashMap<>();
        AtomicInteger ids = new AtomicInteger();

        Tidemill app = Tidemill.create(config);
        app.get("/hello", req -> "Hello, World!");
        app.get("/items", req -> items.values().stream()
                .sorted(Comparator.comparingInt(Item::id)).limit(req.param(LIMIT)).toList()).params(LIMIT);
        app.get("/items/{id}", req -> {
            Item item = items.get(req.param(ID));
            if (item == null) throw Problem.of(404, "Not Found", "no item " + req.param(ID)).toException();
            return item;
        }).params(ID);
        app.post("/items", req -> {
            NewItem in = req.body(NewItem.class);
            Item item = new Item(ids.incrementAndGet(), in.name(), in.quantity());
            items.put(item.id(), item);
            return Response.status(201).header("Location", "/items/" + item.id()).json(item);
        });
        app.delete("/items/{id}", req -> {
            items.remove(req.param(ID));
            return null; // 204
        }).params(ID);
        return app;
    }

    // ---------------------------------------------------------------- the test

    @Test
    @SuppressWarnings("unchecked")
    void aSmallInventoryAppEndToEnd() {
        try (TestClient client = TestClient.start(inventory(TestClient.config().build()))) {
            TestResponse hello = client.get("/hello");
            assertThat(hello.status()).isEqualTo(200);
            assertThat(hello.text()).isEqualTo("Hello, World!");

            assertThat(client.get("/items").text()).isEqualTo("[]");

            TestResponse created = client.postJson("/items", Map.of("name", "pen", "quantity", 3));
            assertThat(created.status()).as("%s", created).isEqualTo(201);
            assertThat(created.header("Location")).hasValue("/items/1");
            assertThat(created.json(Item.class)).isEqualTo(new Item(1, "pen", 3));
            client.postJson("/items", Map.of("name", "ink", "quantity", 1));
            client.post("/items", "application/x-www-form-urlencoded", "name=paper&quantity=500");

            try (Connection c = client.connect()) {
                assertThat(c.send(TestRequest.get("/items/2")).json(Item.class)).isEqualTo(new Item(2, "ink", 1));
                assertThat(c.send(TestRequest.get("/items")).json(Item[].class)).containsExactly(
                        new Item(1, "pen", 3), new Item(2, "ink", 1), new Item(3, "paper", 500));
                assertThat(c.send(TestRequest.get("/items?limit=1")).json(Item[].class)).containsExactly(new Item(1, "pen", 3));

                TestResponse notANumber = c.send(TestRequest.get("/items/two"));
                assertThat(notANumber.status()).isEqualTo(422);
                assertThat(notANumber.header("Content-Type")).hasValue("application/problem+json");
                assertThat((List<Map<String, Object>>) notANumber.json(Map.class).get("errors")).containsExactly(Map.of(
                        "type", "int_parsing", "loc", List.of("path", "id"),
                        "msg", "Input should be a valid integer", "input", "two"));

                TestResponse missing = c.send(TestRequest.get("/items/99"));
                assertThat(missing.status()).isEqualTo(404);
                assertThat(missing.json(Map.class)).isEqualTo(Map.of(
                        "type", "about:blank", "title", "Not Found", "status", 404, "detail", "no item 99"));

                TestResponse invalid = c.send(TestRequest.of("POST", "/items").json(Map.of("name", "", "quantity", 0)));
                assertThat(invalid.status()).isEqualTo(422);
                assertThat((List<Map<String, Object>>) invalid.json(Map.class).get("errors"))
                        .extracting(e -> e.get("loc")).containsExactlyInAnyOrder(
                                List.of("body", "name"), List.of("body", "quantity"));

                assertThat(c.send(TestRequest.of("DELETE", "/items/1")).status()).isEqualTo(204);
                assertThat(c.send(TestRequest.get("/items/1")).status()).isEqualTo(404);
                TestResponse wrongMethod = c.send(TestRequest.of("PUT", "/items/2"));
                assertThat(wrongMethod.status()).isEqualTo(405);
                assertThat(wrongMethod.header("Allow")).hasValue("DELETE, GET, HEAD");
            }
        }
    }
}
