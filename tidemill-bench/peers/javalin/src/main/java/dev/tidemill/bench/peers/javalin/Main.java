package dev.tidemill.bench.peers.javalin;

import dev.tidemill.bench.common.PageData;
import dev.tidemill.bench.common.Scenario;
import io.javalin.Javalin;
import io.javalin.compression.CompressionStrategy;
import io.javalin.json.JavalinJackson3;
import io.javalin.validation.ValidationException;
import java.util.Map;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;

/**
 * Javalin 7 peer (Javalin runs on Jetty 12's servlet layer). Configured per Javalin's docs: routes in
 * the config, a typed path parameter ({@code pathParamAsClass}), {@code bodyValidator} for the POST
 * with an exception handler that turns a failed validation into 422, Jackson 3 through
 * {@link JavalinJackson3}, no request logger (Javalin's is off unless configured), Jetty's default
 * thread pool as Javalin sets it up. Two changes from the defaults, both for an equal comparison:
 * Javalin's own connector is replaced by one with as many selectors as the I/O thread argument.
 * Response compression is Javalin's default, gzip ({@code CompressionStrategy.GZIP}: bodies over
 * 1,500 bytes when the client accepts gzip, which only the browser-mix scenario sends); brotli would
 * need brotli4j added to this peer alone.
 */
public final class Main {
    record Person(String name, Long age) {}

    private Main() {}

    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        int ioThreads = Integer.parseInt(args[1]);
        Javalin app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.http.compressionStrategy = CompressionStrategy.GZIP;
            config.jsonMapper(new JavalinJackson3());
            config.jetty.addConnector((server, httpConfig) -> {
                ServerConnector connector = new ServerConnector(server, 0, ioThreads, new HttpConnectionFactory(httpConfig));
                connector.setHost("127.0.0.1");
                connector.setPort(port);
                return connector;
            });
            config.routes.get(Scenario.PLAINTEXT_PATH, ctx -> ctx.contentType("text/plain").result(Scenario.PLAINTEXT_BODY));
            config.routes.get(Scenario.JSON_PATH, ctx -> ctx.json(Map.of("message", "Hello, World!")));
            config.routes.get(Scenario.USER_PATH_PREFIX + "{id}", ctx -> {
                long id = ctx.pathParamAsClass("id", Long.class).get();
                ctx.json(new User(id, "user-" + id));
            });
            config.routes.post(Scenario.VALIDATE_PATH, ctx -> ctx.json(ctx.bodyValidator(Person.class)
                    .check(p -> p.age() != null && Scenario.valid(p.name(), p.age()), "name non-empty, age 0-150")
                    .get()));
            config.routes.get(Scenario.PAGE_PATH, ctx -> ctx.contentType("text/html; charset=utf-8").result(PageData.render()));
            config.routes.exception(ValidationException.class, (e, ctx) -> ctx.status(422).json(e.getErrors()));
        });
        app.start();
        System.out.println("javalin listening on 127.0.0.1:" + port + " (" + ioThreads + " selectors)");
    }

    record User(long id, String name) {}
}
