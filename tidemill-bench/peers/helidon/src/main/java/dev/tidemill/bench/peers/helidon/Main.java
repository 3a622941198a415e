package dev.tidemill.bench.peers.helidon;

import dev.tidemill.bench.common.PageData;
import dev.tidemill.bench.common.Scenario;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import jakarta.json.Json;
import jakarta.json.JsonBuilderFactory;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Map;

/**
 * Helidon SE 4 WebServer peer. Helidon 4 runs every request on a virtual thread and has no event
 * loop or I/O thread pool to size (each connection is read by its own virtual thread), so the I/O
 * thread argument is only recorded. Routing with a path parameter from Helidon's {@code HttpRouting},
 * JSON through Helidon's JSON-P media support (Parsson), no access log (Helidon has one only when
 * helidon-webserver-access-log is added, and it is not). Compression: Helidon's gzip
 * content-encoding module on the class path (helidon-http-encoding-gzip), which Helidon discovers
 * and applies when the request's {@code Accept-Encoding} allows (only the browser-mix scenario sends
 * one); Helidon has no brotli or zstd encoding.
 */
public final class Main {
    private static final JsonBuilderFactory JSON = Json.createBuilderFactory(Map.of());

    private Main() {}

    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        int ioThreads = Integer.parseInt(args[1]);
        WebServer server = WebServer.builder()
                .host("127.0.0.1")
                .port(port)
                // Helidon documents tcp-no-delay as a tuning option (default false); without it a
                // 16 KB page written as head + body waits on Nagle and the client's delayed ACK,
                // 40 ms a response (measured here: 1,400 req/s on the page at 17 % CPU)
                .connectionOptions(o -> o.tcpNoDelay(true))
                .routing(r -> r
                        .get(Scenario.PLAINTEXT_PATH, (req, res) ->
                                res.header(HeaderValues.CONTENT_TYPE_TEXT_PLAIN).send(Scenario.PLAINTEXT_BODY))
                        .get(Scenario.JSON_PATH, (req, res) ->
                                res.send(JSON.createObjectBuilder().add("message", "Hello, World!").build()))
                        .get(Scenario.USER_PATH_PREFIX + "{id}", Main::user)
                        .post(Scenario.VALIDATE_PATH, Main::validate)
                        .get(Scenario.PAGE_PATH, (req, res) ->
                                res.header(HeaderNames.CONTENT_TYPE, "text/html; charset=utf-8").send(PageData.render())))
                .build()
                .start();
        System.out.println("helidon listening on 127.0.0.1:" + server.port()
                + " (virtual thread per request; I/O thread argument " + ioThreads + " not applicable)");
    }

    private static void user(ServerRequest req, ServerResponse res) {
        long id;
        try {
            id = Long.parseLong(req.path().pathParameters().get("id"));
        } catch (NumberFormatException e) {
            res.status(Status.NOT_FOUND_404).send();
            return;
        }
        res.send(JSON.createObjectBuilder().add("id", id).add("name", "user-" + id).build());
    }

    private static void validate(ServerRequest req, ServerResponse res) {
        JsonObject in;
        try {
            in = req.content().as(JsonObject.class);
        } catch (JsonException | ClassCastException e) {
            res.status(Status.BAD_REQUEST_400).send();
            return;
        }
        JsonValue name = in.get("name");
        JsonValue age = in.get("age");
        if (!(name == null || name instanceof JsonString) || !(age instanceof JsonNumber n)
                || !Scenario.valid(name == null ? null : ((JsonString) name).getString(), n.longValue())) {
            res.status(Status.UNPROCESSABLE_CONTENT_422).send();
            return;
        }
        res.send(JSON.createObjectBuilder().add("name", name).add("age", n.longValue()).build());
    }
}
