package dev.tidemill.internal.exchange;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A streamed body as a {@link Flow.Publisher} for one subscriber (Reactive Streams rules 1.x-3.x
 * as far as one subscriber needs): a piece is read only when the subscriber has demand, so demand
 * is what reads the socket; one read is in flight at a time; cancel stops reading.
 */
final class RequestBodyPublisher implements Flow.Publisher<ByteBuffer> {
    private final Supplier<CompletableFuture<ByteBuffer>> next;
    private final Runnable abandon;
    private final AtomicBoolean subscribed = new AtomicBoolean();

    RequestBodyPublisher(Supplier<CompletableFuture<ByteBuffer>> next, Runnable abandon) {
        this.next = next;
        this.abandon = abandon;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
        if (!subscribed.compareAndSet(false, true)) {
            subscriber.onSubscribe(new Flow.Subscription() {
                @Override public void request(long n) { }
                @Override public void cancel() { }
            });
            subscriber.onError(new IllegalStateException("a request body has one subscriber"));
            return;
        }
        new Pump(subscriber).start();
    }

    private final class Pump implements Flow.Subscription {
        private final Flow.Subscriber<? super ByteBuffer> subscriber;
        private final AtomicLong demand = new AtomicLong();
        /** A read is in flight, or the pump loop runs: only one at a time. */
        private final AtomicBoolean busy = new AtomicBoolean();
        private volatile boolean done;

        Pump(Flow.Subscriber<? super ByteBuffer> subscriber) {
            this.subscriber = subscriber;
        }

        void start() {
            subscriber.onSubscribe(this);
        }

        @Override
        public void request(long n) {
            if (done) return;
            if (n <= 0) {
                done = true;
                abandon.run();
                subscriber.onError(new IllegalArgumentException("request(" + n + "): rule 3.9 asks for a positive number"));
                return;
            }
            demand.getAndAccumulate(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b);
            pull();
        }

        @Override
        public void cancel() {
            if (done) return;
            done = true;
            abandon.run();
        }

        private void pull() {
            while (!done && demand.get() > 0 && busy.compareAndSet(false, true)) {
                CompletableFuture<ByteBuffer> f = next.get();
                if (f.isDone()) {
                    ByteBuffer piece = null;
                    Throwable error = null;
                    try {
                        piece = f.join();
                    } catch (RuntimeException e) {
                        error = e.getCause() != null ? e.getCause() : e;
                    }
                    deliver(piece, error);
                    busy.set(false);
                    continue; // loop rather than recurse: a body already buffered must not grow the stack
                }
                f.whenComplete((piece, error) -> {
                    deliver(piece, error);
                    busy.set(false);
                    pull();
                });
                return;
            }
        }

        private void deliver(ByteBuffer piece, Throwable error) {
            if (done) return;
            if (error != null) {
                done = true;
                subscriber.onError(error instanceof java.util.concurrent.CompletionException c && c.getCause() != null
                        ? c.getCause() : error);
            } else if (piece == null) {
                done = true;
                subscriber.onComplete();
            } else {
                demand.decrementAndGet();
                subscriber.onNext(piece);
            }
        }
    }
}
