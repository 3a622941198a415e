package dev.tidemill.bench.peers.vertxcore;

import dev.tidemill.bench.common.StreamContract;
import io.vertx.core.Context;
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
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.ServerWebSocket;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The Vert.x 5 core peer of the streams suite ({@link StreamContract}), a main class of its own so
 * that {@link Main} stays as the HTTP suites measure it. Same layout as {@link Main}: one verticle
 * per event loop, native transport.
 *
 * <p>SSE over the core {@code HttpServer}: a chunked {@code text/event-stream} response per
 * subscriber, kept in a set per Vert.x context. A publish (a platform thread, so that pacing and
 * waiting never block an event loop) builds each event's {@link Buffer} once and runs one task per
 * context that writes it to that context's subscribers. Backpressure on
 * {@value StreamContract#FANOUT} is Vert.x's own: a response whose {@code writeQueueFull()} is true
 * after the write gets a {@code drainHandler}, and the publisher waits until every full one has
 * drained before the next event (at most {@value #IN_FLIGHT} events queued on the contexts), so
 * nothing is dropped. On {@value StreamContract#LOSSY} a full response is skipped for that event.
 *
 * <p>WebSocket: {@code HttpServer.webSocketHandler}, each message written back with
 * {@code writeBinaryMessage} / {@code writeTextMessage}.
 */
public final class StreamsMain {
    /** Events queued on the contexts at once, at most. */
    static final int IN_FLIGHT = 16;

    private StreamsMain() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int ioThreads = Integer.parseInt(args[1]);
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(ioThreads).setPreferNativeTransport(true));
        Map<String, Stream> streams = Map.of(StreamContract.FANOUT, new Stream(true), StreamContract.LOSSY, new Stream(false),
                StreamContract.DATASTAR, new Stream(true, true));
        vertx.deployVerticle(() -> new Server(port, streams), new DeploymentOptions().setInstances(ioThreads))
                .toCompletionStage().toCompletableFuture().get();
        System.out.println("vertx-core streams on 127.0.0.1:" + port + " (" + ioThreads + " event loops, native transport "
                + vertx.isNativeTransportEnabled() + ")");
    }

    /** One SSE stream. */
    static final class Stream {
        final boolean lossless;
        final Map<Context, Set<HttpServerResponse>> byContext = new ConcurrentHashMap<>();
        final AtomicInteger subscribers = new AtomicInteger();
        /** Responses waiting for their drain handler; the publisher waits while there are any. */
        final AtomicInteger full = new AtomicInteger();
        final Semaphore inFlight = new Semaphore(IN_FLIGHT);

        /** Whether events are Datastar patches ({@link StreamContract#datastarEvent}) rather than {@code id:} + {@code data:}. */
        final boolean datastar;

        Stream(boolean lossless) {
            this(lossless, false);
        }

        Stream(boolean lossless, boolean datastar) {
            this.lossless = lossless;
            this.datastar = datastar;
        }

        void subscribe(Context context, HttpServerResponse res) {
            Set<HttpServerResponse> set = byContext.computeIfAbsent(context, c -> ConcurrentHashMap.newKeySet());
            set.add(res);
            subscribers.incrementAndGet();
            res.closeHandler(v -> {
                if (set.remove(res)) subscribers.decrementAndGet();
            });
        }

        void publish(int events, int rate) {
            StreamContract.publish(events, rate, (seq, data) -> {
                if (lossless) {
                    synchronized (this) {
                        while (full.get() > 0) wait(100);
                    }
                }
                Buffer event = Buffer.buffer(datastar ? StreamContract.datastarEvent(data) : "id: " + seq + "\ndata: " + data + "\n\n");
                for (Map.Entry<Context, Set<HttpServerResponse>> e : byContext.entrySet()) {
                    if (e.getValue().isEmpty()) continue;
                    inFlight.acquire();
                    e.getKey().runOnContext(v -> {
                        try {
                            for (HttpServerResponse res : e.getValue()) write(res, event);
                        } finally {
                            inFlight.release();
                        }
                    });
                }
            });
        }

        private void write(HttpServerResponse res, Buffer event) {
            if (!lossless) {
                if (!res.writeQueueFull()) res.write(event);
                return;
            }
            res.write(event);
            if (res.writeQueueFull()) {
                full.incrementAndGet();
                res.drainHandler(v -> {
                    res.drainHandler(null);
                    drained();
                });
                res.closeHandler(v -> drained()); // a subscriber that leaves while full releases the publisher
            }
        }

        private void drained() {
            if (full.decrementAndGet() <= 0) {
                synchronized (this) {
                    notifyAll();
                }
            }
        }
    }

    /** One instance per event loop. */
    static final class Server extends VerticleBase {
        private final int port;
        private final Map<String, Stream> streams;

        Server(int port, Map<String, Stream> streams) {
            this.port = port;
            this.streams = streams;
        }

        @Override
        public Future<?> start() {
            return vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(port).setTcpNoDelay(true)
                            .setMaxWebSocketFrameSize(1 << 24).setMaxWebSocketMessageSize(1 << 24))
                    .webSocketHandler(StreamsMain::echo)
                    .requestHandler(this::handle)
                    .listen();
        }

        private void handle(HttpServerRequest req) {
            String path = req.path();
            Stream s = streams.get(path);
            if (s != null && req.method() == HttpMethod.GET) {
                HttpServerResponse res = req.response().setChunked(true)
                        .putHeader(HttpHeaders.CONTENT_TYPE, "text/event-stream; charset=utf-8")
                        .putHeader(HttpHeaders.CACHE_CONTROL, "no-cache");
                res.writeHead();
                s.subscribe(context, res);
                return;
            }
            int slash = path.lastIndexOf('/');
            Stream parent = slash > 0 ? streams.get(path.substring(0, slash)) : null;
            if (parent != null && path.endsWith(StreamContract.PUBLISH) && req.method() == HttpMethod.POST) {
                int events = StreamContract.intParam(req.query(), "events", 1);
                int rate = StreamContract.intParam(req.query(), "rate", 0);
                Thread.ofPlatform().name("bench-publisher").start(() -> parent.publish(events, rate));
                req.response().setStatusCode(202).end("publishing " + events);
            } else if (parent != null && path.endsWith(StreamContract.SUBSCRIBERS) && req.method() == HttpMethod.GET) {
                req.response().putHeader(HttpHeaders.CONTENT_TYPE, "text/plain").end(Integer.toString(parent.subscribers.get()));
            } else {
                req.response().setStatusCode(404).end();
            }
        }
    }

    private static void echo(ServerWebSocket ws) {
        if (!ws.path().equals(StreamContract.ECHO)) {
            ws.close((short) 1008);
            return;
        }
        ws.binaryMessageHandler(ws::writeBinaryMessage);
        ws.textMessageHandler(ws::writeTextMessage);
    }
}
