package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The overload suite's configurations and table; the measurements themselves run only under ./tidemill bench. */
class OverloadSuiteTest {

    @Test
    void configurationsCoverBothModesWithTheDefaultAndTheTightLimit() {
        assertThat(OverloadSuite.configs()).extracting(OverloadSuite.Config::mode).containsExactly("loop", "loop", "virtual", "virtual");
        assertThat(OverloadSuite.configs().get(0).env()).containsEntry("TIDEMILL_MODE", "loop")
                .doesNotContainKey("TIDEMILL_CONCURRENCY_PER_LOOP");
        assertThat(OverloadSuite.configs().get(1).env())
                .containsEntry("TIDEMILL_CONCURRENCY_PER_LOOP", Integer.toString(OverloadSuite.TIGHT_LIMIT));
        assertThat(OverloadSuite.FACTORS).startsWith(0.5, 1.0, 1.5, 3.0).endsWith(0.5);
    }

    @Test
    void tableShowsGoodputShedAndTheRecoveryRow() {
        List<OverloadSuite.Row> rows = List.of(
                new OverloadSuite.Row("loop, limit 32", "load", 3.0, 4000, 12000, 256, 10, 120_000, 40_000, 80_000, 0, 0, 4000,
                        66.7, 5.1, 9.9, 20.0, 0.4, 0, false, 99, 0.5),
                new OverloadSuite.Row("loop, limit 32", "recovery", 0.5, 4000, 2000, 256, 10, 20_000, 20_000, 0, 0, 0, 2000, 0,
                        0.3, 0.9, 2.0, 0, 0, false, 50, 3.5));
        String md = OverloadSuite.markdown(rows);
        assertThat(md).contains("| loop, limit 32 | 3.0x of 4,000 | 12,000 | 4,000 | 66.7 % | 5.10 | 9.90 | 20.00 | 0.40 | 0 | 99 % |  |")
                .contains("| loop, limit 32 | after 3x: 0.5x of 4,000 | 2,000 | 2,000 | 0.0 % | 0.30 | 0.90 | 2.00 | - | 0 | 50 % | steal 3.5 % |");
    }
}
