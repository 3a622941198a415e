package dev.tidemill.bench;

import dev.tidemill.Mcp;
import dev.tidemill.bench.targets.TidemillMcpApp;
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
import java.util.Optional;

/**
 * {@code ./tidemill bench mcp}: what the MCP endpoint ({@code app.mcp()}) costs, on
 * {@link TidemillMcpApp}. Three parts, each on a new start of the server, each checked before it is
 * measured ({@link McpClient#check}):
 *
 * <ol>
 *   <li>CPU per call: wrk on {@code GET /items/7} ({@code plain}) and on a stateless {@code tools/call}
 *       of the same route's tool ({@code mcp}), in one server, each warmed up, then rounds alternating
 *       which goes first, with the server's CPU read from {@code /proc} over each window
 *       ({@link AuthSuite#measure}).</li>
 *   <li>Idle sessions: the server's used heap after a full GC before and with N sessions opened by
 *       {@code initialize}, and after ending them.</li>
 *   <li>Aborted calls: clients that send a call of the slow tool and close before its answer
 *       ({@link AbortedCalls}), then the server's sockets in CLOSE-WAIT ({@link SocketStates}).</li>
 * </ol>
 *
 * {@link McpReport} turns the rows into medians and the goals. Writes {@code <UTC>-mcp.json} and {@code .md}.
 */
public final class McpSuite {
    /** The CPU cases, in the first round's order. */
    static final List<String> CASES = List.of("plain", "mcp");
    /** Sessions opened and ended before the heap's first reading. */
    static final int WARM_SESSIONS = 200;

    /**
     * The idle sessions.
     *
     * @param opened sessions opened (200 with an Mcp-Session-Id, then 202 to the notification)
     * @param failed attempts that did not open one
     * @param seconds opening them took
     * @param heapBefore bytes of live objects before opening them ({@link JvmReadings#liveObjectBytes}: after a full GC)
     * @param heapWith the same with them open
     * @param heapAfterEnd the same once each was ended with a DELETE, -1 when unread
     * @param ended DELETEs answered 204
     * @param bytesPerSession (heapWith - heapBefore) / opened
     * @param rssBeforeKb the server's RSS before
     * @param rssWithKb the server's RSS with them open
     */
    public record Sessions(int opened, int failed, double seconds, long heapBefore, long heapWith, long heapAfterEnd, int ended,
                           double bytesPerSession, long rssBeforeKb, long rssWithKb) {}

    /**
     * The aborted calls.
     *
     * @param outcome what the clients did
     * @param concurrency clients at a time
     * @param closeAfterMillis how long each waited before closing
     * @param settleSeconds the wait before the second count
     * @param statesAtEnd the server's TCP sockets by state right after the last client
     * @param statesAfterSettle the same after the wait
     * @param closeWaitAtEnd those in CLOSE-WAIT right after the last client
     * @param closeWaitAfterSettle those in CLOSE-WAIT after the wait (the goal: 0)
     * @param answersAfter whether the server answered a tool call after the wait
     */
    public record Aborted(AbortedCalls.Outcome outcome, int concurrency, int closeAfterMillis, int settleSeconds,
                          Map<String, Integer> statesAtEnd, Map<String, Integer> statesAfterSettle, int closeWaitAtEnd,
                          int closeWaitAfterSettle, boolean answersAfter) {}

    /**
     * What the suite wrote.
     *
     * @param suite {@code mcp} or {@code mcp-quick}
     * @param quick whether it was a quick run
     * @param startedUtc start
     * @param finishedUtc end
     * @param command the command line
     * @param fingerprint host and software
     * @param preflight checks
     * @param configuration settings and method
     * @param targets per start: the part, command line, startup lines, checks
     * @param rows every CPU window
     * @param summary medians per case
     * @param differenceUs median of the per-round differences of server CPU per request, mcp minus plain
     * @param sessions the idle sessions, or null when not measured
     * @param aborted the aborted calls, or null when not measured
     * @param goals the goals and whether they were met
     * @param failures what fails the run
     */
    public record Result(String suite, boolean quick, String startedUtc, String finishedUtc, String command, Map<String, Object> fingerprint,
                         List<Check> preflight, Map<String, Object> configuration, List<Map<String, Object>> targets,
                         List<AuthSuite.Row> rows, List<McpReport.Summary> summary, double differenceUs, Sessions sessions,
                         Aborted aborted, List<AuthReport.Goal> goals, List<String> failures) {}

