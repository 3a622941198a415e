package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./tidemill bench imbalance}'s options and its floor row: the same open-loop generator against
 * nginx on the server CPUs, over real sockets, recorded as a row of its own ahead of the configurations.
 */
class ImbalanceSuiteTest {

    @Test
    void optionsHaveQuickAndFullDefaultsAndRefuseUnknownOnes() {
        ImbalanceSuite.Settings full = ImbalanceSuite.Settings.parse(List.of());
        assertThat(full.rate()).isEqualTo(2_000);
        assertThat(full.windowSeconds()).isEqualTo(20);
        ImbalanceSuite.Settings quick = ImbalanceSuite.Settings.parse(List.of("--quick", "--rate", "500"));
        assertThat(quick.windowSeconds()).isEqualTo(5);
        assertThat(quick.rate()).isEqualTo(500);
        assertThatThrownBy(() -> ImbalanceSuite.Settings.parse(List.of("--fast"))).hasMessageContaining("unknown option --fast");
    }

    @Test
    void theFloorRowMeasuresNginxWithTheSameGenerator(@TempDir Path dir) {
        assertThat(Host.executable("nginx")).as("nginx: apt-get install -y --no-install-recommends nginx-light").isPresent();
        assertThat(Host.executable("taskset")).as("taskset: apt-get install -y --no-install-recommends util-linux").isPresent();
        ImbalanceSuite.Settings settings = new ImbalanceSuite.Settings(true, 400, 8, 1, 0, dir.resolve("results"));
        List<Map<String, Object>> targets = new ArrayList<>();
        ImbalanceSuite.Row floor = new ImbalanceSuite(settings, System.out).floor(CpuSets.derive(), dir.resolve("floor"), targets);
        assertThat(floor.configuration()).isEqualTo(ImbalanceSuite.FLOOR);
        assertThat(floor.holders()).isZero();
        assertThat(floor.sent()).isEqualTo(400);
        assertThat(floor.count()).as("every request answered 200 by nginx").isEqualTo(400);
        assertThat(floor.errors() + floor.incomplete()).isZero();
        assertThat(floor.p50Ms()).isPositive().isLessThanOrEqualTo(floor.p99Ms());
        assertThat(floor.holdsCompleted()).isZero();
        assertThat(targets).singleElement().satisfies(t -> {
            assertThat(t).containsEntry("configuration", ImbalanceSuite.FLOOR);
            assertThat(t.get("commandLine").toString()).contains("nginx");
        });
        assertThat(ImbalanceSuite.markdown(List.of(floor))).contains("| " + ImbalanceSuite.FLOOR + " | 0 | ");
        ImbalanceSuite.Result result = new ImbalanceSuite.Result("imbalance", true, "start", "end", Map.of("cores", 2), List.of(),
                Map.of("rate", 400, "connections", 8, "windowSeconds", 1, "workerLoops", 2, "serverCpus", "0"), targets, List.of(floor));
        Path json = ImbalanceSuite.write(result, dir.resolve("results"));
        assertThat(json.getFileName().toString()).endsWith("-imbalance-quick.json");
        assertThat(json.resolveSibling(json.getFileName().toString().replace(".json", ".md"))).content()
                .contains("The first row, " + ImbalanceSuite.FLOOR + ", is the same generator against nginx with no holder")
                .contains("| " + ImbalanceSuite.FLOOR + " | 0 | ");
    }
}
