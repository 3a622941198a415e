package dev.tidemill.bench.peers.jetty;

import dev.tidemill.bench.common.PageData;
import dev.tidemill.bench.common.Scenario;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.pathmap.PathSpec;
import org.eclipse.jetty.http.pathmap.UriTemplatePathSpec;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.gzip.GzipHandler;
import org.eclipse.jetty.server.handler.PathMappingsHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Promise;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Jetty 12 peer on the core {@link Handler} API (no servlet layer): a {@link PathMappingsHandler}
 * routes to non-blocking handlers ({@link Handler.Abstract.NonBlocking}, so Jetty may run them on the
 * selector thread), a {@link UriTemplatePathSpec} gives the path parameter and the POST body is read
 * asynchronously. The connector has as many selectors as the I/O thread argument and no dedicated
 * acceptor thread (the selectors accept); the thread pool is Jetty's default
 * {@code QueuedThreadPool}. No request log (Jetty has none unless a RequestLog is set). Jackson 3
 * serialises the JSON.
 */
public final class Main {
    static final JsonMapper JSON = JsonMapper.builder().build();
    private static final UriTemplatePathSpec USER = new UriTemplatePathSpec(Scenario.USER_PATH_PREFIX + "{id}");

    record Message(String message) {}

    record User(long id, String name) {}

    record Person(String name, Long age) {}

    private Main() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int ioThreads = Integer.parseInt(args[1]);
        Server server = PlainServer.of(args);

        PathMappingsHandler routes = new PathMappingsHandler();
        routes.addMapping(PathSpec.from(Scenario.PLAINTEXT_PATH), get((req, res, cb) ->
                send(res, cb, "text/plain", Scenario.utf8(Scenario.PLAINTEXT_BODY))));
        routes.addMapping(PathSpec.from(Scenario.JSON_PATH), get((req, res, cb) ->
                send(res, cb, "application/json", JSON.writeValueAsBytes(new Message("Hello, World!")))));
        routes.addMapping(USER, get(Main::user));
        routes.addMapping(PathSpec.from(Scenario.PAGE_PATH), get((req, res, cb) ->
                send(res, cb, "text/html; charset=utf-8", PageData.render().getBytes(StandardCharsets.UTF_8))));
        routes.addMapping(PathSpec.from(Scenario.VALIDATE_PATH), new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                if (!HttpMethod.POST.is(request.getMethod())) return false;
                Content.Source.asString(request, StandardCharsets.UTF_8,
                        Promise.from(body -> validate(body, response, callback), callback::failed));
                return true;
            }
        });
        // Compression: jetty-server's GzipHandler with its defaults (gzip when the request accepts it, which
        // only the browser-mix scenario sends). Jetty 12.1's brotli and zstd live in jetty-compression-*
        // modules this peer does not add.
        GzipHandler gzip = new GzipHandler();
        gzip.setHandler(routes);
        server.setHandler(gzip);
        server.start();
        System.out.println("jetty listening on 127.0.0.1:" + port + " (" + ioThreads + " selectors)");
    }

    @FunctionalInterface
    interface Get {
        void handle(Request request, Response response, Callback callback) throws Exception;
    }

    private static Handler get(Get get) {
        return new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                if (!HttpMethod.GET.is(request.getMethod())) return false;
                get.handle(request, response, callback);
                return true;
            }
        };
    }

    private static void send(Response response, Callback callback, String contentType, byte[] body) {
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
        response.write(true, ByteBuffer.wrap(body), callback);
    }

    private static void status(Response response, Callback callback, int status) {
        response.setStatus(status);
        response.write(true, null, callback);
    }

    private static void user(Request request, Response response, Callback callback) {
        long id;
        try {
            id = Long.parseLong(USER.getPathParams(request.getHttpURI().getCanonicalPath()).get("id"));
        } catch (NumberFormatException e) {
            status(response, callback, 404);
            return;
        }
        send(response, callback, "application/json", JSON.writeValueAsBytes(new User(id, "user-" + id)));
    }

    private static void validate(String body, Response response, Callback callback) {
        Person p;
        try {
            p = JSON.readValue(body, Person.class);
        } catch (JacksonException e) {
            status(response, callback, 400);
            return;
        }
        if (p == null || p.age() == null || !Scenario.valid(p.name(), p.age())) {
            status(response, callback, 422);
            return;
        }
        send(response, callback, "application/json", JSON.writeValueAsBytes(p));
    }
}
