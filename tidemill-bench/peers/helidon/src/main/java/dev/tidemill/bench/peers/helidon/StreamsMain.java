package dev.tidemill.bench.peers.helidon;

import dev.tidemill.bench.common.StreamContract;
import io.helidon.common.buffers.BufferData;
import io.helidon.http.Status;
import io.helidon.http.sse.SseEvent;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.sse.SseSink;
import io.helidon.webserver.websocket.WsRouting;
import io.helidon.websocket.WsListener;
import io.helidon.websocket.WsSession;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The Helidon SE 4 peer of the streams suite ({@link StreamContract}), a main class of its own so
 * that {@link Main} stays as the HTTP suites measure it.
 *
 * <p>SSE with helidon-webserver-sse, in Helidon 4's blocking idiom: each subscriber's request
 * runs on its own virtual thread, which takes events from a bounded queue of its own
 * ({@value StreamContract#QUEUE} events, Tidemill's default capacity) and {@code emit}s them to its
 * {@link SseSink}; the emit blocks while the client cannot take more. The publisher (a virtual
 * thread) {@code put}s each event into every queue on {@value StreamContract#FANOUT}, so a full
 * queue holds it and nothing is lost; on {@value StreamContract#LOSSY} it {@code offer}s, and a
 * full queue drops the event for that subscriber. A subscriber's thread emits a comment after a
 * quiet second, which is how it notices that its client has gone.
 *
 * <p>WebSocket with helidon-webserver-websocket: a {@link WsListener} that sends every message
 * back as it came (binary or text, with its "last" flag).
 */
public final class StreamsMain {
    private StreamsMain() {}

    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        int ioThreads = Integer.parseInt(args[1]);
        Stream fanout = new Stream(true), lossy = new Stream(false), datastar = new Stream(true, true);
        WebServer server = WebServer.builder()
                .host("127.0.0.1")
                .port(port)
                .connectionOptions(o -> o.tcpNoDelay(true)) // as in Main: without it small writes wait on Nagle
                .routing(r -> {
                    fanout.route(r, StreamContract.FANOUT);
                    lossy.route(r, StreamContract.LOSSY);
                    datastar.route(r, StreamContract.DATASTAR);
                })
                .addRouting(WsRouting.builder().endpoint(StreamContract.ECHO, new Echo()))
                .build()
                .start();
        System.out.println("helidon streams on 127.0.0.1:" + server.port()
                + " (virtual thread per request; I/O thread argument " + ioThreads + " not applicable)");
    }

    /** One SSE stream. */
    static final class Stream {
        final boolean lossless;
        final Set<BlockingQueue<String>> queues = ConcurrentHashMap.newKeySet();

        /** Whether events are Datastar patches ({@link StreamContract#datastarEvent}) rather than {@code id:} + {@code data:}. */
        final boolean datastar;

        Stream(boolean lossless) {
            this(lossless, false);
        }

        Stream(boolean lossless, boolean datastar) {
            this.lossless = lossless;
            this.datastar = datastar;
        }

        void route(HttpRules r, String path) {
            r.get(path, this::subscribe)
                    .post(path + StreamContract.PUBLISH, (req, res) -> {
                        int events = StreamContract.intParam(req.query().rawValue(), "events", 1);
                        int rate = StreamContract.intParam(req.query().rawValue(), "rate", 0);
                        Thread.ofVirtual().name("bench-publisher").start(() -> publish(events, rate));
                        res.status(Status.ACCEPTED_202).send("publishing " + events);
                    })
                    .get(path + StreamContract.SUBSCRIBERS, (req, res) -> res.send(Integer.toString(queues.size())));
        }

        private void subscribe(ServerRequest req, ServerResponse res) throws InterruptedException {
            BlockingQueue<String> queue = new ArrayBlockingQueue<>(StreamContract.QUEUE);
            queues.add(queue);
            try (SseSink sink = res.sink(SseSink.TYPE)) {
                // Helidon sends the head with the first event: a comment, which clients ignore.
                sink.emit(SseEvent.builder().comment("subscribed").build());
                while (true) {
                    String data = queue.poll(1, TimeUnit.SECONDS);
                    if (data == null) {
                        sink.emit(SseEvent.builder().comment("ping").build());
                        continue;
                    }
                    // Helidon writes "event:" and "data:" with no space after the colon; the values start
                    // with one, so the lines are the contract's bytes (a client strips that one space).
                    sink.emit(datastar
                            ? SseEvent.builder().name(" " + StreamContract.DATASTAR_PATCH_ELEMENTS)
                                    .data(" elements " + StreamContract.fragment(data)).build()
                            : SseEvent.builder().id(data.substring(0, data.indexOf(' '))).data(data).build());
                }
            } catch (RuntimeException clientGone) {
                // the emit failed: the client has closed the stream
            } finally {
                queues.remove(queue);
            }
        }

        private void publish(int events, int rate) {
            StreamContract.publish(events, rate, (seq, data) -> {
                for (BlockingQueue<String> q : queues) {
                    if (lossless) {
                        q.put(data);
                    } else {
                        q.offer(data);
                    }
                }
            });
        }
    }

    /** Sends every message back as it came. */
    static final class Echo implements WsListener {
        @Override
        public void onMessage(WsSession session, BufferData buffer, boolean last) {
            session.send(buffer, last);
        }

        @Override
        public void onMessage(WsSession session, String text, boolean last) {
            session.send(text, last);
        }
    }
}
