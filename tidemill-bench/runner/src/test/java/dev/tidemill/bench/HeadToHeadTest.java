package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The head-to-head table: same-round ratios, the best Tidemill mode, and the CPU basis when client-bound. */
class HeadToHeadTest {

    private static Sample sample(String target, int round, String scenario, double rps, double cpuUsPerReq, boolean clientBound) {
        return new Sample(target, round, scenario, 1, false, "", 64, (long) (rps * 10), 10, rps, 500, 2000, 0, 0, cpuUsPerReq,
                90, clientBound ? 95 : 60, clientBound, 0, 0.5, 1.0, false, "wrk", null, null, null, null, null);
    }

    @Test
    void comparesTheBestModeRoundByRoundAndSwitchesToCpuWhenClientBound() {
        List<Sample> samples = List.of(
                sample("baseline", 1, "json", 100_000, 10, false), sample("baseline", 2, "json", 80_000, 10, false),
                sample("tidemill-io", 1, "json", 90_000, 11, false), sample("tidemill-io", 2, "json", 80_000, 11, false),
                sample("tidemill-loop", 1, "json", 50_000, 20, false), sample("tidemill-loop", 2, "json", 40_000, 20, false),
                sample("helidon", 1, "json", 45_000, 22, false), sample("helidon", 2, "json", 40_000, 22, false),
                sample("baseline", 1, "plaintext", 120_000, 8, true), sample("tidemill-io", 1, "plaintext", 120_000, 10, true),
                sample("vertx-web", 1, "plaintext", 120_000, 12, true));
        Result r = new Result("full", "s", "f", Map.of(), List.of(), Map.of(), List.of(), List.of(), samples,
                Summary.of(samples, TargetCatalog.BASELINE), List.of(), List.of());
        String table = HeadToHead.of(r);
        // json: io is best (0.95 of baseline); vs baseline rounds 0.90 and 1.00 -> 0.95; vs helidon 2.00 and 2.00
        assertThat(table).contains("| json | tidemill-io | 0.95x [0.90-1.00] | - | 2.00x [2.00-2.00] | - |");
        // plaintext: client-bound, so CPU per request: baseline 8/10 = 0.80, vertx-web 12/10 = 1.20
        assertThat(table).contains("| plaintext | tidemill-io | 0.80x (CPU/req) | 1.20x (CPU/req) | - | - |");
        assertThat(table).doesNotContain("| page |");
    }
}
