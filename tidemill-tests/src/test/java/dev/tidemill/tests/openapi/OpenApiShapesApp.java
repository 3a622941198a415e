package dev.tidemill.tests.openapi;

import dev.tidemill.Config;
import dev.tidemill.OpenApi;
import dev.tidemill.Param;
import dev.tidemill.ParamType;
import dev.tidemill.Response;
import dev.tidemill.StaticAssets;
import dev.tidemill.Tidemill;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * An app with every parameter and body shape the OpenAPI document describes: each {@link ParamType},
 * required, optional, defaulted and list parameters, enums, nested records and lists of them, a
 * self-referencing record, a form body, declared return types, a route without inputs, a
 * WebSocket, static assets and an operational route.
 */
final class OpenApiShapesApp {
    enum Color { RED, GREEN, BLUE }

    record Address(@NotBlank String street, @NotNull @Size(min = 2, max = 2) String country,
            @Pattern(regexp = "[0-9]{5}") String zip) {}

    record Order(
            @NotBlank @Size(max = 80) String name,
            @Email String email,
            @Min(1) @Max(100) int quantity,
            @Positive long cents,
            @DecimalMin(value = "0.5", inclusive = false) double weight,
            @PositiveOrZero Integer discount,
            Optional<String> note,
            @NotNull Color color,
            @Size(max = 5) List<@NotBlank String> tags,
            @Valid @NotNull Address shipping,
            @NotEmpty List<@Valid Address> stops,
            Set<Color> palette,
            Map<String, Integer> counts,
            LocalDate due,
            Instant placed,
            UUID reference,
            boolean gift) {}

    record Placed(UUID id, Order order) {}

    record Category(@NotBlank String name, List<Category> children) {}

    record Login(@NotBlank String user, @NotBlank @Size(min = 8) String password, boolean remember) {}

    record SearchResult(String q, int limit, List<String> tags, Color color) {}

    static final Param<UUID> ID = Param.path("id", ParamType.UUID_TYPE);
    static final Param<LocalDate> DAY = Param.path("day", ParamType.LOCAL_DATE);
    static final Param<Integer> N = Param.path("n", ParamType.INT);
    static final Param<Long> BIG = Param.path("big", ParamType.LONG);
    static final Param<String> Q = Param.query("q");
    static final Param<Integer> LIMIT = Param.query("limit", ParamType.INT).withDefault(20);
    static final Param<Optional<Long>> AFTER = Param.query("after", ParamType.LONG).optional();
    static final Param<Double> SCORE = Param.query("score", ParamType.DOUBLE).withDefault(0.5);
    static final Param<Boolean> EXACT = Param.query("exact", ParamType.BOOLEAN).withDefault(false);
    static final Param<Optional<LocalDate>> SINCE = Param.query("since", ParamType.LOCAL_DATE).optional();
    static final Param<Optional<OffsetDateTime>> FROM = Param.query("from", ParamType.OFFSET_DATE_TIME).optional();
    static final Param<Optional<Instant>> UNTIL = Param.query("until", ParamType.INSTANT).optional();
    static final Param<Color> COLOR = Param.query("color", ParamType.enumOf(Color.class)).withDefault(Color.RED);
    static final Param<List<String>> TAG = Param.queryList("tag", ParamType.STRING);
    static final Param<List<Integer>> PAGE = Param.queryList("page", ParamType.INT);
    static final Param<Optional<UUID>> OWNER = Param.query("owner", ParamType.UUID_TYPE).optional();

    private OpenApiShapesApp() {}

    static Tidemill create(Config config, OpenApi settings) {
        Tidemill app = Tidemill.create(config);
        app.get("/ping", req -> "pong").returns(String.class).summary("Liveness of the app itself").tags("misc");
        app.get("/things/{id}", req -> new Placed(req.param(ID), null)).params(ID).returns(Placed.class).tags("things");
        app.get("/days/{day}/slots/{n}", req -> req.param(DAY) + " " + req.param(N)).params(DAY, N).returns(String.class);
        app.get("/counters/{big}", req -> Map.of("big", req.param(BIG))).params(BIG);
        app.get("/search", req -> new SearchResult(req.param(Q), req.param(LIMIT), req.param(TAG), req.param(COLOR)))
                .params(Q, LIMIT, AFTER, SCORE, EXACT, SINCE, FROM, UNTIL, COLOR, TAG, PAGE, OWNER)
                .returns(SearchResult.class).description("Every query parameter type and shape.");
        app.post("/orders", req -> Response.status(201).json(new Placed(UUID.randomUUID(), req.body(Order.class))))
                .body(Order.class).returns(201, Placed.class).summary("Place an order").tags("orders");
        app.put("/categories/{id}", req -> req.body(Category.class)).params(ID).body(Category.class)
                .returns(Category.class).operationId("replaceCategory");
        app.post("/login", req -> "welcome " + req.body(Login.class).user()).form(Login.class).returns(String.class);
        app.delete("/things/{id}", req -> null).params(ID).returns(204, Void.class);
        app.get("/files/{*path}", req -> req.pathParam("path"));
        app.ws("/ws/echo", (ws, msg) -> ws.send(msg));
        app.assets("/static", StaticAssets.builder().resource("hello.txt", "hello".getBytes(StandardCharsets.UTF_8)).build());
        app.get("/healthz", req -> "ok").operational(true);
        app.openApi(settings);
        return app;
    }
}
