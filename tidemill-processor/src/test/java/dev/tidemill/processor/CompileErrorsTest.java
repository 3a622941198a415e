package dev.tidemill.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import java.util.stream.Stream;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every mistake the DSL would refuse at start (and a few it would take silently) is a compile error
 * on the element it is about, saying what to write instead. Each case is one small source; the
 * assertion names the message and the one line the error must be on.
 */
class CompileErrorsTest {

    /**
     * @param name what the case shows
     * @param source the body of {@code demo/X.java} after the imports
     * @param message a part of the error's message, its advice included
     * @param line a text found on exactly one line of the source: where the error must be
     */
    record Case(String name, String source, String message, String line) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** @return a controller {@code X} at {@code /x} with these members */
    private static String controller(String members) {
        return "@Controller(\"/x\")\npublic class X {\n" + members.indent(4) + "}\n";
    }

    private static Case error(String name, String source, String message, String line) {
        return new Case(name, source, message, line);
    }

    static Stream<Case> cases() {
        return Stream.of(
                // ---- routes and paths
                error("two methods with one verb and shape", """
                        @Controller("/items")
                        public class X {
                            @Get("/{id}")
                            public String one(@PathParam String id) { return id; }

                            @Get("/{key}")
                            public String two(@PathParam String key) { return key; }
                        }
                        """, "route GET /items/{key} is taken already by X.one: change one path", "public String two("),
                error("two catch-alls of one shape", controller("""
                        @Get("/files/{*path}")
                        public String one(@PathParam String path) { return path; }

                        @Get("/files/{*rest}")
                        public String two(@PathParam String rest) { return rest; }
                        """), "route GET /x/files/{*rest} is taken already by X.one", "public String two("),
                error("a path variable without a parameter", controller("""
                        @Get("/{id}")
                        public String get() { return ""; }
                        """), "path variable {id} of /x/{id} has no parameter: add @PathParam(\"id\") String id", "@Get(\"/{id}\")"),
                error("@PathParam naming no variable", controller("""
                        @Get("/{id}")
                        public String get(
                                @PathParam("id") String id,
                                @PathParam("key") String key) { return id + key; }
                        """), "@PathParam \"key\" names no {key} in /x/{id}: add it to the path, or take it with @QueryParam",
                        "@PathParam(\"key\")"),
                error("a path not starting with '/'", controller("""
                        @Get("items")
                        public String get() { return ""; }
                        """), "path \"items\" does not start with '/': write \"/items\"", "@Get(\"items\")"),
                error("a segment that is half a variable", controller("""
                        @Get("/a{b}")
                        public String get(@PathParam String b) { return b; }
                        """), "segment \"a{b}\" of /x/a{b} is not a variable: a variable is a whole segment, {name} or a final {*name}",
                        "@Get(\"/a{b}\")"),
                error("a catch-all before the last segment", controller("""
                        @Get("/{*rest}/edit")
                        public String get(@PathParam String rest) { return rest; }
                        """), "the catch-all {*rest} of /x/{*rest}/edit is not the last segment: move it to the end", "@Get(\"/{*rest}/edit\")"),
                error("a variable named twice", controller("""
                        @Get("/{id}/{id}")
                        public String get(@PathParam String id) { return id; }
                        """), "path /x/{id}/{id} names {id} twice: rename one", "@Get(\"/{id}/{id}\")"),
                error("an empty segment", controller("""
                        @Get("/a//b")
                        public String get() { return ""; }
                        """), "path /x/a//b has an empty segment ('//'): remove it", "@Get(\"/a//b\")"),
                error("a '?' in a path", controller("""
                        @Get("/search?q")
                        public String get() { return ""; }
                        """), "segment \"search?q\" of /x/search?q has '?' or '#', which start a query or a fragment", "@Get(\"/search?q\")"),
                error("a broken percent-encoding in a path", controller("""
                        @Get("/a%2")
                        public String get() { return ""; }
                        """), "has a '%' not followed by two hex digits: write %25 for a '%' itself", "@Get(\"/a%2\")"),
                error("a prefix ending with '/'", """
                        @Controller("/items/")
                        public class X {
                            @Get("/a")
                            public String get() { return ""; }
                        }
                        """, "prefix \"/items/\" must start with '/' and not end with one, e.g. \"/items\"", "@Controller(\"/items/\")"),
                error("a prefix not starting with '/'", """
                        @Controller("items")
                        public class X {
                            @Get("/a")
                            public String get() { return ""; }
                        }
                        """, "prefix \"items\" must start with '/'", "@Controller(\"items\")"),

                // ---- parameters
                error("a parameter with no source", controller("""
                        @Get("/a")
                        public String get(
                                String q) { return q; }
                        """), "parameter q has no source: annotate it @PathParam, @QueryParam, @HeaderParam, @CookieParam, @Body, @Form "
                        + "or @MultipartForm, or take Request, Principal, Session, Multipart or Optional<ToolCall>", "String q)"),
                error("a parameter with two sources", controller("""
                        @Get("/a")
                        public String get(
                                @QueryParam @HeaderParam("X-Q") String q) { return q; }
                        """), "parameter q has 2 sources (@QueryParam, @HeaderParam): keep one", "@QueryParam @HeaderParam(\"X-Q\") String q"),
                error("a parameter type Tidemill cannot coerce", controller("""
                        @Get("/a")
                        public String get(
                                @QueryParam Object x) { return ""; }
                        """), "@QueryParam x has type java.lang.Object, which Tidemill cannot coerce: take one of String, int, long, "
                        + "double, boolean (or their boxes), UUID, LocalDate, OffsetDateTime, Instant or an enum, an Optional or a List of one",
                        "@QueryParam Object x"),
                error("an Optional path variable", controller("""
                        @Get("/{id}")
                        public String get(
                                @PathParam Optional<String> id) { return ""; }
                        """), "@PathParam id has type java.util.Optional<java.lang.String>, which Tidemill cannot coerce: "
                        + "a path variable is always there: take the value itself", "@PathParam Optional<String> id"),
                error("a List header", controller("""
                        @Get("/a")
                        public String get(
                                @HeaderParam("X-Tag") List<String> tags) { return ""; }
                        """), "only a query key repeats: take one value, or Optional", "@HeaderParam(\"X-Tag\") List<String> tags"),
                error("a catch-all taken as an int", controller("""
                        @Get("/files/{*path}")
                        public String get(
                                @PathParam int path) { return ""; }
                        """), "the catch-all {*path} is the rest of the path: take it as a String", "@PathParam int path"),
                error("a query key taken twice", controller("""
                        @Get("/a")
                        public String get(
                                @QueryParam("q") String first,
                                @QueryParam("q") String second) { return first + second; }
                        """), "query parameter \"q\" is taken twice: take it once", "@QueryParam(\"q\") String second"),
                error("a header taken twice in another case", controller("""
                        @Get("/a")
                        public String get(
                                @HeaderParam("X-Tenant") String first,
                                @HeaderParam("x-tenant") String second) { return first + second; }
                        """), "header parameter \"x-tenant\" is taken twice: take it once", "@HeaderParam(\"x-tenant\")"),
                error("a header name that is no token", controller("""
                        @Get("/a")
                        public String get(
                                @HeaderParam("X Request Id") String id) { return id; }
                        """), "\"X Request Id\" is not a header name: write the header as sent, e.g. X-Request-Id", "@HeaderParam(\"X Request Id\")"),
                error("a cookie name that is no token", controller("""
                        @Get("/a")
                        public String get(
                                @CookieParam("my session") String session) { return session; }
                        """), "\"my session\" is not a cookie name", "@CookieParam(\"my session\")"),
                error("a default that is no int", controller("""
                        @Get("/a")
                        public String get(
                                @QueryParam(defaultValue = "ten") int limit) { return ""; }
                        """), "@QueryParam limit: default value \"ten\" is not a valid int: write one that is",
                        "@QueryParam(defaultValue = \"ten\") int limit"),
                error("a default that is no constant of the enum", controller("""
                        public enum Color { RED, GREEN }

                        @Get("/a")
                        public String get(
                                @QueryParam(defaultValue = "PURPLE") Color color) { return ""; }
                        """), "@QueryParam color: default value \"PURPLE\" is no constant of Color: name one of its constants",
                        "@QueryParam(defaultValue = \"PURPLE\")"),
                error("a default that is no LocalDate", controller("""
                        @Get("/a")
                        public String get(
                                @HeaderParam(value = "X-Day", defaultValue = "yesterday") java.time.LocalDate day) { return ""; }
                        """), "@HeaderParam day: default value \"yesterday\" is not a valid java.time.LocalDate: write one that is",
                        "defaultValue = \"yesterday\""),
                error("a default on an Optional", controller("""
                        @Get("/a")
                        public String get(
                                @QueryParam(defaultValue = "1") Optional<Integer> page) { return ""; }
                        """), "@QueryParam page is an Optional, empty when absent, so it takes no defaultValue: remove it, or take the plain type",
                        "Optional<Integer> page"),
                error("a default on a List", controller("""
                        @Get("/a")
                        public String get(
                                @QueryParam(defaultValue = "a") List<String> tag) { return ""; }
                        """), "@QueryParam tag is a List, empty when absent, so it takes no defaultValue", "List<String> tag"),
                error("a Tidemill annotation on a parameter of a method that is no route", controller("""
                        @Get("/a")
                        public String get() { return ""; }

                        public String helper(
                                @QueryParam String q) { return q; }
                        """), "@QueryParam on parameter q of helper, which is no route: only a route method's parameters are bound",
                        "@QueryParam String q"),

                // ---- bodies
                error("two bodies", controller("""
                        public record Item(String name) {}

                        @Post("/a")
                        public String post(
                                @Body Item first,
                                @Form Item second) { return ""; }
                        """), "a request has one body, and post takes two: keep one, and put what else it needs in that record",
                        "@Form Item second"),
                error("a body on GET", controller("""
                        public record Item(String name) {}

                        @Get("/a")
                        public String get(
                                @Body Item item) { return ""; }
                        """), "a GET request carries no body: use @Post, @Put or @Patch, or take its inputs as @QueryParam", "@Body Item item"),
                error("a String body", controller("""
                        @Post("/a")
                        public String post(
                                @Body String text) { return text; }
                        """), "@Body text has type java.lang.String: a body binds to a record or bean of yours", "@Body String text"),
                error("a List body", controller("""
                        public record Item(String name) {}

                        @Post("/a")
                        public String post(
                                @Body List<Item> items) { return ""; }
                        """), "@Body items has type java.util.List<demo.X.Item>: a body binds to a record or bean of yours "
                        + "(no generics, strings or collections): wrap it in a record", "@Body List<Item> items"),
                error("a generic body", controller("""
                        public record Item(String name) {}
                        public record Box<T>(T value) {}

                        @Put("/a")
                        public String put(
                                @Body Box<Item> box) { return ""; }
                        """), "@Body box has type demo.X.Box<demo.X.Item>: a body binds to a record or bean of yours (no generics",
                        "@Body Box<Item> box"),

                // ---- methods
                error("a method that is not public", controller("""
                        @Get("/a")
                        String hidden() { return ""; }
                        """), "route method hidden is not public: the generated routes call it from their own class; make it public",
                        "@Get(\"/a\")"),
                error("a static method", controller("""
                        @Get("/a")
                        public static String fixed() { return ""; }
                        """), "route method fixed is static: a route runs on the controller object the app was given; make it an instance method",
                        "@Get(\"/a\")"),
                error("a generic method", controller("""
                        @Get("/a")
                        public <T> String generic() { return ""; }
                        """), "route method generic is generic: a route's types are fixed; remove <T>", "@Get(\"/a\")"),
                error("two route annotations on one method", controller("""
                        @Get("/a")
                        @Post("/a")
                        public String both() { return ""; }
                        """), "both has 2 route annotations (@Get, @Post): one method is one route; write a method for each", "public String both("),
                error("@Tool without a route annotation", controller("""
                        @Get("/a")
                        public String get() { return ""; }

                        @Tool(name = "helper", description = "Helps.")
                        public String helper() { return ""; }
                        """), "helper has @Tool but no @Get, @Post, @Put, @Patch or @Delete: add the route annotation, or remove it",
                        "@Tool(name = \"helper\""),
                error("a route annotation in a class without @Controller", """
                        public class X {
                            @Get("/a")
                            public String get() { return ""; }
                        }
                        """, "@Get on get, but X is not a @Controller: annotate the class @Controller(\"/prefix\") so its routes are generated",
                        "@Get(\"/a\")"),

                // ---- classes
                error("a class that is not public", """
                        @Controller("/x")
                        class X {
                            @Get("/a")
                            public String get() { return ""; }
                        }
                        """, "controller X is not public: the generated routes and index refer to it from their own classes; make it public",
                        "@Controller(\"/x\")"),
                error("an abstract class", """
                        @Controller("/x")
                        public abstract class X {
                            @Get("/a")
                            public String get() { return ""; }
                        }
                        """, "controller X is abstract: the app gives an object of it; make it concrete", "@Controller(\"/x\")"),
                error("a generic class", """
                        @Controller("/x")
                        public class X<T> {
                            @Get("/a")
                            public String get() { return ""; }
                        }
                        """, "controller X is generic: a route's types are fixed; remove <T>", "@Controller(\"/x\")"),
                error("an inner class", """
                        public class X {
                            @Controller("/x")
                            public class Inner {
                                @Get("/a")
                                public String get() { return ""; }
                            }
                        }
                        """, "controller Inner is an inner class: make it static (or top-level)", "@Controller(\"/x\")"),
                error("a class nested in one that is not public", """
                        public class X {
                            static class Hidden {
                                @Controller("/x")
                                public static class Inner {
                                    @Get("/a")
                                    public String get() { return ""; }
                                }
                            }
                        }
                        """, "controller Inner is nested in Hidden, which is not public: make it public, or move the controller out",
                        "@Controller(\"/x\")"),
                error("@Controller on an interface", """
                        @Controller("/x")
                        public interface X {
                            @Get("/a")
                            String get();
                        }
                        """, "@Controller goes on a class; X is interface: write a class the app constructs", "@Controller(\"/x\")"),
                error("@Controller on an enum", """
                        @Controller("/x")
                        public enum X {
                            ONE
                        }
                        """, "@Controller goes on a class; X is enum: write a class the app constructs", "@Controller(\"/x\")"),
                error("a controller without a route", """
                        @Controller("/x")
                        public class X {
                            public String helper() { return ""; }
                        }
                        """, "X is a @Controller without a route: annotate a public method with @Get, @Post, @Put, @Patch or @Delete, "
                        + "or remove @Controller", "@Controller(\"/x\")"),
                error("a class annotation on a class without @Controller", """
                        @Requires(scopes = "items:read")
                        public class X {
                            public String helper() { return ""; }
                        }
                        """, "@Requires on X, which is not a @Controller, so it applies to nothing: annotate the class @Controller(\"/prefix\"), "
                        + "or remove @Requires", "@Requires(scopes = \"items:read\")"),
                error("@Operation(summary) on the class", """
                        @Controller("/x")
                        @Operation(summary = "Items")
                        public class X {
                            @Get("/a")
                            public String get() { return ""; }
                        }
                        """, "@Operation(summary) on a class would name every route alike: put it on the methods (only tags apply to a class)",
                        "@Operation(summary = \"Items\")"),
                error("a blank tag on the class", """
                        @Controller("/x")
                        @Operation(tags = " ")
                        public class X {
                            @Get("/a")
                            public String get() { return ""; }

                            @Get("/b")
                            public String other() { return ""; }
                        }
                        """, "a tag in @Operation(tags) of X is blank: name it, or remove it", "@Operation(tags = \" \")"),

                // ---- modes
                error("@Mode(IO) on a method that throws InterruptedException", controller("""
                        @Get("/a")
                        @Mode(ExecutionMode.IO)
                        public String waits() throws InterruptedException { return ""; }
                        """), "waits declares throws InterruptedException, so it blocks, and mode IO runs it on the connection's event loop, "
                        + "which a blocked call would stall: use @Mode(ExecutionMode.VIRTUAL)", "@Mode(ExecutionMode.IO)"),
                error("@Mode(LOOP) on a method that throws InterruptedException", controller("""
                        @Get("/a")
                        @Mode(ExecutionMode.LOOP)
                        public String waits() throws InterruptedException { return ""; }
                        """), "mode LOOP runs it on a worker loop shared with other requests, which a blocked call would stall: "
                        + "use @Mode(ExecutionMode.VIRTUAL)", "@Mode(ExecutionMode.LOOP)"),
                error("class-level @Mode(LOOP) and a method that throws InterruptedException", """
                        @Controller("/x")
                        @Mode(ExecutionMode.LOOP)
                        public class X {
                            @Get("/a")
                            public String waits() throws InterruptedException { return ""; }
                        }
                        """, "waits declares throws InterruptedException, so it blocks, and mode LOOP runs it on a worker loop",
                        "@Mode(ExecutionMode.LOOP)"),
                error("@Mode(LOOP) on a method reading a Multipart", controller("""
                        @Post("/a")
                        @Mode(ExecutionMode.LOOP)
                        public String upload(dev.tidemill.Multipart parts) { return ""; }
                        """), "upload reads a Multipart part by part, which blocks, and mode LOOP", "@Mode(ExecutionMode.LOOP)"),

                // ---- tools
                error("a tool without an auth decision", controller("""
                        @Get("/a")
                        @Tool(name = "list_items", description = "Lists the items.")
                        public String list() { return ""; }
                        """), "tool list_items has no auth decision: add @Requires(...) or @Anonymous to list or its class",
                        "@Tool(name = \"list_items\""),
                error("an invalid tool name", controller("""
                        @Get("/a")
                        @Anonymous
                        @Tool(name = "list items", description = "Lists the items.")
                        public String list() { return ""; }
                        """), "tool name \"list items\" is not 1 to 128 of A-Z, a-z, 0-9, '_', '-' and '.': rename it", "@Tool(name = \"list items\""),
                error("a blank tool description", controller("""
                        @Get("/a")
                        @Anonymous
                        @Tool(name = "list", description = " ")
                        public String list() { return ""; }
                        """), "tool list has no description: say what it does, for the agent", "@Tool(name = \"list\""),
                error("a tool on an SSE handler", controller("""
                        @Get("/events")
                        @Anonymous
                        @Tool(name = "events", description = "Streams the events.")
                        public Response.SseHandler events() { return stream -> { }; }
                        """), "a tool answers once; events opens a stream: mark another route as the tool", "@Tool(name = \"events\""),

                // ---- answers
                error("@Status(404)", controller("""
                        @Get("/a")
                        @Status(404)
                        public String get() { return ""; }
                        """), "@Status(404) is not a success: write a 2xx status, and throw a ProblemException for the others", "@Status(404)"),
                error("@Status on a Response-returning method", controller("""
                        @Post("/a")
                        @Status(201)
                        public Response create() { return Response.ok(); }
                        """), "a Response carries its own status: set it there, and describe the body with @Returns", "@Status(201)"),
                error("@Status on an SSE handler", controller("""
                        @Get("/a")
                        @Status(200)
                        public Response.SseHandler events() { return stream -> { }; }
                        """), "a stream or WebSocket answers with its own status: remove @Status", "@Status(200)"),
                error("@Status on Html", controller("""
                        @Get("/a")
                        @Status(201)
                        public dev.tidemill.html.Html page() { return dev.tidemill.html.Html.EMPTY; }
                        """), "@Status needs a Response for Html: return Response.status(...).html(...)", "@Status(201)"),
                error("@Returns on a method not returning a Response", controller("""
                        public record Item(String name) {}

                        @Get("/a")
                        @Returns(Item.class)
                        public Item get() { return new Item("a"); }
                        """), "@Returns describes a Response's body; get is described by its return type: remove it", "@Returns(Item.class)"),
                error("@Returns of a failure status", controller("""
                        public record Item(String name) {}

                        @Get("/a")
                        @Returns(value = Item.class, status = 404)
                        public Response get() { return Response.ok(); }
                        """), "@Returns status 404 is not a success: write the 2xx status of the body it describes",
                        "@Returns(value = Item.class, status = 404)"),
                error("@Produces on a record-returning method", controller("""
                        public record Item(String name) {}

                        @Get("/a")
                        @Produces("text/csv")
                        public Item get() { return new Item("a"); }
                        """), "@Produces names the media type of a String or byte[] answer; get returns demo.X.Item: return a Response to choose its type",
                        "@Produces(\"text/csv\")"),
                error("an invalid @Produces media type", controller("""
                        @Get("/a")
                        @Produces("csv")
                        public String get() { return ""; }
                        """), "\"csv\" is not a media type: write type/subtype[; name=value], e.g. text/csv; charset=utf-8", "@Produces(\"csv\")"),
                error("a @Produces parameter without a value", controller("""
                        @Get("/a")
                        @Produces("text/csv; utf-8")
                        public String get() { return ""; }
                        """), "\"text/csv; utf-8\" is not a media type: write type/subtype[; name=value]", "@Produces(\"text/csv; utf-8\")"),
                error("returning an Optional", controller("""
                        public record Item(String name) {}

                        @Get("/a")
                        public Optional<Item> find() { return Optional.empty(); }
                        """), "route method find returns Optional, which has no answer of its own: return the value "
                        + "(throw a ProblemException with 404 when there is none)", "public Optional<Item> find()"),
                error("returning a Stream", controller("""
                        @Get("/a")
                        public java.util.stream.Stream<String> all() { return java.util.stream.Stream.of(); }
                        """), "route method all returns Stream, which has no answer of its own: return the value collected in a List",
                        "public java.util.stream.Stream<String> all()"),
                error("returning a Future", controller("""
                        @Get("/a")
                        public java.util.concurrent.Future<String> later() { return null; }
                        """), "route method later returns a Future, which cannot be awaited without blocking: return a CompletionStage (CompletableFuture)",
                        "public java.util.concurrent.Future<String> later()"),
                error("returning a CompletionStage of a handler", controller("""
                        @Get("/a")
                        public java.util.concurrent.CompletionStage<Response.SseHandler> later() { return null; }
                        """), "route method later returns a CompletionStage of a stream handler: return the handler itself",
                        "public java.util.concurrent.CompletionStage<Response.SseHandler> later()"),

                // ---- who may call
                error("@Requires and @Anonymous on a method", controller("""
                        @Get("/a")
                        @Requires
                        @Anonymous
                        public String both() { return ""; }
                        """), "both is both @Requires and @Anonymous: keep the one you mean", "@Anonymous"),
                error("@Requires and @Anonymous on the class", """
                        @Controller("/x")
                        @Requires
                        @Anonymous(identify = true)
                        public class X {
                            @Get("/a")
                            public String get() { return ""; }
                        }
                        """, "X is both @Requires and @Anonymous: keep the one you mean", "@Anonymous(identify = true)"),
                error("a Principal parameter without @Requires", controller("""
                        @Get("/a")
                        public String me(
                                Principal caller) { return ""; }
                        """), "parameter caller is the caller's Principal, but me authenticates nobody: add @Requires "
                        + "(or @Anonymous(identify = true)) to it or its class", "Principal caller)"),
                error("an Optional<Principal> parameter on an @Anonymous route that identifies nobody", controller("""
                        @Get("/a")
                        @Anonymous
                        public String me(
                                Optional<Principal> caller) { return ""; }
                        """), "parameter caller is the caller's Principal, but me authenticates nobody", "Optional<Principal> caller)"),
                error("a blank scope", controller("""
                        @Get("/a")
                        @Requires(scopes = " ")
                        public String get() { return ""; }
                        """), "a scope in @Requires is blank: name it, or remove it", "@Requires(scopes = \" \")"),
                error("two scopes in one string", controller("""
                        @Get("/a")
                        @Requires(scopes = "items:read items:write")
                        public String get() { return ""; }
                        """), "scope \"items:read items:write\" in @Requires is not one scope token", "@Requires(scopes = \"items:read items:write\")"),
                error("a blank role", controller("""
                        @Get("/a")
                        @Requires(roles = "")
                        public String get() { return ""; }
                        """), "a role in @Requires is blank: name it, or remove it", "@Requires(roles = \"\")"),
                error("@RateLimited(requests = 0)", controller("""
                        @Get("/a")
                        @RateLimited(name = "items", requests = 0)
                        public String get() { return ""; }
                        """), "@RateLimited(requests = 0) lets nothing through: allow at least 1", "@RateLimited(name = \"items\", requests = 0)"),
                error("a rate limit name with a space", controller("""
                        @Get("/a")
                        @RateLimited(name = "per user", requests = 5)
                        public String get() { return ""; }
                        """), "@RateLimited name \"per user\" is not 1 to 64 of letters, digits, '-', '_', '.' and ':'", "@RateLimited(name = \"per user\""),
                error("a class rate limit longer than a day", """
                        @Controller("/x")
                        @RateLimited(name = "daily", requests = 5, perSeconds = 172800)
                        public class X {
                            @Get("/a")
                            public String get() { return ""; }
                        }
                        """, "@RateLimited(perSeconds = 172800) is longer than a day: write at most 86400", "@RateLimited(name = \"daily\""),

                // ---- documentation
                error("an operationId that is no identifier", controller("""
                        @Get("/a")
                        @Operation(operationId = "list items")
                        public String get() { return ""; }
                        """), "operationId \"list items\" is not letters, digits, '_', '.' and '-': rename it", "@Operation(operationId = \"list items\")"),
                error("a blank tag on a method", controller("""
                        @Get("/a")
                        @Operation(tags = {"items", " "})
                        public String get() { return ""; }
                        """), "a tag in @Operation(tags) is blank: name it, or remove it", "@Operation(tags = {\"items\", \" \"})"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void isACompileErrorOnTheElementItIsAbout(Case c) {
        JavaFileObject file = Sources.demo("X", c.source());
        Compilation compilation = Sources.compile(file);

        assertThat(compilation).failed();
        assertThat(compilation).hadErrorContaining(c.message()).inFile(file).onLineContaining(c.line());
    }

    @Test
    void aRouteTakenByAnotherControllerOfTheCompilationIsAnErrorOnTheSecond() {
        JavaFileObject first = Sources.demo("Items", """
                @Controller("/items")
                public class Items {
                    @Get("/{id}")
                    public String get(@PathParam String id) { return id; }
                }
                """);
        JavaFileObject second = Sources.demo("Things", """
                @Controller("")
                public class Things {
                    @Get("/items/{key}")
                    public String find(@PathParam String key) { return key; }
                }
                """);
        Compilation compilation = Sources.compile(first, second);

        assertThat(compilation).hadErrorCount(1);
        assertThat(compilation).hadErrorContaining("route GET /items/{key} is taken already by Items.get: change one path")
                .inFile(second).onLineContaining("public String find(");
    }

    @Test
    void theSamePathWithAnotherVerbIsNoDuplicate() {
        JavaFileObject file = Sources.demo("X", controller("""
                @Get("/{id}")
                public String get(@PathParam String id) { return id; }

                @Delete("/{key}")
                public void delete(@PathParam String key) { }
                """));

        assertThat(Sources.compile(file)).succeededWithoutWarnings();
    }

    @Test
    void aControllerWithErrorsStopsNeitherTheOthersErrorsNorItsOwnOtherErrors() {
        JavaFileObject first = Sources.demo("A", """
                @Controller("/a")
                public class A {
                    @Get("/{id}")
                    public String get() { return ""; }

                    @Get("/b")
                    @Status(99)
                    public String status() { return ""; }
                }
                """);
        JavaFileObject second = Sources.demo("B", """
                @Controller("/b")
                public class B {
                    @Post("/c")
                    public String post(String loose) { return loose; }
                }
                """);
        Compilation compilation = Sources.compile(first, second);

        assertThat(compilation).hadErrorCount(3);
        assertThat(compilation).hadErrorContaining("path variable {id} of /a/{id} has no parameter").inFile(first).onLineContaining("@Get(\"/{id}\")");
        assertThat(compilation).hadErrorContaining("@Status(99) is not a success").inFile(first).onLineContaining("@Status(99)");
        assertThat(compilation).hadErrorContaining("parameter loose has no source").inFile(second).onLineContaining("String loose");
    }
}
