package dev.tidemill.bench.peers.jdkhttpserver;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.tidemill.bench.common.PageData;
import dev.tidemill.bench.common.Scenario;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JDK's built-in {@code com.sun.net.httpserver} with a virtual-thread-per-task executor, one
 * context per endpoint. The JDK server has a single dispatcher thread that does all socket I/O
 * (accept and select); its count cannot be configured, so the I/O thread argument is only recorded.
 * No access log (the JDK server logs nothing per request unless its System.Logger is set to a debug
 * level). Jackson 3 serialises the JSON.
 */
public final class Main {
    static final JsonMapper JSON = JsonMapper.builder().build();

    record Message(String message) {}

    record User(long id, String name) {}

    record Person(String name, Long age) {}

    private Main() {}

    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(args[0]);
        int ioThreads = Integer.parseInt(args[1]);
        // The jdk.httpserver module documents sun.net.httpserver.nodelay (default false); without it
        // every response bigger than one segment waits on Nagle and the client's delayed ACK
        // (measured here: the 16 KB page at 1,400 req/s, 40 ms each).
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 1024);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext(Scenario.PLAINTEXT_PATH, get(Scenario.PLAINTEXT_PATH, ex ->
                send(ex, "text/plain", Scenario.utf8(Scenario.PLAINTEXT_BODY))));
        server.createContext(Scenario.JSON_PATH, get(Scenario.JSON_PATH, ex ->
                send(ex, "application/json", JSON.writeValueAsBytes(new Message("Hello, World!")))));
        server.createContext(Scenario.PAGE_PATH, get(Scenario.PAGE_PATH, ex ->
                send(ex, "text/html; charset=utf-8", PageData.render().getBytes(StandardCharsets.UTF_8))));
        server.createContext(Scenario.USER_PATH_PREFIX, Main::user);
        server.createContext(Scenario.VALIDATE_PATH, Main::validate);
        server.start();
        System.out.println("jdk-httpserver listening on 127.0.0.1:" + port
                + " (one dispatcher thread, virtual thread per exchange; I/O thread argument " + ioThreads + " not applicable)");
    }

    private static HttpHandler get(String path, HttpHandler handler) {
        return ex -> {
            if (!"GET".equals(ex.getRequestMethod()) || !path.equals(ex.getRequestURI().getPath())) {
                status(ex, 404);
                return;
            }
            handler.handle(ex);
        };
    }

    private static void send(HttpExchange ex, String contentType, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", contentType);
        ex.sendResponseHeaders(200, body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
    }

    private static void status(HttpExchange ex, int status) throws IOException {
        // close() drains an unread request body, so the connection stays usable
        ex.sendResponseHeaders(status, -1);
        ex.close();
    }

    private static void user(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath();
        long id;
        try {
            if (!"GET".equals(ex.getRequestMethod())) throw new NumberFormatException();
            id = Long.parseLong(path.substring(Scenario.USER_PATH_PREFIX.length()));
        } catch (NumberFormatException e) {
            status(ex, 404);
            return;
        }
        send(ex, "application/json", JSON.writeValueAsBytes(new User(id, "user-" + id)));
    }

    private static void validate(HttpExchange ex) throws IOException {
        if (!"POST".equals(ex.getRequestMethod()) || !Scenario.VALIDATE_PATH.equals(ex.getRequestURI().getPath())) {
            status(ex, 404);
            return;
        }
        byte[] body;
        try (InputStream in = ex.getRequestBody()) {
            body = in.readAllBytes();
        }
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
