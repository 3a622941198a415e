package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The hot-path suite's pure parts: the tracers' output, options, the medians and ratios, the page; and that perf counts here. */
class HotPathSuiteTest {
    private static final WrkResult WRK = new WrkResult(1000, 1.0, 1000, 100, 200, 0, 0, 0);

    @Test
    void thePerformancePageHasAHotPathSection() {
        assertThat(PerformanceDoc.OTHER_SUITES).containsKey("hotpath");
    }

    @Test
    void perfStatOutputGivesCallsByNameAndTheSwitches() {
        SyscallCounts.Window w = SyscallCounts.parsePerf(List.of("# started on x", "",
                "1001,,syscalls:sys_enter_recvfrom,5001,100.00,,", "1000,,syscalls:sys_enter_sendto,5001,100.00,,",
                "0,,syscalls:sys_enter_read,5001,100.00,,", "<not counted>,,syscalls:sys_enter_bpf,0,0.00,,",
                "7,,context-switches,5001,100.00,,", "1,,cpu-migrations,5001,100.00,,"), List.of("perf"), WRK);
        assertThat(w.calls()).isEqualTo(Map.of("recvfrom", 1001L, "sendto", 1000L));
        assertThat(w.total()).isEqualTo(2001);
        assertThat(w.contextSwitches()).isEqualTo(7);
        assertThat(w.migrations()).isEqualTo(1);
        assertThatThrownBy(() -> SyscallCounts.parsePerf(List.of("0,,syscalls:sys_enter_read,1,100.00,,"), List.of(), WRK))
                .hasMessageContaining("no system call");
    }

    @Test
    void straceSummaryGivesCallsAndErrorsByName() {
        SyscallCounts.Window w = SyscallCounts.parseStrace(List.of(
                "% time     seconds  usecs/call     calls    errors syscall",
                "------ ----------- ----------- --------- --------- ----------------",
                " 60.00    0.600000           6    100020        20 recvfrom",
                " 39.00    0.390000           3    100000           sendto",
                "  1.00    0.010000           5      2000           epoll_pwait2",
                "------ ----------- ----------- --------- --------- ----------------",
                "100.00    1.000000           4    202020        20 total"), List.of("strace"), WRK);
        assertThat(w.calls()).containsEntry("recvfrom", 100020L).containsEntry("sendto", 100000L).containsEntry("epoll_pwait2", 2000L)
                .doesNotContainKey("total");
        assertThat(w.errors()).isEqualTo(Map.of("recvfrom", 20L));
        assertThat(w.contextSwitches()).isEqualTo(-1);
    }

    @Test
    void perfCountsSystemCallsOnThisMachine() {
        // the suite falls back to strace where perf cannot, but the machines we measure on have perf: a missing one is a finding
        assertThat(SyscallCounts.perfWorks()).as("perf stat -e syscalls:sys_enter_getpid works").isTrue();
    }

