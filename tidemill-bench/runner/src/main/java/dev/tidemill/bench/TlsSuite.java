package dev.tidemill.bench;

import dev.tidemill.bench.common.Scenario;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code ./tidemill bench tls}: the cost of TLS and HTTP/2 next to plaintext HTTP/1.1, on Tidemill
 * (OpenSSL and JDK providers) and on the peers ({@link TlsTargets}), side by side in one run. Per
 * round and target (rotated order): a start with the P-256 certificate for HTTP/1.1 plaintext and
 * over TLS (wrk, keep-alive), h2 over TLS and h2c (h2load), and full handshakes (parallel
 * {@code openssl s_time -new}); a start with the RSA-2048 certificate for its handshakes. Every
 * start is checked before it is timed ({@link TlsChecks}); each case gets a warm-up, then a window
 * with the server's CPU from {@code /proc} ({@link ProcessCpu}, summed over the process and its
 * children). {@link TlsReport} turns the rows into medians, ratios to the same target's plaintext
 * HTTP/1.1 in the same round, and the goals. A target that answers wrongly fails the run, after the
 * result files ({@code <UTC>-tls.json} and {@code .md}) are written.
 */
public final class TlsSuite {
    /**
     * One measured window.
     *
     * @param round the round, from 1
     * @param target the target
     * @param kind {@code tidemill}, {@code peer} or {@code native}
     * @param caseId the case ({@link TlsCase#id()})
     * @param key the certificate's key ({@link TlsCase.TlsKey#label()})
     * @param load the client's settings ({@code -c64}, {@code -c16 -m32}, {@code 4 clients})
     * @param requests requests answered 2xx (handshake cases: connections, one request each)
     * @param seconds the window
     * @param requestsPerSec requests per second
     * @param serverCpuSeconds the server's utime + stime over the window
     * @param serverCpuUsPerRequest server CPU microseconds per request
     * @param errors failed requests and client failures
     * @param protocol the application protocol the client reported (h2load), else the one asked for
     * @param details the TLS version and cipher (h2load), bytes per connection (s_time)
     * @param clientCpusBusyPercent the generator CPUs' busy share over the window
     * @param clientBound whether they were at or above {@link HeavyLoadSuite#CLIENT_BOUND_PERCENT}
     * @param problems why the window cannot be trusted (a wrong protocol, resumed sessions...)
     */
    public record Row(int round, String target, String kind, String caseId, String key, String load, long requests, double seconds,
                      double requestsPerSec, double serverCpuSeconds, double serverCpuUsPerRequest, long errors, String protocol,
                      String details, double clientCpusBusyPercent, boolean clientBound, List<String> problems) {
        /** @return whether it counts for ratios and goals: requests, no error, no problem */
        public boolean clean() {
            return requests > 0 && errors == 0 && problems.isEmpty();
        }
    }

    /**
     * What the suite wrote.
     *
     * @param suite {@code tls} or {@code tls-quick}
     * @param quick whether it was a quick run
     * @param startedUtc start
     * @param finishedUtc end
     * @param command the command line
     * @param fingerprint host and software
     * @param preflight checks
     * @param configuration settings and method
     * @param targets per target and start: command line, startup lines, checks
     * @param rows every window
     * @param resumption per TLS window of nginx, the requests it logged on resumed sessions ({@link ResumptionLog})
     * @param summary medians per target and case
     * @param peerGoals Tidemill against every JVM peer, per case
     * @param providerGoals OpenSSL against the JDK provider, per TLS case
     * @param notMeasured what was not measured, and why
     * @param failures what fails the run
     */
    public record Result(String suite, boolean quick, String startedUtc, String finishedUtc, String command,
                         Map<String, Object> fingerprint, List<Check> preflight, Map<String, Object> configuration,
                         List<Map<String, Object>> targets, List<Row> rows, List<ResumptionLog.Window> resumption,
                         List<TlsReport.Summary> summary, List<TlsReport.PeerGoal> peerGoals, List<TlsReport.ProviderGoal> providerGoals,
                         List<String> notMeasured, List<String> failures) {}

