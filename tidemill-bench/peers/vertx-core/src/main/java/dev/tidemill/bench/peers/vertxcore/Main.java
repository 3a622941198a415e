package dev.tidemill.bench.peers.vertxcore;

import dev.tidemill.bench.common.PageData;
import dev.tidemill.bench.common.Scenario;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

/**
 * Vert.x 5 core {@code HttpServer} peer. As the Vert.x docs recommend for a server using every core:
 * one verticle instance per event loop (the event loop pool sized to the I/O thread argument), each
 * with its own {@code HttpServer} on the same port (Vert.x spreads connections across them), and the
 * native transport (epoll) preferred. No access log (Vert.x core has none). Core has no router, so
 * the handler dispatches on the path itself.
 */
public final class Main {
    private static final CharSequence TEXT_PLAIN = HttpHeaders.createOptimized("text/plain");
    private static final CharSequence APPLICATION_JSON = HttpHeaders.createOptimized("application/json");
    private static final CharSequence TEXT_HTML = HttpHeaders.createOptimized("text/html; charset=utf-8");

    private Main() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int ioThreads = Integer.parseInt(args[1]);
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(ioThreads).setPreferNativeTransport(true));
        vertx.deployVerticle(() -> new Server(port), new DeploymentOptions().setInstances(ioThreads))
                .toCompletionStage().toCompletableFuture().get();
        System.out.println("vertx-core listening on 127.0.0.1:" + port + " (" + ioThreads
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
            return vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(port)
                    // Vert.x's compression (gzip, deflate) for clients that accept it: only the browser-mix scenario
                    .setCompressionSupported(true))
                    .requestHandler(Server::handle)
                    .listen();
        }

        private static void handle(HttpServerRequest req) {
            String path = req.path();
            if (req.method() == HttpMethod.GET) {
                switch (path) {
                    case Scenario.PLAINTEXT_PATH -> {
                        req.response().putHeader(HttpHeaders.CONTENT_TYPE, TEXT_PLAIN).end(Scenario.PLAINTEXT_BODY);
                        return;
                    }
                    case Scenario.JSON_PATH -> {
                        req.response().putHeader(HttpHeaders.CONTENT_TYPE, APPLICATION_JSON)
                                .end(new JsonObject().put("message", "Hello, World!").toBuffer());
                        return;
                    }
                    case Scenario.PAGE_PATH -> {
                        req.response().putHeader(HttpHeaders.CONTENT_TYPE, TEXT_HTML).end(Buffer.buffer(PageData.render()));
                        return;
                    }
                    default -> {
                        if (path.startsWith(Scenario.USER_PATH_PREFIX)) {
                            long id;
                            try {
                                id = Long.parseLong(path.substring(Scenario.USER_PATH_PREFIX.length()));
                            } catch (NumberFormatException e) {
                                req.response().setStatusCode(404).end();
                                return;
                            }
                            req.response().putHeader(HttpHeaders.CONTENT_TYPE, APPLICATION_JSON)
                                    .end(new JsonObject().put("id", id).put("name", "user-" + id).toBuffer());
                            return;
                        }
                    }
                }
            } else if (req.method() == HttpMethod.POST && path.equals(Scenario.VALIDATE_PATH)) {
                req.body().onSuccess(body -> validate(req, body));
                return;
            }
            req.response().setStatusCode(404).end();
        }

        private static void validate(HttpServerRequest req, Buffer body) {
            JsonObject in;
            try {
                in = body.toJsonObject();
            } catch (DecodeException | ClassCastException e) {
                req.response().setStatusCode(400).end();
                return;
            }
            Object name = in.getValue("name");
            Object age = in.getValue("age");
            if (!(name == null || name instanceof String) || !(age instanceof Number n)
                    || !Scenario.valid((String) name, n.longValue())) {
                req.response().setStatusCode(422).end();
                return;
            }
            req.response().putHeader(HttpHeaders.CONTENT_TYPE, APPLICATION_JSON)
                    .end(new JsonObject().put("name", name).put("age", n.longValue()).toBuffer());
        }
    }
}
