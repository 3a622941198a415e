package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.Config;
import dev.tidemill.Server;
import dev.tidemill.Tidemill;
import dev.tidemill.bench.controllers.ControllersApp;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controllers suite's target and checks over a real socket, its start-up and javac parts on a
 * few generated controllers (fresh JVMs, the processor from the test class path), and its pure
 * parts: options, the round order, ratios, the A/A spread, goals and the page. Asserts structure,
 * never speed.
 */
class ControllersSuiteTest {

    @Test
    void theTargetAnswersEveryFormOfEachEndpointAlike() {
        Server server = ControllersApp.create(Config.fromEnvironment(Map.of("TIDEMILL_PORT", "0"))).start();
        try {
            assertThat(ControllersRequests.check(server.port())).isEmpty();
        } finally {
            server.close();
        }
        assertThat(ControllersRequests.path("json", "controller")).isEqualTo("/ctrl/items/7?verbose=true");
        assertThat(ControllersRequests.path("plaintext", "dsl-twin")).isEqualTo("/dsl2/plaintext");
    }

    @Test
    void aTargetWhoseControllerAnswersOtherwiseFailsTheCheck() {
        Tidemill app = Tidemill.create(Config.fromEnvironment(Map.of("TIDEMILL_PORT", "0")));
        for (String form : ControllersRequests.FORMS) {
            app.get(ControllersRequests.path("json", form).replace("?verbose=true", ""), req -> Map.of("id", 7));
            app.get(ControllersRequests.path("plaintext", form), req -> form.equals("controller") ? "other" : "Hello, World!");
        }
        Server server = app.start();
        try {
            assertThat(ControllersRequests.check(server.port())).hasSize(4)
                    .anyMatch(p -> p.startsWith("GET /ctrl/plaintext: body other"))
                    .anyMatch(p -> p.startsWith("GET /dsl1/items/7?verbose=true: body {\"id\":7}"));
        } finally {
            server.close();
        }
    }

    @Test
    void optionsHaveDefaultsAQuickFormAndRefuseWhatTheyDoNotKnow() {
        ControllersSettings full = ControllersSettings.parse(List.of());
        assertThat(full.suite()).isEqualTo("controllers");
        assertThat(full.parts()).containsExactly("requests", "start", "javac");
        assertThat(full.rounds()).isEqualTo(5);
        assertThat(full.startControllers()).isEqualTo(100);
        assertThat(full.startRuns()).isEqualTo(5);
        assertThat(full.javacControllers()).isEqualTo(200);
        assertThat(full.javacRuns()).isEqualTo(5);
        ControllersSettings quick = ControllersSettings.parse(List.of("--quick", "--parts", "javac,start", "--javac-runs", "2"));
        assertThat(quick.suite()).isEqualTo("controllers-quick");
        assertThat(quick.parts()).containsExactly("start", "javac");
        assertThat(quick.javacRuns()).isEqualTo(2);
        // the quick form's request windows: well under a minute, leaving time for the start-up JVMs and javac
        int cases = ControllersRequests.KINDS.size() * ControllersRequests.FORMS.size();
        assertThat(cases * (quick.warmupSeconds() + quick.rounds() * quick.durationSeconds())).isLessThan(30);
        assertThatThrownBy(() -> ControllersSettings.parse(List.of("--cases", "x"))).hasMessageContaining("unknown option --cases");
        assertThatThrownBy(() -> ControllersSettings.parse(List.of("--parts", "requests,boot"))).hasMessageContaining("unknown part boot");
        assertThatThrownBy(() -> ControllersSettings.parse(List.of("--rounds"))).hasMessageContaining("--rounds needs a value");
    }

