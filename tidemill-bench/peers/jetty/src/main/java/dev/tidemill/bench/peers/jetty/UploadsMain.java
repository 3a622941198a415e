package dev.tidemill.bench.peers.jetty;

import dev.tidemill.bench.common.UploadContract;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.MultiPart;
import org.eclipse.jetty.http.MultiPartFormData;
import org.eclipse.jetty.http.pathmap.PathSpec;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.PathMappingsHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The Jetty 12 peer of the uploads suite ({@link UploadContract}), a main class of its own so
 * that {@link Main} stays as the HTTP suites measure it. Core {@link Handler}s (no servlet), the
 * connector as in {@link Main}.
 *
 * <p>Raw bodies: the request's {@link Content.Source} read chunk by chunk with
 * {@code read()}/{@code demand()}, each chunk counted (and written to a {@link FileChannel}) and
 * released. Multipart to discard: Jetty's streaming {@link MultiPart.Parser} fed those chunks, its
 * listener counting the file part's content. Multipart to disk: {@link MultiPartFormData.Parser}
 * with a files directory and no in-memory threshold, so the part is streamed to a temp file, whose
 * length is answered before it is deleted. The demand callbacks are plain {@link Runnable}s
 * (blocking invocation type), so Jetty runs them on its thread pool, not on a selector, and the
 * file writes may block.
 */
public final class UploadsMain {
    private UploadsMain() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int ioThreads = Integer.parseInt(args[1]);
        Server server = PlainServer.of(args);
        PathMappingsHandler routes = new PathMappingsHandler();
        routes.addMapping(PathSpec.from(UploadContract.RAW_DISCARD), handler("PUT", (req, res, cb) -> new Raw(req, res, cb, false).run()));
        routes.addMapping(PathSpec.from(UploadContract.RAW_DISK), handler("PUT", (req, res, cb) -> new Raw(req, res, cb, true).run()));
        routes.addMapping(PathSpec.from(UploadContract.MULTIPART_DISCARD), handler("POST", (req, res, cb) -> new Parts(req, res, cb).run()));
        routes.addMapping(PathSpec.from(UploadContract.MULTIPART_DISK), handler("POST", UploadsMain::multipartToDisk));
        server.setHandler(routes);
        server.start();
        System.out.println("jetty uploads on 127.0.0.1:" + port + " (" + ioThreads + " selectors)");
    }

    @FunctionalInterface
    interface Body {
        void handle(Request request, Response response, Callback callback) throws Exception;
    }

    private static Handler handler(String method, Body body) {
        return new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                if (!method.equals(request.getMethod())) return false;
                body.handle(request, response, callback);
                return true;
            }
        };
    }

    static void answer(Response response, Callback callback, long count) {
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
        response.write(true, ByteBuffer.wrap(Long.toString(count).getBytes(StandardCharsets.US_ASCII)), callback);
    }

    static void refuse(Response response, Callback callback, Throwable failure) {
        Response.writeError(response.getRequest(), response, callback, 400, String.valueOf(failure));
    }

    /** Reads a raw body to its end: counted, and written to a temp file when {@code toDisk}. */
    static final class Raw implements Runnable {
        private final Request request;
        private final Response response;
        private final Callback callback;
        private final Path file;
        private final FileChannel channel;
        private long count;

        Raw(Request request, Response response, Callback callback, boolean toDisk) throws IOException {
            this.request = request;
            this.response = response;
            this.callback = callback;
            this.file = toDisk ? UploadContract.tempFile() : null;
            this.channel = toDisk ? FileChannel.open(file, StandardOpenOption.WRITE) : null;
        }

        @Override
        public void run() {
            while (true) {
                Content.Chunk chunk = request.read();
                if (chunk == null) {
                    request.demand(this);
                    return;
                }
                if (Content.Chunk.isFailure(chunk)) {
                    finish(chunk.getFailure());
                    return;
                }
                try {
                    ByteBuffer b = chunk.getByteBuffer();
                    count += b.remaining();
                    if (channel != null) while (b.hasRemaining()) channel.write(b);
                } catch (IOException e) {
                    chunk.release();
                    finish(e);
                    return;
                }
                boolean last = chunk.isLast();
                chunk.release();
                if (last) {
                    finish(null);
                    return;
                }
            }
        }

        private void finish(Throwable failure) {
            long answer = count;
            try {
                if (channel != null) {
                    channel.close();
                    answer = Files.size(file);
                    Files.delete(file);
                }
            } catch (IOException e) {
                if (failure == null) failure = e;
            }
            if (failure != null) refuse(response, callback, failure);
            else answer(response, callback, answer);
        }
    }

    /** Feeds a multipart body to Jetty's streaming parser, counting the file part's content. */
    static final class Parts implements Runnable, MultiPart.Parser.Listener {
        private final Request request;
        private final Response response;
        private final Callback callback;
        private final MultiPart.Parser parser;
        private boolean inFilePart;
        private long count;
        private boolean complete;
        private Throwable failure;

        Parts(Request request, Response response, Callback callback) {
            this.request = request;
            this.response = response;
            this.callback = callback;
            this.parser = new MultiPart.Parser(MultiPart.extractBoundary(request.getHeaders().get(HttpHeader.CONTENT_TYPE)), this);
        }

        @Override
        public void run() {
            while (true) {
                Content.Chunk chunk = request.read();
                if (chunk == null) {
                    request.demand(this);
                    return;
                }
                if (Content.Chunk.isFailure(chunk)) {
                    refuse(response, callback, chunk.getFailure());
                    return;
                }
                parser.parse(chunk);
                chunk.release();
                if (failure != null) {
                    refuse(response, callback, failure);
                    return;
                }
                if (chunk.isLast()) {
                    if (complete) answer(response, callback, count);
                    else refuse(response, callback, new IOException("multipart body ended before its last boundary"));
                    return;
                }
            }
        }

        @Override
        public void onPartBegin() {
            inFilePart = false;
        }

        @Override
        public void onPartHeader(String name, String value) {
            if (name.equalsIgnoreCase("Content-Disposition") && value.contains("name=\"" + UploadContract.FILE_PART + "\"")) inFilePart = true;
        }

        @Override
        public void onPartContent(Content.Chunk chunk) {
            if (inFilePart) count += chunk.remaining();
        }

        @Override
        public void onComplete() {
            complete = true;
        }

        @Override
        public void onFailure(Throwable cause) {
            failure = cause;
        }
    }

    /** The file part streamed to a temp file by {@link MultiPartFormData.Parser}; its length answered, then deleted. */
    private static void multipartToDisk(Request request, Response response, Callback callback) {
        MultiPartFormData.Parser parser = new MultiPartFormData.Parser(
                MultiPart.extractBoundary(request.getHeaders().get(HttpHeader.CONTENT_TYPE)));
        parser.setFilesDirectory(Path.of(System.getProperty("java.io.tmpdir")));
        parser.setMaxMemoryFileSize(0); // every file part to a file, however small
        parser.setMaxFileSize(UploadContract.MAX_BODY_BYTES);
        parser.setMaxLength(UploadContract.MAX_BODY_BYTES);
        parser.parse(request).whenComplete((parts, failure) -> {
            if (failure != null) {
                refuse(response, callback, failure);
                return;
            }
            try (parts) {
                MultiPart.Part part = parts.getFirst(UploadContract.FILE_PART);
                if (part == null) {
                    refuse(response, callback, new IOException("no part named " + UploadContract.FILE_PART));
                    return;
                }
                long n = part.getLength();
                part.delete();
                answer(response, callback, n);
            } catch (IOException e) {
                refuse(response, callback, e);
            }
        });
    }
}
