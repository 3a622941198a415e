package dev.tidemill.bench.peers.undertow;

import dev.tidemill.bench.common.PageData;
import dev.tidemill.bench.common.Scenario;
import io.undertow.Handlers;
import io.undertow.Undertow;
import io.undertow.server.handlers.encoding.ContentEncodingRepository;
import io.undertow.server.handlers.encoding.DeflateEncodingProvider;
import io.undertow.server.handlers.encoding.EncodingHandler;
import io.undertow.server.handlers.encoding.GzipEncodingProvider;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.PathTemplateMatch;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Undertow peer. As Undertow's docs describe for non-blocking work: the handlers run on the XNIO I/O
 * threads (as many as the I/O thread argument; nothing here blocks, so nothing is dispatched to the
 * worker pool, which keeps Undertow's default size), the POST body is read with the non-blocking
 * {@code Receiver}, and a {@code RoutingHandler} with a path template gives the path parameter. No
 * access log (Undertow logs requests only through an AccessLogHandler, and none is installed).
 * Jackson 3 serialises the JSON.
 */
public final class Main {
    static final JsonMapper JSON = JsonMapper.builder().build();

    record Message(String message) {}

    record User(long id, String name) {}

    record Person(String name, Long age) {}

    private Main() {}

    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        int ioThreads = Integer.parseInt(args[1]);
        Undertow server = Undertow.builder()
                .setIoThreads(ioThreads)
                .addHttpListener(port, "127.0.0.1")
                .setHandler(new EncodingHandler(new ContentEncodingRepository()
                        // Undertow's documented setup: gzip preferred over deflate, no size threshold
                        .addEncodingHandler("gzip", new GzipEncodingProvider(), 100)
                        .addEncodingHandler("deflate", new DeflateEncodingProvider(), 50))
                        .setNext(Handlers.routing()
                        .get(Scenario.PLAINTEXT_PATH, ex -> send(ex, "text/plain", Scenario.utf8(Scenario.PLAINTEXT_BODY)))
                        .get(Scenario.JSON_PATH, ex ->
                                send(ex, "application/json", JSON.writeValueAsBytes(new Message("Hello, World!"))))
                        .get(Scenario.USER_PATH_PREFIX + "{id}", Main::user)
                        .post(Scenario.VALIDATE_PATH, ex ->
                                ex.getRequestReceiver().receiveFullBytes((e, body) -> validate(e, body)))
                        .get(Scenario.PAGE_PATH, ex ->
                                send(ex, "text/html; charset=utf-8", PageData.render().getBytes(StandardCharsets.UTF_8)))))
                .build();
        server.start();
        System.out.println("undertow listening on 127.0.0.1:" + port + " (" + ioThreads + " I/O threads)");
    }

    private static void send(HttpServerExchange ex, String contentType, byte[] body) {
        ex.getResponseHeaders().put(Headers.CONTENT_TYPE, contentType);
        ex.getResponseSender().send(ByteBuffer.wrap(body));
    }

    private static void status(HttpServerExchange ex, int status) {
        ex.setStatusCode(status);
        ex.endExchange();
    }

    private static void user(HttpServerExchange ex) {
        long id;
        try {
            id = Long.parseLong(ex.getAttachment(PathTemplateMatch.ATTACHMENT_KEY).getParameters().get("id"));
        } catch (NumberFormatException e) {
            status(ex, 404);
            return;
        }
        send(ex, "application/json", JSON.writeValueAsBytes(new User(id, "user-" + id)));
    }

    private static void validate(HttpServerExchange ex, byte[] body) {
        Person p;
        try {
            p = JSON.readValue(body, Person.class);
        } catch (JacksonException e) {
            status(ex, 400);
            return;
        }
        if (p == null || p.age() == null || !Scenario.valid(p.name(), p.age())) {
            status(ex, 422);
            return;
        }
        send(ex, "application/json", JSON.writeValueAsBytes(p));
    }
}