    @Test
    void optionsHaveDefaultsAndRefuseWhatTheyDoNotKnow() {
        HotPathSettings full = HotPathSettings.parse(List.of("--tracer", "strace"));
        assertThat(full.suite()).isEqualTo("hotpath");
        assertThat(full.rounds()).isEqualTo(4);
        assertThat(full.warmupSeconds()).isEqualTo(60);
        assertThat(full.targets()).containsExactlyElementsOf(HotPathSuite.TARGETS);
        assertThat(full.scenarios()).containsExactly("plaintext", "json");
        assertThat(full.tracer()).isEqualTo(SyscallCounts.Tracer.STRACE);
        assertThat(HotPathSettings.parse(List.of("--quick", "--tracer", "perf")).suite()).isEqualTo("hotpath-quick");
        assertThatThrownBy(() -> HotPathSettings.parse(List.of("--bogus"))).hasMessageContaining("unknown option --bogus");
        assertThatThrownBy(() -> HotPathSettings.parse(List.of("--scenarios", "nope", "--tracer", "perf"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void summariesTakeMediansPerRequestAndPerRoundRatiosToTheReferences() {
        List<HotPathSuite.Row> rows = List.of(
                row("tidemill-io", 1, 4.0, 2000), row("vertx-core", 1, 5.0, 2100), row(TargetCatalog.BASELINE, 1, 4.0, 2000),
                row("tidemill-io", 2, 4.4, 2000), row("vertx-core", 2, 4.0, 2100), row(TargetCatalog.BASELINE, 2, 4.4, 2000));
        HotPathReport.Summary io = HotPathReport.summarise(rows).getFirst();
        assertThat(io.target()).isEqualTo("tidemill-io");
        assertThat(io.serverCpuUsPerRequest()).isCloseTo(4.2, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(io.costVsReference().get("vertx-core")).containsExactly(new double[] {0.95, 0.8, 1.1}, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(io.costVsReference().get(TargetCatalog.BASELINE)[0]).isEqualTo(1.0);
        assertThat(io.syscallsPerRequest()).isEqualTo(2.0);
        assertThat(io.byName()).containsEntry("recvfrom", 1.0);
        String page = HotPathReport.tables(new HotPathSuite.Result("hotpath", "s", "f", "c", Map.of(), List.of(), Map.of(), List.of(), rows,
                HotPathReport.summarise(rows), List.of()));
        assertThat(page).contains("| plaintext | tidemill-io | 1,000 | 4.20 | 0.95x [0.80-1.10] | 1.00x [1.00-1.00] |")
                .contains("| plaintext | vertx-core | 2.100 |");
    }

    @Test
    void goalsAreReadPerTransportFromSameRoundRatios() {
        List<HotPathSuite.Row> rows = List.of(
                row("tidemill-io", 1, 4.0, 2000), row("tidemill-loop", 1, 4.4, 2000), row("vertx-core", 1, 5.0, 2000),
                row("tidemill-io-uring-rings", 1, 3.0, 400), row("tidemill-loop-uring-rings", 1, 3.6, 400),
                row("tidemill-io", 2, 4.4, 2000), row("tidemill-loop", 2, 4.4, 2000), row("vertx-core", 2, 4.0, 2000),
                row("tidemill-io-uring-rings", 2, 3.2, 400), row("tidemill-loop-uring-rings", 2, 3.2, 400),
                row("tidemill-io", 3, 4.0, 2000), row("tidemill-loop", 3, 4.0, 2000), row("vertx-core", 3, 5.0, 2000),
                row("tidemill-io-uring-rings", 3, 4.0, 400), row("tidemill-loop-uring-rings", 3, 4.8, 400));
        // epoll: IO/vertx-core 0.80, 1.10, 0.80 -> 0.80 (met); LOOP/IO 1.10, 1.00, 1.00 -> 1.00 (met)
        // ring: IO/vertx-core 0.60, 0.80, 0.80 -> 0.80 (met); LOOP/IO 1.20, 1.00, 1.20 -> 1.20 (not met); plain io_uring not run
        assertThat(HotPathReport.goals(rows)).isEqualTo(String.join("\n",
                "- IO on epoll, plaintext: server CPU per request 0.80x [0.80-1.10] Vert.x core's (goal at most 0.85x): met",
                "- LOOP on epoll, plaintext: server CPU per request 1.00x [1.00-1.10] IO's on the same transport (goal at most 1.05x): met",
                "- IO on io_uring with its buffer ring, plaintext: server CPU per request 0.80x [0.60-0.80] Vert.x core's (goal at most 0.85x): met",
                "- LOOP on io_uring with its buffer ring, plaintext: server CPU per request 1.20x [1.00-1.20] IO's on the same transport "
                        + "(goal at most 1.05x): NOT met", ""));
        assertThat(HotPathReport.goals(List.of(row("vertx-core", 1, 5.0, 2000)))).isEmpty();
    }

    private static HotPathSuite.Row row(String target, int round, double cpu, long calls) {
        SyscallCounts.Window w = new SyscallCounts.Window(SyscallCounts.Tracer.PERF, List.of(),
                Map.of("recvfrom", 1000L, "sendto", calls - 1000), Map.of(), 5, 0, WRK);
        return new HotPathSuite.Row(target, round, "plaintext", 1000, 1000, cpu, 50, 0.001, 0.001, null, null, w);
    }
}
