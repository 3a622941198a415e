package dev.tidemill.tests.integrations;

import dev.tidemill.Config;
import dev.tidemill.Tidemill;

/**
 * A hello-world app for {@link ChildApp}'s child JVMs: {@code GET /hello}, a 4 KiB
 * {@code GET /page} worth compressing, {@code POST /echo}, {@code GET /topic} (the first message a topic kept) and, when started with the argument {@code constrained}, a
 * {@code POST /people} whose declared body type carries Bean Validation constraints. Configured by
 * {@code TIDEMILL_*} variables; it prints {@code listening on PORT} once it serves.
 */
public final class MinimalApp {
    private MinimalApp() {}

    /** A body type with a constraint; without Hibernate Validator its route must not start. */
    record Person(@jakarta.validation.constraints.NotBlank String name) {}

    /** @param args {@code constrained} adds the route with a constrained body */
    public static void main(String[] args) {
        Tidemill app = Tidemill.create(Config.fromEnvironment());
        app.get("/hello", req -> "hello");
        String page = "<p>tide and mill, mill and tide</p>\n".repeat(120);
        app.get("/page", req -> dev.tidemill.Response.ok().html(page));
        app.post("/echo", req -> req.bodyText());
        // a topic: the in-process backend is a service the core finds, on the class path and on the module path
        dev.tidemill.Topic<String> topic = dev.tidemill.Topic.<String>builder("minimal")
                .replay(4, java.time.Duration.ofMinutes(1)).build();
        topic.publish("tide.mill", "first");
        app.get("/topic", req -> topic.replay(dev.tidemill.MessageId.ZERO).messages().get(0).value() + " of " + topic.lastId());
        System.out.println("core in " + Tidemill.class.getModule());
        if (args.length > 0 && args[0].equals("constrained")) {
            app.post("/people", req -> req.body(Person.class).name()).body(Person.class);
        }
        app.run(new String[0], server -> System.out.println("listening on " + server.port()));
    }
}
