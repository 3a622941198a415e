package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.bench.loadgen.UploadLoad;
import dev.tidemill.bench.loadgen.UploadRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The uploads suite's pure parts: the derived rates, the goals, the tables, the result file and the report. */
class UploadsSuiteTest {
    @TempDir
    Path dir;

    static final long MIB = 1024 * 1024;

    /** A clean row of 100 uploads of {@code size} bytes in 2 s. */
    static UploadsSuite.Row row(String target, String endpoint, long size, double cpuSeconds, long rssKb) {
        UploadLoad.Phase p = new UploadLoad.Phase(100, 100 * size, 0, 0, 2_000_000_000L, List.of());
        return UploadsSuite.row(target, endpoint, size, UploadRequest.Framing.CONTENT_LENGTH, 4, p, cpuSeconds, rssKb, 0, 0, 0, 40, List.of());
    }

    static List<UploadsSuite.Row> rows() {
        return List.of(
                row("tidemill-loop", "raw-discard", MIB, 0.5, 100 * 1024),
                row("tidemill-virtual", "raw-discard", MIB, 0.4, 120 * 1024),
                row("jetty", "raw-discard", MIB, 0.45, 90 * 1024),
                row("tidemill-loop", "multipart-disk", MIB, 1.0, 150 * 1024),
                row("helidon", "raw-discard", MIB, 0.8, 200 * 1024),
                row("jetty", "multipart-disk", MIB, 1.5, 160 * 1024),
                // a peer whose window had errors does not count
                new UploadsSuite.Row("vertx-web-stream", "multipart-disk", MIB, "content-length", 4, 90, 90 * MIB, 2, 47, 0.1, 1.1, 943,
                        50 * 1024, 10, 0, 0, 30, false, List.of("status 500 (boom) for 1048576 bytes")),
                // a case only Tidemill ran is not judged
                row("tidemill-loop", "raw-disk", MIB, 0.9, 99 * 1024));
    }

    @Test
    void theRatesComeFromTheFileBytesTheWindowAndTheServerCpu() {
        UploadsSuite.Row r = row("jetty", "raw-discard", MIB, 0.5, 1024);
        assertThat(r.mbPerSec()).isEqualTo(100 * MIB / 1e6 / 2);
        assertThat(r.serverCpuMsPerMiB()).isEqualTo(5.0); // 500 ms over 100 MiB
        assertThat(r.mbPerServerCpuSecond()).isEqualTo(100 * MIB / 1e6 / 0.5);
        assertThat(r.clean()).isTrue();
        assertThat(r.clientBound()).isFalse();
    }

    @Test
    void goalsCompareTidemillsBestModeWithEveryPeersCleanRow() {
        List<UploadsReport.Goal> goals = UploadsReport.goals(rows());
        assertThat(goals).hasSize(2);
        UploadsReport.Goal raw = goals.get(0);
        assertThat(raw.endpoint()).isEqualTo("raw-discard");
        assertThat(raw.tidemill()).isEqualTo("tidemill-virtual"); // 0.4 CPU s beats 0.45 (jetty)
        assertThat(raw.peer()).isEqualTo("jetty");
        assertThat(raw.efficiencyMet()).isTrue();
        assertThat(raw.tidemillLeanest()).isEqualTo("tidemill-loop");
        assertThat(raw.leanestPeer()).isEqualTo("jetty");
        assertThat(raw.rssMet()).isFalse(); // 100 MiB against 90 MiB
        UploadsReport.Goal mp = goals.get(1);
        assertThat(mp.endpoint()).isEqualTo("multipart-disk");
        assertThat(mp.peer()).as("the peer with errors is left out").isEqualTo("jetty");
        assertThat(mp.efficiencyMet()).isTrue();
        assertThat(mp.rssMet()).isTrue();
        String verdict = UploadsReport.verdict(goals);
        assertThat(verdict).contains("- Most MB per server CPU second: met in 2 of 2 cases (goal met).")
                .contains("- Lowest peak RSS: met in 1 of 2 cases (goal not met); missed: 1 MiB raw-discard (tidemill-loop 100.0 MiB, jetty 90.0 MiB).");
        assertThat(UploadsReport.verdict(List.of())).contains("the goals were not judged");
    }

