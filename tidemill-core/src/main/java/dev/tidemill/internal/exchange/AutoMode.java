package dev.tidemill.internal.exchange;

import dev.tidemill.ExecutionMode;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link ExecutionMode#AUTO} for one route: the mode its handler runs in now, and the measurements
 * that move it. The dispatcher asks {@link #next} where to run each call; the invoker times the call
 * ({@link #before}, {@link #after}) until the handler returns. The thresholds come from the
 * handler-cost sweep ({@code ./tidemill bench sweep}, the run in
 * {@code bench/results/20261130T115737Z-sweep.json}; docs/execution-modes.md reads it):
 *
 * <ul>
 *   <li>Start on VIRTUAL: in the sweep it costs what LOOP costs on every CPU-bound row, and serves a
 *       handler that blocks 2 ms at 47x LOOP's rate. A handler of unknown cost is safest there.</li>
 *   <li>A call waited when its wall time, less its CPU time and less the time it was preempted
 *       ({@link ThreadClocks}), is {@value #STALL_NANOS} ns or more and more than its CPU time: a lock,
 *       I/O, a sleep. 1 ms is half the sweep's shortest blocking row, and 50x the I/O ceiling.</li>
 *   <li>VIRTUAL to LOOP: every {@code probeAfter} calls (from {@value #PROBE_AFTER_CALLS}) one call
 *       runs on a worker loop as a probe, timed (a virtual thread has no clocks of its own). It did
 *       not wait: the route moves to LOOP. It waited: it stays, and the next probe waits twice as long.</li>
 *   <li>LOOP to VIRTUAL: at the second timed call that waited within {@value #WATCH_CALLS} calls (one
 *       wait may be the host's: a virtual CPU descheduled, a safepoint; the calls after a long one
 *       are all timed, so a handler that blocks each time moves by its third call). LOOP to IO: after {@code promoteAfter}
 *       calls in a row (from {@value #PROMOTE_AFTER_CALLS}) where none waited and at most one timed
 *       call in 8 took {@value #IO_CEILING_NANOS} ns of CPU or more (a first run in the interpreter,
 *       a cold cache). In the sweep IO
 *       beats LOOP by 43 % with no work and by 7 % at 10 us of CPU, and loses its p99 from 50 us on
 *       (14.8 ms against 12.1 ms; 126 ms against 20 ms at 100 us): 20 us is the ceiling.</li>
 *   <li>IO to VIRTUAL at the first timed call that waited; IO to LOOP at the first call that held the
 *       I/O thread {@value #STALL_NANOS} ns (preemption and collections not counted), or when
 *       {@value #OVER_CEILING_SAMPLES} timed calls in a row reach the ceiling (one that does makes
 *       the calls after it timed, so this takes a few calls). Each move off IO doubles
 *       {@code promoteAfter}.</li>
 * </ul>
 *
 * The clocks cost system calls ({@link ThreadClocks}), so one call in {@value #SAMPLE_EVERY} is timed,
 * and one in {@value #LONG_EVERY} while calls take {@value #TIMED_CALL_NANOS} ns or more (where the
 * reads are a small part of the call), and the
 * {@value #WATCH_CALLS} calls after a long call that was not ({@value #PREEMPTED_WATCH_CALLS} when the
 * thread's run-queue delay explains it). The wall clock is read on every call,
 * so the first long call is seen. Counters are plain fields written by whichever thread ran the call:
 * a lost update delays a move by a call, nothing worse; moves are synchronized.
 */
public final class AutoMode {
    private static final Logger LOG = LoggerFactory.getLogger(AutoMode.class);

    /** Where a route in AUTO starts. */
    static final ExecutionMode START = ExecutionMode.VIRTUAL;
    /** One call in this many is timed: CPU time and run-queue delay (a power of two). */
    static final int SAMPLE_EVERY = 256;
    /** Calls timed after a long call that was not: a handler that waits again is caught within them. */
    static final int WATCH_CALLS = 64;
    /** Calls timed after a long call that was not, when the thread's run-queue delay explains it. */
    static final int PREEMPTED_WATCH_CALLS = 2;
    /** While calls take {@link #TIMED_CALL_NANOS} or more, one in this many is timed (a power of two). */
    static final int LONG_EVERY = 4;
    /** CPU time per call under which a handler may run on the I/O thread, in nanoseconds. */
    static final long IO_CEILING_NANOS = 20_000;
    /** Off-CPU time in one call that makes it a stall, in nanoseconds. */
    static final long STALL_NANOS = 1_000_000;
    /** A call at least this long (wall, nanoseconds) makes the next call read the CPU clock. */
    static final long TIMED_CALL_NANOS = 200_000;
    /** Calls in a row, quiet, before the first promotion to IO. */
    static final long PROMOTE_AFTER_CALLS = 10_000;
    /** Calls on VIRTUAL before the first probe on a worker loop. */
    static final long PROBE_AFTER_CALLS = 256;
    /** Timed calls in a row at or over the ceiling that move a route off IO. */
    static final int OVER_CEILING_SAMPLES = 4;
    /** The most calls a back-off waits (promotion or probe), so a route is always re-examined. */
    static final long BACKOFF_CAP_CALLS = 1L << 24;

    private final String route;
    private volatile ExecutionMode current = START;
    private volatile String why = "start: cost unknown, VIRTUAL serves any handler";
    private volatile String reason = "start";
    private volatile long moves;
    private final AtomicBoolean probing = new AtomicBoolean();
    private long calls;
    private long quiet;
    private long timedInWindow;
    private long overInWindow;
    private long lastOver;
    private int overCeiling;
    private long lastWall;
    private int watch;
    private long secondStallBy = -1;
    private long sinceProbe;
    private long promoteAfter = PROMOTE_AFTER_CALLS;
    private long probeAfter = PROBE_AFTER_CALLS;

    /** @param route method and pattern, for the log */
    AutoMode(String route) {
        this.route = route;
    }

    /** @return where a route in AUTO starts */
    public static ExecutionMode start() {
        return START;
    }

    /** @return the mode the route's calls run in now */
    public ExecutionMode current() {
        return current;
    }

    /** @return why the route runs where it does, with the measurement that decided it */
    public String why() {
        return why;
    }

    /** @return the last decision's kind: start, not-blocking, blocking, short, cpu-bound or stall (for metrics) */
    public String reason() {
        return reason;
    }

    /** @return times the route moved */
    public long moves() {
        return moves;
    }

    /**
     * At dispatch, on the transport's thread: where this call runs. Sets the exchange's mode, and
     * whether the call is a probe of a worker loop.
     *
     * @param ex the exchange about to be dispatched
     * @return its mode
     */
    ExecutionMode next(Exchange ex) {
        ExecutionMode m = current;
        if (m == ExecutionMode.VIRTUAL && ++sinceProbe >= probeAfter && probing.compareAndSet(false, true)) {
            sinceProbe = 0;
            ex.probe = true;
            m = ExecutionMode.LOOP;
        }
        ex.mode = m;
        return m;
    }

    /** The probe did not run (no worker loop free, or the request ended first); a later call probes. */
    void probeNotRun(Exchange ex) {
        ex.probe = false;
        probing.set(false);
    }

    /**
     * A timed call's clocks at its start: its CPU time and the collection count; for a suspect call
     * (see {@link #before}) its run-queue delay too (else -1: the thread's since its clocks were last
     * read is taken at the end, and only if the call was long).
     */
    record Timing(ThreadClocks clocks, long cpu, long runDelay, long collections) {}

    /**
     * Before the handler, on its thread.
     *
     * @param ex the exchange
     * @return the clocks at the start when this call is timed, else null (most calls: wall time only)
     */
    Timing before(Exchange ex) {
        if (ex.mode == ExecutionMode.VIRTUAL) return null; // a virtual thread has no clocks of its own
        // A suspect call (a probe, one after a long call, one in a watch) may decide a move: it reads the
        // run-queue delay at its start too. The others only sample the CPU time.
        boolean suspect = ex.probe || watch > 0 || lastWall >= STALL_NANOS;
        if (watch > 0) watch--;
        boolean timed = suspect || (calls & (SAMPLE_EVERY - 1)) == 0 || lastWall >= TIMED_CALL_NANOS && (calls & (LONG_EVERY - 1)) == 0;
        if (!timed) return null;
        ThreadClocks c = ThreadClocks.mine();
        long gcs = c.collections(), delay = suspect ? c.runDelay() : -1; // before the CPU clock, so their cost is not the call's
        return new Timing(c, c.cpu(), delay, gcs);
    }

    /**
     * After the handler returned (or threw), on its thread.
     *
     * @param ex the exchange
     * @param wall the call's wall time, in nanoseconds
     * @param t what {@link #before} returned
     */
    void after(Exchange ex, long wall, Timing t) {
        calls++;
        lastWall = wall;
        long cpu = -1, waited = -1, held = wall;
        if (t != null) {
            cpu = Math.max(0, t.clocks().cpu() - t.cpu());
            if (wall - cpu >= STALL_NANOS) { // off the CPU long enough to be a wait: was it preempted, or paused?
                // on the CPU or waiting: not preempted, not stopped for a collection (-1 if one ran)
                long delay = t.runDelay() < 0 ? t.clocks().runDelaySinceLastRead() : Math.max(0, t.clocks().runDelay() - t.runDelay());
                held = t.clocks().collections() != t.collections() ? -1 : wall - delay;
                waited = held < 0 ? -1 : held - cpu;
            } else {
                waited = wall - cpu; // under the threshold: not a wait, whatever the rest
            }
        } else if (wall >= STALL_NANOS && ex.mode != ExecutionMode.VIRTUAL) {
            held = ThreadClocks.mine().heldSinceLastRead(wall); // never more than it held the thread; -1 if a pause may explain it
            // The next calls are timed, so a handler that waits again is caught. A long call the
            // run-queue delay explains (a preempted thread, every few milliseconds on a busy CPU)
            // watches two calls only: with 64 after each, AUTO took a quarter more server CPU per request
            // than the same placement chosen by hand in a first run of ./tidemill bench auto's mixed load.
            watch = held >= STALL_NANOS || held < 0 ? WATCH_CALLS : PREEMPTED_WATCH_CALLS;
        }
        if (ex.probe) {
            probed(ex, wall, cpu, waited);
            return;
        }
        if (ex.mode != current) return; // ran before the last move: it tells of the old mode
        switch (ex.mode) {
            case IO -> onIo(held, cpu, waited);
            case LOOP -> onLoop(wall, cpu, waited);
            default -> { } // VIRTUAL: no clocks; probes decide
        }
    }

    private void probed(Exchange ex, long wall, long cpu, long waited) {
        try {
            if (current != ExecutionMode.VIRTUAL) return;
            if (stalled(cpu, waited)) {
                probeAfter = Math.min(probeAfter * 2, BACKOFF_CAP_CALLS);
                set("blocking", "blocking: a call tried on a worker loop waited " + ms(waited) + " of " + ms(wall)
                        + "; next try in " + probeAfter + " calls");
                return;
            }
            move(ExecutionMode.VIRTUAL, ExecutionMode.LOOP, "not-blocking",
                    "not blocking: a call tried on a worker loop took " + us(cpu) + " CPU in " + us(wall));
        } finally {
            probeNotRun(ex);
        }
    }

    private void onLoop(long wall, long cpu, long waited) {
        if (stalled(cpu, waited)) {
            // One wait can be the host's (a virtual CPU descheduled, a safepoint other than a collection's):
            // the calls after it are timed, and a second within them moves the route.
            if (calls > secondStallBy) {
                secondStallBy = calls + WATCH_CALLS;
                watch = WATCH_CALLS;
                quiet = timedInWindow = overInWindow = 0;
                return;
            }
            probeAfter = Math.min(probeAfter * 2, BACKOFF_CAP_CALLS);
            move(ExecutionMode.LOOP, ExecutionMode.VIRTUAL, "stall",
                    "stall: a call waited " + ms(waited) + " of " + ms(wall) + " on a worker loop");
            return;
        }
        if (cpu < 0 && wall >= STALL_NANOS) { // long, not timed: the calls after it are (watch), and tell a wait from work
            quiet = timedInWindow = overInWindow = 0;
            return;
        }
        quiet++;
        if (cpu >= 0) {
            timedInWindow++;
            if (cpu >= IO_CEILING_NANOS) {
                overInWindow++;
                lastOver = cpu;
                if (!"cpu-bound".equals(reason)) set("cpu-bound", "CPU-bound: a timed call took " + us(cpu) + " CPU");
            }
        }
        if (quiet < promoteAfter) return;
        // A window of promoteAfter calls without a wait: IO if at most one timed call in 8 reached the
        // ceiling (a first run in the interpreter, a cold cache), else the handler computes: a new window.
        if (timedInWindow >= 8 && overInWindow * 8 <= timedInWindow) {
            move(ExecutionMode.LOOP, ExecutionMode.IO, "short", "short: " + quiet + " calls in a row, none waited, "
                    + (timedInWindow - overInWindow) + " of " + timedInWindow + " timed calls under " + us(IO_CEILING_NANOS) + " CPU");
        } else if (overInWindow > 0) {
            set("cpu-bound", "CPU-bound: " + overInWindow + " of " + timedInWindow + " timed calls took " + us(IO_CEILING_NANOS)
                    + " CPU or more (the last " + us(lastOver) + ")");
        }
        quiet = timedInWindow = overInWindow = 0;
    }

    private void onIo(long held, long cpu, long waited) {
        if (stalled(cpu, waited)) {
            promoteAfter = Math.min(promoteAfter * 2, BACKOFF_CAP_CALLS);
            move(ExecutionMode.IO, ExecutionMode.VIRTUAL, "stall", "stall: a call waited " + ms(waited) + " on an I/O thread");
            return;
        }
        if (held >= STALL_NANOS) { // the first call that holds the I/O thread this long leaves it at once
            promoteAfter = Math.min(promoteAfter * 2, BACKOFF_CAP_CALLS);
            move(ExecutionMode.IO, ExecutionMode.LOOP, cpu >= 0 ? "cpu-bound" : "stall", "held an I/O thread " + ms(held)
                    + (cpu >= 0 ? " computing (" + ms(cpu) + " CPU)" : "; the calls after it are timed on a worker loop"));
            return;
        }
        if (cpu < 0) return;
        if (cpu < IO_CEILING_NANOS) {
            overCeiling = 0;
            return;
        }
        watch = WATCH_CALLS; // one timed call over the ceiling may be an outlier: the next ones are timed, and confirm or not
        if (++overCeiling >= OVER_CEILING_SAMPLES) {
            promoteAfter = Math.min(promoteAfter * 2, BACKOFF_CAP_CALLS);
            move(ExecutionMode.IO, ExecutionMode.LOOP, "cpu-bound", "CPU-bound: " + overCeiling + " timed calls in a row took "
                    + us(IO_CEILING_NANOS) + " CPU or more on an I/O thread (the last " + us(cpu) + ")");
        }
    }

    /** @return whether a timed call waited rather than computed: 1 ms or more off the CPU and not preempted, and more than it computed */
    private static boolean stalled(long cpu, long waited) {
        return cpu >= 0 && waited >= STALL_NANOS && waited > cpu;
    }

    private synchronized void move(ExecutionMode from, ExecutionMode to, String kind, String text) {
        if (current != from) return; // another thread moved it first
        set(kind, text);
        quiet = timedInWindow = overInWindow = 0;
        overCeiling = 0;
        sinceProbe = 0;
        moves++;
        current = to;
        LOG.info("route {} (AUTO) moves {} -> {}: {}", route, from, to, text);
    }

    private void set(String kind, String text) {
        reason = kind;
        why = text;
    }

    private static String us(long nanos) {
        return String.format(Locale.ROOT, "%.1f us", nanos / 1e3);
    }

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
    }
}
