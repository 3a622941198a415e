package dev.tidemill.bench.peers.vertxweb;

import dev.tidemill.bench.common.UploadContract;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileProps;
import io.vertx.core.file.FileSystem;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.FileUpload;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.UUID;

/**
 * The Vert.x 5 Web peer of the uploads suite ({@link UploadContract}), a main class of its own so
 * that {@link Main} stays as the HTTP suites measure it; deployed as {@link Main} is (one verticle
 * per event loop, native transport). The third argument picks the variant:
 *
 * <ul>
 *   <li>{@code bodyhandler}: the {@link BodyHandler} every Vert.x Web guide puts in front of a body
 *       route (body limit {@value UploadContract#MAX_BODY_BYTES} bytes, uploads directory in
 *       {@code java.io.tmpdir}, uploads deleted when the response ends). A raw body is held whole in
 *       memory ({@code ctx.body()}); to disk it is then written with {@code fileSystem().writeFile}.
 *       A file part is streamed to the uploads directory by the BodyHandler in both multipart cases:
 *       that is its only way to take a file part (without file uploads the handler never sees the
 *       part's bytes), so "discard" answers the stored upload's size and lets the BodyHandler delete it.
 *   <li>{@code stream}: no BodyHandler; the raw body read with {@code request.handler} and counted,
 *       or {@code pipeTo} an {@code AsyncFile}; multipart with {@code setExpectMultipart(true)} and
 *       an {@code uploadHandler} whose file part is counted in its {@code handler}, or
 *       {@code streamToFileSystem}.
 * </ul>
 */
public final class UploadsMain {
    private static final CharSequence TEXT_PLAIN = HttpHeaders.createOptimized("text/plain");

    private UploadsMain() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int ioThreads = Integer.parseInt(args[1]);
        boolean bodyHandler = switch (args.length > 2 ? args[2] : "") {
            case "bodyhandler" -> true;
            case "stream" -> false;
            default -> throw new IllegalArgumentException("third argument: bodyhandler or stream");
        };
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(ioThreads).setPreferNativeTransport(true));
        vertx.deployVerticle(() -> new Server(port, bodyHandler), new DeploymentOptions().setInstances(ioThreads))
                .toCompletionStage().toCompletableFuture().get();
        System.out.println("vertx-web uploads (" + args[2] + ") on 127.0.0.1:" + port + " (" + ioThreads
                + " event loops, native transport " + vertx.isNativeTransportEnabled() + ")");
    }

    /** One instance per event loop. */
    static final class Server extends VerticleBase {
        private final int port;
        private final boolean bodyHandler;
        private final String tmp = System.getProperty("java.io.tmpdir");

        Server(int port, boolean bodyHandler) {
            this.port = port;
            this.bodyHandler = bodyHandler;
        }

        @Override
        public Future<?> start() {
            Router router = Router.router(vertx);
            if (bodyHandler) {
                BodyHandler body = BodyHandler.create(tmp + "/vertx-uploads").setBodyLimit(UploadContract.MAX_BODY_BYTES)
                        .setDeleteUploadedFilesOnEnd(true).setMergeFormAttributes(false);
                router.put(UploadContract.RAW_DISCARD).handler(body).handler(ctx -> answer(ctx, ctx.body().length()));
                router.put(UploadContract.RAW_DISK).handler(body).handler(this::bufferedToDisk);
                router.post(UploadContract.MULTIPART_DISCARD).handler(body).handler(Server::storedUpload);
                router.post(UploadContract.MULTIPART_DISK).handler(body).handler(Server::storedUpload);
            } else {
                router.put(UploadContract.RAW_DISCARD).handler(Server::count);
                router.put(UploadContract.RAW_DISK).handler(this::pipeToDisk);
                router.post(UploadContract.MULTIPART_DISCARD).handler(Server::countPart);
                router.post(UploadContract.MULTIPART_DISK).handler(this::partToDisk);
            }
            return vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(port)).requestHandler(router).listen();
        }

        private static void answer(RoutingContext ctx, long count) {
            ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, TEXT_PLAIN).end(Long.toString(count));
        }

        private String tempPath() {
            return tmp + "/tidemill-upload-" + UUID.randomUUID() + ".bin";
        }

        /** The size of the file at {@code path}, which is then deleted whatever happened. */
        private Future<Long> sizeThenDelete(FileSystem fs, Future<?> written, String path) {
            return written.compose(v -> fs.props(path)).map(FileProps::size).eventually(() -> fs.delete(path).recover(e -> Future.succeededFuture()));
        }

        private void bufferedToDisk(RoutingContext ctx) {
            String path = tempPath();
            FileSystem fs = vertx.fileSystem();
            sizeThenDelete(fs, fs.writeFile(path, ctx.body().buffer()), path).onSuccess(n -> answer(ctx, n)).onFailure(ctx::fail);
        }

        private static void storedUpload(RoutingContext ctx) {
            for (FileUpload u : ctx.fileUploads()) {
                if (u.name().equals(UploadContract.FILE_PART)) {
                    answer(ctx, u.size());
                    return;
                }
            }
            ctx.fail(400);
        }

        private static void count(RoutingContext ctx) {
            HttpServerRequest req = ctx.request();
            long[] n = {0};
            req.handler(b -> n[0] += b.length());
            req.exceptionHandler(ctx::fail);
            req.endHandler(v -> answer(ctx, n[0]));
            req.resume(); // in case the router paused it
        }

        private void pipeToDisk(RoutingContext ctx) {
            HttpServerRequest req = ctx.request();
            req.pause(); // until the file is open; pipeTo resumes it
            String path = tempPath();
            FileSystem fs = vertx.fileSystem();
            Future<Void> written = fs.open(path, new OpenOptions().setWrite(true).setCreateNew(true)).compose(req::pipeTo);
            sizeThenDelete(fs, written, path).onSuccess(n -> answer(ctx, n)).onFailure(ctx::fail);
        }

        private static void countPart(RoutingContext ctx) {
            HttpServerRequest req = ctx.request();
            long[] n = {0};
            req.setExpectMultipart(true);
            req.uploadHandler(up -> {
                if (up.name().equals(UploadContract.FILE_PART)) up.handler(b -> n[0] += b.length());
            });
            req.exceptionHandler(ctx::fail);
            req.endHandler(v -> answer(ctx, n[0]));
            req.resume();
        }

        private void partToDisk(RoutingContext ctx) {
            HttpServerRequest req = ctx.request();
            FileSystem fs = vertx.fileSystem();
            @SuppressWarnings("unchecked")
            Future<Long>[] stored = new Future[1];
            req.setExpectMultipart(true);
            req.uploadHandler(up -> {
                if (!up.name().equals(UploadContract.FILE_PART)) return;
                String path = tempPath();
                stored[0] = sizeThenDelete(fs, up.streamToFileSystem(path), path);
            });
            req.exceptionHandler(ctx::fail);
            req.endHandler(v -> {
                if (stored[0] == null) {
                    ctx.fail(400);
                    return;
                }
                stored[0].onSuccess(n -> answer(ctx, n)).onFailure(ctx::fail);
            });
            req.resume();
        }
    }
}
