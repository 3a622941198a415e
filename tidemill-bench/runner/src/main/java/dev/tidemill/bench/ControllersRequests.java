package dev.tidemill.bench;

import dev.tidemill.bench.controllers.ControllersApp;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The request part of {@code ./tidemill bench controllers} ({@link ControllersSuite}): what a request to a
 * route of a controller compiled by tidemill-processor costs the server against the same route written with
 * the lambda DSL. {@link ControllersApp} serves each endpoint ({@code GET /items/7?verbose=true}, a small JSON
 * record, and {@code GET /plaintext}) as DSL routes, as {@code ItemsController} and as the DSL routes again
 * (the A/A twin), in one server process. Every case is checked first; then wrk on each case, warmed up, then
 * rounds rotating which form goes first, with the server's CPU read from {@code /proc} over each window
 * ({@link AuthSuite#measure}). Keeps every window ({@link #rows()}) and the server's record.
 */
final class ControllersRequests {
    /** The endpoints. */
    static final List<String> KINDS = List.of("json", "plaintext");
    /** The forms of each endpoint, in the first round's order. */
    static final List<String> FORMS = List.of("dsl", "controller", "dsl-twin");
    /** The item the JSON endpoint is asked for. */
    static final long ITEM = 7;
    /** What the JSON endpoint answers for it, exactly. */
    static final String ITEM_JSON = "{\"id\":7,\"name\":\"item 7\",\"stock\":7,\"verbose\":true}";

    private final ControllersSettings settings;
    private final PrintStream out;
    private final Consumer<String> failures;
    private final List<AuthSuite.Row> rows = new ArrayList<>();
    private final List<Map<String, Object>> records = new ArrayList<>();

    /**
     * @param settings the options
     * @param out progress
     * @param failures where a window with errors is reported: it fails the run, and the rounds go on
     */
    ControllersRequests(ControllersSettings settings, PrintStream out, Consumer<String> failures) {
        this.settings = settings;
        this.out = out;
        this.failures = failures;
    }

    /** @return every request window so far */
    List<AuthSuite.Row> rows() {
        return List.copyOf(rows);
    }

    /** @return the server's record (command line, startup lines, checks), once it started */
    List<Map<String, Object>> records() {
        return List.copyOf(records);
    }

    /** @return the server, in IO mode as the other suites run Tidemill */
    static Target target() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new Target("tidemill", "tidemill", true, false, (port, threads, dir) -> new Target.Command(
                TlsTargets.jvm(java, System.getProperty("java.class.path"), ControllersApp.class.getName()), Map.of(
                "TIDEMILL_MODE", "io", "TIDEMILL_PORT", Integer.toString(port), "TIDEMILL_IO_THREADS", Integer.toString(threads),
                "TIDEMILL_LOOPS", Integer.toString(threads))));
    }

    /**
     * @param kind {@code json} or {@code plaintext}
     * @param form {@code dsl}, {@code controller} or {@code dsl-twin}
     * @return the request's path and query
     */
    static String path(String kind, String form) {
        String prefix = switch (form) {
            case "dsl" -> ControllersApp.DSL_PREFIX;
            case "controller" -> ControllersApp.CONTROLLER_PREFIX;
            case "dsl-twin" -> ControllersApp.DSL_TWIN_PREFIX;
            default -> throw new IllegalArgumentException(form);
        };
        return switch (kind) {
            case "json" -> prefix + ControllersApp.ITEM_PATTERN.replace("{id}", Long.toString(ITEM)) + "?verbose=true";
            case "plaintext" -> prefix + ControllersApp.PLAINTEXT_PATH;
            default -> throw new IllegalArgumentException(kind);
        };
    }

    /** @return {@code kind-form}, the case's id in rows */
    static String caseId(String kind, String form) {
        return kind + "-" + form;
    }

    /** @return each case's request, by case id, in {@link #KINDS} x {@link #FORMS} order */
    static Map<String, String> casePaths() {
        Map<String, String> paths = new LinkedHashMap<>();
        for (String kind : KINDS) for (String form : FORMS) paths.put(caseId(kind, form), path(kind, form));
        return paths;
    }

    /**
     * @param round 1, 2, ...
     * @return the forms in that round's order: the first round's rotated by one each round
     */
    static List<String> formOrder(int round) {
        return ControllersSuite.rotated(FORMS, round);
    }

    /**
     * Asks every case once and compares: 200, the same Content-Type for every form, and each body
     * exactly the expected one.
     *
     * @param port the server's port
     * @return what is wrong, empty when every case answers as it should
     */
    static List<String> check(int port) {
        List<String> problems = new ArrayList<>();
        for (String kind : KINDS) {
            String expected = kind.equals("json") ? ITEM_JSON : dev.tidemill.bench.controllers.Items.HELLO;
            String firstType = null;
            for (String form : FORMS) {
                String path = path(kind, form);
                String answer;
                try {
                    answer = LoopbackGet.get(port, path, 2_000);
                } catch (IOException e) {
                    problems.add("GET " + path + ": " + e.getMessage());
                    continue;
                }
                int end = answer.indexOf("\r\n\r\n");
                String head = end < 0 ? answer : answer.substring(0, end);
                String body = end < 0 ? "" : new String(answer.substring(end + 4).getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
                if (!head.startsWith("HTTP/1.1 200 ")) {
                    problems.add("GET " + path + " answered " + head.lines().findFirst().orElse("nothing"));
                    continue;
                }
                Matcher type = Pattern.compile("(?im)^content-type:\\s*(.+)$").matcher(head);
                String contentType = type.find() ? type.group(1).strip() : "";
                if (firstType == null) firstType = contentType;
                else if (!firstType.equals(contentType)) problems.add("GET " + path + ": Content-Type " + contentType + ", not " + firstType);
                if (!body.equals(expected)) problems.add("GET " + path + ": body " + body + ", not " + expected);
            }
        }
        return problems;
    }

    /**
     * Starts the server, checks every case, warms each up, then measures the rounds.
     *
     * @param cpus the server's and the load generator's CPUs
     * @param dir the server's directory
     * @throws IllegalStateException when a case answers wrongly (nothing is measured then)
     */
    void measure(CpuSets cpus, Path dir) {
        Preflight.serverBusyPercent(cpus, 300);
        try (RunningTarget running = RunningTarget.start(target(), cpus, dir)) {
            List<String> problems = check(running.port());
            Map<String, Object> rec = new LinkedHashMap<>();
            rec.put("part", "requests");
            rec.put("commandLine", running.commandLine());
            rec.put("startup", running.startupLines());
            rec.put("verification", problems);
            records.add(rec);
            if (!problems.isEmpty()) throw new IllegalStateException("answered wrongly, not measured: " + String.join("; ", problems));
            out.println("requests: checks pass");
            Map<String, List<String>> wrk = new LinkedHashMap<>();
            for (String kind : KINDS) for (String form : FORMS) wrk.put(caseId(kind, form), wrk(cpus.clientList(), running.port(), kind, form));
            if (settings.warmupSeconds() > 0) {
                for (Map.Entry<String, List<String>> c : wrk.entrySet()) {
                    WrkResult w = Wrk.run(AuthSuite.with(c.getValue(), settings.warmupSeconds()), settings.warmupSeconds());
                    out.printf(Locale.ROOT, "  warm-up  %-20s %,10.0f req/s%n", c.getKey(), w.requestsPerSec());
                }
            }
            for (int round = 1; round <= settings.rounds(); round++) {
                List<String> kinds = round % 2 == 1 ? KINDS : KINDS.reversed();
                for (String kind : kinds) {
                    for (String form : formOrder(round)) {
                        String id = caseId(kind, form);
                        AuthSuite.Row r = AuthSuite.measure(wrk.get(id), settings.durationSeconds(), running.pid(), cpus, round, "tidemill", id);
                        rows.add(r);
                        out.printf(Locale.ROOT, "  round %d %-20s %,10.0f req/s  %6.2f us CPU/req  errors %d%s%n", round, id, r.requestsPerSec(),
                                r.serverCpuUsPerRequest(), r.errors(), r.clientBound() ? "  client-bound" : "");
                        if (r.errors() > 0) failures.accept("requests " + id + " round " + round + ": " + r.errors() + " errors");
                    }
                }
            }
        }
    }

    /** @return the wrk command of a case, without its duration */
    List<String> wrk(String client, int port, String kind, String form) {
        return List.of("taskset", "-c", client, "wrk", "-t1", "-c" + settings.connections(), "--latency", "--timeout", "8s",
                "http://127.0.0.1:" + port + path(kind, form));
    }
}
