package dev.tidemill.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What a child process of the controllers suite's start-up and javac parts did ({@link ControllersStartup},
 * {@link ControllersJavac}): its exit, its output, and the time from launch to exit.
 *
 * @param exit the exit value
 * @param output its output, standard error included
 * @param seconds from launch to exit
 */
record TimedProcess(int exit, String output, double seconds) {

    /**
     * Runs a command to its end, its output to {@code log} too, timed from launch to exit. The
     * environment's {@code TIDEMILL_*} variables are removed: Tidemill refuses the ones it does not know.
     *
     * @throws IllegalStateException when it does not finish in {@code timeoutSeconds} (it is killed)
     */
    static TimedProcess run(List<String> cmd, Path log, int timeoutSeconds) {
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
            pb.environment().keySet().removeIf(k -> k.startsWith("TIDEMILL_")); // Tidemill refuses unknown TIDEMILL_* variables
            long t0 = System.nanoTime();
            Process p = pb.start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("did not finish in " + timeoutSeconds + " s: " + String.join(" ", cmd));
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            return new TimedProcess(p.exitValue(), Files.readString(log), seconds);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** @return the last 20 lines of the output, for a message */
    String tail() {
        List<String> lines = output.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }
}
