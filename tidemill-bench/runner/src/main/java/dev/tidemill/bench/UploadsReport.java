package dev.tidemill.bench;

import dev.tidemill.bench.UploadsSettings.Endpoint;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The uploads suite's result as Markdown (the page written next to the JSON, which
 * {@code bench report} puts into docs/performance.md) and the uploads goals judged from its rows:
 * per size and endpoint, Tidemill's best mode against every peer, on MB per server CPU second
 * (most wins) and peak RSS (lowest wins). Only clean rows count (every upload answered with the
 * right count); a case without a clean Tidemill row and a clean peer row is not judged.
 */
public final class UploadsReport {
    private UploadsReport() {}

    /**
     * One judged case.
     *
     * @param sizeBytes file bytes per upload
     * @param endpoint the endpoint's name
     * @param tidemill Tidemill's target with the most MB per server CPU second
     * @param tidemillMbPerCpuSecond its figure
     * @param peer the peer with the most
     * @param peerMbPerCpuSecond its figure
     * @param efficiencyMet whether Tidemill's is at least every peer's
     * @param tidemillLeanest Tidemill's target with the lowest peak RSS
     * @param tidemillPeakRssKb its peak RSS, KiB
     * @param leanestPeer the peer with the lowest
     * @param peerPeakRssKb its peak RSS, KiB
     * @param rssMet whether Tidemill's is at most every peer's
     */
    public record Goal(long sizeBytes, String endpoint, String tidemill, double tidemillMbPerCpuSecond, String peer, double peerMbPerCpuSecond,
                boolean efficiencyMet, String tidemillLeanest, long tidemillPeakRssKb, String leanestPeer, long peerPeakRssKb,
                boolean rssMet) {}

    /** @return whether a row is one of Tidemill's (its targets are named {@code tidemill-<mode>}) */
    static boolean tidemill(UploadsSuite.Row r) {
        return r.target().equals("tidemill") || r.target().startsWith("tidemill-");
    }

    /**
     * @param all every round's rows
     * @return per target, size and endpoint (in first-measured order) one row whose every figure is
     *     the median over its rounds; errors and wrong counts are summed, temp files left the most
     *     of any round, problems the first of each round
     */
    static List<UploadsSuite.Row> medians(List<UploadsSuite.RoundRow> all) {
        Map<String, List<UploadsSuite.Row>> byCase = new LinkedHashMap<>();
        for (UploadsSuite.RoundRow rr : all) {
            UploadsSuite.Row r = rr.row();
            byCase.computeIfAbsent(r.target() + " " + r.sizeBytes() + " " + r.endpoint(), k -> new ArrayList<>()).add(r);
        }
        List<UploadsSuite.Row> out = new ArrayList<>();
        for (List<UploadsSuite.Row> rs : byCase.values()) {
            UploadsSuite.Row f = rs.getFirst();
            if (rs.size() == 1) {
                out.add(f);
                continue;
            }
            double busy = median(rs, UploadsSuite.Row::clientCpusBusyPercent);
            List<String> problems = rs.stream().flatMap(r -> r.problems().stream().limit(3)).limit(10).toList();
            out.add(new UploadsSuite.Row(f.target(), f.endpoint(), f.sizeBytes(), f.framing(), f.connections(), Math.round(median(rs, UploadsSuite.Row::uploads)),
                    Math.round(median(rs, UploadsSuite.Row::fileBytes)), median(rs, UploadsSuite.Row::seconds), median(rs, UploadsSuite.Row::mbPerSec),
                    median(rs, UploadsSuite.Row::serverCpuSeconds), median(rs, UploadsSuite.Row::serverCpuMsPerMiB), median(rs, UploadsSuite.Row::mbPerServerCpuSecond),
                    Math.round(median(rs, UploadsSuite.Row::peakRssKb)), rs.stream().mapToLong(UploadsSuite.Row::errors).sum(),
                    rs.stream().mapToLong(UploadsSuite.Row::mismatches).sum(), rs.stream().mapToLong(UploadsSuite.Row::tempFilesLeft).max().orElse(0), busy,
                    busy >= HeavyLoadSuite.CLIENT_BOUND_PERCENT, problems));
        }
        return out;
    }

