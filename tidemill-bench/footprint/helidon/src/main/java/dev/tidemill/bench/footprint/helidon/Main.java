package dev.tidemill.bench.footprint.helidon;

import io.helidon.webserver.WebServer;

/** Helidon SE 4's hello world: {@code GET /hello}. Argument: the port. */
public final class Main {
    private Main() {}

    /** @param args the port */
    public static void main(String[] args) {
        WebServer.builder()
                .host("127.0.0.1")
                .port(Integer.parseInt(args[0]))
                .routing(r -> r.get("/hello", (req, res) -> res.send("Hello, World!")))
                .build()
                .start();
    }
}
