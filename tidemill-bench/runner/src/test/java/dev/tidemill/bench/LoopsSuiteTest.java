package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.Config;
import dev.tidemill.Server;
import dev.tidemill.Tidemill;
import dev.tidemill.bench.common.LoopsContract;
import dev.tidemill.bench.common.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The event-loop matrix's clients against a real server on port 0, its micro rows on every executor
 * with small counts, and its pure parts: options, the planned duration, the rerun check, the auto
 * rule, the tables and strace's summary. Asserts structure and counts, never speed.
 */
class LoopsSuiteTest {

    @Test
    void theClientsCountEveryRightAnswerAndNoWrongOne() {
        Tidemill app = Tidemill.create(Config.fromEnvironment(Map.of("TIDEMILL_PORT", "0")));
        app.get(Scenario.PLAINTEXT_PATH, req -> Scenario.PLAINTEXT_BODY);
        app.ws(LoopsContract.ECHO, (ws, msg) -> ws.send(msg));
        Server server = app.start();
        try {
            LoopsClient.Outcome http = LoopsClient.http(server.port(), false, 3, 7);
            assertThat(http.ops()).isEqualTo(21);
            assertThat(http.errors()).isZero();
            LoopsClient.Outcome ws = LoopsWsClient.echo(server.port(), false, 2, 5);
            assertThat(ws.ops()).isEqualTo(10);
            assertThat(ws.errors()).isZero();
            LoopsClient.Outcome closing = LoopsClient.shortConnections(server.port(), 9, 4);
            assertThat(closing.ops()).isEqualTo(9);
            assertThat(closing.clean()).isTrue();
        } finally {
            server.close();
        }
    }

    @Test
    void aServerWithoutTheEchoFailsTheWebSocketRowWithItsStatus() {
        Tidemill app = Tidemill.create(Config.fromEnvironment(Map.of("TIDEMILL_PORT", "0")));
        app.get(Scenario.PLAINTEXT_PATH, req -> Scenario.PLAINTEXT_BODY);
        Server server = app.start();
        try {
            LoopsClient.Outcome ws = LoopsWsClient.echo(server.port(), false, 1, 2);
            assertThat(ws.ops()).isZero();
            assertThat(ws.firstError()).contains("the upgrade was answered 404");
        } finally {
            server.close();
        }
    }

    @Test
    void everyExecutorRunsEveryMicroRowItCarries() throws Exception {
        for (String executor : LoopsExecutors.NAMES) {
            if (LoopsExecutors.refusal(executor).isPresent()) continue;
            for (String row : List.of("callbacks", "tasks-future", "tasks-loop")) {
                LoopsMicro.Reading r = LoopsMicro.once(row, executor, 2_000, 500);
                assertThat(r.nanos()).as(executor + " " + row).isPositive();
            }
        }
        assertThat(LoopsMicro.once("tasks-virtual", "jdk-virtual", 1_000, 250).nanos()).isPositive();
    }

    @Test
    void quickIsASubsetWithEveryRowKindAndTheFullFormFitsThreeHours() {
        LoopsSettings quick = LoopsSettings.parse(List.of("--quick"));
        assertThat(quick.rows()).containsExactly(LoopsRow.values());
        assertThat(quick.rerun()).isFalse();
        assertThat(quick.servers()).isEqualTo(LoopsSettings.QUICK_COLUMNS);
        assertThat(LoopsTargets.names()).containsAll(LoopsSettings.QUICK_COLUMNS);
        assertThat(quick.suite()).isEqualTo("loops-quick");
        LoopsSettings full = LoopsSettings.parse(List.of());
        assertThat(full.rerun()).isTrue();
        assertThat(full.passes()).isEqualTo(2);
        assertThat(full.runs()).isEqualTo(7);
        assertThat(full.warmups()).isEqualTo(2);
        assertThat(LoopsSuite.plannedSeconds(full)).isLessThanOrEqualTo(3 * 3600);
        assertThat(LoopsSuite.plannedSeconds(quick)).isLessThan(LoopsSuite.plannedSeconds(full) / 10);
        assertThat(LoopsSettings.parse(List.of("--quick", "--rows", "ws,callbacks")).rows()).containsExactly(LoopsRow.CALLBACKS, LoopsRow.WS);
        assertThatThrownBy(() -> LoopsSettings.parse(List.of("--servers", "nginx"))).hasMessageContaining("unknown server nginx");
        assertThat(PerformanceDoc.OTHER_SUITES).containsKey("loops");
    }