    /** @return the median of a figure over the rows ({@link Summary#median}: the mean of the middle two for an even count) */
    static double median(List<UploadsSuite.Row> rows, java.util.function.ToDoubleFunction<UploadsSuite.Row> figure) {
        return Summary.median(rows.stream().map(figure::applyAsDouble).toList());
    }

    /**
     * @param rows every case measured
     * @return the goals of each size and endpoint that has a clean Tidemill row and a clean peer row, in size then endpoint order
     */
    static List<Goal> goals(List<UploadsSuite.Row> rows) {
        List<Goal> out = new ArrayList<>();
        for (long size : rows.stream().map(UploadsSuite.Row::sizeBytes).distinct().sorted().toList()) {
            for (Endpoint e : UploadsSettings.ENDPOINTS) {
                List<UploadsSuite.Row> clean = rows.stream()
                        .filter(r -> r.sizeBytes() == size && r.endpoint().equals(e.name()) && r.clean()).toList();
                List<UploadsSuite.Row> ours = clean.stream().filter(UploadsReport::tidemill).toList();
                List<UploadsSuite.Row> peers = clean.stream().filter(r -> !tidemill(r)).toList();
                if (ours.isEmpty() || peers.isEmpty()) continue;
                Comparator<UploadsSuite.Row> efficiency = Comparator.comparingDouble(UploadsSuite.Row::mbPerServerCpuSecond);
                Comparator<UploadsSuite.Row> rss = Comparator.comparingLong(UploadsSuite.Row::peakRssKb);
                UploadsSuite.Row best = ours.stream().max(efficiency).orElseThrow(), bestPeer = peers.stream().max(efficiency).orElseThrow();
                UploadsSuite.Row lean = ours.stream().min(rss).orElseThrow(), leanPeer = peers.stream().min(rss).orElseThrow();
                out.add(new Goal(size, e.name(), best.target(), best.mbPerServerCpuSecond(), bestPeer.target(),
                        bestPeer.mbPerServerCpuSecond(), best.mbPerServerCpuSecond() >= bestPeer.mbPerServerCpuSecond(), lean.target(),
                        lean.peakRssKb(), leanPeer.target(), leanPeer.peakRssKb(), lean.peakRssKb() <= leanPeer.peakRssKb()));
            }
        }
        return out;
    }

    /**
     * @param goals the judged cases
     * @return the verdict on both goals, in a few lines
     */
    static String verdict(List<Goal> goals) {
        StringBuilder b = new StringBuilder("Goal: the most MB per server CPU second of every peer, and the lowest peak RSS; "
                + "Tidemill's best mode per case against every peer's clean row of the same size and endpoint.\n\n");
        if (goals.isEmpty()) {
            return b.append("No case had both a clean Tidemill row and a clean peer row: the goals were not judged.\n").toString();
        }
        long eff = goals.stream().filter(Goal::efficiencyMet).count(), rss = goals.stream().filter(Goal::rssMet).count();
        b.append(String.format(Locale.ROOT, "- Most MB per server CPU second: met in %d of %d cases (goal %s)",
                eff, goals.size(), eff == goals.size() ? "met" : "not met"));
        List<String> missed = goals.stream().filter(g -> !g.efficiencyMet()).map(g -> String.format(Locale.ROOT, "%s %s (%s %.1f, %s %.1f)",
                UploadsSettings.label(g.sizeBytes()), g.endpoint(), g.tidemill(), g.tidemillMbPerCpuSecond(), g.peer(),
                g.peerMbPerCpuSecond())).toList();
        b.append(missed.isEmpty() ? ".\n" : "; missed: " + String.join(", ", missed) + ".\n");
        b.append(String.format(Locale.ROOT, "- Lowest peak RSS: met in %d of %d cases (goal %s)", rss, goals.size(),
                rss == goals.size() ? "met" : "not met"));
        missed = goals.stream().filter(g -> !g.rssMet()).map(g -> String.format(Locale.ROOT, "%s %s (%s %s MiB, %s %s MiB)",
                UploadsSettings.label(g.sizeBytes()), g.endpoint(), g.tidemillLeanest(), mib(g.tidemillPeakRssKb()), g.leanestPeer(),
                mib(g.peerPeakRssKb()))).toList();
        b.append(missed.isEmpty() ? ".\n" : "; missed: " + String.join(", ", missed) + ".\n");
        return b.toString();
    }

