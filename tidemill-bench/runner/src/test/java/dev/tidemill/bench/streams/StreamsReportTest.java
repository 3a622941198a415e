package dev.tidemill.bench.streams;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.bench.PerformanceDoc;
import dev.tidemill.bench.ResultFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StreamsReportTest {
    @TempDir
    Path dir;

    static StreamsSuite.Result result() {
        Histogram h = new Histogram(3_600_000_000L, 3);
        h.recordValue(1_500);
        StreamsRows.Window calm = new StreamsRows.Window(2_000_000_000L, 400_000, 600_000_000L, 700_000, 1);
        StreamsRows.Window busy = new StreamsRows.Window(2_000_000_000L, 400_000, 1_950_000_000L, 1_990_000, 1);
        StreamsRows.SseRow fan = StreamsRows.sse("tidemill", "fanout", 1_000, 0, 200, 0,
                new SseFanoutClient.Snapshot(200_000, 0, 0, 0, h), calm, 2_000_000_000L);
        StreamsRows.WsRow ws = StreamsRows.ws("baseline", 100, 1_024, new WsEchoClient.Snapshot(100_000, 0, 0, h), busy);
        StreamsRows.SseRow iso0 = StreamsRows.sse("tidemill", "isolation", 1_000, 0, 100, 20,
                new SseFanoutClient.Snapshot(100_000, 0, 0, 0, h), calm, 5_000_000_000L);
        StreamsRows.SseRow iso1 = StreamsRows.sse("tidemill", "isolation", 1_000, 1, 100, 20,
                new SseFanoutClient.Snapshot(99_900, 0, 0, 0, h), calm, 5_000_000_000L);
        return new StreamsSuite.Result("streams", false, "2026-12-01T00:00:00Z", "2026-12-01T00:10:00Z", "./tidemill bench streams",
                Map.of("cpuModel", "test cpu", "gitCommit", "abc"), List.of(), Map.of("serverCpus", "0", "clientCpus", "1"),
                List.of(Map.of("target", "tidemill")), List.of(fan), List.of(ws), List.of(iso0, iso1),
                List.of("tidemill: WebSocket (no handshake on /ws/echo)"), List.of());
    }

    @Test
    void resultFileRoundTrips() {
        StreamsSuite.Result r = result();
        Path json = ResultFile.write(dir, r.suite(), r, StreamsReport.page(r));
        StreamsSuite.Result back = ResultFile.read(json, StreamsSuite.Result.class);
        assertThat(back.fanout()).isEqualTo(r.fanout());
        assertThat(back.echo()).isEqualTo(r.echo());
        assertThat(back.isolation()).isEqualTo(r.isolation());
        assertThat(back.notMeasured()).isEqualTo(r.notMeasured());
        assertThat(ResultFile.latest(dir, "streams")).contains(json);
    }

    @Test
    void tablesShowCpuPerThousandClientCpuAndTheFloorFlag() {
        String md = StreamsReport.tables(result());
        // tidemill at 1,000 subscribers: 400 ms / 200 thousand deliveries
        assertThat(md).contains("| tidemill | 2.000 | 30 % | not measured | - |");
        assertThat(md).contains("| baseline | not measured | - | 4.000 (client-bound) | 98 % |");
        assertThat(md).contains("| tidemill | 1,000 | 200 | unpaced | 100,000 | 0 | 1.50 | 1.50 | 2.000 | 20 % | 30 % | 35 % |  |");
        assertThat(md).contains("| baseline | 100 | 1,024 | 50,000 | 1.500 | 1.500 | 4.000 | 20 % | 98 % | 100 % | "
                + StreamsRows.CLIENT_BOUND + " |");
        assertThat(md).contains("| tidemill | 1,000 | 100 at 20/s | 1.50 | 1.50 | 1.50 / 1.50 | 0 / 0 | 30 % / 30 % |  |");
        assertThat(md).contains("- tidemill: WebSocket (no handshake on /ws/echo)");
    }

    @Test
    void theReportIncludesTheStreamsPage() throws Exception {
        StreamsSuite.Result r = result();
        Path json = ResultFile.write(dir, r.suite(), r, StreamsReport.page(r));
        String page = StreamsReport.page(r);
        assertThat(page).contains("Command: `./tidemill bench streams`", "| cpuModel | test cpu |");
        // bench report embeds the page without its title, headings one level down
        String body = PerformanceDocAccess.body(json);
        assertThat(body).contains("#### SSE fan-out", "#### WebSocket echo", "#### Slow-subscriber isolation")
                .doesNotContain("# Tidemill bench, streams suite");
        assertThat(Files.readString(json)).contains("\"clientBound\" : true");
        assertThat(PerformanceDocAccess.suites()).containsKey("streams");
    }

    /** Reaches PerformanceDoc's package-private parts from this package. */
    static final class PerformanceDocAccess {
        static String body(Path json) throws Exception {
            java.lang.reflect.Method m = PerformanceDoc.class.getDeclaredMethod("body", Path.class);
            m.setAccessible(true);
            return (String) m.invoke(null, json);
        }

        @SuppressWarnings("unchecked")
        static Map<String, String> suites() throws Exception {
            java.lang.reflect.Field f = PerformanceDoc.class.getDeclaredField("OTHER_SUITES");
            f.setAccessible(true);
            return (Map<String, String>) f.get(null);
        }
    }
}
