package dev.tidemill.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A server the suite measures.
 *
 * @param name its name on the command line and in results ({@code tidemill-io}, {@code baseline}...)
 * @param kind {@code tidemill}, {@code baseline}, {@code peer} or {@code native}
 * @param jvm whether it is a JVM (gets the common JVM flags and the long warm-up)
 * @param plaintextOnly whether it serves only {@code /plaintext} (nginx)
 * @param launch builds the command line and environment for a port
 */
public record Target(String name, String kind, boolean jvm, boolean plaintextOnly, Launch launch) {

    /** Builds how a target is started. */
    @FunctionalInterface
    public interface Launch {
        /**
         * @param port the port to bind on 127.0.0.1
         * @param ioThreads I/O threads matching the server CPU set
         * @param workDir a scratch directory for this start
         * @return the command line (without taskset) and environment additions
         */
        Command at(int port, int ioThreads, Path workDir);
    }

    /**
     * A command line with its environment additions.
     *
     * @param argv the command line
     * @param env variables added to a clean environment
     */
    public record Command(List<String> argv, Map<String, String> env) {}

    /**
     * @param scenario a scenario
     * @return whether this target runs it
     */
    public boolean runs(ScenarioRun scenario) {
        return !plaintextOnly || scenario.plaintextOnly();
    }
}