    /**
     * @param rows the cases
     * @return the results table, by size, then endpoint, then target in the order measured
     */
    static String markdown(List<UploadsSuite.Row> rows) {
        List<String> order = rows.stream().map(UploadsSuite.Row::target).distinct().toList();
        List<String> endpoints = UploadsSettings.ENDPOINTS.stream().map(Endpoint::name).toList();
        List<UploadsSuite.Row> sorted = rows.stream().sorted(Comparator.comparingLong(UploadsSuite.Row::sizeBytes)
                .thenComparingInt(r -> endpoints.indexOf(r.endpoint())).thenComparingInt(r -> order.indexOf(r.target()))).toList();
        StringBuilder b = new StringBuilder("| size | endpoint | target | connections | uploads | MB/s | server CPU ms per MiB "
                + "| MB per server CPU s | peak RSS MiB | errors | notes |\n|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (UploadsSuite.Row r : sorted) {
            List<String> notes = new ArrayList<>();
            if (r.mismatches() > 0) notes.add(r.mismatches() + " wrong counts");
            if (r.tempFilesLeft() != 0) notes.add(r.tempFilesLeft() + " temp files left");
            if (r.clientBound()) notes.add(String.format(Locale.ROOT, "client-bound (generator CPUs %.0f %% busy)", r.clientCpusBusyPercent()));
            if (!r.problems().isEmpty() && (r.errors() > 0 || r.mismatches() > 0)) notes.add("e.g. " + r.problems().getFirst().replace("|", "\\|"));
            b.append(String.format(Locale.ROOT, "| %s | %s | %s | %d | %,d | %,.1f | %s | %s | %s | %,d | %s |%n", UploadsSettings.label(r.sizeBytes()),
                    r.endpoint(), r.target(), r.connections(), r.uploads(), r.mbPerSec(), number(r.serverCpuMsPerMiB(), "%.2f"),
                    number(r.mbPerServerCpuSecond(), "%,.1f"), mib(r.peakRssKb()), r.errors(), String.join("; ", notes)));
        }
        return b.toString();
    }

    /**
     * @param goals the judged cases
     * @return the per-case goals table
     */
    static String goalsTable(List<Goal> goals) {
        if (goals.isEmpty()) return "";
        StringBuilder b = new StringBuilder("| size | endpoint | Tidemill, most MB per server CPU s | best peer | met | "
                + "Tidemill, lowest peak RSS MiB | leanest peer | met |\n|---:|---|---|---|---|---|---|---|\n");
        for (Goal g : goals) {
            b.append(String.format(Locale.ROOT, "| %s | %s | %s %,.1f | %s %,.1f | %s | %s %s | %s %s | %s |%n",
                    UploadsSettings.label(g.sizeBytes()), g.endpoint(), g.tidemill(), g.tidemillMbPerCpuSecond(), g.peer(),
                    g.peerMbPerCpuSecond(), g.efficiencyMet() ? "yes" : "no", g.tidemillLeanest(), mib(g.tidemillPeakRssKb()),
                    g.leanestPeer(), mib(g.peerPeakRssKb()), g.rssMet() ? "yes" : "no"));
        }
        return b.toString();
    }

