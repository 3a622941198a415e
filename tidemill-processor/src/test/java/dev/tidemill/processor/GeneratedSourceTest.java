package dev.tidemill.processor;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.CompilationSubject;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A controller using every feature compiles under {@code -Xlint:all -Werror}, its generated routes
 * class reads as the DSL a person would write, the module's index and service file are written, and
 * the routes it registers are accepted by a real app as declared.
 */
class GeneratedSourceTest {
    static final JavaFileObject ITEMS = JavaFileObjects.forSourceString("demo.ItemsController", """
            package demo;

            import dev.tidemill.ExecutionMode;
            import dev.tidemill.Multipart;
            import dev.tidemill.Principal;
            import dev.tidemill.Request;
            import dev.tidemill.Response;
            import dev.tidemill.Session;
            import dev.tidemill.ToolCall;
            import dev.tidemill.WebSocketHandler;
            import dev.tidemill.controller.*;
            import dev.tidemill.html.Html;
            import java.time.LocalDate;
            import java.util.List;
            import java.util.Optional;
            import java.util.UUID;
            import java.util.concurrent.CompletableFuture;
            import java.util.concurrent.CompletionStage;

            /** Every feature of the annotations, once. */
            @Controller("/items")
            @RateLimited(name = "items", requests = 100, perSeconds = 60)
            @Operation(tags = "items")
            public class ItemsController {
                public enum Sort { NAME, CREATED }
                public record Item(UUID id, String name) {}
                public record NewItem(String name) {}
                public record Rename(String name) {}
                public record Upload(String title) {}

                @Get
                @Anonymous
                @Tool(name = "list_items", description = "Lists the items, a page at a time.")
                @Operation(summary = "List items", description = "A page of items, *oldest* first.", operationId = "listItems", tags = "catalog")
                public List<Item> list(@QueryParam(defaultValue = "10") int limit,
                                       @QueryParam Optional<String> after,
                                       @QueryParam("tag") List<String> tags,
                                       @QueryParam(defaultValue = "name") Sort sort,
                                       @QueryParam(defaultValue = "2024-01-01") LocalDate since,
                                       @QueryParam(defaultValue = "0.5") double ratio,
                                       @QueryParam(defaultValue = "true") boolean archived,
                                       @QueryParam(defaultValue = "12345678901") long big,
                                       Optional<ToolCall> call) {
                    return List.of();
                }

                @Get("/{id}")
                @Requires(scopes = "items:read")
                public Item get(@PathParam UUID id,
                                @HeaderParam("X-Tenant") Optional<String> tenant,
                                @CookieParam(value = "lang", defaultValue = "en") String lang,
                                Principal caller) {
                    return new Item(id, lang);
                }

                @Post
                @Status(201)
                @Requires(scopes = "items:write", roles = "editor")
                @RateLimited(name = "create-items", requests = 5)
                @Mode(ExecutionMode.VIRTUAL)
                public CompletionStage<Item> create(@Body NewItem item, Request request, Optional<Principal> caller) {
                    return CompletableFuture.completedFuture(new Item(UUID.randomUUID(), item.name()));
                }

                @Put("/{id}")
                @Requires
                @Returns(value = Item.class, status = 200)
                public Response replace(@PathParam UUID id, @Body NewItem item) {
                    return Response.ok().json(new Item(id, item.name()));
                }

                @Patch("/{id}")
                @Requires
                @Returns(value = Item.class, status = 202)
                public Response rename(@PathParam UUID id, @Form Rename form) {
                    return Response.status(202).json(new Item(id, form.name()));
                }

                @Post("/uploads")
                @Requires
                public Item upload(@MultipartForm Upload upload) {
                    return new Item(UUID.randomUUID(), upload.title());
                }

                @Post("/stream")
                @Requires
                public void stream(Multipart parts) {
                }

                @Delete("/{id}")
                @Requires(roles = "admin")
                public void delete(@PathParam UUID id) {
                }

                @Delete
                @Requires(roles = "admin")
                @Status(202)
                public CompletionStage<Void> purge() {
                    return CompletableFuture.completedFuture(null);
                }

                @Get("/{id}/name")
                @Anonymous
                @Mode(ExecutionMode.IO)
                @Produces("text/plain; charset=utf-8")
                public String name(@PathParam UUID id) {
                    return id.toString();
                }

                @Get("/{id}/raw")
                @Anonymous
                @Mode(ExecutionMode.LOOP)
                @Produces("application/octet-stream")
                public byte[] raw(@PathParam UUID id) {
                    return new byte[0];
                }

                @Get("/{id}/pdf")
                @Anonymous
                @Produces("application/pdf")
                public CompletionStage<byte[]> pdf(@PathParam UUID id) {
                    return CompletableFuture.completedFuture(new byte[0]);
                }

                @Get("/{id}/page")
                @Anonymous
                public Html page(@PathParam UUID id) {
                    return Html.text(id.toString());
                }

                @Get("/files/{*path}")
                @Anonymous
                public String file(@PathParam String path) {
                    return path;
                }

                @Get("/events")
                @Anonymous
                public Response.SseHandler events() {
                    return stream -> { };
                }

                @Get("/socket")
                @Anonymous
                public WebSocketHandler socket() {
                    return (ws, message) -> { };
                }

                @Get("/me")
                @Anonymous(identify = true)
                public String me(Optional<Principal> caller, Optional<Session> session, Session current) {
                    return caller.map(Principal::subject).orElse("nobody");
                }
            }
            """);


