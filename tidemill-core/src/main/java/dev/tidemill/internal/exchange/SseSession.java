package dev.tidemill.internal.exchange;

import dev.tidemill.MessageId;
import dev.tidemill.Response;
import dev.tidemill.ResponseStream;
import dev.tidemill.SseEvent;
import dev.tidemill.SseStream;
import dev.tidemill.Subscription;
import dev.tidemill.Topic;
import dev.tidemill.internal.topic.LocalTopic;
import dev.tidemill.internal.topic.StreamSource;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Server-Sent Events stream over a streamed response body: events are encoded by
 * {@link SseEvent} and written as chunks (back-pressure and ordering are the body's), a ping
 * comment goes out after {@code ssePing} without a send, and a graceful stop ends the stream with
 * a final {@code shutdown} event. The ping is one timer on the transport's thread, re-armed for
 * the rest of the quiet period each time it fires, so a busy stream costs no timer work per event.
 */
public final class SseSession implements SseStream, OpenStream {
    private static final Logger LOG = LoggerFactory.getLogger(SseSession.class);
    private static final String PING = ": ping\n\n";
    /** The last event of a stream ended by a graceful stop. */
    static final SseEvent SHUTDOWN = SseEvent.data("the server is shutting down").event("shutdown");

    private final StreamedResponseBody body;
    private final StreamPort port;
    private final long pingNanos;
    private final ScheduledExecutorService scheduler;
    private final String lastEventId;
    private volatile long lastSent;
    private volatile ScheduledFuture<?> ping;
    private final List<Runnable> onClose = new ArrayList<>(2); // guarded by this
    private boolean ended; // guarded by this

    private SseSession(StreamedResponseBody body) {
        this.body = body;
        this.port = body.exchange.streamPort();
        this.pingNanos = port.pingInterval().toNanos();
        this.scheduler = port.scheduler();
        this.lastEventId = port.request().header("Last-Event-ID").orElse(null);
    }

    /**
     * Opens a session on {@code stream} and hands it to {@code handler} (the producer of
     * {@link Response#sse}); an exception from the handler ends the stream.
     */
    static void open(ResponseStream stream, Response.SseHandler handler) throws Exception {
        SseSession s = new SseSession((StreamedResponseBody) stream);
        s.lastSent = System.nanoTime();
        s.body.closed().whenComplete((v, e) -> s.ended());
        s.port.opened(s);
        s.armPing(s.pingNanos);
        handler.open(s);
    }

    /**
     * Streams a topic's messages that match {@code pattern}, each as the event {@code toEvent}
     * makes of it with the message id as its {@code id}. A request with a
     * {@code Last-Event-ID} that is a message id ({@link MessageId#parse}) first gets what the topic's replay buffer holds after that id (a
     * {@code lost} event first if some of it is gone), then the live messages, none twice. Delivery
     * follows writability: while the client cannot take more, messages wait in the subscription's
     * bounded queue and the topic's overflow policy decides what is dropped; a drop is announced
     * by a {@code lost} event before the next message, never a silent gap.
     */
    /** @param pattern a topic pattern @throws IllegalArgumentException if it is malformed */
    static void checkPattern(String pattern) {
        LocalTopic.checkPattern(pattern);
    }

    @SuppressWarnings("unchecked")
    static <T> void attach(ResponseStream stream, Response.Body.TopicEvents events) throws Exception {
        String pattern = events.pattern();
        LocalTopic.checkPattern(pattern);
        if (!(events.topic() instanceof StreamSource<?>)) {
            throw new IllegalArgumentException(events.topic() + " cannot stream as events: its backend offers no back-pressured subscription");
        }
        Topic<T> local = (Topic<T>) events.topic();
        Function<Topic.Message<T>, SseEvent> toEvent = (Function<Topic.Message<T>, SseEvent>) events.toEvent();
        open(stream, s -> {
            SseSession session = (SseSession) s;
            session.scheduler.execute(() -> session.pump(local, pattern, toEvent));
        });
    }

    /** Runs on the transport's thread, as does every delivery after it: the counters need no lock. */
    private <T> void pump(Topic<T> topic, String pattern, Function<Topic.Message<T>, SseEvent> toEvent) {
        if (!isOpen()) return;
        CompletableFuture<Void> replayed = new CompletableFuture<>();
        MessageId[] lastSent = {MessageId.ZERO};
        long[] droppedSeen = {0};
        @SuppressWarnings("unchecked")
        Subscription<T>[] sub = new Subscription[1];
        Function<Topic.Message<T>, CompletionStage<?>> deliver = m -> {
            if (!m.id().isAfter(lastSent[0])) return null; // sent by the replay already
            lastSent[0] = m.id();
            CompletionStage<Void> lost = null;
            boolean more = false;
            if (sub[0] != null) {
                Subscription.Stats stats = sub[0].stats();
                more = stats.pending() > 0; // a backlog: its messages may share one flush
                if (stats.dropped() > droppedSeen[0]) {
                    lost = send(lostEvent(stats.dropped() - droppedSeen[0], "dropped: this client fell behind (topic overflow policy)"), true);
                    droppedSeen[0] = stats.dropped();
                }
            }
            CompletionStage<Void> sent = send(toEvent.apply(m).id(m.id().toString()), more);
            return lost == null ? sent : lost.thenCombine(sent, (a, b) -> null);
        };
        sub[0] = ((StreamSource<T>) topic).subscribeAsync(scheduler, m -> replayed.isDone() ? deliver.apply(m)
                : replayed.thenCompose(v -> {
                    CompletionStage<?> st = deliver.apply(m);
                    return st == null ? CompletableFuture.completedFuture(null) : st;
                }), pattern);
        onClose(sub[0]::close);
        sub[0].closed().whenComplete((reason, e) -> close());
        MessageId after = MessageId.parse(lastEventId).orElse(null);
        if (after == null) {
            replayed.complete(null);
            return;
        }
        // A store elsewhere answers later: the rest runs on this stream's thread again, as sends must.
        topic.replayAsync(after).whenCompleteAsync((replay, failed) -> {
            if (failed != null) {
                send(SseEvent.data("the messages after id " + after + " could not be read (" + failed.getMessage() + ")").event("lost"))
                        .whenComplete((v, e) -> replayed.complete(null));
                return;
            }
            CompletionStage<?> chain = replay.lost() != 0
                    ? send(lostEvent(replay.lost(), "no longer kept after id " + after))
                    : CompletableFuture.completedFuture(null);
            for (Topic.Message<T> m : replay.messages()) {
                if (!LocalTopic.matches(pattern, m.subject())) continue;
                chain = chain.thenCompose(v -> {
                    CompletionStage<?> st = deliver.apply(m);
                    return st == null ? CompletableFuture.completedFuture(null) : st;
                });
            }
            chain.whenComplete((v, e) -> replayed.complete(null));
        }, scheduler);
    }

    /** The {@code lost} event: how many messages this client will not see ({@code -1}: some), and why. */
    static SseEvent lostEvent(long count, String why) {
        return SseEvent.data((count < 0 ? "some" : Long.toString(count)) + " " + why).event("lost");
    }

    @Override
    public CompletionStage<Void> send(SseEvent event) {
        return send(event, false);
    }

    /** @param more whether another event follows at once (a topic's backlog): the transport may flush both together */
    private CompletionStage<Void> send(SseEvent event, boolean more) {
        if (!body.isOpen()) return CompletableFuture.failedFuture(new ClosedChannelException());
        lastSent = System.nanoTime();
        return body.write(event.encode(), more);
    }

    @Override
    public String lastEventId() {
        return lastEventId;
    }

    @Override
    public boolean isOpen() {
        return body.isOpen();
    }

    @Override
    public void onClose(Runnable action) {
        synchronized (this) {
            if (!ended) {
                onClose.add(action);
                return;
            }
        }
        run(action);
    }

    @Override
    public void close() {
        body.close();
    }

    /** A graceful stop began: the last event, then the end of the stream. */
    @Override
    public void serverStopping() {
        if (!body.isOpen()) return;
        send(SHUTDOWN);
        body.close();
    }

    private void armPing(long delayNanos) {
        if (!body.isOpen()) return;
        try {
            ping = scheduler.schedule(this::pingDue, delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            body.close(); // the transport is shutting down
        }
    }

    private void pingDue() {
        if (!body.isOpen()) return;
        long quiet = System.nanoTime() - lastSent;
        if (quiet >= pingNanos) {
            lastSent = System.nanoTime();
            // A write to a client that vanished without a FIN fails sooner or later: that is how
            // the stream notices it on a quiet topic.
            body.write(PING);
            armPing(pingNanos);
        } else {
            armPing(pingNanos - quiet);
        }
    }

    private void ended() {
        List<Runnable> actions;
        synchronized (this) {
            if (ended) return;
            ended = true;
            actions = new ArrayList<>(onClose);
            onClose.clear();
        }
        ScheduledFuture<?> p = ping;
        if (p != null) p.cancel(false);
        port.ended(this);
        for (Runnable a : actions) run(a);
    }

    private static void run(Runnable action) {
        try {
            action.run();
        } catch (Throwable t) {
            LOG.warn("an event stream's onClose action failed", t);
        }
    }
}
