package dev.tidemill.bench;

import java.util.Locale;

/** The memory suite's result as Markdown: the page written next to the JSON, and its tables. */
final class MemoryReport {
    private MemoryReport() { }

    static String page(MemorySuite.Result r) {
        return "# Tidemill bench, memory and start suite" + (r.quick() ? " (quick)" : "") + ", " + r.startedUtc() + "\n\n"
                + "Every JVM target with the same flags (`" + r.configuration().get("jvmFlags") + "`), pinned to server CPUs "
                + r.configuration().get("serverCpus") + ". RSS: " + r.configuration().get("rss") + "; live heap: "
                + r.configuration().get("heap") + "; native memory: " + r.configuration().getOrDefault("nmt", "not read")
                + ", every JVM target started with " + r.configuration().getOrDefault("memorySuiteFlags", "[]")
                + " in this suite only. First answer: " + r.configuration().get("firstResponse") + ", median of "
                + r.configuration().get("starts") + " start(s).\n\n" + markdown(r);
    }

    /**
     * @param r the result
     * @return both Markdown tables
     */
    public static String markdown(MemorySuite.Result r) {
        StringBuilder b = new StringBuilder("| target | first answer ms (median) | RSS idle MiB | live heap idle MiB "
                + "| NMT committed idle MiB (outside heap) | idle connections | RSS with them MiB | live heap with them MiB "
                + "| NMT committed with them MiB (outside heap) | RSS per connection KiB | live heap per connection KiB | notes |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (MemorySuite.TargetRow t : r.rows()) {
            b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %,d | %s | %s | %s | %s | %s | %s |%n", t.target(),
                    Double.isNaN(t.medianFirstResponseMs()) ? "-" : String.format(Locale.ROOT, "%.0f", t.medianFirstResponseMs()),
                    mib(t.rssIdleKb()), mib(t.heapIdleKb()), nmt(t.nmtIdle()), t.connectionsAnswered(), mib(t.rssConnectionsKb()),
                    mib(t.heapConnectionsKb()), nmt(t.nmtConnections()), kib(t.rssPerConnectionKb()),
                    kib(t.heapPerConnectionKb()), String.join("; ", t.notes())));
        }
        r.rows().stream().filter(t -> t.target().equals(TargetCatalog.BASELINE)).findFirst()
                .filter(base -> !Double.isNaN(base.medianFirstResponseMs())).ifPresent(base -> {
                    b.append("\nFirst answer / the baseline's (median): ");
                    b.append(String.join(", ", r.rows().stream().filter(t -> !Double.isNaN(t.medianFirstResponseMs()))
                            .filter(t -> t != base).map(t -> String.format(Locale.ROOT, "%s %.2fx", t.target(),
                                    t.medianFirstResponseMs() / base.medianFirstResponseMs())).toList()));
                    b.append(".\n");
                });
        if (r.rows().stream().anyMatch(t -> t.nmtIdle() != null)) {
            b.append("\nNative memory idle (NMT), committed MiB, largest categories (all in the JSON):\n\n"
                    + "| target | total | largest categories |\n|---|---:|---|\n");
            for (MemorySuite.TargetRow t : r.rows()) {
                if (t.nmtIdle() == null) continue;
                b.append("| ").append(t.target()).append(" | ").append(mib(t.nmtIdle().committedKb())).append(" | ")
                        .append(String.join(", ", t.nmtIdle().categoriesCommittedKb().entrySet().stream().limit(MemorySuite.TOP_CATEGORIES)
                                .map(e -> e.getKey() + " " + mib(e.getValue())).toList())).append(" |\n");
            }
        }
        b.append("\nTidemill LOOP, idle, by worker loops:\n\n| worker loops | RSS MiB | live heap MiB | threads |\n|---:|---:|---:|---:|\n");
        for (MemorySuite.LoopRow l : r.loops()) {
            b.append(String.format(Locale.ROOT, "| %d | %s | %s | %d |%n", l.loops(), mib(l.rssKb()), mib(l.heapKb()), l.threads()));
        }
        b.append(String.format(Locale.ROOT, "%nPer extra worker loop (least-squares slope): RSS %s KiB, live heap %s KiB.%n",
                Double.isNaN(r.rssPerLoopKb()) ? "-" : String.format(Locale.ROOT, "%.0f", r.rssPerLoopKb()),
                Double.isNaN(r.heapPerLoopKb()) ? "-" : String.format(Locale.ROOT, "%.0f", r.heapPerLoopKb())));
        return b.toString();
    }

    private static String nmt(MemorySuite.Nmt n) {
        return n == null ? "-" : mib(n.committedKb()) + " (" + mib(n.outsideHeapKb()) + ")";
    }

    private static String kib(double kb) {
        return Double.isNaN(kb) ? "-" : String.format(Locale.ROOT, "%.1f", kb);
    }

    private static String mib(long kb) {
        return kb < 0 ? "-" : String.format(Locale.ROOT, "%.1f", kb / 1024.0);
    }
}