    private final McpSettings settings;
    private final String command;
    private final PrintStream out;
    private final List<AuthSuite.Row> rows = new ArrayList<>();
    private final List<Map<String, Object>> records = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();

    /**
     * @param settings the options
     * @param command the command line, as recorded
     * @param out progress
     */
    public McpSuite(McpSettings settings, String command, PrintStream out) {
        this.settings = settings;
        this.command = command;
        this.out = out;
    }

    /**
     * Runs the three parts, then writes the files.
     *
     * @return the JSON file
     * @throws IllegalStateException after writing them, when a part failed; before anything, when a tool is missing
     */
    public Path run() {
        List<String> missing = java.util.stream.Stream.of("wrk", "taskset").filter(t -> Host.executable(t).isEmpty()).toList();
        if (!missing.isEmpty()) throw new IllegalStateException("mcp: missing " + String.join(", ", missing) + " (Debian: wrk, util-linux)");
        String started = Instant.now().toString();
        CpuSets cpus = CpuSets.derive();
        List<Check> preflight = Preflight.run(cpus, Math.max(settings.connections(), settings.concurrency()));
        Preflight.requireLoadGenerator(preflight);
        preflight.stream().filter(Check::failed).forEach(c -> out.println("preflight FAIL " + c.name() + ": " + c.reading()));
        Map<String, Object> fingerprint = Fingerprint.take(cpus);
        Path work;
        try {
            work = Files.createTempDirectory("tidemill-bench-mcp-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.printf(Locale.ROOT, "mcp: %d round(s), %d s warm-up per case, %d s per window; %,d sessions; %,d aborted calls, %d at a time; "
                        + "server CPUs %s, generator CPUs %s%n", settings.rounds(), settings.warmupSeconds(), settings.durationSeconds(),
                settings.sessions(), settings.aborted(), settings.concurrency(), cpus.serverList(), cpus.clientList());
        Path script = Wrk.script(work.resolve("wrk"), "mcp.lua");
        part("cpu", () -> cpu(cpus, work.resolve("cpu"), script));
        Sessions sessions = part("sessions", () -> sessions(cpus, work.resolve("sessions")));
        Aborted aborted = part("aborted", () -> aborted(cpus, work.resolve("aborted")));
        List<McpReport.Summary> summary = McpReport.summarise(rows);
        double difference = McpReport.differenceUs(rows);
        List<AuthReport.Goal> goals = McpReport.goals(difference, summary, aborted);
        Result result = new Result(settings.suite(), settings.quick(), started, Instant.now().toString(), command, fingerprint, preflight,
                configuration(cpus), List.copyOf(records), List.copyOf(rows), summary, difference, sessions, aborted, goals,
                List.copyOf(failures));
        Path json = ResultFile.write(settings.outDir(), result.suite(), result, McpReport.page(result));
        out.println();
        out.print(McpReport.cpuTable(summary));
        if (sessions != null) out.print(McpReport.sessionsTable(sessions));
        if (aborted != null) out.print(McpReport.abortedTable(aborted));
        out.print(AuthReport.goalLines(goals));
        if (!failures.isEmpty()) throw new IllegalStateException("mcp: the run failed (" + String.join("; ", failures) + "); results in " + json);
        return json;
    }

    /** Runs a part; a failure is recorded and the next part still runs. @return its result, or null when it failed */
    private <T> T part(String name, java.util.function.Supplier<T> body) {
        try {
            return body.get();
        } catch (RuntimeException e) {
            out.println("FAILED " + name + ": " + e.getMessage());
            failures.add(name + ": " + e.getMessage());
            return null;
        }
    }

    /** @return the server, in IO mode as the other suites run Tidemill */
    static Target target() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new Target("tidemill", "tidemill", true, false, (port, threads, dir) -> new Target.Command(
                TlsTargets.jvm(java, System.getProperty("java.class.path"), TidemillMcpApp.class.getName()), Map.of(
                "TIDEMILL_MODE", "io", "TIDEMILL_PORT", Integer.toString(port), "TIDEMILL_IO_THREADS", Integer.toString(threads),
                "TIDEMILL_LOOPS", Integer.toString(threads))));
    }

