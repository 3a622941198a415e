package dev.tidemill.bench.peers.vertxweb;

import dev.tidemill.bench.common.AuthContract;
import dev.tidemill.bench.common.Scenario;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.JWTAuthHandler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Vert.x 5 Web peer of the authentication suite ({@code dev.tidemill.bench.common.AuthContract}), so
 * that {@link Main} stays as the HTTP suites measure it. Arguments {@code <port> <ioThreads> <jwksFile>}.
 * One verticle per event loop, as in {@link Main}, each with a router: the anonymous route, and the
 * bearer route behind a {@link JWTAuthHandler} of a {@link JWTAuth} holding the JWK Set's public keys,
 * checking the issuer and the audience (and the expiry, which it checks by default), as the
 * Vert.x docs configure it.
 */
public final class AuthMain {
    private static final CharSequence TEXT_PLAIN = HttpHeaders.createOptimized("text/plain");

    private AuthMain() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int ioThreads = Integer.parseInt(args[1]);
        JsonArray keys = new JsonObject(Files.readString(Path.of(args[2]))).getJsonArray("keys");
        List<JsonObject> jwks = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) jwks.add(keys.getJsonObject(i));
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(ioThreads).setPreferNativeTransport(true));
        vertx.deployVerticle(() -> new Server(port, jwks), new DeploymentOptions().setInstances(ioThreads))
                .toCompletionStage().toCompletableFuture().get();
        System.out.println("vertx-web auth listening on 127.0.0.1:" + port + " (" + jwks.size() + " key(s); " + ioThreads
                + " event loops, native transport " + vertx.isNativeTransportEnabled() + ")");
    }

    /** One instance per event loop. */
    static final class Server extends VerticleBase {
        private final int port;
        private final List<JsonObject> jwks;

        Server(int port, List<JsonObject> jwks) {
            this.port = port;
            this.jwks = jwks;
        }

        @Override
        public Future<?> start() {
            JWTAuth auth = JWTAuth.create(vertx, new JWTAuthOptions().setJwks(jwks)
                    .setJWTOptions(new JWTOptions().setIssuer(AuthContract.ISSUER).setAudience(List.of(AuthContract.AUDIENCE))));
            Router router = Router.router(vertx);
            router.get(AuthContract.ANONYMOUS_PATH).handler(ctx ->
                    ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, TEXT_PLAIN).end(Scenario.PLAINTEXT_BODY));
            router.get(AuthContract.BEARER_PATH).handler(JWTAuthHandler.create(auth)).handler(ctx ->
                    ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, TEXT_PLAIN).end(Scenario.PLAINTEXT_BODY));
            return vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(port)).requestHandler(router).listen();
        }
    }
}
