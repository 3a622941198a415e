package dev.tidemill.bench;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The micro rows of the event-loop matrix, run in a fresh JVM per row and executor (the runner
 * starts it pinned to the server CPUs): {@code <row> <executor> <count> <batch> <warmups> <runs>}.
 * Each run gets a fresh executor ({@link LoopsExecutors}); the warm-ups run the same work first,
 * unrecorded, in the same JVM (a JVM compiles as it goes, so a warm-up is what lets the timed runs
 * measure the loop rather than the interpreter). Prints one line per run, {@code run <warmup|timed>
 * <n> <elapsed ns> <process CPU ns> <voluntary switches> <involuntary switches>}, then
 * {@code hwm <kB>} (VmHWM of {@code /proc/self/status}: the peak RSS of the whole process).
 *
 * <ul>
 *   <li>{@code callbacks}: one task on the executor schedules {@code count} callbacks on it in one
 *       batch (scheduling from inside, as a loop's {@code call_soon} does); the time runs until the
 *       last has run.</li>
 *   <li>{@code tasks-future}: {@code count} {@code CompletableFuture} chains, {@code supplyAsync}
 *       then {@code thenApplyAsync} on the executor (a task that yields to the loop once and resumes,
 *       as a coroutine awaiting {@code sleep(0)}), {@code batch} at a time, joined per batch.</li>
 *   <li>{@code tasks-loop}: the same shape without futures: a task that queues its continuation on
 *       the executor, which counts down the batch.</li>
 *   <li>{@code tasks-virtual}: {@code count} virtual threads that each {@code Thread.yield()} once,
 *       {@code batch} at a time, joined per batch (the JDK's own scheduler; the executor must be
 *       {@code jdk-virtual}).</li>
 * </ul>
 */
public final class LoopsMicro {
    /** The micro rows this class runs. */
    static final List<String> ROWS = List.of("callbacks", "tasks-future", "tasks-loop", "tasks-virtual");

    private static final com.sun.management.OperatingSystemMXBean CPU =
            (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();

    private LoopsMicro() {}

    /**
     * @param args see the class comment
     * @throws Exception if a run fails
     */
    public static void main(String[] args) throws Exception {
        String row = args[0], executor = args[1];
        int count = Integer.parseInt(args[2]), batch = Integer.parseInt(args[3]);
        int warmups = Integer.parseInt(args[4]), runs = Integer.parseInt(args[5]);
        for (int i = 0; i < warmups + runs; i++) {
            Reading r = once(row, executor, count, batch);
            System.out.println("run " + (i < warmups ? "warmup " + (i + 1) : "timed " + (i - warmups + 1)) + " " + r.nanos() + " "
                    + r.cpuNanos() + " " + r.switches().voluntary() + " " + r.switches().involuntary());
        }
        System.out.println("hwm " + peakKib());
    }

    /**
     * What one run took, the executor's start and stop left out (they are not what a loop does per task).
     *
     * @param nanos wall time
     * @param cpuNanos the process's CPU time, nanoseconds ({@code getProcessCpuTime()}: /proc's clock ticks are
     *     10 ms, as long as some whole runs)
     * @param switches the process's context switches
     */
    record Reading(long nanos, long cpuNanos, ContextSwitches switches) {}

    /** One run on a fresh executor. */
    static Reading once(String row, String executor, int count, int batch) throws Exception {
        if (row.equals("tasks-virtual")) return measured(() -> virtualThreads(count, batch));
        int burst = row.equals("callbacks") ? count + 1 : 2 * batch + 1;
        try (LoopsExecutors.Loop loop = LoopsExecutors.open(executor, burst)) {
            loop.execute(() -> { }); // the thread started (Netty starts its loop's thread on the first task)
            return switch (row) {
                case "callbacks" -> measured(() -> callbacks(loop, count));
                case "tasks-future" -> measured(() -> futures(loop, count, batch));
                case "tasks-loop" -> measured(() -> continuations(loop, count, batch));
                default -> throw new IllegalArgumentException("unknown row " + row + " " + ROWS);
            };
        }
    }

    /** A workload that may throw. */
    @FunctionalInterface
    interface Work {
        /** @throws Exception if it fails */
        void run() throws Exception;
    }

    private static Reading measured(Work work) throws Exception {
        long pid = ProcessHandle.current().pid();
        ContextSwitches s0 = ContextSwitches.of(pid);
        long c0 = CPU.getProcessCpuTime();
        long t0 = System.nanoTime();
        work.run();
        long nanos = System.nanoTime() - t0;
        long cpu = CPU.getProcessCpuTime() - c0;
        return new Reading(nanos, cpu, ContextSwitches.of(pid).since(s0));
    }

    private static void callbacks(LoopsExecutors.Loop loop, int count) throws Exception {
        AtomicInteger ran = new AtomicInteger();
        CompletableFuture<Void> done = new CompletableFuture<>();
        Runnable callback = () -> {
            if (ran.incrementAndGet() == count) done.complete(null);
        };
        loop.execute(() -> {
            for (int i = 0; i < count; i++) loop.execute(callback);
        });
        done.get();
    }

    private static void futures(LoopsExecutors.Loop loop, int count, int batch) {
        java.util.concurrent.Executor ex = loop::execute;
        for (int done = 0; done < count; done += batch) {
            int n = Math.min(batch, count - done);
            CompletableFuture<?>[] chains = new CompletableFuture<?>[n];
            for (int i = 0; i < n; i++) {
                int v = i;
                chains[i] = CompletableFuture.supplyAsync(() -> v, ex).thenApplyAsync(x -> x + 1, ex);
            }
            CompletableFuture.allOf(chains).join();
        }
    }

    private static void continuations(LoopsExecutors.Loop loop, int count, int batch) throws Exception {
        for (int done = 0; done < count; done += batch) {
            int n = Math.min(batch, count - done);
            AtomicInteger left = new AtomicInteger(n);
            CompletableFuture<Void> finished = new CompletableFuture<>();
            Runnable resume = () -> {
                if (left.decrementAndGet() == 0) finished.complete(null);
            };
            Runnable task = () -> loop.execute(resume);
            for (int i = 0; i < n; i++) loop.execute(task);
            finished.get();
        }
    }

    private static void virtualThreads(int count, int batch) throws InterruptedException {
        Runnable yieldOnce = Thread::yield;
        for (int done = 0; done < count; done += batch) {
            int n = Math.min(batch, count - done);
            Thread[] threads = new Thread[n];
            for (int i = 0; i < n; i++) threads[i] = Thread.ofVirtual().start(yieldOnce);
            for (Thread t : threads) t.join();
        }
    }

    /** @return VmHWM of this process, KiB (-1 when unreadable) */
    static long peakKib() {
        return UploadsSuite.peakRssKb(ProcessHandle.current().pid());
    }
}
