package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProcParsingTest {

    @Test
    void processStatCountsFromTheLastParenthesis() {
        // comm with a space and a parenthesis, as a thread name can have
        String stat = "4242 (java (main) x) S 1 4242 4242 0 -1 4194560 12345 0 3 0 1500 250 7 3 20 0 42 0 9999 "
                + "5000000000 250000 18446744073709551615 1 1 0 0 0 0 0 16781312 16390 0 0 0 17 0 0 0 0 0 0";
        assertThat(ProcessCpu.parseTicks(stat)).isEqualTo(1750);
    }

    @Test
    void contextSwitchesAreReadByNameAndDifferenced() {
        String status = "Name:\tjava\nState:\tS (sleeping)\nvoluntary_ctxt_switches:\t1200\n"
                + "nonvoluntary_ctxt_switches:\t34\n";
        assertThat(ContextSwitches.parse(status)).isEqualTo(new ContextSwitches(1200, 34));
        assertThat(ContextSwitches.parse("Name:\tjava\n")).isEqualTo(new ContextSwitches(0, 0));
        assertThat(new ContextSwitches(1500, 40).since(new ContextSwitches(1200, 34))).isEqualTo(new ContextSwitches(300, 6));
        // this JVM has at least its main thread, which has blocked at least once
        assertThat(ContextSwitches.of(ProcessHandle.current().pid()).voluntary()).isPositive();
    }

    @Test
    void diagnosticsAreCountersPerRequestAndAbsentWhenEitherReadingIs() {
        var before = java.util.Optional.of(ServerDiagnostics.parse("{\"worker.wakeups\":100,\"reply.drains\":40,\"x\":\"y\"}"));
        var after = java.util.Optional.of(ServerDiagnostics.parse("{\"worker.wakeups\":150,\"reply.drains\":90}"));
        assertThat(before.get()).containsOnlyKeys("worker.wakeups", "reply.drains");
        assertThat(ServerDiagnostics.perRequest(before, after, ServerDiagnostics.WAKEUPS, 100)).isEqualTo(0.5);
        assertThat(ServerDiagnostics.perRequest(before, after, ServerDiagnostics.DRAINS, 100)).isEqualTo(0.5);
        assertThat(ServerDiagnostics.perRequest(java.util.Optional.empty(), after, ServerDiagnostics.DRAINS, 100)).isNull();
        assertThat(ServerDiagnostics.perRequest(before, after, "nope", 100)).isNull();
        assertThat(ServerDiagnostics.perRequest(before, after, ServerDiagnostics.DRAINS, 0)).isNull();
    }

    @Test
    void stealAndBusyFromProcStatDeltas() {
        CpuTimes a = CpuTimes.parse("""
                cpu  1000 0 500 8000 100 0 0 400 0 0
                cpu0 800 0 400 3700 50 0 0 50 0 0
                cpu1 200 0 100 4300 50 0 0 350 0 0
                intr 12345
                ctxt 999
                """);
        CpuTimes b = CpuTimes.parse("""
                cpu  1300 0 600 8500 100 0 0 500 0 0
                cpu0 1050 0 450 3700 50 0 0 50 0 0
                cpu1 250 0 150 4800 50 0 0 450 0 0
                """);
        // total delta 300+100+500+100 = 1000, steal 100
        assertThat(b.stealPercentSince(a)).isCloseTo(10.0, within(1e-9));
        // cpu0: 250 user + 50 system, no idle: fully busy
        assertThat(b.busyPercentSince(a, Set.of(0))).isCloseTo(100.0, within(1e-9));
        // cpu1: 50 user + 50 system + 100 steal busy out of 700
        assertThat(b.busyPercentSince(a, Set.of(1))).isCloseTo(100.0 * 200 / 700, within(1e-9));
    }

    @Test
    void loadFdLimitAndCpuLists() {
        assertThat(Host.parseLoad1("1.48 1.13 1.25 1/109 22764\n")).isEqualTo(1.48);
        String limits = """
                Limit                     Soft Limit           Hard Limit           Units
                Max cpu time              unlimited            unlimited            seconds
                Max open files            20000                1048576              files
                """;
        assertThat(Host.parseOpenFilesLimit(limits)).isEqualTo(20000);
        assertThat(Host.parseOpenFilesLimit("Max open files            unlimited            unlimited            files"))
                .isEqualTo(-1);
        assertThat(CpuSets.parseList("0-3,6")).containsExactly(0, 1, 2, 3, 6);
        assertThat(CpuSets.split(List.of(0, 1))).isEqualTo(new CpuSets(List.of(0), List.of(1)));
        assertThat(CpuSets.split(List.of(0, 1, 2, 3, 4, 5, 6, 7)).server()).containsExactly(0, 1, 2, 3);
    }

    @Test
    void summaryTakesMediansAndSameRoundRatiosAndExcludesErrors() {
        List<Sample> samples = List.of(
                sample("baseline", 1, 100, 10, false, 0), sample("tidemill-io", 1, 90, 11, false, 0),
                sample("baseline", 2, 200, 10, false, 0), sample("tidemill-io", 2, 190, 11, false, 0),
                sample("baseline", 3, 100, 10, false, 0), sample("tidemill-io", 3, 95, 11, false, 0),
                sample("broken", 1, 500, 1, false, 3));
        List<SummaryRow> rows = Summary.of(samples, "baseline");
        SummaryRow io = rows.stream().filter(r -> r.target().equals("tidemill-io")).findFirst().orElseThrow();
        assertThat(io.medianRps()).isEqualTo(95);
        assertThat(io.ratio()).isCloseTo(0.95, within(1e-9)); // per-round 0.90, 0.95, 0.95
        assertThat(io.ratioBasis()).isEqualTo(Summary.BASIS_RPS);
        SummaryRow broken = rows.stream().filter(r -> r.target().equals("broken")).findFirst().orElseThrow();
        assertThat(broken.ratio()).isNull();
        assertThat(broken.warnings()).anyMatch(w -> w.contains("excluded from ratios"));
    }

    @Test
    void clientBoundRoundsSwitchTheRatioToServerCpu() {
        List<Sample> samples = List.of(sample("baseline", 1, 100, 10, true, 0), sample("t", 1, 100, 5, true, 0));
        SummaryRow t = Summary.of(samples, "baseline").get(1);
        assertThat(t.ratioBasis()).isEqualTo(Summary.BASIS_CPU);
        assertThat(t.ratio()).isCloseTo(2.0, within(1e-9));
        assertThat(t.clientBound()).isTrue();
    }

    private static Sample sample(String target, int round, double rps, double cpu, boolean clientBound, long non2xx) {
        return new Sample(target, round, "plaintext", 1, false, "", 64, (long) rps * 10, 10, rps, 100, 900, 0, non2xx,
                cpu, 90, clientBound ? 99 : 50, clientBound, 0, 0.5, 0.6, false, "wrk", null, null, null, null, null);
    }
}
