package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.bench.loadgen.OpenLoopGenerator;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** bench heavy's settings, its rows' figures and notes, and its table. */
class HeavyLoadSuiteTest {
    @Test
    void defaultsAreTheWriteUpsLoad() {
        HeavyLoadSuite.Settings s = HeavyLoadSuite.Settings.parse(List.of());
        assertThat(s.connections()).isEqualTo(10_000);
        assertThat(s.intervalSeconds()).isEqualTo(2);
        assertThat(s.rate()).isEqualTo(5_000);
        assertThat(s.rampSeconds() + s.durationSeconds()).isBetween(20, 30);
        assertThat(s.suite()).isEqualTo("heavy");
        HeavyLoadSuite.Settings q = HeavyLoadSuite.Settings.parse(List.of("--quick", "--targets", "tidemill,jetty", "--connections", "4000"));
        assertThat(q.suite()).isEqualTo("heavy-quick");
        assertThat(q.targets()).containsExactly("tidemill", "jetty");
        assertThat(q.rate()).isEqualTo(2_000);
        assertThatThrownBy(() -> HeavyLoadSuite.Settings.parse(List.of("--rate", "5"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--connections N --interval S");
    }

    @Test
    void aRowCountsEveryFailureAsAnErrorAndSaysWhenTheGeneratorWasTheLimit() {
        Histogram h = new Histogram(120_000_000L, 3);
        for (int i = 1; i <= 100; i++) h.recordValue(i * 100L); // 0.1 .. 10 ms
        OpenLoopGenerator.Result r = new OpenLoopGenerator.Result(5_000, 10_000, 20_000, 125_000, 100_000, 3, 2, 5_000,
                9_000, 9_900, 10_000, 5_050, 12_000, 10, 250, true, h, 1, 0, 24_994, 4, 0);
        HeavyLoadSuite.Row row = HeavyLoadSuite.row("jetty", r, 20, 95.5, 93, 60);
        assertThat(row.errors()).isEqualTo(3 + 2 + 1);
        assertThat(row.answeredPerSec()).isEqualTo(5_000);
        assertThat(row.p50Ms()).isEqualTo(5.0);
        assertThat(row.p99Ms()).isEqualTo(9.9);
        assertThat(row.connectionsLost()).isEqualTo(4);
        assertThat(row.maxScheduleLagMs()).isEqualTo(12.0);
        assertThat(row.notes()).containsExactly("generator behind schedule (0.01 % of releases over 1 ms late)", "generator CPUs saturated",
                "0.2 % of requests found every connection busy");
        String md = HeavyLoadSuite.markdown(List.of(row));
        assertThat(md).contains("| jetty | 10,000 | 5,000 | 5,000 | 5.00 | 9.00 | 9.90 | 10.00 | 6 | 4 | 96 % | 93 % | 12.0 |");
    }

    @Test
    void aCleanRowHasNoNotes() {
        Histogram h = new Histogram(120_000_000L, 3);
        h.recordValue(1_000);
        OpenLoopGenerator.Result r = new OpenLoopGenerator.Result(5_000, 10_000, 20_000, 125_000, 100_000, 0, 0, 1_000,
                1_000, 1_000, 1_000, 1_000, 300, 0, 0, false, h, 0, 0, 25_000, 0, 0);
        assertThat(HeavyLoadSuite.row("tidemill", r, 20, 40, 30, 35).notes()).isEmpty();
    }
}