    @Test
    void theTableIsOrderedBySizeEndpointAndTargetAndSaysWhatWentWrong() {
        String md = UploadsReport.markdown(rows());
        assertThat(md).startsWith("| size | endpoint | target | connections | uploads | MB/s | server CPU ms per MiB | MB per server CPU s "
                + "| peak RSS MiB | errors | notes |");
        assertThat(md).contains("| 1 MiB | raw-discard | jetty | 4 | 100 | 52.4 | 4.50 | 233.0 | 90.0 | 0 |  |");
        assertThat(md).contains("| 1 MiB | multipart-disk | vertx-web-stream | 4 | 90 | 47.0 | 1.10 | 943.0 | 50.0 | 10 | e.g. status 500 (boom) for 1048576 bytes |");
        assertThat(md.indexOf("| raw-discard | tidemill-loop")).isLessThan(md.indexOf("| raw-discard | jetty"));
        assertThat(md.indexOf("| raw-discard | helidon")).isLessThan(md.indexOf("| raw-disk | tidemill-loop"));
        assertThat(md.indexOf("| raw-disk |")).isLessThan(md.indexOf("| multipart-disk |"));
        assertThat(UploadsReport.goalsTable(UploadsReport.goals(rows())))
                .contains("| 1 MiB | raw-discard | tidemill-virtual 262.1 | jetty 233.0 | yes | tidemill-loop 100.0 | jetty 90.0 | no |");
    }

    static UploadsSuite.Result result() {
        Map<String, Object> conf = new LinkedHashMap<>();
        conf.put("serverCpus", "0");
        conf.put("loadGeneratorCpus", "1");
        conf.put("sizes", List.of(1024L, MIB));
        conf.put("framing", "content-length");
        conf.put("connections", 4);
        conf.put("largeConnections", 2);
        conf.put("warmupSeconds", 5);
        conf.put("durationSeconds", 8);
        conf.put("largeWarmupPerConnection", 1);
        conf.put("largeCountPerConnection", 4);
        conf.put("generator", "UploadLoad");
        conf.put("peakRss", "VmHWM of a fresh server per case");
        conf.put("tmpFilesystem", "ext4");
        conf.put("tidemillModes", UploadsTargets.TIDEMILL_MODES);
        conf.put("jvmFlags", TargetCatalog.JVM_FLAGS);
        List<UploadsSuite.Row> rows = rows();
        return new UploadsSuite.Result("uploads", false, "2026-12-01T00:00:00Z", "2026-12-01T00:15:00Z", "./tidemill bench uploads",
                Map.of("cpuModel", "test cpu", "gitCommit", "abc"), List.of(), conf, List.of(Map.of("target", "jetty")), 3,
                UploadsReport.medians(rounds(rows)), rounds(rows), UploadsReport.goals(UploadsReport.medians(rounds(rows))), List.of("helidon: multipart-discard (POST /multipart/discard answers 404: not served)"), List.of());
    }

    /** The rows three times: once as they are, once with a tenth more CPU and RSS, once with a tenth less. */
    static List<UploadsSuite.RoundRow> rounds(List<UploadsSuite.Row> rows) {
        List<UploadsSuite.RoundRow> out = new java.util.ArrayList<>();
        double[] scale = {1.1, 1.0, 0.9};
        for (int round = 1; round <= 3; round++) {
            double f = scale[round - 1];
            for (UploadsSuite.Row r : rows) {
                UploadLoad.Phase p = new UploadLoad.Phase(r.uploads(), r.fileBytes(), r.errors(), r.mismatches(), (long) (r.seconds() * 1e9),
                        r.problems());
                out.add(new UploadsSuite.RoundRow(round, UploadsSuite.row(r.target(), r.endpoint(), r.sizeBytes(),
                        UploadRequest.Framing.CONTENT_LENGTH, r.connections(), p, r.serverCpuSeconds() * f, Math.round(r.peakRssKb() * f),
                        r.errors(), r.mismatches(), r.tempFilesLeft(), r.clientCpusBusyPercent(), r.problems())));
            }
        }
        return out;
    }

    @Test
    void aRowIsTheMedianOfItsRoundsAndErrorsAddUp() {
        List<UploadsSuite.Row> medians = UploadsReport.medians(rounds(rows()));
        assertThat(medians).hasSize(rows().size());
        assertThat(medians.stream().map(UploadsSuite.Row::target).toList()).isEqualTo(rows().stream().map(UploadsSuite.Row::target).toList());
        UploadsSuite.Row jetty = medians.get(2);
        assertThat(jetty.target()).isEqualTo("jetty");
        assertThat(jetty.serverCpuSeconds()).isEqualTo(0.45);
        assertThat(jetty.peakRssKb()).isEqualTo(90 * 1024);
        UploadsSuite.Row failing = medians.get(6);
        assertThat(failing.errors()).as("errors summed over rounds").isEqualTo(30);
        assertThat(failing.clean()).isFalse();
        // an even count: the mean of the middle two
        List<UploadsSuite.RoundRow> two = rounds(rows()).stream().filter(r -> r.round() != 2).toList();
        assertThat(UploadsReport.medians(two).get(2).serverCpuSeconds()).isCloseTo(0.45, org.assertj.core.data.Offset.offset(1e-9));
        UploadsSuite.Row skewed = UploadsReport.medians(List.of(
                new UploadsSuite.RoundRow(1, row("jetty", "raw-discard", MIB, 0.1, 100)),
                new UploadsSuite.RoundRow(2, row("jetty", "raw-discard", MIB, 0.5, 300)),
                new UploadsSuite.RoundRow(3, row("jetty", "raw-discard", MIB, 9.0, 200)))).getFirst();
        assertThat(skewed.serverCpuSeconds()).as("one wild round does not move the median").isEqualTo(0.5);
        assertThat(skewed.peakRssKb()).isEqualTo(200);
    }

