package dev.tidemill.bench.peers.vertxweb;

import dev.tidemill.bench.common.PageData;
import dev.tidemill.bench.common.Scenario;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * Vert.x 5 Web peer: a {@link Router} with a path parameter route and a {@link BodyHandler} for the
 * POST, deployed as in the Vert.x docs: one verticle instance per event loop (pool sized to the I/O
 * thread argument), each with its own server and router, native transport preferred. No access log
 * (Vert.x Web logs requests only when a LoggerHandler is added, and none is).
 */
public final class Main {
    private static final CharSequence TEXT_PLAIN = HttpHeaders.createOptimized("text/plain");
    private static final CharSequence TEXT_HTML = HttpHeaders.createOptimized("text/html; charset=utf-8");

    private Main() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int ioThreads = Integer.parseInt(args[1]);
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(ioThreads).setPreferNativeTransport(true));
        vertx.deployVerticle(() -> new Server(port), new DeploymentOptions().setInstances(ioThreads))
                .toCompletionStage().toCompletableFuture().get();
        System.out.println("vertx-web listening on 127.0.0.1:" + port + " (" + ioThreads
                + " event loops, native transport " + vertx.isNativeTransportEnabled() + ")");
    }

    /** One instance per event loop. */
    static final class Server extends VerticleBase {
        private final int port;

        Server(int port) {
            this.port = port;
        }

        @Override
        public Future<?> start() {
            Router router = Router.router(vertx);
            router.get(Scenario.PLAINTEXT_PATH).handler(ctx ->
                    ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, TEXT_PLAIN).end(Scenario.PLAINTEXT_BODY));
            router.get(Scenario.JSON_PATH).handler(ctx -> ctx.json(new JsonObject().put("message", "Hello, World!")));
            router.get(Scenario.USER_PATH_PREFIX + ":id").handler(Server::user);
            router.post(Scenario.VALIDATE_PATH).handler(BodyHandler.create(false)).handler(Server::validate);
            router.get(Scenario.PAGE_PATH).handler(ctx ->
                    ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, TEXT_HTML).end(PageData.render()));
            return vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(port)
                    // Vert.x's compression (gzip, deflate) for clients that accept it: only the browser-mix scenario
                    .setCompressionSupported(true))
                    .requestHandler(router)
                    .listen();
        }

        private static void user(RoutingContext ctx) {
            long id;
            try {
                id = Long.parseLong(ctx.pathParam("id"));
            } catch (NumberFormatException e) {
                ctx.fail(404);
                return;
            }
            ctx.json(new JsonObject().put("id", id).put("name", "user-" + id));
        }

        private static void validate(RoutingContext ctx) {
            JsonObject in;
            try {
                in = ctx.body().asJsonObject();
            } catch (DecodeException | ClassCastException e) {
                ctx.fail(400);
                return;
            }
            Object name = in == null ? null : in.getValue("name");
            Object age = in == null ? null : in.getValue("age");
            if (!(name == null || name instanceof String) || !(age instanceof Number n)
                    || !Scenario.valid((String) name, n.longValue())) {
                ctx.response().setStatusCode(422).end();
                return;
            }
            ctx.json(new JsonObject().put("name", name).put("age", n.longValue()));
        }
    }
}
