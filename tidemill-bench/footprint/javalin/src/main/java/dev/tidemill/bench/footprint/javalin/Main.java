package dev.tidemill.bench.footprint.javalin;

import io.javalin.Javalin;

/** Javalin 7's hello world: {@code GET /hello}. Argument: the port. */
public final class Main {
    private Main() {}

    /** @param args the port */
    public static void main(String[] args) {
        Javalin.create(config -> {
            config.jetty.host = "127.0.0.1";
            config.jetty.port = Integer.parseInt(args[0]);
            config.routes.get("/hello", ctx -> ctx.result("Hello, World!"));
        }).start();
    }
}
