package dev.tidemill.internal.exchange;

import dev.tidemill.JsonCodec;
import dev.tidemill.Request;
import dev.tidemill.internal.codec.BodyBinder;
import dev.tidemill.internal.dispatch.ResponseBatcher;
import io.netty.channel.Channel;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What a long-lived stream (an event stream, a WebSocket connection) is given when it opens, and
 * all it may use of the server from then on: the transport's scheduler for its timers, the app's
 * codec and binder, its callbacks run through the one {@link Dispatcher} ({@link #callbacks}),
 * writes from other threads handed to the transport's loop through the one
 * {@link ResponseBatcher} ({@link #deliver}), and the draining flag. Beside {@link ReplySink},
 * which carries one exchange's answer, this is the other seam between the exchange and a
 * protocol: a stream keeps a port, never the exchange's context, once its exchange is answered.
 */
public final class StreamPort {
    private final Exchange exchange;
    private final ExchangeContext context;
    private final ScheduledExecutorService scheduler;

    StreamPort(Exchange exchange) {
        this.exchange = exchange;
        this.context = exchange.context();
        this.scheduler = exchange.sink().scheduler();
    }

    /** @return the request that opened the stream (its headers, parameters and path stay readable) */
    public Request request() {
        return exchange;
    }

    /** @return the transport's own thread as a scheduler, for the stream's timers (pings, heartbeats) */
    public ScheduledExecutorService scheduler() {
        return scheduler;
    }

    /** @return the app's JSON codec, for messages the stream sends */
    public JsonCodec json() {
        return context.json();
    }

    /** @return the binder that binds and validates what the stream receives */
    public BodyBinder binder() {
        return context.bodyBinder();
    }

    /** @return how long an event stream may stay silent before a ping ({@code Timeouts.ssePing}) */
    public Duration pingInterval() {
        return context.config().timeouts().ssePing();
    }

    /** @return whether a graceful stop has begun: a stream that opens now ends at once */
    public boolean draining() {
        return context.draining();
    }

    /**
     * @return a lane that runs this stream's callbacks one at a time, in order, in its route's
     *     execution mode, on the worker loop its exchange holds (LOOP)
     */
    public CallbackLane callbacks() {
        return context.dispatcher().lane(exchange.mode(), exchange.workerLoop());
    }

    /**
     * Hands a write from any thread to {@code channel}'s event loop, batched with the replies and
     * other writes bound there: one task and one flush per channel per burst.
     *
     * @param channel the stream's connection
     * @param write runs on the event loop; writes without flushing
     */
    public void deliver(Channel channel, Runnable write) {
        context.batcher(channel.eventLoop()).submit(channel, write);
    }

    /** @param s the stream, now open: a graceful stop ends it (at once if one has begun) */
    public void opened(OpenStream s) {
        context.streamOpened(s);
    }

    /** @param s the stream, now ended */
    public void ended(OpenStream s) {
        context.streamEnded(s);
    }

    /** The stream's connection ended: the concurrency slot held since its exchange is released. Idempotent. */
    public void released() {
        exchange.upgradeEnded();
    }
}
