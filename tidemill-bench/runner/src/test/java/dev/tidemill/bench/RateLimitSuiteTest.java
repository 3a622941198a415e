package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The rate-limit suite's pure parts: the address stream and the report. */
class RateLimitSuiteTest {

    @Test
    void oneRequestInTenIsTheHotAddressAndTheRestCycleThroughEveryAddress() {
        Set<String> seen = new HashSet<>();
        int hot = 0;
        for (long i = 0; i < 1_000_000; i++) {
            String a = RateLimitSuite.address(i, 100_000);
            if (a.equals(RateLimitSuite.HOT)) hot++;
            else seen.add(a);
        }
        assertThat(hot).isEqualTo(100_000);
        assertThat(seen).hasSize(100_000);
        assertThat(RateLimitSuite.address(8, 100_000)).isEqualTo("100.64.0.8");
        assertThat(RateLimitSuite.address(10, 100_000)).isEqualTo("100.64.0.9");
    }

    @Test
    void theTableAndTheMedianP99() {
        List<RateLimitSuite.Row> rows = List.of(
                new RateLimitSuite.Row("limited", 1, 5_000, 4_510, 490, 0.2, 1.5, 9, 0, 4_000, 190, 40, false),
                new RateLimitSuite.Row("unlimited", 1, 5_000, 5_000, 0, 0.2, 1.4, 8, 0, 4_000, 190, 35, false),
                new RateLimitSuite.Row("limited", 2, 5_000, 4_510, 490, 0.2, 1.7, 9, 0, 4_100, 190, 40, true));
        assertThat(RateLimitSuite.medianP99(rows, "limited")).isEqualTo(1.6);
        assertThat(RateLimitSuite.markdown(rows)).contains("| 1 | limited | 5,000 | 4,510 | 490 | 0.20 | 1.50 | 9.00 | 0 | 4,000 | 190 MiB | 40 % |")
                .contains("| 1 | unlimited | 5,000 | 5,000 | 0 | 0.20 | 1.40 | 8.00 | 0 | - |")
                .contains("(generator behind)");
    }
}