    @Test
    void theResultFileRoundTrips() {
        UploadsSuite.Result r = result();
        Path json = ResultFile.write(dir, r.suite(), r, UploadsReport.page(r));
        UploadsSuite.Result back = ResultFile.read(json, UploadsSuite.Result.class);
        assertThat(back.rows()).isEqualTo(r.rows());
        assertThat(back.roundRows()).isEqualTo(r.roundRows());
        assertThat(back.rounds()).isEqualTo(3);
        assertThat(back.goals()).isEqualTo(r.goals());
        assertThat(back.notMeasured()).isEqualTo(r.notMeasured());
        assertThat(back.failures()).isEmpty();
        assertThat(ResultFile.latest(dir, "uploads")).contains(json);
        assertThat(ResultFile.gitCommitOf(json)).isEqualTo("abc");
    }

    @Test
    void theReportPutsThePageIntoPerformanceMd() throws Exception {
        UploadsSuite.Result r = result();
        Path json = ResultFile.write(dir, r.suite(), r, UploadsReport.page(r));
        assertThat(PerformanceDoc.OTHER_SUITES).containsKey("uploads");
        String body = PerformanceDoc.body(json);
        assertThat(body).doesNotContain("# Tidemill bench, uploads suite").contains("### Results", "### Goals", "### Not measured")
                .contains("| 1 MiB | raw-discard | jetty | 4 | 100 | 52.4 | 4.50 | 233.0 | 90.0 | 0 |  |")
                .contains("Command: `./tidemill bench uploads`", "Temp files on ext4", "Sizes 1 KiB, 1 MiB;")
                .contains("3 rounds, each running every target once");
        assertThat(Files.readString(json)).contains("\"mbPerServerCpuSecond\"");
    }

    @Test
    void settingsParseSizesEndpointsAndFraming() {
        UploadsSettings s = UploadsSettings.parse(List.of("--sizes", "1KiB,3MiB,17", "--endpoints", "raw-disk", "--framing", "chunked",
                "--restart", "target"));
        assertThat(s.sizes()).containsExactly(1024L, 3 * MIB, 17L);
        assertThat(s.endpoints()).containsExactly("raw-disk");
        assertThat(s.framing()).isEqualTo(UploadRequest.Framing.CHUNKED);
        assertThat(s.restartPerCase()).isFalse();
        assertThat(s.suite()).isEqualTo("uploads");
        UploadsSettings full = UploadsSettings.parse(List.of());
        assertThat(full.sizes()).isEqualTo(UploadsSettings.SIZES);
        assertThat(full.restartPerCase()).isTrue();
        assertThat(full.rounds()).isEqualTo(3);
        assertThat(UploadsSettings.parse(List.of("--quick")).rounds()).isEqualTo(1);
        assertThat(UploadsSettings.parse(List.of("--rounds", "5")).rounds()).isEqualTo(5);
        assertThat(UploadsSettings.parse(List.of("--quick")).suite()).isEqualTo("uploads-quick");
        assertThat(UploadsSettings.label(100 * MIB)).isEqualTo("100 MiB");
        assertThatThrownBy(() -> UploadsSettings.parse(List.of("--endpoints", "nope"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("raw-discard");
    }

    @Test
    void tempFilesAreCountedLeavingOutWhatTheJvmPutsThere() throws Exception {
        Files.writeString(dir.resolve("libnetty_transport_native_epoll_x86_6412345.so"), "x");
        Files.createDirectories(dir.resolve("com_aayushatharva_brotli4j_1"));
        Files.writeString(dir.resolve("com_aayushatharva_brotli4j_1/libbrotli.so"), "x");
        Files.createDirectories(dir.resolve("vertx-cache-1/a"));
        Files.writeString(dir.resolve("vertx-cache-1/a/b"), "x");
        assertThat(UploadsSuite.countFiles(dir)).isZero();
        Files.writeString(dir.resolve("tidemill-upload-1.bin"), "x");
        assertThat(UploadsSuite.countFiles(dir)).isOne();
    }
}
