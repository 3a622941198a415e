package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.Config;
import dev.tidemill.Server;
import dev.tidemill.Tidemill;
import dev.tidemill.bench.targets.TidemillMcpApp;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The MCP suite's checks and clients over real sockets, and its pure parts: options, the wrk command, socket states, goals and the page. */
class McpSuiteTest {

    @Test
    void theTargetPassesTheChecksAndTheAbortedClientsCloseBeforeTheAnswer() {
        Server server = TidemillMcpApp.create(Config.fromEnvironment(Map.of("TIDEMILL_PORT", "0"))).start();
        try (McpClient client = new McpClient(server.port())) {
            assertThat(client.check(true)).isEmpty();
            AbortedCalls.Outcome o = AbortedCalls.run(server.port(), TidemillMcpApp.SLOW_TOOL, 20, 5, 20);
            assertThat(o.clients()).isEqualTo(20);
            assertThat(o.closed()).isEqualTo(10);
            assertThat(o.reset()).isEqualTo(10);
            assertThat(o.failed()).isZero();
            assertThat(o.answeredBeforeClose()).isZero();
            assertThat(McpClient.callProblem(client.toolCall(TidemillMcpApp.ITEM_TOOL, McpClient.ITEM_ARGUMENTS), "call")).isNull();
        } finally {
            server.close();
        }
    }

    @Test
    void aTargetWhoseToolAnswersSomethingElseThanTheRouteFailsTheChecks() {
        Tidemill app = Tidemill.create(Config.fromEnvironment(Map.of("TIDEMILL_PORT", "0")));
        // a route that answers its tool calls otherwise than its plain requests
        app.get("/items/{id}", req -> Map.of("id", dev.tidemill.ToolCall.of(req).isPresent() ? 8 : 7))
                .requires(dev.tidemill.Requirement.anonymous())
                .tool(TidemillMcpApp.ITEM_TOOL, "not the item");
        app.mcp();
        Server server = app.start();
        try (McpClient client = new McpClient(server.port())) {
            assertThat(client.check(false)).singleElement().asString().contains("structuredContent differs");
            assertThat(client.check(true)).anyMatch(p -> p.contains("tools/call " + TidemillMcpApp.SLOW_TOOL));
        } finally {
            server.close();
        }
    }

    @Test
    void optionsHaveDefaultsAQuickFormAndRefuseWhatTheyDoNotKnow() {
        McpSettings full = McpSettings.parse(List.of());
        assertThat(full.suite()).isEqualTo("mcp");
        assertThat(full.rounds()).isEqualTo(3);
        assertThat(full.durationSeconds()).isEqualTo(10);
        assertThat(full.sessions()).isEqualTo(5_000);
        assertThat(full.aborted()).isEqualTo(10_000);
        assertThat(full.concurrency()).isEqualTo(200);
        McpSettings quick = McpSettings.parse(List.of("--quick", "--sessions", "50", "--rounds", "2"));
        assertThat(quick.suite()).isEqualTo("mcp-quick");
        assertThat(quick.sessions()).isEqualTo(50);
        assertThat(quick.rounds()).isEqualTo(2);
        assertThat(quick.aborted()).isEqualTo(1_000);
        // the quick form's own measuring: warm-ups and windows well under a minute
        assertThat(2 * quick.warmupSeconds() + quick.rounds() * 2 * quick.durationSeconds() + quick.settleSeconds()).isLessThan(30);
        assertThatThrownBy(() -> McpSettings.parse(List.of("--cases", "x"))).hasMessageContaining("unknown option --cases");
        assertThatThrownBy(() -> McpSettings.parse(List.of("--close-after", "200"))).hasMessageContaining("--close-after");
        assertThatThrownBy(() -> McpSettings.parse(List.of("--sessions"))).hasMessageContaining("--sessions needs a value");
    }

    @Test
    void theToolCaseSendsTheCheckedCallThroughTheScript() {
        McpSuite suite = new McpSuite(McpSettings.parse(List.of("--quick")), "test", System.out);
        List<String> mcp = AuthSuite.with(suite.wrk("1", 8080, "mcp", Path.of("s", "mcp.lua")), 3);
        assertThat(mcp).containsSubsequence("taskset", "-c", "1", "wrk", "-d3s", "-t1", "-c64", "-s", Path.of("s", "mcp.lua").toString(),
                "http://127.0.0.1:8080/mcp", "--", "get_item", McpClient.toolCallBody("get_item", "{\"id\":7}"));
        assertThat(suite.wrk("1", 8080, "plain", Path.of("s"))).endsWith("http://127.0.0.1:8080/items/7");
        assertThat(McpSuite.class.getResource("/wrk/mcp.lua")).isNotNull();
        String request = new String(AbortedCalls.request(8080, "slow"), StandardCharsets.US_ASCII);
        assertThat(request).startsWith("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n").contains("Mcp-Name: slow\r\n")
                .contains("MCP-Protocol-Version: 2026-07-28\r\n").endsWith("\r\n\r\n" + McpClient.toolCallBody("slow", "{}"));
    }

