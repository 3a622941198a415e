package dev.tidemill;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The README's defaults table must say what {@link Limits#DEFAULTS} and {@link Timeouts#DEFAULTS} say. */
class ReadmeDefaultsTest {

    @Test
    void theDefaultsTableMatchesTheConfigRecords() throws Exception {
        Path readme = Path.of("..", "README.md");
        String text = Files.readString(readme);
        Limits l = Limits.DEFAULTS;
        Timeouts t = Timeouts.DEFAULTS;
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("concurrency per worker loop (queued + in flight)", Integer.toString(l.concurrencyPerLoop()));
        expected.put("connections", Integer.toString(l.maxConnections()));
        expected.put("request line", l.maxRequestLineBytes() + " bytes");
        expected.put("header block", l.maxHeaderBytes() + " bytes");
        expected.put("header count", Integer.toString(l.maxHeaderCount()));
        expected.put("body", l.maxBodyBytes() + " bytes");
        expected.put("pipelined requests per connection", Integer.toString(l.maxPipelined()));
        expected.put("body drained after a refusal", l.maxDrainBytes() + " bytes");
        expected.put("request timeout (request read -> first response byte)", t.request().toSeconds() + " s");
        expected.put("header read timeout", t.headerRead().toSeconds() + " s");
        expected.put("idle keep-alive timeout", t.idle().toSeconds() + " s");
        expected.put("body stall timeout", t.bodyStall().toSeconds() + " s");
        expected.put("write stall timeout (response unsent, client reading none of it)", t.writeStall().toSeconds() + " s");
        expected.put("drain of a refused request's body", t.drain().toMillis() + " ms");
        expected.put("lingering close (reading and discarding after the last response and FIN)", t.linger().toSeconds() + " s");
        expected.put("shutdown grace", t.shutdownGrace().toSeconds() + " s");
        for (Map.Entry<String, String> e : expected.entrySet()) {
            assertThat(text).as("README row for %s", e.getKey()).contains("| " + e.getKey() + " | " + e.getValue() + " |");
        }
    }
}
