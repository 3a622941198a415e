package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SweepTableTest {
    private static SweepCell cell(String handler, String mode, int workers, double rps, double p99, long non2xx) {
        return new SweepCell(handler, "/x", mode, workers, 64, 1000, 2.0, rps, 100, p99, 0, non2xx, 12.5, 90, 50,
                false, 0, 1, 0.2, false, List.of("taskset"), Map.of(), List.of(), "wrk", List.of());
    }

    @Test
    void ladderGoesToTwiceTheServerCpus() {
        assertThat(Sweep.ladder(1)).containsExactly(1, 2);
        assertThat(Sweep.ladder(2)).containsExactly(1, 2, 4);
        assertThat(Sweep.ladder(3)).containsExactly(1, 2, 3, 4, 6);
        assertThat(Sweep.ladder(4)).containsExactly(1, 2, 4, 8);
    }

    @Test
    void handlersAreCostsThenBlockThenAwait() {
        assertThat(Sweep.handlers(List.of(0, 100)).stream().map(Sweep.Handler::path))
                .containsExactly("/cost?us=0", "/cost?us=100", "/block?ms=2", "/await?ms=2");
    }

    @Test
    void gridHasOneRowPerHandlerAndOneColumnPerModeAndWorkers() {
        List<SweepCell> cells = List.of(
                cell("cost 0 us", "loop", 1, 50_000, 2_100, 0),
                cell("cost 100 us", "loop", 1, 9_000, 12_000, 0),
                cell("cost 0 us", "io", 2, 60_000, 900, 3),
                new SweepCell("block 2 ms", "/block?ms=2", "io", 2, 64, 100, 2.0, 50, 1000, 150_000, 0, 0, 400, 20, 30,
                        false, 0, 55, 1.7, true, List.of(), Map.of(), List.of(), "wrk", List.of()),
                SweepCell.failed("cost 100 us", "/cost?us=100", "io", 2, List.of("failed: did not listen")));
        String md = SweepTable.of(cells);
        String[] lines = md.split("\n");
        assertThat(lines[0]).isEqualTo("| handler | loop x1 | io x2 |");
        assertThat(lines[1]).isEqualTo("|---|---:|---:|");
        assertThat(lines[2]).isEqualTo("| cost 0 us | 50,000 / 2.10 ms | 60,000 / 900 us ! |");
        assertThat(lines[3]).isEqualTo("| cost 100 us | 9,000 / 12.00 ms | - |");
        assertThat(lines[4]).isEqualTo("| block 2 ms | - | 50 / 150.00 ms ? |");
        assertThat(md).contains("| cost 100 us | io | 2 | - | - | - | - | - | - | 0 | 0 | failed: did not listen |");
        assertThat(md).contains("| cost 0 us | io | 2 | 60,000 | 100 us | 900 us | 12.5 | 90 | 50 | 0 | 3 | errors: excluded from comparisons |");
        assertThat(md).contains("contended: server CPUs 55 % busy before start, load 1.70/CPU");
    }
}
