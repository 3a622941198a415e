package dev.tidemill.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Whether a result file's figures may be quoted without a word of warning: the commit it measured,
 * whether the working tree had changes on top of it ({@link Fingerprint}'s {@code gitCommit} says
 * {@code (with uncommitted changes)}), and which preflight checks failed, in the run or in any
 * invocation of a resumed one ({@code segments}). Pages that quote a figure from a run that is not
 * clean say so next to it, in the words of {@link #note()}; docs/performance.md gets them from
 * {@link PerformanceDoc}, and a test holds README.md and docs/ to it.
 *
 * @param commit the commit, without the suffix ({@code unknown} when the file has none)
 * @param uncommitted whether the tree had uncommitted changes in any invocation
 * @param failedChecks the failed checks, short ({@code load 1.65}, {@code wrk not on PATH}), each once
 */
record RunStatus(String commit, boolean uncommitted, List<String> failedChecks) {
    /** The words a page uses next to a figure from a run whose preflight failed. */
    static final String NOT_CLEAN = "not clean";
    /** The words a page uses next to a figure measured on a working tree with changes. */
    static final String UNCOMMITTED = "measured with uncommitted changes";

    private static final String SUFFIX = "(with uncommitted changes)";

    /**
     * @param json a result file of any suite
     * @return what its fingerprints and preflights record
     * @throws UncheckedIOException when it cannot be read
     */
    static RunStatus of(Path json) {
        JsonNode root;
        try {
            root = JsonMapper.builder().build().readTree(Files.readString(json));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<JsonNode> runs = new ArrayList<>();
        runs.add(root);
        root.path("segments").forEach(runs::add);
        String commit = "unknown";
        boolean uncommitted = false;
        double load = Double.NaN;
        List<String> failed = new ArrayList<>();
        for (JsonNode run : runs) {
            JsonNode c = run.path("fingerprint").path("gitCommit");
            if (c.isString()) {
                String text = c.asString();
                uncommitted |= text.contains(SUFFIX);
                if (commit.equals("unknown")) commit = text.replace(SUFFIX, "").strip();
            }
            for (JsonNode check : run.path("preflight")) {
                if (!check.path("verdict").asString("").equals("fail")) continue;
                String name = check.path("name").asString(""), reading = check.path("reading").asString("");
                if (name.equals("load per CPU") && reading.contains("= ")) {
                    // "1.65 1.51 1.30 1/101 15297 over 1 CPUs = 1.65": the figure after '=' is what the rule judged
                    double v = Double.parseDouble(reading.substring(reading.lastIndexOf("= ") + 2).strip());
                    load = Double.isNaN(load) ? v : Math.max(load, v);
                } else if (!failed.contains(name + " " + reading)) {
                    failed.add(name + " " + reading);
                }
            }
        }
        if (!Double.isNaN(load)) failed.addFirst(String.format(Locale.ROOT, "load %.2f", load));
        return new RunStatus(commit, uncommitted, List.copyOf(failed));
    }

    /** @return whether its figures need no note: preflight passed everywhere, no uncommitted changes */
    boolean clean() {
        return !uncommitted && failedChecks.isEmpty();
    }

    /**
     * @return what a page says next to a figure from it ({@code preflight: load 1.65, not clean};
     *     {@code measured with uncommitted changes}; both, joined by "; "), empty when it is clean
     */
    String note() {
        List<String> parts = new ArrayList<>();
        if (!failedChecks.isEmpty()) parts.add("preflight: " + String.join(", ", failedChecks) + ", " + NOT_CLEAN);
        if (uncommitted) parts.add(UNCOMMITTED);
        return String.join("; ", parts);
    }
}
