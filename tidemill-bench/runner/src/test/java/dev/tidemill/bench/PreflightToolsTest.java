package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A run without its load generator stops before measuring, naming what to install. */
class PreflightToolsTest {
    private static Check check(String name, String verdict) {
        return new Check(name, verdict, "reading", "rule");
    }

    @Test
    void aMissingWrkStopsTheRunAndNamesTheInstallCommand() {
        List<Check> checks = List.of(check("load per CPU", "fail"), check("wrk", "fail"), check("taskset", "pass"));
        assertThatThrownBy(() -> Preflight.requireLoadGenerator(checks))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("wrk not on PATH; nothing measured. Install with: apt-get install -y wrk");
    }

    @Test
    void bothMissingAreNamedTogether() {
        List<Check> checks = List.of(check("wrk", "fail"), check("taskset", "fail"));
        assertThatThrownBy(() -> Preflight.requireLoadGenerator(checks))
                .hasMessageContaining("wrk and taskset not on PATH")
                .hasMessageEndingWith("apt-get install -y wrk util-linux");
    }

    @Test
    void aBusyMachineIsNotAMissingTool() {
        // a failed load check is --strict's business: the run measures and is marked untrustworthy
        List<Check> checks = List.of(check("load per CPU", "fail"), check("wrk", "pass"), check("taskset", "pass"));
        assertThatCode(() -> Preflight.requireLoadGenerator(checks)).doesNotThrowAnyException();
    }
}
