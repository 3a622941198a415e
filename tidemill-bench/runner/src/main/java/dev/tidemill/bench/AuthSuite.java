package dev.tidemill.bench;

import dev.tidemill.bench.common.AuthContract;
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
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code ./tidemill bench auth}: what a bearer token costs. First JMH ({@code tidemill-bench/auth}):
 * Tidemill's verifier on an RS256 and an ES256 token, from its verified-token cache and not. Then,
 * per round and target (rotated order), three cases of wrk on {@link AuthContract}'s routes with the
 * server's CPU read from {@code /proc} over each window: {@code anonymous}, {@code bearer-cached}
 * (one ES256 token on every request) and {@code bearer-uncached} (a new token each request, more than
 * Tidemill's cache holds). Then a key rotation under load on Tidemill: wrk sends a token of key A,
 * the provider publishes A and B, and half way through the window wrk switches to a token of key B,
 * which the server has never seen; non-2xx answers and key-set fetches are counted. Every start is
 * checked before it is timed ({@link AuthChecks#check}). {@link AuthReport} turns the rows into medians,
 * ratios to the same target's anonymous route and the goals.
 */
public final class AuthSuite {
    /** The server cases, in run order. */
    static final List<String> CASES = List.of("anonymous", "bearer-cached", "bearer-uncached");
    /** Distinct tokens of the uncached case: more than Tidemill's verified-token cache holds (10,000), taken in turn. */
    static final int UNCACHED_TOKENS = 10_001;
    /** The JMH benchmark class. */
    static final String BENCHMARK = "dev.tidemill.internal.auth.VerifyBenchmark";

    /**
     * One measured window.
     *
     * @param round the round, from 1
     * @param target the target
     * @param caseId {@link #CASES}
     * @param requests requests answered 2xx
     * @param seconds the window
     * @param requestsPerSec 2xx per second
     * @param serverCpuUsPerRequest server CPU (utime + stime) microseconds per 2xx
     * @param errors non-2xx answers and socket errors
     * @param clientCpusBusyPercent the generator CPUs' busy share over the window
     * @param clientBound whether they were at or above {@link HeavyLoadSuite#CLIENT_BOUND_PERCENT}
     */
    public record Row(int round, String target, String caseId, long requests, double seconds, double requestsPerSec,
                      double serverCpuUsPerRequest, long errors, double clientCpusBusyPercent, boolean clientBound) {}

    /**
     * One JMH benchmark.
     *
     * @param alg {@code ES256} or {@code RS256}
     * @param cache {@code cached} or {@code uncached}
     * @param usPerToken AverageTime, microseconds per verification
     * @param usError JMH's 99.9 % confidence half-width (NaN with one iteration)
     */
    public record JmhRow(String alg, String cache, double usPerToken, double usError) {}

    /**
     * The key rotation under load.
     *
     * @param requests 2xx answers over the window
     * @param non2xx answers that were not 2xx (the goal: 0)
     * @param socketErrors wrk's socket errors
     * @param seconds the window
     * @param switchAfterSeconds when wrk switched to the new key's token
     * @param fetchesBefore key-set fetches before the window (the start)
     * @param fetchesDuring key-set fetches during the window
     */
    public record Rotation(long requests, long non2xx, long socketErrors, double seconds, int switchAfterSeconds, long fetchesBefore,
                           long fetchesDuring) {}

    /**
     * What the suite wrote.
     *
     * @param suite {@code auth} or {@code auth-quick}
     * @param quick whether it was a quick run
     * @param startedUtc start
     * @param finishedUtc end
     * @param command the command line
     * @param fingerprint host and software
     * @param preflight checks
     * @param configuration settings and method
     * @param jmhCommand the JMH command (class path elided)
     * @param jmhRows per benchmark
     * @param targets per target and start: command line, startup lines, checks
     * @param rows every window
     * @param summary medians per target and case
     * @param goals the goals and whether they were met
     * @param rotation the key rotation, or null when Tidemill was not measured
     * @param notMeasured what was not measured, and why
     * @param failures what fails the run
     * @param jmh JMH's own result, unchanged
     */
    public record Result(String suite, boolean quick, String startedUtc, String finishedUtc, String command, Map<String, Object> fingerprint,
                         List<Check> preflight, Map<String, Object> configuration, String jmhCommand, List<JmhRow> jmhRows,
                         List<Map<String, Object>> targets, List<Row> rows, List<AuthReport.Summary> summary, List<AuthReport.Goal> goals,
                         Rotation rotation, List<String> notMeasured, List<String> failures, JsonNode jmh) {}

    private final AuthSettings settings;
    private final String command;
    private final PrintStream out;
    private final List<Row> rows = new ArrayList<>();
    private final List<Map<String, Object>> records = new ArrayList<>();
    private final List<String> notMeasured = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();

    /**
     * @param settings the options
     * @param command the command line, as recorded
     * @param out progress
     */
    public AuthSuite(AuthSettings settings, String command, PrintStream out) {
        this.settings = settings;
        this.command = command;
        this.out = out;
    }

    /**
     * Runs JMH, the rounds and the rotation, then writes the files.
     *
     * @return the JSON file
     * @throws IllegalStateException after writing them, when a target answered wrongly; before anything, when a tool is missing
     */
    public Path run() {
        List<String> missing = java.util.stream.Stream.of("wrk", "taskset").filter(t -> Host.executable(t).isEmpty()).toList();
        if (!missing.isEmpty()) throw new IllegalStateException("auth: missing " + String.join(", ", missing) + " (Debian: wrk, util-linux)");
        String started = Instant.now().toString();
        CpuSets cpus = CpuSets.derive();
        List<AuthTargets.Spec> targets = AuthTargets.select(AuthTargets.all(settings.repoRoot(), notMeasured), settings.targets());
        List<Check> preflight = Preflight.run(cpus, settings.connections());
        Preflight.requireLoadGenerator(preflight);
        preflight.stream().filter(Check::failed).forEach(c -> out.println("preflight FAIL " + c.name() + ": " + c.reading()));
        Map<String, Object> fingerprint = Fingerprint.take(cpus);
        Path work;
        try {
            work = Files.createTempDirectory("tidemill-bench-auth-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> jmhCmd = jmhCommand(cpus);
        JsonNode jmh = runJmh(jmhCmd, work.resolve("jmh.json"));
        List<JmhRow> jmhRows = jmhRows(jmh);
        out.print(AuthReport.jmhTable(jmhRows));

        AuthKeys.Key a = AuthKeys.Key.generate("bench-a");
        AuthKeys.Key b = AuthKeys.Key.generate("bench-b");
        Path tokens = work.resolve("tokens.txt");
        Path rotation = work.resolve("rotation.txt");
        Path jwksFile = work.resolve("jwks.json");
        Path scripts = work.resolve("wrk");
        Rotation rotated = null;
        try (AuthKeys keys = new AuthKeys(List.of(a))) {
            out.println("auth: minting " + UNCACHED_TOKENS + " tokens...");
            Files.write(tokens, a.tokens(UNCACHED_TOKENS));
            Files.write(rotation, List.of(a.token("rotating-user"), b.token("rotating-user")));
            Files.writeString(jwksFile, AuthKeys.jwks(List.of(a)));
            extract(scripts);
            String token = a.token("bench-user");
            out.printf(Locale.ROOT, "auth: cases %s; %d round(s), %d s warm-up + %d s per case; server CPUs %s, generator CPUs %s; targets %s%n",
                    String.join(", ", CASES), settings.rounds(), settings.warmupSeconds(), settings.durationSeconds(), cpus.serverList(),
                    cpus.clientList(), String.join(", ", targets.stream().map(AuthTargets.Spec::name).toList()));
            for (int round = 1; round <= settings.rounds(); round++) {
                for (int i = 0; i < targets.size(); i++) {
                    AuthTargets.Spec t = targets.get((i + round - 1) % targets.size());
                    try {
                        start(t, round, cpus, keys, jwksFile, work.resolve("r" + round).resolve(t.name()), token, a, tokens, scripts);
                    } catch (RuntimeException e) {
                        out.println("FAILED " + t.name() + " (round " + round + "): " + e.getMessage());
                        failures.add(t.name() + " (round " + round + "): " + e.getMessage());
                    }
                }
            }
            if (targets.stream().anyMatch(t -> t.name().equals("tidemill"))) {
                try {
                    rotated = rotate(targets.stream().filter(t -> t.name().equals("tidemill")).findFirst().orElseThrow(), cpus, a, b,
                            rotation, scripts, work.resolve("rotation"));
                } catch (RuntimeException e) {
                    out.println("FAILED rotation: " + e.getMessage());
                    failures.add("rotation: " + e.getMessage());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<AuthReport.Summary> summary = AuthReport.summarise(rows);
        List<AuthReport.Goal> goals = AuthReport.goals(summary, rotated);
        Result result = new Result(settings.suite(), settings.quick(), started, Instant.now().toString(), command, fingerprint, preflight,
                configuration(cpus, targets), String.join(" ", shown(jmhCmd)), jmhRows, List.copyOf(records), List.copyOf(rows), summary,
                goals, rotated, List.copyOf(notMeasured), List.copyOf(failures), jmh);
        Path json = ResultFile.write(settings.outDir(), result.suite(), result, AuthReport.page(result));
        out.println();
        out.print(AuthReport.serverTable(summary));
        out.print(AuthReport.goalLines(goals));
        if (!failures.isEmpty()) throw new IllegalStateException("auth: the run failed (" + String.join("; ", failures) + "); results in " + json);
        return json;
    }

    /** One start of a target: checks, then each case's warm-up and window. */
    private void start(AuthTargets.Spec spec, int round, CpuSets cpus, AuthKeys keys, Path jwksFile, Path dir, String token, AuthKeys.Key a,
                       Path tokens, Path scripts) {
        Preflight.serverBusyPercent(cpus, 300);
        try (RunningTarget running = RunningTarget.start(AuthTargets.target(spec, keys.uri(), jwksFile), cpus, dir)) {
            List<String> problems = AuthChecks.check(running.port(), token, a);
            Map<String, Object> rec = new LinkedHashMap<>();
            rec.put("target", spec.name());
            rec.put("round", round);
            rec.put("verifier", spec.verifier());
            rec.put("commandLine", running.commandLine());
            rec.put("startup", running.startupLines());
            rec.put("verification", problems);
            records.add(rec);
            if (!problems.isEmpty()) throw new IllegalStateException("answered wrongly, not timed: " + String.join("; ", problems));
            out.println(spec.name() + " (round " + round + "): checks pass");
            for (String c : CASES) {
                List<String> wrk = wrk(cpus.clientList(), running.port(), c, token, tokens, scripts);
                if (settings.warmupSeconds() > 0) Wrk.run(with(wrk, settings.warmupSeconds()), settings.warmupSeconds());
                Row r = measure(wrk, settings.durationSeconds(), running.pid(), cpus, round, spec.name(), c);
                rows.add(r);
                out.printf(Locale.ROOT, "  %-10s %-16s %,10.0f req/s  %7.1f us CPU/req  errors %d%s%n", spec.name(), c, r.requestsPerSec(),
                        r.serverCpuUsPerRequest(), r.errors(), r.clientBound() ? "  client-bound" : "");
                if (r.errors() > 0) failures.add(spec.name() + " " + c + " round " + round + ": " + r.errors() + " errors");
            }
        }
    }

    /** The rotation: a fresh Tidemill with key A published, A and B published just before the window, B's token half way. */
    private Rotation rotate(AuthTargets.Spec spec, CpuSets cpus, AuthKeys.Key a, AuthKeys.Key b, Path rotation, Path scripts, Path dir) {
        try (AuthKeys keys = new AuthKeys(List.of(a));
             RunningTarget running = RunningTarget.start(AuthTargets.target(spec, keys.uri(), null), cpus, dir)) {
            List<String> problems = AuthChecks.check(running.port(), a.token("bench-user"), a);
            if (!problems.isEmpty()) throw new IllegalStateException("answered wrongly, not timed: " + String.join("; ", problems));
            String url = "http://127.0.0.1:" + running.port() + AuthContract.BEARER_PATH;
            List<String> base = List.of("taskset", "-c", cpus.clientList(), "wrk", "-t1", "-c" + settings.connections(), "--latency",
                    "--timeout", "8s", "-s", scripts.resolve("tokens.lua").toString(), url, "--", rotation.toString());
            if (settings.warmupSeconds() > 0) {
                List<String> warm = new ArrayList<>(base);
                warm.add(Long.toString(Long.MAX_VALUE / 2)); // never switches: key A only
                Wrk.run(with(warm, settings.warmupSeconds()), settings.warmupSeconds());
            }
            keys.publish(List.of(a, b));
            long before = keys.fetches();
            int half = settings.durationSeconds() / 2;
            List<String> timed = new ArrayList<>(base);
            timed.add(Long.toString(Instant.now().getEpochSecond() + half + 1));
            WrkResult w = Wrk.run(with(timed, settings.durationSeconds()), settings.durationSeconds());
            Rotation r = new Rotation(w.requests() - w.non2xx(), w.non2xx(), w.socketErrors(), w.seconds(), half + 1, before,
                    keys.fetches() - before);
            out.printf(Locale.ROOT, "rotation: %,d requests, %d non-2xx, %d socket errors; key-set fetches %d at start, %d during the window%n",
                    r.requests(), r.non2xx(), r.socketErrors(), r.fetchesBefore(), r.fetchesDuring());
            if (r.non2xx() > 0 || r.socketErrors() > 0) failures.add("rotation: " + r.non2xx() + " non-2xx, " + r.socketErrors() + " socket errors");
            return r;
        }
    }

    /**
     * One measured window: wrk for the duration, with the server's CPU (utime + stime of it and its
     * children) and the generator CPUs' busy share read around it.
     *
     * @param wrk the wrk command, without its duration
     * @param seconds the window
     * @param pid the server
     * @param cpus where the generator runs
     * @param round the round
     * @param target the target's name
     * @param caseId the case
     * @return the window's row
     */
    static Row measure(List<String> wrk, int seconds, long pid, CpuSets cpus, int round, String target, String caseId) {
        CpuTimes before = CpuTimes.now();
        long s0 = TlsSuite.treeTicks(pid);
        WrkResult w = Wrk.run(with(wrk, seconds), seconds);
        long s1 = TlsSuite.treeTicks(pid);
        double busy = CpuTimes.now().busyPercentSince(before, Set.copyOf(cpus.client()));
        return row(round, target, caseId, w.requests() - w.non2xx(), w.seconds(), ProcessCpu.micros(s1 - s0) / 1e6,
                w.non2xx() + w.socketErrors(), busy);
    }

    /** Inserts {@code -d<seconds>s} after {@code wrk}. */
    static List<String> with(List<String> wrk, int seconds) {
        List<String> c = new ArrayList<>(wrk);
        c.add(c.indexOf("wrk") + 1, "-d" + seconds + "s");
        return c;
    }

    /** @return the wrk command of a case, without its duration */
    List<String> wrk(String client, int port, String caseId, String token, Path tokens, Path scripts) {
        List<String> c = new ArrayList<>(List.of("taskset", "-c", client, "wrk", "-t1", "-c" + settings.connections(), "--latency",
                "--timeout", "8s"));
        String base = "http://127.0.0.1:" + port;
        switch (caseId) {
            case "anonymous" -> c.add(base + AuthContract.ANONYMOUS_PATH);
            case "bearer-cached" -> c.addAll(List.of("-H", "Authorization: Bearer " + token, base + AuthContract.BEARER_PATH));
            case "bearer-uncached" -> c.addAll(List.of("-s", scripts.resolve("tokens.lua").toString(), base + AuthContract.BEARER_PATH,
                    "--", tokens.toString()));
            default -> throw new IllegalArgumentException(caseId);
        }
        return c;
    }

    /** @return a row with its derived rates */
    static Row row(int round, String target, String caseId, long requests, double seconds, double cpuSeconds, long errors, double busy) {
        return new Row(round, target, caseId, requests, seconds, seconds > 0 ? requests / seconds : Double.NaN,
                requests > 0 ? cpuSeconds * 1e6 / requests : Double.NaN, errors, busy, busy >= HeavyLoadSuite.CLIENT_BOUND_PERCENT);
    }

    private List<String> jmhCommand(CpuSets cpus) {
        List<String> cmd = new ArrayList<>(List.of("taskset", "-c", cpus.serverList(),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                HtmlSuite.classPath(settings.repoRoot(), "auth"), "org.openjdk.jmh.Main", BENCHMARK));
        cmd.addAll(settings.jmhOptions());
        cmd.addAll(List.of("-jvmArgs", String.join(" ", TargetCatalog.JVM_FLAGS), "-rf", "json"));
        return cmd;
    }

    private JsonNode runJmh(List<String> cmd, Path raw) {
        List<String> c = new ArrayList<>(cmd);
        c.addAll(List.of("-rff", raw.toString()));
        out.println("auth: JMH " + String.join(" ", shown(c)));
        try {
            int exit = new ProcessBuilder(c).inheritIO().start().waitFor();
            if (exit != 0) throw new IllegalStateException("JMH exited with " + exit + " (a verifier that refuses the token fails its @Setup)");
            return JsonMapper.builder().build().readTree(Files.readString(raw));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while JMH ran", e);
        }
    }

    /** @return one row per JMH benchmark */
    static List<JmhRow> jmhRows(JsonNode jmh) {
        List<JmhRow> rows = new ArrayList<>();
        for (JsonNode b : jmh) {
            JsonNode p = b.path("primaryMetric");
            if (!p.path("scoreUnit").asString("").equals("us/op")) throw new IllegalStateException("expected us/op, JMH reported " + p.path("scoreUnit"));
            rows.add(new JmhRow(b.path("params").path("alg").asString("?"), b.path("params").path("cache").asString("?"),
                    HtmlSuite.number(p.path("score")), HtmlSuite.number(p.path("scoreError"))));
        }
        if (rows.isEmpty()) throw new IllegalStateException("JMH wrote no result");
        return rows;
    }

    /** The command without its class path and machine paths. */
    static List<String> shown(List<String> cmd) {
        List<String> s = new ArrayList<>(cmd);
        int cp = s.indexOf("-cp");
        if (cp > 0) {
            s.set(cp + 1, "<tidemill-bench/auth:class-path>");
            s.set(cp - 1, "java");
        }
        int rff = s.indexOf("-rff");
        if (rff >= 0) s.set(rff + 1, "<file>");
        return s.stream().map(x -> x.contains(" ") ? "\"" + x + "\"" : x).toList();
    }

    private static void extract(Path scripts) {
        Wrk.script(scripts, "tokens.lua");
    }

    private Map<String, Object> configuration(CpuSets cpus, List<AuthTargets.Spec> targets) {
        Map<String, Object> conf = new LinkedHashMap<>();
        conf.put("serverCpus", cpus.serverList());
        conf.put("loadGeneratorCpus", cpus.clientList());
        conf.put("cases", CASES);
        conf.put("rounds", settings.rounds());
        conf.put("warmupSeconds", settings.warmupSeconds());
        conf.put("durationSeconds", settings.durationSeconds());
        conf.put("wrk", "wrk -t1 -c" + settings.connections() + " --timeout 8s, keep-alive");
        conf.put("tokens", "ES256 (P-256), iss " + AuthContract.ISSUER + ", aud " + AuthContract.AUDIENCE + ", sub, scope, iat, exp an hour "
                + "on; bearer-uncached sends " + UNCACHED_TOKENS + " distinct tokens in turn (wrk/tokens.lua)");
        conf.put("keys", "Tidemill fetches the public key set from the runner's JWKS endpoint (TIDEMILL_AUTH_JWKS_URI); the peer reads "
                + "the same keys from a JWK Set file");
        conf.put("jmh", String.join(" ", settings.jmhOptions()) + ", AverageTime, pinned to the server CPUs");
        Map<String, String> verifiers = new LinkedHashMap<>();
        targets.forEach(t -> verifiers.put(t.name(), t.verifier()));
        conf.put("verifiers", verifiers);
        conf.put("wrkVersion", Host.command("wrk", "-v").orElse("?"));
        conf.put("jvmFlags", TargetCatalog.JVM_FLAGS);
        return conf;
    }
}
