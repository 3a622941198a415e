package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code ./tidemill bench html}: options, reading JMH's JSON, the section docs/performance.md gets. */
class HtmlSuiteTest {
    /** Two entries as JMH 1.37 writes them with {@code -prof gc} (trimmed), one with a score error JMH could not compute. */
    private static final String JMH = """
            [ {
              "benchmark" : "dev.tidemill.bench.html.RenderBenchmark.render", "mode" : "avgt",
              "params" : { "engine" : "jte" },
              "primaryMetric" : { "score" : 10.5, "scoreError" : 0.25, "scoreUnit" : "us/op" },
              "secondaryMetrics" : { "gc.alloc.rate.norm" : { "score" : 40123.4, "scoreError" : 0.01, "scoreUnit" : "B/op" } }
            }, {
              "benchmark" : "dev.tidemill.bench.html.RenderBenchmark.render", "mode" : "avgt",
              "params" : { "engine" : "stringbuilder" },
              "primaryMetric" : { "score" : 21.0, "scoreError" : "NaN", "scoreUnit" : "us/op" },
              "secondaryMetrics" : { "gc.alloc.rate.norm" : { "score" : 51640.0, "scoreError" : 0.0, "scoreUnit" : "B/op" } }
            } ]
            """;

    @Test
    void defaultsAreTheBriefsRun() {
        HtmlSuite.Settings s = HtmlSuite.Settings.parse(List.of());
        assertThat(s.jmhOptions()).containsExactly("-f", "1", "-wi", "3", "-w", "2s", "-i", "5", "-r", "2s", "-prof", "gc");
        assertThat(s.quick()).isFalse();
        assertThat(HtmlSuite.Settings.parse(List.of("--quick", "--engines", "jte,j2html")).jmhOptions())
                .containsSequence("-wi", "1").containsSequence("-p", "engine=jte,j2html");
        assertThatThrownBy(() -> HtmlSuite.Settings.parse(List.of("--nope"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HtmlSuite.Settings.parse(List.of("--iterations", "0"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rowsComeFromJmhFastestFirstWithTheRatioToTheBaseline() {
        List<HtmlSuite.Row> rows = HtmlSuite.rows(JsonMapper.builder().build().readTree(JMH));
        assertThat(rows).extracting(HtmlSuite.Row::engine).containsExactly("jte", "stringbuilder");
        HtmlSuite.Row jte = rows.get(0);
        assertThat(jte.usPerPage()).isEqualTo(10.5);
        assertThat(jte.usError()).isEqualTo(0.25);
        assertThat(jte.bytesPerPage()).isEqualTo(40123.4);
        assertThat(jte.vsBaseline()).isEqualTo(0.5);
        assertThat(rows.get(1).usError()).isNaN();
    }

    @Test
    void aResultOtherThanMicrosecondsPerPageIsRefused() {
        JsonNode wrong = JsonMapper.builder().build().readTree(JMH.replace("\"us/op\"", "\"ops/s\""));
        assertThatThrownBy(() -> HtmlSuite.rows(wrong)).isInstanceOf(IllegalStateException.class).hasMessageContaining("us/op");
    }

    @Test
    void theSectionHasTheTableTheCommandAndTheHost() {
        JsonNode jmh = JsonMapper.builder().build().readTree(JMH);
        HtmlSuite.Result r = new HtmlSuite.Result("html", false, "2026-12-01T16:00:00Z", "2026-12-01T16:04:00Z",
                "./tidemill bench html", List.of("taskset", "-c", "1", "/jdk/bin/java", "-cp", "a.jar:b.jar", "org.openjdk.jmh.Main"),
                1, Map.of("cpuModel", "Test CPU", "gitCommit", "abc123"), HtmlSuite.rows(jmh), jmh);
        String md = HtmlSuite.markdown(r);
        assertThat(md).contains("| engine | us/page | ± | bytes/page | x StringBuilder |",
                "| jte | 10.50 | 0.25 | 40,123 | 0.50 |", "| stringbuilder | 21.00 | - | 51,640 | 1.00 |",
                "Command: `./tidemill bench html`", "taskset -c 1 java -cp <tidemill-bench/html:class-path> org.openjdk.jmh.Main",
                "pinned with `taskset` to CPU 1", "| cpuModel | Test CPU |", "| gitCommit | abc123 |");
        assertThat(md).doesNotContain("a.jar");
    }

    @Test
    void theReportGetsAnHtmlRenderingSectionFromTheLatestHtmlResult(@TempDir Path dir) throws IOException {
        assertThat(PerformanceDoc.OTHER_SUITES).containsEntry("html", "HTML rendering");
        Files.writeString(dir.resolve("20261201T150000Z-html.json"), "{}");
        Files.writeString(dir.resolve("20261201T160000Z-html.json"), "{}");
        Files.writeString(dir.resolve("20261201T170000Z-html-quick.json"), "{}");
        assertThat(ResultFile.latest(dir, "html")).contains(dir.resolve("20261201T160000Z-html.json"));
    }

    @Test
    void anUnbuiltBenchmarkModuleIsNamed(@TempDir Path dir) {
        assertThatThrownBy(() -> HtmlSuite.classPath(dir)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("tidemill-bench/html/target");
    }
}