    @Test
    void eachRoundRotatesTheFormsAndTheWrkCommandAsksTheCase() {
        assertThat(ControllersRequests.formOrder(1)).containsExactly("dsl", "controller", "dsl-twin");
        assertThat(ControllersRequests.formOrder(2)).containsExactly("controller", "dsl-twin", "dsl");
        assertThat(ControllersRequests.formOrder(3)).containsExactly("dsl-twin", "dsl", "controller");
        assertThat(ControllersRequests.formOrder(4)).isEqualTo(ControllersRequests.formOrder(1));
        ControllersRequests requests = new ControllersRequests(ControllersSettings.parse(List.of("--quick")), System.out, failure -> {});
        assertThat(AuthSuite.with(requests.wrk("1", 8080, "json", "controller"), 2)).containsExactly("taskset", "-c", "1", "wrk", "-d2s", "-t1",
                "-c64", "--latency", "--timeout", "8s", "http://127.0.0.1:8080/ctrl/items/7?verbose=true");
        assertThat(ControllersJavac.allCpus(new CpuSets(List.of(0), List.of(1)))).isEqualTo("0,1");
    }

    @Test
    void generatedControllersCompileWithTheProcessorAndAddTheirRoutesAtStart(@TempDir Path dir) throws Exception {
        assertThat(Host.executable("taskset")).as("taskset: apt-get install -y --no-install-recommends util-linux").isPresent();
        ControllersSettings settings = ControllersSettings.parse(List.of("--quick", "--start-controllers", "3", "--start-runs", "1",
                "--javac-controllers", "4", "--javac-runs", "1", "--root", "../.."));
        ControllersJavac javac = new ControllersJavac(settings, System.out);
        javac.processorPath(processorPath());
        CpuSets cpus = CpuSets.derive();
        javac.measure(cpus, dir.resolve("javac"));
        List<ControllersJavac.JavacRun> cold = javac.runs().subList(0, 3), warm = javac.runs().subList(3, javac.runs().size());
        assertThat(cold).extracting(ControllersJavac.JavacRun::variant).containsExactly("none", "processor", "generated");
        assertThat(javac.runs()).allMatch(ControllersJavac.JavacRun::ok);
        // each controller and its Item record; with the processor's sources also a routes class each and the index
        assertThat(cold).extracting(ControllersJavac.JavacRun::classes).containsExactly(8L, 13L, 13L);
        assertThat(cold).extracting(ControllersJavac.JavacRun::generated).containsExactly(0L, 5L, 0L);
        // then one JVM compiles both ways, alternating, each compilation into directories of its own
        assertThat(warm).hasSize(2 * ControllersJavac.WARM_PAIRS);
        for (int i = 0; i < warm.size(); i++) {
            ControllersJavac.JavacRun r = warm.get(i);
            boolean processor = i % 2 == 1;
            assertThat(r.run()).isEqualTo(i / 2 + 1);
            assertThat(r.variant()).isEqualTo(processor ? "warm-processor" : "warm-none");
            assertThat(r.classes()).isEqualTo(processor ? 13L : 8L);
            assertThat(r.generated()).isEqualTo(processor ? 5L : 0L);
        }
        assertThat(dir.resolve("javac/warm/warm-" + ControllersJavac.WARM_PAIRS + "-processor/generated/dev/tidemill/bench/generated/"
                + "TidemillControllers.java")).isRegularFile();
        ControllersJavacReport.JavacSummary measured = ControllersJavacReport.summary(javac.runs(), 4);
        assertThat(measured.variant("warm-none").runs()).isEqualTo(ControllersJavac.WARM_PAIRS - ControllersJavac.WARM_COUNTED_FROM + 1);
        assertThat(measured.runs()).isEqualTo(1);
        assertThat(measured.addedWarmSeconds()).isEqualTo(measured.variant("warm-processor").wallSeconds() - measured.variant("warm-none").wallSeconds());
        try (Stream<Path> s = Files.walk(dir.resolve("javac/processor-1/generated"))) {
            assertThat(s.map(p -> p.getFileName().toString())).contains("Controller003Routes.java", "TidemillControllers.java");
        }

        ControllersStartup startup = new ControllersStartup(settings, System.out, javac);
        startup.measure(cpus, dir.resolve("start"));
        assertThat(dir.resolve("start/controllers.jar")).isRegularFile();
        List<ControllersStartupReport.StartSummary> start = ControllersStartupReport.summary(startup.runs());
        if (startup.notAvailable().containsKey("aot")) {
            // under Maven the runner's classes are directories on the class path, and the JVM writes no AOT cache for
            // such a class path: the aot JVMs are then not measured, and the JVM's message says why
            assertThat(startup.notAvailable().get("aot")).containsAnyOf("wrote no AOT cache: ", "did not use its AOT cache: ");
            assertThat(startup.runs()).hasSize(9).noneMatch(r -> r.jvm().equals("aot"));
            assertThat(start).extracting(ControllersStartupReport.StartSummary::jvm).containsExactly("cold", "primed", "repeat");
        } else {
            assertThat(startup.runs()).hasSize(12);
            assertThat(start).extracting(ControllersStartupReport.StartSummary::jvm).containsExactly("cold", "primed", "repeat", "aot");
        }
        assertThat(start).allMatch(s -> s.routesAdded() == 3 * ControllerSources.METHODS && s.dslRoutesAdded() == 3 * ControllerSources.METHODS);
        assertThat(startup.runs()).allMatch(r -> r.startMs() > 0 && r.wallMs() > r.totalMs());
        assertThat(startup.runs().stream().filter(r -> r.variant().equals("empty"))).allMatch(r -> r.registerMs() < 1);
    }

