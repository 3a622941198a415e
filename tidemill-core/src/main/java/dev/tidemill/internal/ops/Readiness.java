package dev.tidemill.internal.ops;

import dev.tidemill.Health;
import dev.tidemill.ReadinessCheck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Readiness: every registered check, run at once on its own virtual thread (a slow check does not
 * delay the others, and a check that blocks on I/O holds no platform thread), each bounded by the
 * readiness timeout; failing while the server drains. The answer is a stage the handler returns,
 * so no thread waits for it.
 */
final class Readiness {
    /** One check's outcome: {@code up}, {@code down} (unhealthy or threw) or {@code timeout}. */
    record Outcome(String name, String status, String detail, long millis) {
        boolean up() {
            return status.equals("up");
        }
    }

    /** What {@code /readyz} answers: ready only when not draining and every check is up. */
    record Answer(boolean draining, List<Outcome> checks) {
        boolean ready() {
            return !draining && checks.stream().allMatch(Outcome::up);
        }
    }

    private final Map<String, ReadinessCheck> checks;
    /**
     * The last run of each check. A check still running from an earlier request (one that hangs) is
     * awaited again, not started again: a hung check holds one virtual thread, not one per probe.
     */
    private final Map<String, CompletableFuture<Outcome>> last = new java.util.concurrent.ConcurrentHashMap<>();
    private final long timeoutNanos;
    private final Executor threads = task -> Thread.ofVirtual().name("tidemill-readiness").start(task);
    private volatile BooleanSupplier draining = () -> false;

    /** @param checks by name, in registration order */
    Readiness(Map<String, ReadinessCheck> checks, Duration timeout) {
        this.checks = checks;
        this.timeoutNanos = timeout.toNanos();
    }

    void draining(BooleanSupplier flag) {
        draining = flag;
    }

    CompletableFuture<Answer> run() {
        boolean drainingNow = draining.getAsBoolean();
        List<CompletableFuture<Outcome>> running = new ArrayList<>(checks.size());
        checks.forEach((name, check) -> running.add(one(name, check)));
        return CompletableFuture.allOf(running.toArray(CompletableFuture[]::new))
                .thenApply(x -> new Answer(drainingNow || draining.getAsBoolean(),
                        running.stream().map(CompletableFuture::join).toList()));
    }

    private CompletableFuture<Outcome> one(String name, ReadinessCheck check) {
        CompletableFuture<Outcome> run = last.compute(name, (k, prev) -> prev != null && !prev.isDone() ? prev : start(name, check));
        // A copy carries the timeout, so the run itself stays reusable by the next request.
        return run.copy().completeOnTimeout(new Outcome(name, "timeout", "no answer within " + timeoutNanos / 1_000_000
                + " ms", timeoutNanos / 1_000_000), timeoutNanos, TimeUnit.NANOSECONDS);
    }

    private CompletableFuture<Outcome> start(String name, ReadinessCheck check) {
        long start = System.nanoTime();
        return CompletableFuture.supplyAsync(() -> {
                    Health h = check.check();
                    if (h == null) return new Outcome(name, "down", "the check returned null", elapsed(start));
                    return new Outcome(name, h.healthy() ? "up" : "down", h.detail(), elapsed(start));
                }, threads)
                // The exception's type only: its message may carry a connection string or a password.
                .exceptionally(e -> new Outcome(name, "down", "threw " + cause(e).getClass().getName(), elapsed(start)));
    }

    private static Throwable cause(Throwable e) {
        return e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
    }

    private static long elapsed(long start) {
        return (System.nanoTime() - start) / 1_000_000;
    }
}