    /**
     * @param r the result
     * @return the page written next to the JSON
     */
    static String page(UploadsSuite.Result r) {
        Map<String, Object> c = r.configuration();
        StringBuilder b = new StringBuilder("# Tidemill bench, uploads suite" + (r.quick() ? " (quick)" : "") + ", " + r.startedUtc() + "\n\n");
        b.append(String.format(Locale.ROOT, "Each target serves `PUT /upload/discard` and `PUT /upload/disk` (the raw body streamed, "
                        + "counted and dropped, or streamed to a temp file that is then deleted) and `POST /multipart/discard` and "
                        + "`POST /multipart/disk` (`multipart/form-data` with one file part, the part streamed and dropped or to a temp "
                        + "file), each answering the bytes it read; the generator checks every answer against the bytes it sent, and a "
                        + "wrong count fails the run. Before timing, each endpoint is checked with 1 and 200,003 bytes, Content-Length "
                        + "and chunked. Sizes %s; %s bodies; %s connections below %s, %s at and above it. Small sizes: %s s warm-up, then "
                        + "%s s measured; large ones: %s uploads per connection warm-up, then %s measured. Generator: %s. MB/s and MB "
                        + "per server CPU second count the file's bytes (10^6 B; the multipart framing is not counted); server CPU is "
                        + "utime + stime of the server process over the measured window; peak RSS: %s. Temp files on %s. Server on CPUs "
                        + "%s, generator on CPUs %s; every JVM target with `%s`. Tidemill: %s. Command: `%s`.%n%n",
                String.join(", ", sizes(c)), c.get("framing"), c.get("connections"), UploadsSettings.label(UploadsSettings.LARGE_BYTES),
                c.get("largeConnections"), c.get("warmupSeconds"), c.get("durationSeconds"), c.get("largeWarmupPerConnection"),
                c.get("largeCountPerConnection"), c.get("generator"), c.get("peakRss"), c.get("tmpFilesystem"), c.get("serverCpus"),
                c.get("loadGeneratorCpus"), c.get("jvmFlags"), tidemillModes(c), r.command()));
        if (r.rounds() > 1) {
            b.append(String.format(Locale.ROOT, "%d rounds, each running every target once, the order rotated by one target per "
                    + "round; every figure of a row is the median over its rounds (errors and wrong counts summed), the goals are "
                    + "judged on those medians, and each round's rows are in the result file (`roundRows`).%n%n", r.rounds()));
        }
        b.append("## Results\n\n").append(markdown(r.rows()));
        b.append("\n## Goals\n\n").append(verdict(r.goals()));
        String table = goalsTable(r.goals());
        if (!table.isEmpty()) b.append('\n').append(table);
        if (!r.notMeasured().isEmpty()) {
            b.append("\n## Not measured\n\n");
            r.notMeasured().forEach(n -> b.append("- ").append(n).append('\n'));
        }
        if (!r.failures().isEmpty()) {
            b.append("\n## Failures\n\n");
            r.failures().forEach(n -> b.append("- ").append(n.replace("|", "\\|")).append('\n'));
        }
        return b.toString();
    }

    private static List<String> sizes(Map<String, Object> c) {
        Object s = c.get("sizes");
        if (!(s instanceof List<?> list)) return List.of(String.valueOf(s));
        return list.stream().map(v -> UploadsSettings.label(((Number) v).longValue())).toList();
    }

    private static String tidemillModes(Map<String, Object> c) {
        Object m = c.get("tidemillModes");
        if (!(m instanceof Map<?, ?> map) || map.isEmpty()) return "-";
        return String.join("; ", map.values().stream().map(String::valueOf).toList());
    }

    private static String number(double v, String format) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "-" : String.format(Locale.ROOT, format, v);
    }

    private static String mib(long kb) {
        return kb < 0 ? "-" : String.format(Locale.ROOT, "%.1f", kb / 1024.0);
    }
}