    /** Starts the server for a part and checks it. */
    private RunningTarget start(String part, CpuSets cpus, Path dir, boolean slow) {
        Preflight.serverBusyPercent(cpus, 300);
        RunningTarget running = RunningTarget.start(target(), cpus, dir);
        List<String> problems;
        try (McpClient client = new McpClient(running.port())) {
            problems = client.check(slow);
        }
        Map<String, Object> rec = new LinkedHashMap<>();
        rec.put("part", part);
        rec.put("commandLine", running.commandLine());
        rec.put("startup", running.startupLines());
        rec.put("verification", problems);
        records.add(rec);
        if (!problems.isEmpty()) {
            running.close();
            throw new IllegalStateException("answered wrongly, not measured: " + String.join("; ", problems));
        }
        out.println(part + ": checks pass");
        return running;
    }

    private Void cpu(CpuSets cpus, Path dir, Path script) {
        try (RunningTarget running = start("cpu", cpus, dir, false)) {
            Map<String, List<String>> wrk = new LinkedHashMap<>();
            for (String c : CASES) wrk.put(c, wrk(cpus.clientList(), running.port(), c, script));
            if (settings.warmupSeconds() > 0) {
                for (String c : CASES) {
                    WrkResult w = Wrk.run(AuthSuite.with(wrk.get(c), settings.warmupSeconds()), settings.warmupSeconds());
                    out.printf(Locale.ROOT, "  warm-up  %-5s %,10.0f req/s%n", c, w.requestsPerSec());
                }
            }
            for (int round = 1; round <= settings.rounds(); round++) {
                List<String> order = round % 2 == 1 ? CASES : CASES.reversed();
                for (String c : order) {
                    AuthSuite.Row r = AuthSuite.measure(wrk.get(c), settings.durationSeconds(), running.pid(), cpus, round, "tidemill", c);
                    rows.add(r);
                    out.printf(Locale.ROOT, "  round %d %-5s %,10.0f req/s  %7.1f us CPU/req  errors %d%s%n", round, c, r.requestsPerSec(),
                            r.serverCpuUsPerRequest(), r.errors(), r.clientBound() ? "  client-bound" : "");
                    if (r.errors() > 0) failures.add("cpu " + c + " round " + round + ": " + r.errors() + " errors");
                }
            }
        }
        return null;
    }

    /** @return the wrk command of a case, without its duration */
    List<String> wrk(String client, int port, String caseId, Path script) {
        List<String> c = new ArrayList<>(List.of("taskset", "-c", client, "wrk", "-t1", "-c" + settings.connections(), "--latency",
                "--timeout", "8s"));
        String base = "http://127.0.0.1:" + port;
        switch (caseId) {
            case "plain" -> c.add(base + McpClient.itemPath());
            case "mcp" -> c.addAll(List.of("-s", script.toString(), base + McpClient.PATH, "--", TidemillMcpApp.ITEM_TOOL,
                    McpClient.toolCallBody(TidemillMcpApp.ITEM_TOOL, McpClient.ITEM_ARGUMENTS)));
            default -> throw new IllegalArgumentException(caseId);
        }
        return c;
    }