    /** The tools the suite runs; a missing one stops it before anything starts. */
    static final List<String> TOOLS = List.of("wrk", "h2load", "openssl", "curl", "taskset");

    private final TlsSettings settings;
    private final String command;
    private final PrintStream out;
    private final List<Row> rows = new ArrayList<>();
    private final List<ResumptionLog.Window> resumption = new ArrayList<>();
    private final List<Map<String, Object>> records = new ArrayList<>();
    private final List<String> notMeasured = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private final Set<String> refused = new java.util.HashSet<>();

    /**
     * @param settings the options
     * @param command the command line, as recorded
     * @param out progress
     */
    public TlsSuite(TlsSettings settings, String command, PrintStream out) {
        this.settings = settings;
        this.command = command;
        this.out = out;
    }

    /**
     * Runs every round, writes the files.
     *
     * @return the JSON file
     * @throws IllegalStateException after writing them, when a target answered wrongly; before anything, when a tool is missing
     */
    public Path run() {
        List<String> missing = TOOLS.stream().filter(t -> Host.executable(t).isEmpty()).toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("tls: missing " + String.join(", ", missing) + " (Debian: wrk, nghttp2-client, openssl, curl)");
        }
        String started = Instant.now().toString();
        CpuSets cpus = CpuSets.derive();
        List<TlsTargets.Spec> targets = TlsTargets.select(TlsTargets.all(settings.repoRoot(), notMeasured), settings.targets());
        out.printf(Locale.ROOT, "tls: cases %s; %d round(s), %d s warm-up + %d s per case; server CPUs %s, generator CPUs %s; targets %s%n",
                String.join(", ", settings.cases().stream().map(TlsCase::id).toList()), settings.rounds(), settings.warmupSeconds(),
                settings.durationSeconds(), cpus.serverList(), cpus.clientList(), String.join(", ", targets.stream()
                        .map(TlsTargets.Spec::name).toList()));
        List<Check> preflight = Preflight.run(cpus, Math.max(settings.connections(), settings.h2Connections()));
        preflight.stream().filter(Check::failed).forEach(c -> out.println("preflight FAIL " + c.name() + ": " + c.reading()));
        Map<String, Object> fingerprint = Fingerprint.take(cpus);
        Path work;
        try {
            work = Files.createTempDirectory("tidemill-bench-tls-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<TlsCase.TlsKey, Path> certs = TlsCertificates.make(work.resolve("certs"));
        for (int round = 1; round <= settings.rounds(); round++) {
            for (int i = 0; i < targets.size(); i++) {
                TlsTargets.Spec t = targets.get((i + round - 1) % targets.size());
                if (refused.contains(t.name())) continue;
                for (TlsCase.TlsKey key : TlsCase.TlsKey.values()) {
                    List<TlsCase> cases = settings.cases().stream().filter(c -> c.key() == key).toList();
                    if (cases.isEmpty()) continue;
                    try {
                        start(t, key, cases, round, cpus, certs.get(key), work.resolve("r" + round).resolve(t.name() + "-" + key.id()));
                    } catch (RuntimeException e) {
                        out.println("FAILED " + t.name() + " (" + key.label() + "): " + e.getMessage());
                        failures.add(t.name() + " (" + key.label() + ", round " + round + "): " + e.getMessage());
                        refused.add(t.name());
                        break;
                    }
                }
            }
        }
        List<TlsReport.Summary> summary = TlsReport.summarise(rows);
        Result result = new Result(settings.suite(), settings.quick(), started, Instant.now().toString(), command, fingerprint, preflight,
                configuration(cpus, targets), List.copyOf(records), List.copyOf(rows), List.copyOf(resumption), summary,
                TlsReport.peerGoals(summary), TlsReport.providerGoals(summary), List.copyOf(notMeasured), List.copyOf(failures));
        Path json = ResultFile.write(settings.outDir(), result.suite(), result, TlsReport.page(result));
        out.println();
        out.print(TlsReport.markdown(summary));
        out.println();
        out.print(TlsReport.verdict(result.peerGoals(), result.providerGoals()));
        if (!failures.isEmpty()) throw new IllegalStateException("tls: the run failed (" + String.join("; ", failures) + "); results in " + json);
        return json;
    }

    /** One start of a target with one certificate: checks, then its cases. */
    private void start(TlsTargets.Spec spec, TlsCase.TlsKey key, List<TlsCase> cases, int round, CpuSets cpus, Path certDir, Path dir) {
        Preflight.serverBusyPercent(cpus, 300);
        int tlsPort = freePort(), h2cPort = spec.ownH2cPort() ? freePort() : 0;
        try (RunningTarget running = RunningTarget.start(spec.target(tlsPort, h2cPort, certDir), cpus, dir)) {
            TlsTargets.Ports ports = new TlsTargets.Ports(running.port(), tlsPort, spec.ownH2cPort() ? h2cPort : running.port());
            awaitPort(ports.tls(), running);
            awaitPort(ports.h2c(), running);
            Map<String, Object> rec = new LinkedHashMap<>();
            rec.put("target", spec.name());
            rec.put("round", round);
            rec.put("certificate", key.label());
            rec.put("tlsStack", spec.tlsStack());
            rec.put("commandLine", running.commandLine());
            rec.put("startup", running.startupLines());
            records.add(rec);
            List<String> problems = new ArrayList<>();
            for (TlsCase c : cases) {
                TlsCase asked = c.handshakes() ? TlsCase.H1_TLS : c;
                String url = url(asked, ports);
                TlsLoad.Output o = TlsLoad.run(TlsChecks.curl(cpus.clientList(), asked, url), 10);
                TlsChecks.parseCurl(o.text()).ifPresentOrElse(a -> TlsChecks.problem(asked, a).ifPresent(problems::add),
                        () -> problems.add(asked.id() + ": curl " + url + " exited " + o.exit() + ": " + o.text().strip()));
            }
            TlsLoad.Output s = TlsLoad.run(TlsChecks.sClient(cpus.clientList(), ports.tls()), 10);
            TlsChecks.parseSClient(s.text()).ifPresentOrElse(h -> {
                rec.put("handshake", h.describe());
                TlsChecks.problem(h, key).ifPresent(problems::add);
            }, () -> problems.add("openssl s_client: no handshake: " + TlsLoad.lastLines(s.text(), 3)));
            List<TlsCase> timed = new ArrayList<>(cases);
            if (cases.stream().anyMatch(TlsCase::handshakes)) {
                java.util.Optional<String> close = TlsChecks.closes(ports.tls());
                if (close.isPresent() && close.get().equals(TlsChecks.NO_CLOSE)) {
                    for (TlsCase c : cases) {
                        if (!c.handshakes()) continue;
                        timed.remove(c);
                        String line = spec.name() + ": " + c.id() + " not served (it answers the request with Connection: close, then "
                                + "keeps the TLS connection open past 5 s; openssl s_time reads each connection to its end)";
                        if (!notMeasured.contains(line)) notMeasured.add(line);
                    }
                } else {
                    close.ifPresent(problems::add);
                }
            }
            rec.put("verification", problems);
            if (!problems.isEmpty()) throw new IllegalStateException("answered wrongly, not timed: " + String.join("; ", problems));
            out.println(spec.name() + " (" + key.label() + ", round " + round + "): checks pass; " + rec.get("handshake"));
            for (TlsCase c : timed) rows.add(window(spec, running, ports, c, round, cpus, dir));
        }
    }

    private Row window(TlsTargets.Spec spec, RunningTarget running, TlsTargets.Ports ports, TlsCase c, int round, CpuSets cpus, Path dir) {
        String client = cpus.clientList();
        if (settings.warmupSeconds() > 0) load(c, ports, client, settings.warmupSeconds());
        ResumptionLog log = new ResumptionLog(dir);
        boolean counted = c.tls() && ResumptionLog.keptBy(spec);
        long resumedBefore = counted ? log.resumed() : 0;
        CpuTimes before = CpuTimes.now();
        long s0 = treeTicks(running.pid());
        long t0 = System.nanoTime();
        TlsLoad.Load l = load(c, ports, client, settings.durationSeconds());
        double wall = (System.nanoTime() - t0) / 1e9;
        long s1 = treeTicks(running.pid());
        CpuTimes after = CpuTimes.now();
        double busy = after.busyPercentSince(before, Set.copyOf(cpus.client()));
        List<String> problems = new ArrayList<>(l.problems());
        String expected = switch (c) {
            case H2_TLS -> "h2";
            case H2C -> "h2c";
            default -> "";
        };
        if (!expected.isEmpty() && !l.protocol().equals(expected)) problems.add("h2load negotiated '" + l.protocol() + "', expected " + expected);
        if (counted) {
            long resumed = log.resumed() - resumedBefore;
            resumption.add(new ResumptionLog.Window(round, spec.name(), c.id(), l.requests(), resumed));
            if (c.handshakes() && resumed > 0) problems.add(resumed + " requests on resumed TLS sessions (nginx's $ssl_session_reused)");
        }
        double seconds = c.handshakes() ? wall : l.seconds();
        Row r = row(round, spec.name(), spec.kind(), c, loadLabel(c), l.requests(), seconds, ProcessCpu.micros(s1 - s0) / 1e6, l.errors(),
                l.protocol().isEmpty() ? (c == TlsCase.H1 || c == TlsCase.H1_TLS ? "http/1.1" : "") : l.protocol(), l.details(), busy,
                problems);
        out.printf(Locale.ROOT, "  %-16s %-15s %,12.0f req/s  %7.1f us CPU/req  errors %d%s%s%n", spec.name(), c.id(), r.requestsPerSec(),
                r.serverCpuUsPerRequest(), r.errors(), r.clientBound() ? "  client-bound" : "", problems.isEmpty() ? "" : "  " + problems);
        if (!problems.isEmpty()) failures.add(spec.name() + " " + c.id() + " round " + round + ": " + String.join("; ", problems));
        return r;
    }

    /**
     * @return a row with its derived rates
     */
    static Row row(int round, String target, String kind, TlsCase c, String load, long requests, double seconds, double cpuSeconds,
                   long errors, String protocol, String details, double busy, List<String> problems) {
        double rps = seconds > 0 ? requests / seconds : Double.NaN;
        double cpuPer = requests > 0 ? cpuSeconds * 1e6 / requests : Double.NaN;
        return new Row(round, target, kind, c.id(), c.key().label(), load, requests, seconds, rps, cpuSeconds, cpuPer, errors, protocol,
                details, busy, busy >= HeavyLoadSuite.CLIENT_BOUND_PERCENT, List.copyOf(problems));
    }

    private TlsLoad.Load load(TlsCase c, TlsTargets.Ports ports, String client, int seconds) {
        String url = url(c, ports);
        return switch (c) {
            case H1, H1_TLS -> {
                TlsLoad.Output o = TlsLoad.run(TlsLoad.wrk(client, url, settings.connections(), seconds), seconds);
                try {
                    WrkResult w = WrkResult.parse(o.text());
                    yield new TlsLoad.Load(w.requests() - w.non2xx(), w.seconds(), w.socketErrors() + w.non2xx(), "", "", List.of());
                } catch (IllegalArgumentException e) {
                    yield new TlsLoad.Load(0, 0, 1, "", "", List.of("wrk: " + TlsLoad.lastLines(o.text(), 3)));
                }
            }
            case H2_TLS, H2C -> TlsLoad.parseH2load(TlsLoad.run(TlsLoad.h2load(client, url, settings.h2Connections(),
                    settings.h2Streams(), seconds), seconds).text());
            case HANDSHAKE_P256, HANDSHAKE_RSA -> TlsLoad.handshakes(settings.handshakeClients(), client, ports.tls(), seconds);
        };
    }

    private String loadLabel(TlsCase c) {
        return switch (c) {
            case H1, H1_TLS -> "-t1 -c" + settings.connections();
            case H2_TLS, H2C -> "-t1 -c" + settings.h2Connections() + " -m" + settings.h2Streams();
            case HANDSHAKE_P256, HANDSHAKE_RSA -> settings.handshakeClients() + " clients";
        };
    }

    static String url(TlsCase c, TlsTargets.Ports ports) {
        int port = c.tls() ? ports.tls() : c == TlsCase.H2C ? ports.h2c() : ports.plain();
        return (c.tls() ? "https" : "http") + "://127.0.0.1:" + port + Scenario.PLAINTEXT_PATH;
    }

    /**
     * @return utime + stime of the process and every descendant (nginx's workers, when its master is on)
     * @throws IllegalStateException when the process is gone: a window without its server's CPU has no figure
     */
    static long treeTicks(long pid) {
        long t;
        try {
            t = ProcessCpu.ticks(pid);
        } catch (IOException gone) {
            throw new IllegalStateException("server process " + pid + " is gone: its CPU over the window cannot be read", gone);
        }
        for (ProcessHandle d : ProcessHandle.of(pid).map(h -> h.descendants().toList()).orElse(List.of())) {
            try {
                t += ProcessCpu.ticks(d.pid());
            } catch (IOException gone) {
                // exited meanwhile: its ticks are lost to this window, as they would be to any reading
            }
        }
        return t;
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void awaitPort(int port, RunningTarget running) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
            }
        }
        throw new IllegalStateException(running.target().name() + " did not listen on " + port + " within 30 s:\n" + running.logTail());
    }

    private Map<String, Object> configuration(CpuSets cpus, List<TlsTargets.Spec> targets) {
        Map<String, Object> conf = new LinkedHashMap<>();
        conf.put("serverCpus", cpus.serverList());
        conf.put("loadGeneratorCpus", cpus.clientList());
        conf.put("serverIoThreads", cpus.server().size());
        conf.put("cases", settings.cases().stream().map(TlsCase::id).toList());
        conf.put("rounds", settings.rounds());
        conf.put("warmupSeconds", settings.warmupSeconds());
        conf.put("durationSeconds", settings.durationSeconds());
        conf.put("wrk", "wrk -t1 -c" + settings.connections() + " --timeout 8s, keep-alive");
        conf.put("h2load", "h2load -t1 -c" + settings.h2Connections() + " -m" + settings.h2Streams() + " -D <seconds>, --npn-list=h2 (its ALPN list) over TLS");
        conf.put("handshakes", settings.handshakeClients() + " x openssl s_time -new -www " + Scenario.PLAINTEXT_PATH
                + " (a new SSL object and no session per connection: full handshakes, one HTTP/1.0 request each)");
        conf.put("resumption", "wrk and h2load resume TLS sessions when they reconnect, so the handshake cases use s_time -new; nginx logs "
                + "each request on a resumed session ($ssl_session_reused), the count per TLS window of this run is in `resumption`, and "
                + "a handshake window with any fails the run");
        conf.put("certificates", "self-signed for localhost and 127.0.0.1, made with the openssl CLI at the start of the run: ECDSA P-256 "
                + "(every case but handshake-rsa) and RSA-2048 (handshake-rsa); PEM (PKCS#8) and PKCS#12");
        conf.put("body", "`" + Scenario.PLAINTEXT_PATH + "` (" + Scenario.PLAINTEXT_BODY.length() + " bytes of text/plain)");
        Map<String, String> stacks = new LinkedHashMap<>();
        targets.forEach(t -> stacks.put(t.name(), t.tlsStack()));
        conf.put("tlsStacks", stacks);
        conf.put("tools", tools());
        conf.put("jvmFlags", TargetCatalog.JVM_FLAGS);
        return conf;
    }

    private static Map<String, String> tools() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("wrk", Host.command("wrk", "-v").orElse("?"));
        m.put("h2load", Host.command("h2load", "--version").orElse("?"));
        m.put("openssl", Host.command("openssl", "version").orElse("?"));
        m.put("curl", Host.command("curl", "--version").orElse("?"));
        return m;
    }
}
