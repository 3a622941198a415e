package dev.tidemill.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ./tidemill bench loops}: the event-loop matrix, after the reference's (rsloop's) write-up.
 * Micro rows (callbacks and tasks) on Tidemill's worker loop, Netty's event loops and the JDK's
 * executors, each cell in a fresh JVM ({@link LoopsMicro}); network rows (TCP round trips, HTTP
 * keep-alive, HTTP over TLS, WebSocket echo plain and over TLS, short connections) against every
 * server column ({@link LoopsTargets}), each cell a server started for it ({@link LoopsMeasure}).
 * Every cell: the median of the timed runs after the warm-ups, with min-max, CPU per operation,
 * peak RSS and context switches per operation. The full form measures everything twice (the
 * second pass after the whole first, each cell in a new process) and flags a median that moved by
 * more than {@link LoopsSettings#RERUN_TOLERANCE_PERCENT}; {@code --quick} does so with
 * {@code --rerun}. Writes {@code <UTC>-loops.json} and {@code .md} ({@link LoopsPage}).
 */
public final class LoopsSuite {
    /**
     * What the suite wrote.
     *
     * @param suite {@code loops} or {@code loops-quick}
     * @param quick whether it was a quick run
     * @param startedUtc start
     * @param finishedUtc end
     * @param command the command line
     * @param fingerprint host and software
     * @param preflight checks
     * @param configuration settings and method
     * @param plannedSeconds the duration announced at the start
     * @param elapsedSeconds the duration it took
     * @param cells every cell of every pass
     * @param reruns per cell measured twice, the change of its median
     * @param autoRule the transport rule the network rows support for Tidemill
     * @param notMeasured the first pass's cells that are n/a or failed, and why
     * @param failures what fails the run: failed cells, and flagged reruns
     */
    public record Result(String suite, boolean quick, String startedUtc, String finishedUtc, String command, Map<String, Object> fingerprint,
                         List<Check> preflight, Map<String, Object> configuration, long plannedSeconds, long elapsedSeconds,
                         List<LoopsCell> cells, List<LoopsReport.Rerun> reruns, LoopsReport.AutoRule autoRule, List<String> notMeasured,
                         List<String> failures) {}

    private final LoopsSettings settings;
    private final String command;
    private final PrintStream out;

    /**
     * @param settings the options
     * @param command the command line, as recorded
     * @param out progress
     */
    public LoopsSuite(LoopsSettings settings, String command, PrintStream out) {
        this.settings = settings;
        this.command = command;
        this.out = out;
    }

    /**
     * Runs every pass, writes the files.
     *
     * @return the JSON file
     * @throws IllegalStateException after writing them, when a cell failed; before anything, when a tool is missing
     */
    public Path run() {
        List<String> tools = new ArrayList<>(List.of("taskset", "openssl"));
        if (settings.syscalls()) tools.add("strace");
        List<String> missing = tools.stream().filter(t -> Host.executable(t).isEmpty()).toList();
        if (!missing.isEmpty()) throw new IllegalStateException("loops: missing " + String.join(", ", missing) + " (Debian: util-linux, openssl, strace)");
        long t0 = System.nanoTime();
        String started = Instant.now().toString();
        CpuSets cpus = CpuSets.derive();
        List<LoopsRow> micro = settings.rows().stream().filter(LoopsRow::micro).toList();
        List<LoopsRow> network = settings.rows().stream().filter(r -> !r.micro()).toList();
        long planned = plannedSeconds(settings);
        out.printf(Locale.ROOT, "loops: planned about %d min %02d s: %d micro cells x %d executors and %d network rows x %d servers, %d pass(es), "
                        + "%d warm-up(s) + %d run(s) per cell, %d s priming per network cell; server CPUs %s, client CPUs %s%n",
                planned / 60, planned % 60, micro.size(), settings.executors().size(), network.size(), settings.servers().size(),
                settings.passes(), settings.warmups(), settings.runs(), settings.primeSeconds(), cpus.serverList(), cpus.clientList());
        List<Check> preflight = Preflight.run(cpus, LoopsRow.NETWORK_CONNECTIONS);
        preflight.stream().filter(Check::failed).forEach(c -> out.println("preflight FAIL " + c.name() + ": " + c.reading()));
        Map<String, Object> fingerprint = Fingerprint.take(cpus);
        Path work;
        try {
            work = Files.createTempDirectory("tidemill-bench-loops-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path certs = TlsCertificates.make(work.resolve("certs")).get(TlsCase.TlsKey.P256);
        LoopsMeasure measure = new LoopsMeasure(settings, cpus, certs, work, out);
        List<LoopsCell> cells = new ArrayList<>();
        for (int pass = 1; pass <= settings.passes(); pass++) {
            for (LoopsRow row : micro) {
                for (String executor : settings.executors()) cells.add(report(measure.micro(pass, row, executor)));
            }
            for (LoopsRow row : network) {
                for (String server : settings.servers()) cells.add(report(measure.network(pass, row, server)));
            }
        }
        List<LoopsReport.Rerun> reruns = LoopsReport.reruns(cells);
        List<String> failures = new ArrayList<>();
        cells.stream().filter(c -> c.status().equals(LoopsCell.FAILED))
                .forEach(c -> failures.add(c.row() + " / " + c.column() + " (pass " + c.pass() + "): " + c.reason()));
        reruns.stream().filter(LoopsReport.Rerun::flagged).forEach(r -> out.printf(Locale.ROOT, "rerun flagged: %s / %s moved %+.1f %%%n",
                r.row(), r.column(), r.changePercent()));
        long elapsed = Math.round((System.nanoTime() - t0) / 1e9);
        Result result = new Result(settings.suite(), settings.quick(), started, Instant.now().toString(), command, fingerprint, preflight,
                configuration(cpus), planned, elapsed, List.copyOf(cells), reruns, LoopsReport.autoRule(cells, settings.quick()),
                LoopsReport.notMeasured(cells), List.copyOf(failures));
        Path json = ResultFile.write(settings.outDir(), result.suite(), result, LoopsPage.of(result));
        out.println();
        out.print(LoopsReport.matrix(cells, true, settings.executors(), settings.quick()));
        out.println();
        out.print(LoopsReport.matrix(cells, false, settings.servers(), settings.quick()));
        out.println();
        out.println(result.autoRule().text());
        out.printf(Locale.ROOT, "took %d min %02d s (planned %d min %02d s)%n", elapsed / 60, elapsed % 60, planned / 60, planned % 60);
        if (!failures.isEmpty()) throw new IllegalStateException("loops: the run failed (" + String.join("; ", failures) + "); results in " + json);
        return json;
    }

    private LoopsCell report(LoopsCell c) {
        if (c.ok()) {
            out.printf(Locale.ROOT, "  pass %d %-13s %-22s %9s ms (%s-%s)  %8.2f us CPU/op  %6.1f MiB  %.2f+%.2f cs/op%s%n", c.pass(), c.row(), c.column(),
                    LoopsReport.ms(c.medianMs()), LoopsReport.ms(c.minMs()), LoopsReport.ms(c.maxMs()), c.cpuUsPerOp(), c.peakRssKib() / 1024.0,
                    c.voluntaryPerOp(), c.involuntaryPerOp(), Double.isNaN(c.syscallsPerOp()) ? ""
                            : String.format(Locale.ROOT, "  %.2f syscalls/op", c.syscallsPerOp()));
        } else {
            out.printf(Locale.ROOT, "  pass %d %-13s %-22s %s: %s%n", c.pass(), c.row(), c.column(), c.status(), c.reason());
        }
        return c;
    }

    /**
     * What a run is expected to take, printed before it starts: per cell, a JVM's start and the idle
     * check before it, priming, and the runs at what each row took on the 2-CPU bench VM (the
     * slowest column's pace, so the estimate errs long).
     *
     * @param s the settings
     * @return seconds
     */
    static long plannedSeconds(LoopsSettings s) {
        double perPass = 0;
        int runs = s.warmups() + s.runs();
        for (LoopsRow row : s.rows()) {
            double run = runSeconds(row) / (s.quick() ? LoopsRow.QUICK_DIVISOR : 1);
            if (row.micro()) {
                long cells = row == LoopsRow.TASKS_VIRTUAL ? s.executors().stream().filter("jdk-virtual"::equals).count() : s.executors().size();
                perPass += cells * (MICRO_START_SECONDS + runs * run);
            } else {
                long cells = s.servers().stream().filter(c -> LoopsTargets.notServed(c, row).isEmpty()).count();
                perPass += cells * (SERVER_START_SECONDS + s.primeSeconds() + runs * run + (s.syscalls() ? STRACE_SLOWDOWN * run : 0));
            }
        }
        return Math.round(perPass * s.passes());
    }

    /** A micro JVM's start and the idle check before it, seconds. */
    static final double MICRO_START_SECONDS = 2.5;
    /** A server's start, its ports' wait, the check before timing, the idle check before it and its stop, seconds (4 to 7 on the bench VM). */
    static final double SERVER_START_SECONDS = 5;
    /** How many times slower a run is under strace. */
    static final double STRACE_SLOWDOWN = 5;

    /** @return what one full-count run of the row takes at the slowest column's pace, seconds */
    static double runSeconds(LoopsRow row) {
        return switch (row) {
            case CALLBACKS, TASKS_FUTURE, TASKS_LOOP, TASKS_VIRTUAL -> 1.0;
            case TCP -> 3.5;
            case HTTP -> 1.8;
            case HTTPS -> 5.0;
            case WS -> 2.5;
            case WSS -> 6.5;
            case SHORT -> 5.5;
        };
    }

    private Map<String, Object> configuration(CpuSets cpus) {
        Map<String, Object> conf = new LinkedHashMap<>();
        conf.put("rows", settings.rows().stream().map(r -> r.id() + ": " + r.title(settings.quick())).toList());
        conf.put("executors", settings.executors());
        Map<String, String> servers = new LinkedHashMap<>();
        settings.servers().forEach(s -> servers.put(s, LoopsTargets.describe(s)));
        conf.put("servers", servers);
        conf.put("serverCpus", cpus.serverList());
        conf.put("clientCpus", cpus.clientList());
        conf.put("threads", "one per server CPU: Netty event loops, Tidemill's I/O threads and worker loops (TIDEMILL_IO_THREADS, TIDEMILL_LOOPS), "
                + "Jetty's selectors, Vert.x's event loops; the micro rows' executors have one thread each");
        conf.put("warmups", settings.warmups());
        conf.put("runs", settings.runs());
        conf.put("primeSeconds", settings.primeSeconds());
        conf.put("passes", settings.passes());
        conf.put("rerunTolerancePercent", LoopsSettings.RERUN_TOLERANCE_PERCENT);
        conf.put("taskBatch", LoopsRow.TASK_BATCH);
        conf.put("wsSizes", LoopsWsClient.SIZES);
        conf.put("client", "blocking sockets on virtual threads, one per connection, every answer checked; "
                + "TLS by the JDK's SSLEngine (SSLSocket), the server's choice of version and cipher");
        conf.put("certificate", "ECDSA P-256, self-signed for localhost and 127.0.0.1, made with openssl at the start of the run");
        conf.put("syscalls", settings.syscalls() ? "strace -c -f -p <server> over one extra, untimed run per network cell" : "not counted (--syscalls)");
        conf.put("jvmFlags", String.join(" ", TargetCatalog.JVM_FLAGS));
        return conf;
    }
}
