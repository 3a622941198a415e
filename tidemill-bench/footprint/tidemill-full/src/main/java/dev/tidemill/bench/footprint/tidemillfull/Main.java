package dev.tidemill.bench.footprint.tidemillfull;

import dev.tidemill.Config;
import dev.tidemill.Tidemill;

/** Tidemill's hello world with every optional integration present (the code is the same): {@code GET /hello}. Argument: the port. */
public final class Main {
    private Main() {}

    /** @param args the port */
    public static void main(String[] args) {
        Tidemill app = Tidemill.create(Config.builder().host("127.0.0.1").port(Integer.parseInt(args[0])).build());
        app.get("/hello", req -> "Hello, World!");
        app.run();
    }
}