    /** @return the processor's jar (or classes) and JavaPoet's, from the test class path */
    private static String processorPath() throws Exception {
        List<String> parts = new ArrayList<>();
        for (String c : List.of("dev.tidemill.processor.ControllerProcessor", "com.palantir.javapoet.JavaFile")) {
            parts.add(Path.of(Class.forName(c).getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        }
        return String.join(File.pathSeparator, parts);
    }

    @Test
    void ratiosAreTakenWithinARoundAndTheControllerIsJudgedAgainstTheAaSpread() {
        List<AuthSuite.Row> rows = new ArrayList<>();
        // json: the controller 1 % above the DSL route in both rounds, the twin 2 % below, then 3 % above: spread 3 %
        rows.add(AuthSuite.row(1, "tidemill", "json-dsl", 100_000, 10, 2.00, 0, 50));
        rows.add(AuthSuite.row(1, "tidemill", "json-controller", 100_000, 10, 2.02, 0, 50));
        rows.add(AuthSuite.row(1, "tidemill", "json-dsl-twin", 100_000, 10, 1.96, 0, 50));
        rows.add(AuthSuite.row(2, "tidemill", "json-dsl", 100_000, 10, 3.00, 0, 50));
        rows.add(AuthSuite.row(2, "tidemill", "json-controller", 100_000, 10, 3.03, 0, 50));
        rows.add(AuthSuite.row(2, "tidemill", "json-dsl-twin", 100_000, 10, 3.09, 0, 50));
        // plaintext: the controller 10 % above in its one round, the twin 1 % above
        rows.add(AuthSuite.row(1, "tidemill", "plaintext-dsl", 100_000, 10, 1.00, 0, 50));
        rows.add(AuthSuite.row(1, "tidemill", "plaintext-controller", 100_000, 10, 1.10, 0, 50));
        rows.add(AuthSuite.row(1, "tidemill", "plaintext-dsl-twin", 100_000, 10, 1.01, 0, 50));
        List<ControllersRequestsReport.Comparison> c = ControllersRequestsReport.compare(rows);
        assertThat(c).extracting(ControllersRequestsReport.Comparison::kind).containsExactly("json", "plaintext");
        assertThat(c.get(0).cpuRatio()).isCloseTo(1.01, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(c.get(0).aaCpuMin()).isCloseTo(0.98, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(c.get(0).aaCpuSpread()).isCloseTo(0.03, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(c.get(0).cpuWithinSpread()).isTrue();
        assertThat(c.get(1).cpuWithinSpread()).isFalse();
        assertThat(c.get(0).rpsRatio()).isEqualTo(1.0);

        List<ControllersStartup.StartRun> runs = List.of(
                new ControllersStartup.StartRun(1, "empty", "cold", 3, 0, 300, 900),
                new ControllersStartup.StartRun(1, "controllers", "cold", 1_003, 10, 305, 950),
                new ControllersStartup.StartRun(1, "dsl", "cold", 1_003, 9, 304, 950),
                new ControllersStartup.StartRun(1, "empty", "primed", 3, 0, 20, 1_200),
                new ControllersStartup.StartRun(1, "controllers", "primed", 1_003, 8, 15, 1_250),
                new ControllersStartup.StartRun(1, "dsl", "primed", 1_003, 7, 15, 1_250),
                new ControllersStartup.StartRun(1, "empty", "aot", 3, 0, 100, 600),
                new ControllersStartup.StartRun(1, "controllers", "aot", 1_003, 6, 112, 650),
                new ControllersStartup.StartRun(1, "dsl", "aot", 1_003, 5, 110, 650),
                new ControllersStartup.StartRun(1, "empty", "repeat", 3, 0, 20, 1_200),
                new ControllersStartup.StartRun(1, "controllers", "repeat", 1_003, 4, 30, 1_250),
                new ControllersStartup.StartRun(1, "dsl", "repeat", 1_003, 3, 29, 1_250));
        List<ControllersStartupReport.StartSummary> start = ControllersStartupReport.summary(runs);
        assertThat(start).extracting(ControllersStartupReport.StartSummary::jvm).containsExactly("cold", "primed", "repeat", "aot");
        assertThat(start.get(0).addedMs()).isEqualTo(15.0);
        assertThat(start.get(0).dslAddedMs()).isEqualTo(13.0);
        assertThat(start.get(0).controllersStartMedianMs()).isEqualTo(305.0);
        assertThat(start.get(1).addedMs()).isEqualTo(3.0);
        assertThat(start.get(2).addedMs()).isEqualTo(14.0);
        assertThat(start.get(3).addedMs()).isEqualTo(18.0);
        assertThat(start).allMatch(s -> s.routesAdded() == 1_000 && s.dslRoutesAdded() == 1_000);
        ControllersJavacReport.JavacSummary javacSummary = ControllersJavacReport.summary(List.of(
                new ControllersJavac.JavacRun(1, "none", 4.0, 3.5, 400, 0, true),
                new ControllersJavac.JavacRun(1, "processor", 5.5, 5.0, 601, 201, true),
                new ControllersJavac.JavacRun(1, "generated", 5.0, 4.5, 601, 0, true),
                // the warm JVM's first compilations do not count; from WARM_COUNTED_FROM on they do
                new ControllersJavac.JavacRun(1, "warm-none", 3.0, 3.0, 400, 0, true),
                new ControllersJavac.JavacRun(1, "warm-processor", 9.0, 9.0, 601, 201, true),
                new ControllersJavac.JavacRun(ControllersJavac.WARM_COUNTED_FROM, "warm-none", 0.5, 0.5, 400, 0, true),
                new ControllersJavac.JavacRun(ControllersJavac.WARM_COUNTED_FROM, "warm-processor", 1.75, 1.75, 601, 201, true)), 200);
        assertThat(javacSummary.addedWarmSeconds()).isEqualTo(1.25);
        assertThat(javacSummary.runs()).isEqualTo(1);
        assertThat(javacSummary.addedWallSeconds()).isEqualTo(1.5);
        assertThat(javacSummary.generatedCodeWallSeconds()).isEqualTo(1.0);
        assertThat(javacSummary.processorOnlyWallSeconds()).isEqualTo(0.5);

        List<AuthReport.Goal> goals = ControllersReport.goals(c, start, Map.of(), javacSummary, 100, 200);
        // cold +15 ms and aot +18 ms both meet the start-up goal; the reading names each, and the repeat JVM's registration alone
        assertThat(goals).extracting(AuthReport.Goal::met).containsExactly(true, false, true, true, true);
        assertThat(goals.get(4).reading()).isEqualTo("+1.25 s (median 1.75 s with -processorpath against 0.50 s with -proc:none, compilations "
                + ControllersJavac.WARM_COUNTED_FROM + " to " + ControllersJavac.WARM_PAIRS + " of each in one JVM)");
        assertThat(goals.get(2).reading()).startsWith("cold +15.0 ms (median 315.0 ms with them against 300.0 ms empty")
                .contains("; with an AOT cache trained on the same app +18.0 ms (median 118.0 ms against 100.0 ms empty")
                .contains("; met by: cold and with an AOT cache;")
                .endsWith("+14.0 ms: app.controllers(...) alone 4.0 ms (under 20 ms), start() 30.0 ms against the empty app's 20.0 ms");
        assertThat(ControllersReport.goals(List.of(), List.of(), Map.of(), null, 100, 200)).extracting(AuthReport.Goal::met).containsOnlyNulls();
        // only the AOT cache meets it; then the cold JVM alone, the AOT cache n/a
        List<ControllersStartupReport.StartSummary> slowCold = new ArrayList<>(start);
        ControllersStartupReport.StartSummary cold = start.get(0);
        slowCold.set(0, new ControllersStartupReport.StartSummary("cold", 1, 300, 300, 300, 540, 540, 540, 530, 530, 530, 240, 230, 200, 340, 190,
                1_000, 1_000));
        AuthReport.Goal aotOnly = ControllersStartupReport.goal(slowCold, Map.of(), 100);
        assertThat(aotOnly.met()).isTrue();
        assertThat(aotOnly.reading()).startsWith("cold +240.0 ms").contains("; met by: with an AOT cache;");
        AuthReport.Goal noCache = ControllersStartupReport.goal(List.of(slowCold.get(0)), Map.of("aot", "the empty training run wrote no AOT cache: "
                + "[error][aot] why"), 100);
        assertThat(noCache.met()).isFalse();
        assertThat(noCache.reading()).contains("; with an AOT cache: n/a (the empty training run wrote no AOT cache: [error][aot] why); met by: neither")
                .doesNotContain("registered once before");
        assertThat(cold.jvm()).isEqualTo("cold");
        assertThat(ControllersStartupReport.table(List.of(cold), Map.of("aot", "why"))).contains("| aot (the JVM's first app, with an AOT cache "
                + "trained on it) | n/a (below) | - |").contains("Not measured on this host, aot: why");
        assertThat(ControllersStartup.aotRefusal("[main] INFO x - listening\n[0.019s][error][aot] Unable to map shared spaces\nprobe routes=3"))
                .isEqualTo("[0.019s][error][aot] Unable to map shared spaces");
        assertThat(ControllersStartup.aotRefusal("[main] INFO dev.tidemill - cpus: 1\nprobe routes=3 controllersNanos=1 startNanos=2")).isNull();

        ControllersSuite.Result result = new ControllersSuite.Result("controllers", false, "start", "end", "./tidemill bench controllers",
                Map.of("cores", 2), List.of(), Map.of("startControllers", 100, "methodsPerController", 10), List.of(), rows,
                ControllersRequestsReport.summarise(rows), c, runs, start, Map.of(), List.of(), javacSummary, goals, List.of());
        String page = ControllersReport.page(result);
        assertThat(page).startsWith("# Controllers, start").contains("### A controller route against the identical DSL route")
                .contains("| json | controller | `GET /ctrl/items/7?verbose=true` |").contains("| json | 1.010 (1.010-1.010) | 0.980-1.030 | 3.0 % | yes |")
                .contains("### Start-up with 1,000 generated routes").contains("| +15.0 ms | 10.0 ms | 305.0 ms | 313.0 ms (313.0-313.0) | +13.0 ms | 9.0 ms | 1,000 |")
                .contains("| aot (the JVM's first app, with an AOT cache trained on it) | 1 | 100.0 ms (100.0-100.0) | 118.0 ms (118.0-118.0) | +18.0 ms |")
                .contains("### javac with and without the processor").contains("| `-processorpath` tidemill-processor: the controllers | 1 | 5.50 s (5.50-5.50) | 5.00 s | 601 | 201 |")
                .contains("The processor adds +1.50 s of wall time (+1.50 s of the compiler's call): compiling the sources it writes accounts for +1.00 s")
                .contains("| `-processorpath` tidemill-processor | 1 | 1.75 s (1.75-1.75) | 601 | 201 |").contains("Warm, the processor adds +1.25 s.")
                .contains("met: 1,000 generated routes (100 controllers x 10 methods) add under 20 ms")
                .contains("NOT met: the plaintext endpoint as a controller").contains("| cores | 2 |");
        assertThat(PerformanceDoc.OTHER_SUITES).containsKey("controllers");
    }
}
