package dev.tidemill.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The JDK AOT caches of the memory suite ({@code -XX:AOTCache}, JEP 483/514): which targets start
 * with one, and the training run that writes each cache just before its target is measured. Owns
 * the cache files, so {@link MemorySuite} only asks whether a target is cached and has it trained.
 */
final class AotTraining {
    /** Rounds of {@link Verifier#check} (every endpoint once) in a training run. */
    static final int ROUNDS = 3;
    /** How long a training run may take to exit: the JVM writes the cache (in a second JVM) as it exits. */
    static final long EXIT_SECONDS = 180;

    private record Cache(Target training, Path file) {}

    private final Map<String, Cache> caches = new LinkedHashMap<>();
    private final Path work;
    private final CpuSets cpus;
    private final PrintStream out;

    /**
     * @param work where the caches and the training runs' logs go
     * @param cpus where the training runs are pinned
     * @param out progress
     */
    AotTraining(Path work, CpuSets cpus, PrintStream out) {
        this.work = work;
        this.cpus = cpus;
        this.out = out;
    }

    /** @return {@code t} renamed with {@code suffix}, started with the cache its training run writes */
    Target cached(Target t, String suffix) {
        Path file = work.resolve(t.name() + ".aot");
        Target cached = MemorySuite.withFlag(t, "-XX:AOTCache=" + file);
        cached = new Target(t.name() + suffix, t.kind(), true, t.plaintextOnly(), cached.launch());
        caches.put(cached.name(), new Cache(MemorySuite.withFlag(t, "-XX:AOTCacheOutput=" + file), file));
        return cached;
    }

    /** @return whether {@code t} was made by {@link #cached} */
    boolean isCached(Target t) {
        return caches.containsKey(t.name());
    }

    /**
     * The training run of a {@link #cached} target: start it writing the cache, ask every endpoint
     * {@value #ROUNDS} times, stop it with SIGTERM and wait for the cache.
     *
     * @return what went wrong, or empty when the cache was written
     */
    Optional<String> train(Target t) {
        Cache c = caches.get(t.name());
        long t0 = System.nanoTime();
        try (RunningTarget running = RunningTarget.start(MemorySuite.withNmt(c.training()), cpus, work.resolve(t.name() + "-training"))) {
            MemorySuite.firstAnswer(running.port(), t0 + TimeUnit.SECONDS.toNanos(60));
            List<String> wrong = List.of();
            for (int i = 0; i < ROUNDS; i++) wrong = Verifier.check(running.port(), t.plaintextOnly());
            if (!wrong.isEmpty()) return Optional.of("training run answered wrong: " + wrong.get(0));
            boolean exited = running.stop(EXIT_SECONDS);
            if (!exited || !Files.isRegularFile(c.file())) {
                return Optional.of("training run wrote no AOT cache" + (exited ? "" : " (killed after "
                        + EXIT_SECONDS + " s)") + ": " + running.logTail().replace('\n', ' '));
            }
            out.printf(Locale.ROOT, "  AOT cache: %,d KiB, written by a training run of %.1f s%n",
                    Files.size(c.file()) / 1024, (System.nanoTime() - t0) / 1e9);
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.of("training failed: " + e.getMessage());
        }
    }

    /** @return whether a line of a JVM's output says it could not use its AOT cache */
    static boolean refused(String line) {
        String l = line.toLowerCase(Locale.ROOT);
        return (l.contains("aot") || l.contains("cds") || l.contains("shared archive"))
                && (l.contains("warning") || l.contains("error") || l.contains("mismatch") || l.contains("disabled"));
    }
}
