package dev.tidemill.bench;

import java.io.PrintStream;

/** Progress on the terminal: target, round, scenario, elapsed and estimated remaining time. */
final class Progress {
    private final PrintStream out;
    private final long started = System.nanoTime();
    private final double plannedSeconds;
    private double doneSeconds;

    Progress(PrintStream out, double plannedSeconds) {
        this.out = out;
        this.plannedSeconds = plannedSeconds;
    }

    /** Counts planned work as done (remaining time shrinks by it even when a step was faster). */
    void done(double plannedStepSeconds) {
        doneSeconds += plannedStepSeconds;
    }

    void say(int round, int rounds, String target, String what) {
        double elapsed = (System.nanoTime() - started) / 1e9;
        out.printf("[%s elapsed, ~%s left] round %d/%d  %-16s %s%n", clock(elapsed),
                clock(Math.max(0, plannedSeconds - doneSeconds)), round, rounds, target, what);
        out.flush();
    }

    static String clock(double seconds) {
        long s = Math.round(seconds);
        return String.format("%d:%02d", s / 60, s % 60);
    }
}
