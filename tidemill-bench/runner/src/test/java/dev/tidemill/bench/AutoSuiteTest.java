package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.bench.targets.TidemillAutoApp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code ./tidemill bench auto}'s options and its report: the ratios are taken within a round against
 * the best hand-picked assignment of that round and against each single mode, and the goals read
 * from them; the overhead line compares AUTO with IO in the same round and states the A/A spread.
 */
class AutoSuiteTest {

    @Test
    void optionsHaveQuickAndFullDefaultsAndRefuseUnknownOnes() {
        AutoSuite.Settings quick = AutoSuite.Settings.parse(List.of("--quick"));
        assertThat(quick.rounds()).isEqualTo(1);
        AutoSuite.Settings full = AutoSuite.Settings.parse(List.of("--rounds", "4", "--duration", "7"));
        assertThat(full.rounds()).isEqualTo(4);
        assertThat(full.durationSeconds()).isEqualTo(7);
        assertThatThrownBy(() -> AutoSuite.Settings.parse(List.of("--fast"))).hasMessageContaining("unknown option --fast");
    }

    @Test
    void theReportReadsTheGoalsFromPerRoundRatios() {
        List<AutoSuite.MixedRow> mixed = new ArrayList<>();
        for (int round = 1; round <= 3; round++) {
            mixed.add(row(round, "io", 1_000));
            mixed.add(row(round, "loop", 20_000));
            mixed.add(row(round, "virtual", 40_000));
            mixed.add(row(round, "hand io/loop/virtual", 50_000));
            mixed.add(row(round, "hand io/virtual/virtual", 45_000));
            mixed.add(row(round, "hand loop/loop/virtual", 30_000));
            mixed.add(row(round, "auto", round == 2 ? 40_000 : 49_000));
        }
        List<AuthSuite.Row> overhead = new ArrayList<>();
        for (int round = 1; round <= 2; round++) {
            overhead.add(AuthSuite.row(round, "tidemill-io", TidemillAutoApp.PLAINTEXT, 100_000, 10, 1.0, 0, 50));
            overhead.add(AuthSuite.row(round, "tidemill-io", TidemillAutoApp.AUTO_PLAINTEXT, 100_000, 10, 1.005, 0, 50));
            overhead.add(AuthSuite.row(round, "tidemill-io", TidemillAutoApp.TWIN, 100_000, 10, 1.02, 0, 50));
        }
        AutoSuite.Result r = new AutoSuite.Result("auto", false, "2026-01-01T00:00:00Z", "2026-01-01T00:10:00Z", "./tidemill bench auto",
                Map.of(), List.of(), Map.of("serverCpus", "0", "loadGeneratorCpus", "1", "workerLoops", 2, "mixedLoad", "wrk",
                "durationSeconds", 10, "warmupSeconds", 15), mixed, overhead,
                List.of(Map.of("route", TidemillAutoApp.AUTO_PLAINTEXT, "current", "IO", "why", "short")));
        String md = AutoReport.markdown(r);
        assertThat(md).contains("| best hand-picked of each round | 0.980 (0.800-0.980) | >= 0.95 | yes |")
                .contains("| the hand-picked assignment with the best median (hand io/loop/virtual) | 0.980 (0.800-0.980) | >= 0.95 | yes |")
                .contains("| virtual | 1.225 (1.000-1.225) | > 1 | yes |")
                .contains("| io | 49.000 (40.000-49.000) | > 1 | yes |")
                .contains("AUTO 1.005 (1.005-1.005), the twin 1.020-1.020 (A/A spread 2.0 %)")
                .contains("not resolved by this run: the median is +0.5 %, but two identical routes differ by up to 2.0 % here")
                .contains("on IO after the warm-up: IO, short");
    }

    private static AutoSuite.MixedRow row(int round, String config, double total) {
        Map<String, Double> calls = new LinkedHashMap<>();
        for (String path : AutoSuite.MIXED.keySet()) calls.put(path, total / 3);
        return new AutoSuite.MixedRow(round, config, total, 1.0, 5.0, 0, calls, 10.0,
                List.of(Map.of("route", TidemillAutoApp.TRIVIAL, "current", "IO", "moves", 2, "why", "short")));
    }

    @Test
    void theMixScriptSendsEachRouteAsOftenAsItsShare() {
        String script = AutoSuite.mixScript();
        assertThat(script).contains("local paths = {\"/mixed/trivial\", \"/mixed/trivial\"")
                .contains("\"/mixed/cpu\", \"/mixed/block\"}").contains("return wrk.format(\"GET\", paths[i])");
        assertThat(script.split("/mixed/trivial", -1)).hasSize(9);
    }
}