    private static String text(JavaFileObject f) {
        try {
            return f.getCharContent(true).toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String generatedSource(Compilation c, String name) {
        return text(c.generatedSourceFile(name).orElseThrow(() -> new AssertionError("no generated " + name)));
    }

    @Test
    void everyFeatureCompilesWithoutAWarning() {
        CompilationSubject.assertThat(Sources.compile(ITEMS)).succeededWithoutWarnings();
    }

    @Test
    void theRoutesClassReadsAsTheDsl() {
        String routes = generatedSource(Sources.compile(ITEMS), "demo.ItemsControllerRoutes");

        assertThat(routes).contains(
                "public final class ItemsControllerRoutes implements Handler {",
                "public static void register(ItemsController controller, Routes routes) {",
                // a class rate limit, and a method's own
                "private static final RateLimit LIMIT_ITEMS_CONTROLLER = RateLimit.builder(\"items\").requests(100).per(Duration.ofSeconds(60L)).build();",
                "private static final RateLimit LIMIT_CREATE = RateLimit.builder(\"create-items\").requests(5).per(Duration.ofSeconds(1L)).build();",
                // query parameters: defaults of each kind, Optional, List
                "private static final Param<Integer> LIST_LIMIT = Param.query(\"limit\", ParamType.INT).withDefault(10);",
                "private static final Param<Optional<String>> LIST_AFTER = Param.query(\"after\", ParamType.STRING).optional();",
                "private static final Param<List<String>> LIST_TAGS = Param.queryList(\"tag\", ParamType.STRING);",
                "private static final Param<ItemsController.Sort> LIST_SORT = Param.query(\"sort\", ParamType.enumOf(ItemsController.Sort.class))"
                        + ".withDefault(ItemsController.Sort.NAME);",
                "private static final Param<LocalDate> LIST_SINCE = Param.query(\"since\", ParamType.LOCAL_DATE).withDefault(LocalDate.parse(\"2024-01-01\"));",
                "private static final Param<Double> LIST_RATIO = Param.query(\"ratio\", ParamType.DOUBLE).withDefault(0.5);",
                "private static final Param<Boolean> LIST_ARCHIVED = Param.query(\"archived\", ParamType.BOOLEAN).withDefault(true);",
                "private static final Param<Long> LIST_BIG = Param.query(\"big\", ParamType.LONG).withDefault(12345678901L);",
                // path, header, cookie
                "private static final Param<UUID> GET_ID = Param.path(\"id\", ParamType.UUID_TYPE);",
                "private static final Param<Optional<String>> GET_TENANT = Param.header(\"X-Tenant\", ParamType.STRING).optional();",
                "private static final Param<String> GET_LANG = Param.cookie(\"lang\", ParamType.STRING).withDefault(\"en\");",
                "private static final Param<String> FILE_PATH = Param.path(\"path\", ParamType.STRING);",
                // the calls: parameters, the ToolCall, the caller, the session
                "routes.get(\"/items\", new ItemsControllerRoutes(controller, ",
                " -> controller.list(request.param(LIST_LIMIT), request.param(LIST_AFTER), request.param(LIST_TAGS), request.param(LIST_SORT), request.param(LIST_SINCE), request.param(LIST_RATIO), request.param(LIST_ARCHIVED), request.param(LIST_BIG), ToolCall.of(request));",
                ".params(LIST_LIMIT, LIST_AFTER, LIST_TAGS, LIST_SORT, LIST_SINCE, LIST_RATIO, LIST_ARCHIVED, LIST_BIG)",
                "routes.get(\"/items/{id}\", new ItemsControllerRoutes(controller, ",
                " -> controller.get(request.param(GET_ID), request.param(GET_TENANT), request.param(GET_LANG), request.principal().orElse(null));",
                "routes.get(\"/items/me\", new ItemsControllerRoutes(controller, ",
                " -> controller.me(request.principal(), request.session(), request.session().orElse(null));",
                // documentation and the tool
                ".summary(\"List items\")",
                ".description(\"A page of items, *oldest* first.\")",
                ".tags(\"catalog\", \"items\")",
                ".operationId(\"listItems\")",
                ".tool(\"list_items\", \"Lists the items, a page at a time.\");",
                // who may call
                ".requires(Requirement.anonymous())",
                ".requires(Requirement.anyone())",
                ".requires(Requirement.authenticated())",
                ".requires(Requirement.scope(\"items:read\"))",
                ".requires(Requirement.allOf(Requirement.scope(\"items:write\"), Requirement.role(\"editor\")))",
                ".rateLimit(LIMIT_CREATE);",
                ".rateLimit(LIMIT_ITEMS_CONTROLLER);",
                // bodies
                "routes.post(\"/items\", new ItemsControllerRoutes(controller, ",
                " -> controller.create(request.body(ItemsController.NewItem.class), request, request.principal()).thenApply(value -> Response.status(201).json(value));",
                ".body(ItemsController.NewItem.class)",
                ".form(ItemsController.Rename.class)",
                ".multipart(ItemsController.Upload.class)",
                "controller.stream(request.multipart());",
                // answers: @Status, @Returns, @Produces, void, CompletionStage, handlers
                ".returns(201, ItemsController.Item.class)",
                ".returns(202, ItemsController.Item.class)",
                ".returns(204, Void.class)",
                ".returns(202, Void.class)",
                ".returns(String.class)",
                ".returns(byte[].class)",
                "routes.delete(\"/items\", new ItemsControllerRoutes(controller, ",
                " -> controller.purge().thenApply(done -> Response.status(202));",
                "routes.get(\"/items/{id}/name\", new ItemsControllerRoutes(controller, ",
                " -> Response.status(200).bytes(controller.name(request.param(NAME_ID)).getBytes(StandardCharsets.UTF_8), \"text/plain; charset=utf-8\");",
                ".produces(\"text/plain; charset=utf-8\")",
                "routes.get(\"/items/{id}/raw\", new ItemsControllerRoutes(controller, ",
                " -> Response.status(200).bytes(controller.raw(request.param(RAW_ID)), \"application/octet-stream\");",
                "routes.get(\"/items/{id}/pdf\", new ItemsControllerRoutes(controller, ",
                " -> controller.pdf(request.param(PDF_ID)).thenApply(value -> Response.status(200).bytes(value, \"application/pdf\"));",
                "routes.get(\"/items/{id}/page\", new ItemsControllerRoutes(controller, ",
                " -> controller.page(request.param(PAGE_ID));",
                "routes.get(\"/items/files/{*path}\", new ItemsControllerRoutes(controller, ",
                " -> controller.file(request.param(FILE_PATH));",
                "routes.get(\"/items/events\", new ItemsControllerRoutes(controller, ",
                " -> Response.sse(controller.events());",
                "routes.get(\"/items/socket\", new ItemsControllerRoutes(controller, ",
                " -> Response.webSocket(controller.socket());",
                // modes
                ".mode(ExecutionMode.VIRTUAL)",
                ".mode(ExecutionMode.IO)",
                ".mode(ExecutionMode.LOOP)");
    }

    @Test
    void theIndexAndItsServiceFileAreGenerated() {
        Compilation c = Sources.compile(ITEMS);

        CompilationSubject.assertThat(c).generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/services/dev.tidemill.ControllerIndex")
                .contentsAsUtf8String().isEqualTo("demo.TidemillControllers\n");
        CompilationSubject.assertThat(c).generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/tidemill/controllers")
                .contentsAsUtf8String().contains("\ndemo.ItemsController\n");
        assertThat(generatedSource(c, "demo.TidemillControllers")).contains(
                "public final class TidemillControllers implements ControllerIndex {",
                "ItemsController.class);",
                "if (controller instanceof ItemsController) {",
                "ItemsControllerRoutes.register((ItemsController) controller, routes);");
    }

    /** Compiled with the controller: gives it to a real app, through the generated index, and describes the routes it got. */
    private static final JavaFileObject CHECK = JavaFileObjects.forSourceString("demo.Check", """
            package demo;

            import dev.tidemill.Route;
            import dev.tidemill.Tidemill;
            import java.util.List;

            public final class Check {
                private Check() {}

                public static List<String> routes() {
                    Tidemill app = Tidemill.create().controllers(new ItemsController());
                    return app.routes().stream().map(Check::describe).toList();
                }

                private static String describe(Route r) {
                    return r.method() + " " + r.pattern() + " -> " + r.returnStatus() + " " + r.returns().map(Class::getSimpleName).orElse("?")
                            + r.body().map(b -> ", body " + b.getSimpleName()).orElse("")
                            + r.produces().map(p -> ", produces " + p).orElse("")
                            + r.requirement().map(q -> ", " + q).orElse("")
                            + r.rateLimit().map(l -> ", limit " + l.name()).orElse("");
                }
            }
            """);

    @Test
    void aRealAppTakesTheControllerThroughTheGeneratedIndexWithEveryRouteAsDeclared(@TempDir Path out) throws Exception {
        Compilation c = Sources.compile(ITEMS, CHECK);
        CompilationSubject.assertThat(c).succeededWithoutWarnings();
        for (JavaFileObject f : c.generatedFiles()) {
            String path = f.toUri().getPath();
            if (!path.startsWith("/CLASS_OUTPUT/")) continue;
            Path target = out.resolve(path.substring("/CLASS_OUTPUT/".length()));
            Files.createDirectories(target.getParent());
            try (InputStream in = f.openInputStream()) {
                Files.write(target, in.readAllBytes());
            }
        }

        List<?> routes;
        // the app finds the index as a service of the controller's loader, as it would a plugin's
        try (URLClassLoader loader = new URLClassLoader(new URL[] {out.toUri().toURL()}, GeneratedSourceTest.class.getClassLoader())) {
            routes = (List<?>) loader.loadClass("demo.Check").getMethod("routes").invoke(null);
        }

        assertThat(routes).map(String::valueOf).containsExactly(
                // a generic type would be described erased (List of anything): no returns rather than a wrong one
                "GET /items -> 200 ?, anonymous, limit items",
                "GET /items/{id} -> 200 Item, scope items:read, limit items",
                "POST /items -> 201 Item, body NewItem, AllOf[all=[scope items:write, role editor]], limit create-items",
                "PUT /items/{id} -> 200 Item, body NewItem, authenticated, limit items",
                "PATCH /items/{id} -> 202 Item, body Rename, authenticated, limit items",
                "POST /items/uploads -> 200 Item, body Upload, authenticated, limit items",
                "POST /items/stream -> 204 Void, authenticated, limit items",
                "DELETE /items/{id} -> 204 Void, role admin, limit items",
                "DELETE /items -> 202 Void, role admin, limit items",
                "GET /items/{id}/name -> 200 String, produces text/plain; charset=utf-8, anonymous, limit items",
                "GET /items/{id}/raw -> 200 byte[], produces application/octet-stream, anonymous, limit items",
                "GET /items/{id}/pdf -> 200 byte[], produces application/pdf, anonymous, limit items",
                "GET /items/{id}/page -> 200 ?, anonymous, limit items",
                "GET /items/files/{*path} -> 200 String, anonymous, limit items",
                "GET /items/events -> 200 ?, anonymous, limit items",
                "GET /items/socket -> 200 ?, anonymous, limit items",
                "GET /items/me -> 200 String, anyone, limit items");
    }

    @Test
    void overloadedAndLookAlikeMethodsGetDistinctConstants() {
        JavaFileObject source = Sources.demo("Search", """
                @Controller("/search")
                @Anonymous
                public class Search {
                    @Get
                    public String search(@QueryParam String q) { return q; }

                    @Get("/paged")
                    public String search(@QueryParam String q, @QueryParam(defaultValue = "1") int page) { return q + page; }

                    // GET_ITEM + ID and GET + ITEM_ID
                    @Get("/item")
                    public String getItem(@QueryParam String id) { return id; }

                    @Get("/by-item")
                    public String get(@QueryParam String itemId) { return itemId; }

                    // LIMIT + N (a parameter) and LIMIT_ + N (a method's rate limit)
                    @Get("/limit")
                    public String limit(@QueryParam int n) { return "" + n; }

                    @Get("/n")
                    @RateLimited(name = "n", requests = 1)
                    public String n() { return ""; }
                }
                """);
        Compilation c = Sources.compile(source);

        CompilationSubject.assertThat(c).succeededWithoutWarnings();
        String routes = generatedSource(c, "demo.SearchRoutes");
        assertThat(routes).contains(
                "Param<String> SEARCH_Q = Param.query(\"q\", ParamType.STRING);",
                "Param<String> SEARCH2_Q = Param.query(\"q\", ParamType.STRING);",
                "Param<Integer> SEARCH2_PAGE = Param.query(\"page\", ParamType.INT).withDefault(1);",
                ".params(SEARCH_Q)",
                ".params(SEARCH2_Q, SEARCH2_PAGE)",
                "Param<String> GET_ITEM_ID = Param.query(\"id\", ParamType.STRING);",
                "Param<String> GET_ITEM_ID2 = Param.query(\"itemId\", ParamType.STRING);",
                "-> controller.get(request.param(GET_ITEM_ID2));");
        assertThat(routes).containsPattern("RateLimit LIMIT_N\\d? = RateLimit.builder\\(\"n\"\\)")
                .containsPattern("Param<Integer> LIMIT_N\\d? = Param.query\\(\"n\", ParamType.INT\\)");
    }
}
