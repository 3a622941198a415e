package dev.tidemill.internal.ops;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One worker loop's queue waits: count and sum, written only by the loop's own thread (opaque
 * stores, plain moves on x86: no atomic, no shared line), read by a scrape through a
 * {@code FunctionTimer}.
 */
final class LoopWait {
    private static final VarHandle COUNT;
    private static final VarHandle NANOS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            COUNT = l.findVarHandle(LoopWait.class, "count", long.class);
            NANOS = l.findVarHandle(LoopWait.class, "nanos", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") private long count;
    @SuppressWarnings("unused") private long nanos;

    /** On the loop's thread. */
    void record(long waited) {
        COUNT.setOpaque(this, (long) COUNT.getOpaque(this) + 1);
        NANOS.setOpaque(this, (long) NANOS.getOpaque(this) + waited);
    }

    long count() {
        return (long) COUNT.getOpaque(this);
    }

    double nanos() {
        return (long) NANOS.getOpaque(this);
    }
}
