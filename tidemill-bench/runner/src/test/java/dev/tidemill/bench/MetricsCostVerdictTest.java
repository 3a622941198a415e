package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The metrics-cost verdict: met or not by the median, unless the rounds scatter too widely to tell. */
class MetricsCostVerdictTest {
    @Test
    void aMedianUnderTheGoalWithTightRoundsIsMet() {
        assertThat(MetricsCost.verdict(1.0, -0.5, 2.5)).isEqualTo("met");
    }

    @Test
    void aMedianOverTheGoalIsNotMet() {
        assertThat(MetricsCost.verdict(2.5, 1.0, 4.0)).isEqualTo("not met");
    }

    @Test
    void roundsThatScatterWiderThanTwiceTheGoalEitherWayDecideNothing() {
        assertThat(MetricsCost.verdict(0.1, -23.0, 28.8)).startsWith("not resolved by this run").contains("51.8 points");
    }
}