    private Sessions sessions(CpuSets cpus, Path dir) {
        try (RunningTarget running = start("sessions", cpus, dir, false)) {
            long pid = running.pid();
            // open and end a few first, so that what the first sessions load once (classes, caches) is not counted per session
            try (McpClient client = new McpClient(running.port())) {
                for (int i = 0; i < WARM_SESSIONS; i++) client.openSession().ifPresent(client::endSession);
            }
            long before = JvmReadings.liveObjectBytes(pid);
            long rssBefore = JvmReadings.rssKb(pid);
            List<String> ids = new ArrayList<>();
            int failed = 0;
            long t0 = System.nanoTime();
            try (McpClient client = new McpClient(running.port())) {
                for (int i = 0; i < settings.sessions(); i++) {
                    Optional<String> id = client.openSession();
                    if (id.isPresent()) ids.add(id.get());
                    else failed++;
                }
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            long with = JvmReadings.liveObjectBytes(pid);
            long rssWith = JvmReadings.rssKb(pid);
            int ended = 0;
            try (McpClient client = new McpClient(running.port())) {
                for (String id : ids) if (client.endSession(id) == 204) ended++;
            }
            long afterEnd = JvmReadings.liveObjectBytes(pid);
            if (before < 0 || with < 0) throw new IllegalStateException("jcmd could not read the server's heap");
            double perSession = ids.isEmpty() ? Double.NaN : (double) (with - before) / ids.size();
            Sessions s = new Sessions(ids.size(), failed, seconds, before, with, afterEnd, ended, perSession, rssBefore, rssWith);
            out.printf(Locale.ROOT, "  sessions: %,d opened (%d failed) in %.1f s; live heap %,d -> %,d bytes (%,d after ending %,d): "
                    + "%,.0f bytes per idle session%n", s.opened(), failed, seconds, before, with, afterEnd, ended, perSession);
            if (failed > 0) failures.add("sessions: " + failed + " of " + settings.sessions() + " initialize calls opened no session");
            return s;
        }
    }

    private Aborted aborted(CpuSets cpus, Path dir) {
        try (RunningTarget running = start("aborted", cpus, dir, true)) {
            AbortedCalls.Outcome o = AbortedCalls.run(running.port(), TidemillMcpApp.SLOW_TOOL, settings.aborted(), settings.concurrency(),
                    settings.closeAfterMillis());
            Map<String, Integer> atEnd = SocketStates.of(running.pid());
            Preflight.sleep(settings.settleSeconds() * 1_000L);
            Map<String, Integer> after = SocketStates.of(running.pid());
            boolean answers;
            try (McpClient client = new McpClient(running.port())) {
                answers = McpClient.callProblem(client.toolCall(TidemillMcpApp.ITEM_TOOL, McpClient.ITEM_ARGUMENTS), "") == null;
            }
            Aborted a = new Aborted(o, settings.concurrency(), settings.closeAfterMillis(), settings.settleSeconds(), atEnd, after,
                    atEnd.getOrDefault(SocketStates.CLOSE_WAIT, 0), after.getOrDefault(SocketStates.CLOSE_WAIT, 0), answers);
            out.printf(Locale.ROOT, "  aborted: %,d clients (%,d FIN, %,d RST, %d answered early, %d failed) in %.1f s; CLOSE-WAIT %d right "
                            + "after, %d after %d s; sockets %s; answers after: %s%n", o.clients(), o.closed(), o.reset(), o.answeredBeforeClose(),
                    o.failed(), o.seconds(), a.closeWaitAtEnd(), a.closeWaitAfterSettle(), settings.settleSeconds(), after, answers);
            if (o.failed() > 0) failures.add("aborted: " + o.failed() + " clients could not connect or send");
            if (o.answeredBeforeClose() > 0) failures.add("aborted: " + o.answeredBeforeClose() + " calls answered before their client closed");
            if (!answers) failures.add("aborted: the server did not answer a tool call after the aborted calls");
            return a;
        }
    }

    private Map<String, Object> configuration(CpuSets cpus) {
        Map<String, Object> conf = new LinkedHashMap<>();
        conf.put("target", "TidemillMcpApp, TIDEMILL_MODE=io (the slow route VIRTUAL), app.mcp() with the defaults");
        conf.put("serverCpus", cpus.serverList());
        conf.put("loadGeneratorCpus", cpus.clientList());
        conf.put("cases", CASES);
        conf.put("rounds", settings.rounds());
        conf.put("warmupSeconds", settings.warmupSeconds());
        conf.put("durationSeconds", settings.durationSeconds());
        conf.put("wrk", "wrk -t1 -c" + settings.connections() + " --timeout 8s, keep-alive");
        conf.put("toolCall", McpClient.toolCallBody(TidemillMcpApp.ITEM_TOOL, McpClient.ITEM_ARGUMENTS));
        conf.put("toolCallHeaders", McpClient.toolCallHeaders(TidemillMcpApp.ITEM_TOOL));
        conf.put("sessions", settings.sessions());
        conf.put("initialize", McpClient.initializeBody());
        conf.put("maxSessions", Mcp.DEFAULTS.maxSessions());
        conf.put("sessionIdle", Mcp.DEFAULTS.sessionIdle().toString());
        conf.put("aborted", settings.aborted());
        conf.put("concurrency", settings.concurrency());
        conf.put("closeAfterMillis", settings.closeAfterMillis());
        conf.put("slowMillis", TidemillMcpApp.SLOW_MILLIS);
        conf.put("settleSeconds", settings.settleSeconds());
        conf.put("wrkVersion", Host.command("wrk", "-v").orElse("?"));
        conf.put("jvmFlags", TargetCatalog.JVM_FLAGS);
        return conf;
    }
}
