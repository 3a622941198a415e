package dev.tidemill.internal.http1;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A connection's deadlines behind one timer: one scheduled task at the earliest pending deadline,
 * whatever its kind. The request path only sets and clears fields ({@link #set}, {@link #clear});
 * the task re-arms itself when it fires, and reschedules only when a deadline moves earlier than
 * the one it waits for. So the common keep-alive request (idle cleared, request deadline set,
 * idle set again) costs field writes, not a timer per request. Time is the event loop's ticker,
 * so tests drive it with {@code EmbeddedChannel.advanceTimeBy}. Event-loop confined.
 */
final class ConnectionDeadlines {
    static final long NONE = Long.MAX_VALUE;

    /** What a deadline is for. */
    enum Kind {
        /** keep-alive connection with nothing in progress */
        IDLE,
        /** a request head that started but has not ended */
        HEADER_READ,
        /** the gap between two reads of a request body */
        BODY_STALL,
        /** discarding a refused request's body */
        DRAIN,
        /** a response the client takes none of */
        WRITE_STALL,
        /** the earliest in-flight request's timeout */
        REQUEST
    }

    /** Told when a deadline passes; may set new deadlines. */
    interface Expiry {
        void expired(Kind kind, long now);
    }

    private static final Kind[] KINDS = Kind.values();

    private final EventExecutor executor;
    private final Expiry owner;
    private final long[] at = new long[KINDS.length];
    private final Runnable fire = this::fire;
    private ScheduledFuture<?> timer;
    private long timerAt = NONE;
    private boolean firing;
    private boolean cancelled;
    /** While a read is being handled: the time it started, so a read reads the clock once. */
    private long readStart = NONE;

    ConnectionDeadlines(EventExecutor executor, Expiry owner) {
        this.executor = executor;
        this.owner = owner;
        java.util.Arrays.fill(at, NONE);
    }

    /** @return the current time, in the same nanos deadlines are set in (during a read: when it began) */
    long now() {
        long t = readStart;
        return t != NONE ? t : executor.ticker().nanoTime();
    }

    /**
     * @return {@link #now()} on {@link System#nanoTime()}'s scale, which the exchange's observers
     *     measure against: Netty's ticker counts from its own start ({@code initialNanoTime}), so
     *     its readings and {@code System.nanoTime()} differ by that origin
     */
    long nowAsSystemNanos() {
        return now() + executor.ticker().initialNanoTime();
    }

    /**
     * A read begins: until {@link #readEnded()}, {@link #now()} is this instant. Deadlines set while
     * handling a read are then relative to its start, off by at most the read's own duration, and
     * the read costs one clock read however many requests it holds.
     */
    void readBegan() {
        readStart = executor.ticker().nanoTime();
    }

    void readEnded() {
        readStart = NONE;
    }

    /** @param deadline when {@code kind} passes, from {@link #now()}; replaces an earlier setting */
    void set(Kind kind, long deadline) {
        at[kind.ordinal()] = deadline;
        arm(deadline);
    }

    /** Sets {@code kind} to now + {@code nanos}. */
    void after(Kind kind, long nanos) {
        set(kind, now() + nanos);
    }

    void clear(Kind kind) {
        at[kind.ordinal()] = NONE; // the timer may still fire for it: nothing is due then, it re-arms
    }

    boolean running(Kind kind) {
        return at[kind.ordinal()] != NONE;
    }

    long get(Kind kind) {
        return at[kind.ordinal()];
    }

    /** Stops the timer for good (the connection closed). */
    void cancel() {
        cancelled = true;
        if (timer != null) timer.cancel(false);
        timer = null;
    }

    private void arm(long deadline) {
        if (cancelled || firing || deadline >= timerAt) return; // while firing, fire() re-arms at the end
        if (timer != null) timer.cancel(false);
        timerAt = deadline;
        timer = executor.schedule(fire, Math.max(0, deadline - now()), TimeUnit.NANOSECONDS);
    }

    private void fire() {
        timer = null;
        timerAt = NONE;
        if (cancelled) return;
        long now = executor.ticker().nanoTime();
        firing = true;
        try {
            for (Kind k : KINDS) {
                int i = k.ordinal();
                if (at[i] <= now) {
                    at[i] = NONE;
                    owner.expired(k, now);
                    if (cancelled) return;
                }
            }
        } finally {
            firing = false;
        }
        long next = NONE;
        for (long d : at) next = Math.min(next, d);
        if (next != NONE) arm(next);
    }
}