    @Test
    void aMedianThatMovesPastFivePercentIsFlagged() {
        List<LoopsCell> cells = List.of(cell(1, "http", "a", 100), cell(2, "http", "a", 104), cell(1, "http", "b", 100),
                cell(2, "http", "b", 106), cell(1, "ws", "a", 50));
        List<LoopsReport.Rerun> reruns = LoopsReport.reruns(cells);
        assertThat(reruns).hasSize(2);
        assertThat(reruns.get(0).flagged()).isFalse();
        assertThat(reruns.get(1).flagged()).isTrue();
        assertThat(reruns.get(1).changePercent()).isEqualTo(6.0, org.assertj.core.data.Offset.offset(1e-9));
        // the matrix shows the first pass, and flags the cell whose rerun moved
        assertThat(LoopsReport.matrix(cells, false, List.of("a", "b"), false))
                .contains("| HTTP/1.1 keep-alive, 16 x 500 | 100 (95.0-105) | 100 (95.0-105) (rerun!) |")
                .contains("| WebSocket echo, 16 x 500 | 50.0 (47.5-52.5) | - |");
    }

    @Test
    void theAutoRuleCountsWinsPerRowAndModeAndSaysWhichTransport() {
        List<LoopsCell> cells = new ArrayList<>();
        for (String row : List.of("http", "https", "ws")) {
            cells.add(cell(1, row, "tidemill-io-epoll", 100));
            cells.add(cell(1, row, "tidemill-io-io_uring", 80));
            cells.add(cell(1, row, "tidemill-loop-epoll", 90));
            cells.add(cell(1, row, "tidemill-loop-nio", 120));
        }
        cells.add(LoopsCell.without(1, "short", "tidemill-io-io_uring", LoopsCell.NOT_AVAILABLE, "refused", List.of()));
        LoopsReport.AutoRule rule = LoopsReport.autoRule(cells, false);
        assertThat(rule.pairs()).isEqualTo(6);
        assertThat(rule.wins()).containsEntry("io_uring", 3).containsEntry("epoll", 3).containsEntry("nio", 0);
        assertThat(rule.text()).contains("No transport wins a majority outright");
        cells.add(cell(1, "wss", "tidemill-io-epoll", 100));
        cells.add(cell(1, "wss", "tidemill-io-io_uring", 70));
        LoopsReport.AutoRule uring = LoopsReport.autoRule(cells, true);
        assertThat(uring.wins()).containsEntry("io_uring", 4);
        assertThat(uring.text()).contains("Rule for `auto`: pick io_uring where it is available, else epoll, else NIO").contains("quick run");
        assertThat(uring.winners().get("wss/io")).startsWith("io_uring by 30.0 % over epoll");
    }

    @Test
    void theDetailTableShowsNotAvailableCellsWithTheirReason() {
        List<LoopsCell> cells = List.of(cell(1, "tcp", "netty-epoll", 10),
                LoopsCell.without(1, "tcp", "tidemill-io-epoll", LoopsCell.NOT_AVAILABLE, "no raw TCP | API", List.of()));
        String table = LoopsReport.detail(cells, LoopsRow.TCP, List.of("tidemill-io-epoll", "netty-epoll"), false);
        assertThat(table).contains("| tidemill-io-epoll | n/a | no raw TCP \\| API |").contains("| netty-epoll | 10.0 |");
        assertThat(table.lines().map(l -> l.chars().filter(c -> c == '|').count() - (l.contains("\\|") ? 1 : 0)).distinct())
                .as("every line has as many cells as the header").hasSize(1);
        assertThat(LoopsReport.notMeasured(cells)).containsExactly("tcp / tidemill-io-epoll: n/a, no raw TCP | API");
    }

    @Test
    void straceSummariesAreParsedWithAndWithoutAnErrorsColumn() {
        String table = """
                % time     seconds  usecs/call     calls    errors syscall
                ------ ----------- ----------- --------- --------- ----------------
                 61.20    0.120000           7     16000           write
                 30.10    0.060000           3     16020        20 read
                  8.70    0.017000           2      8000           epoll_wait
                ------ ----------- ----------- --------- --------- ----------------
                100.00    0.197000           4     40020        20 total
                """;
        LoopsStrace.Counts c = LoopsStrace.parse(table);
        assertThat(c.total()).isEqualTo(40020);
        assertThat(c.top()).containsExactly(Map.entry("read", 16020L), Map.entry("write", 16000L), Map.entry("epoll_wait", 8000L));
        assertThatThrownBy(() -> LoopsStrace.parse("strace: attach: ptrace(PTRACE_SEIZE, 1): Operation not permitted"))
                .hasMessageContaining("no summary");
    }

    private static LoopsCell cell(int pass, String row, String column, double median) {
        return new LoopsCell(pass, row, column, LoopsCell.OK, "", 1000, List.of(median), List.of(median * 0.95, median, median * 1.05), median,
                median * 0.95, median * 1.05, 10, 100_000, 0.5, 0.1, 50, Double.NaN, Map.of(), List.of());
    }
}
