package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The quick pipeline end to end on two targets (Tidemill IO and the baseline): starts, verifies,
 * warms up, measures with wrk, writes JSON + Markdown + SVG. Asserts structure, never speed.
 */
class QuickPipelineTest {

    @Test
    void twoTargetsOneScenarioProduceACompleteResult() throws Exception {
        // a missing tool fails the test (./tidemill test installs both when run as root)
        assertThat(Host.executable("wrk")).as("wrk: apt-get install -y --no-install-recommends wrk").isPresent();
        assertThat(Host.executable("taskset")).as("taskset: apt-get install -y --no-install-recommends util-linux").isPresent();
        Path out = Path.of("target", "bench-test-results");
        if (Files.isDirectory(out)) {
            try (var old = Files.list(out)) {
                for (Path p : old.toList()) Files.delete(p); // a failed earlier run may have left a checkpoint
            }
        }
        Options options = Options.parse(List.of("--quick", "--targets", "tidemill-io,baseline", "--scenarios", "plaintext",
                "--rounds", "1", "--duration", "1", "--warmup", "1", "--out", out.toString(), "--root", "../.."));
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        Path json = BenchMain.run(options, new PrintStream(progress, true, StandardCharsets.UTF_8));

        String log = progress.toString(StandardCharsets.UTF_8);
        assertThat(log).contains("round 1/1").contains("measuring plaintext").doesNotContain("REFUSED");
        JsonNode r = JsonMapper.builder().build().readTree(Files.readString(json));
        assertThat(r.get("suite").asString()).isEqualTo("quick");
        assertThat(r.get("fingerprint").get("cpuModel").asString()).isNotBlank();
        assertThat(r.get("fingerprint").has("kernel")).isTrue();
        assertThat(r.get("preflight").size()).isGreaterThan(3);
        assertThat(r.get("preflight").get(0).has("verdict")).isTrue();
        assertThat(r.get("configuration").get("jvmFlags").size()).isGreaterThan(0);
        assertThat(r.get("targets").size()).isEqualTo(2);
        for (JsonNode t : r.get("targets")) assertThat(t.get("verification").size()).as(t.toString()).isZero();
        assertThat(r.get("samples").size()).isGreaterThanOrEqualTo(2);
        JsonNode s = r.get("samples").get(0);
        for (String f : List.of("requestsPerSec", "p50Us", "p99Us", "socketErrors", "non2xx", "serverCpuUsPerRequest",
                "clientCpuPercent", "stealPercent", "command")) {
            assertThat(s.has(f)).as(f).isTrue();
        }
        assertThat(r.get("summary").size()).isEqualTo(2);
        assertThat(r.get("warmup").size()).isGreaterThan(0);
        String base = json.getFileName().toString().replace(".json", "");
        assertThat(json.resolveSibling(base + ".md")).exists();
        assertThat(Files.readString(json.resolveSibling(base + ".svg"))).startsWith("<svg").contains("baseline");
        assertThat(r.get("segments").size()).isEqualTo(1);
        assertThat(out.toFile().list((d, n) -> n.endsWith("-partial.json"))).as("checkpoint deleted once complete").isEmpty();

        // Resuming a checkpoint whose rounds are all done keeps its samples and measures nothing new...
        Path checkpoint = Files.copy(json, out.resolve("resume-test-partial.json"), StandardCopyOption.REPLACE_EXISTING);
        List<String> same = new java.util.ArrayList<>(List.of("--quick", "--targets", "tidemill-io,baseline", "--scenarios",
                "plaintext", "--rounds", "1", "--duration", "1", "--warmup", "1", "--out", out.toString(), "--root", "../.."));
        same.addAll(List.of("--resume", checkpoint.toString()));
        ByteArrayOutputStream again = new ByteArrayOutputStream();
        Path resumed = BenchMain.run(Options.parse(same), new PrintStream(again, true, StandardCharsets.UTF_8));
        assertThat(again.toString(StandardCharsets.UTF_8)).contains("rounds [1] kept").doesNotContain("measuring plaintext");
        JsonNode rr = JsonMapper.builder().build().readTree(Files.readString(resumed));
        assertThat(rr.get("samples").size()).isEqualTo(r.get("samples").size());
        assertThat(rr.get("segments").size()).isEqualTo(1);
        assertThat(checkpoint).doesNotExist();

        // ...and one taken with other settings is refused, naming the setting.
        Files.copy(json, checkpoint);
        List<String> other = new java.util.ArrayList<>(same);
        other.set(other.indexOf("--duration") + 1, "2");
        assertThatThrownBy(() -> BenchMain.run(Options.parse(other), new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("durationSeconds");
    }
}