    @Test
    void socketsAreCountedByStateForTheProcesssInodesOnly() {
        String tables = """
                  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
                   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 111 1 0 100 0 0 10 0
                   1: 0100007F:1F90 0100007F:C350 08 00000000:00000000 00:00000000 00000000     0        0 222 1 0 20 4 30 10 -1
                   2: 0100007F:1F90 0100007F:C351 08 00000000:00000000 00:00000000 00000000     0        0 333 1 0 20 4 30 10 -1
                   3: 0100007F:1F90 0100007F:C352 01 00000000:00000000 00:00000000 00000000     0        0 444 1 0 20 4 30 10 -1
                """;
        assertThat(SocketStates.count(tables, Set.of(111L, 222L, 444L)))
                .containsExactlyInAnyOrderEntriesOf(Map.of("LISTEN", 1, "CLOSE_WAIT", 1, "ESTABLISHED", 1));
        assertThat(SocketStates.of(ProcessHandle.current().pid())).isNotNull();
    }

    @Test
    void theLiveHeapIsTheHistogramsTotal() {
        String histogram = """
                12345:
                 num     #instances         #bytes  class name (module)
                -------------------------------------------------------
                   1:         23390        2327512  [B (java.base@25.0.3)
                   2:          4357         562712  java.lang.Class (java.base@25.0.3)
                   3:           778        1499912  [Ljdk.internal.vm.FillerElement; (java.base@25.0.3)
                   4:             2             32  jdk.internal.vm.FillerObject (java.base@25.0.3)
                Total        102234        6319536""";
        // the collector's fillers are dead space, not objects
        assertThat(JvmReadings.parseHistogramBytes(histogram)).isEqualTo(6_319_536L - 1_499_912L - 32L);
        assertThat(JvmReadings.parseHistogramBytes("12345: not attached")).isEqualTo(-1L);
    }

    @Test
    void theDifferenceIsTakenWithinARoundAndTheGoalsFollowIt() {
        List<AuthSuite.Row> rows = List.of(
                AuthSuite.row(1, "tidemill", "plain", 100_000, 10, 2.0, 0, 50),
                AuthSuite.row(1, "tidemill", "mcp", 50_000, 10, 2.0, 0, 50),
                AuthSuite.row(2, "tidemill", "mcp", 50_000, 10, 3.0, 0, 50),
                AuthSuite.row(2, "tidemill", "plain", 100_000, 10, 3.0, 0, 50));
        // round 1: 40 us against 20 us; round 2: 60 against 30
        assertThat(McpReport.differenceUs(rows)).isEqualTo(25.0);
        List<McpReport.Summary> summary = McpReport.summarise(rows);
        assertThat(summary).extracting(McpReport.Summary::caseId).containsExactly("plain", "mcp");
        McpSuite.Aborted clean = new McpSuite.Aborted(new AbortedCalls.Outcome(100, 50, 50, 0, 0, 1.0), 10, 50, 3,
                Map.of("CLOSE_WAIT", 4), Map.of("LISTEN", 1), 4, 0, true);
        List<AuthReport.Goal> goals = McpReport.goals(McpReport.differenceUs(rows), summary, clean);
        assertThat(goals).extracting(AuthReport.Goal::met).containsExactly(false, true);
        assertThat(McpReport.goals(12.5, summary, null)).extracting(AuthReport.Goal::met).containsExactly(true, null);
        McpSuite.Sessions sessions = new McpSuite.Sessions(100, 0, 1.0, 1_024_000, 1_228_800, 1_025_024, 100, 2_048, 50_000, 51_000);
        McpSuite.Result result = new McpSuite.Result("mcp", false, "start", "end", "./tidemill bench mcp", Map.of("cores", 2), List.of(),
                Map.of(), List.of(), rows, summary, 25.0, sessions, clean, goals, List.of());
        String page = McpReport.page(result);
        assertThat(page).startsWith("# MCP, start").contains("### A tool call against the same route over plain HTTP")
                .contains("+25.0 us").contains("| 100 | 1,000.0 KiB | 1,200.0 KiB | 1,001.0 KiB | 2,048 |")
                .contains("NOT met: a tools/call costs at most 20 us more").contains("met: 0 sockets in CLOSE-WAIT").contains("| cores | 2 |");
    }
}
