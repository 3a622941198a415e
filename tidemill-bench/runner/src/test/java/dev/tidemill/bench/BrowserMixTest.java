package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.bench.common.PageData;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/** The browser-mix scenario: wrk's command, the wire bytes it reports, the coding probe and how bench pages reports them. */
class BrowserMixTest {
    @Test
    void onlyTheBrowserMixAsksTheScriptForAcceptEncoding() {
        Wrk wrk = new Wrk("1", 1, Path.of(System.getProperty("java.io.tmpdir"), "tidemill-wrk-test"));
        List<String> browser = wrk.command(8080, ScenarioRun.BROWSER_MIX, 64, 6);
        List<String> mix = wrk.command(8080, ScenarioRun.MIX, 64, 6);
        assertThat(browser).endsWith("http://127.0.0.1:8080/", "--", ScenarioRun.MIX_COMPRESSED);
        assertThat(mix).last().isEqualTo("http://127.0.0.1:8080/");
        assertThat(String.join(" ", mix)).contains("mix.lua");
        assertThat(wrk.command(8080, ScenarioRun.PIPELINED, 64, 6)).endsWith("--", "16");
    }

    @Test
    void theScriptSendsAcceptEncodingOnlyWhenAskedAndPrintsTheBytesItRead() throws IOException {
        String lua;
        try (var in = Wrk.class.getResourceAsStream("/wrk/mix.lua")) {
            lua = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(lua).contains("if args[1] == \"" + ScenarioRun.MIX_COMPRESSED + "\" then chrome[\"Accept-Encoding\"] = \""
                + ScenarioRun.BROWSER_ACCEPT_ENCODING + "\" end");
        assertThat(lua.lines().filter(l -> l.contains("Accept-Encoding")).filter(l -> !l.startsWith("--")).count()).isEqualTo(1);
        assertThat(lua).contains("io.write(string.format(\"wire bytes: %d\\n\", summary.bytes))");
    }

    @Test
    void wireBytesAreParsedIntoBytesPerResponse() {
        WrkResult r = WrkResult.parse(WrkOutputTest.CLEAN + "wire bytes: 2496246000\n");
        assertThat(r.bytesRead()).isEqualTo(2_496_246_000L);
        assertThat(r.bytesPerResponse()).isEqualTo(2_000.0);
        WrkResult none = WrkResult.parse(WrkOutputTest.CLEAN);
        assertThat(none.bytesRead()).isEqualTo(-1);
        assertThat(none.bytesPerResponse()).isNaN();
    }

    @Test
    void aCompressedAnswerIsDecodedAndComparedWithTheExpectedBytes() throws IOException {
        byte[] page = PageData.reference().getBytes(StandardCharsets.UTF_8);
        byte[] gzip = gzip(page);
        assertThat(Verifier.encodingLine("/page", "gzip", gzip, page))
                .isEqualTo("/page: gzip, " + String.format(java.util.Locale.ROOT, "%,d", gzip.length) + " bytes (decodes to the expected bytes)");
        byte[] other = gzip("not the page".getBytes(StandardCharsets.UTF_8));
        assertThat(Verifier.encodingLine("/page", "gzip", other, page)).contains("DOES NOT DECODE TO THE EXPECTED BYTES");
        assertThat(Verifier.encodingLine("/page", "br", page, page)).contains("cannot decode");
        assertThat(Verifier.encodingLine("/json", "identity", page, page)).endsWith("(decodes to the expected bytes)");
        assertThat(Verifier.encodingLine("/json", "compress", page, page)).contains("cannot decode: no decoder for compress");
    }

    @Test
    void benchPagesRunsThePageAndBothMixesInOneShortRoundUnderItsOwnName() {
        Options o = Options.parsePages(List.of());
        assertThat(o.scenarios()).containsExactly(ScenarioRun.PAGE, ScenarioRun.MIX, ScenarioRun.BROWSER_MIX);
        assertThat(o.rounds()).isEqualTo(1);
        assertThat(o.suite()).isEqualTo("pages");
        assertThat(o.settleSeconds()).isLessThan(Options.parse(List.of()).settleSeconds());
        assertThat(Options.parsePages(List.of("--quick")).suite()).isEqualTo("pages-quick");
        assertThat(Options.parse(List.of()).suite()).isEqualTo("full");
        assertThat(Options.parse(List.of("--quick")).suite()).isEqualTo("quick");
    }

    @Test
    void theTableShowsBytesPerResponseOnlyWhenMeasured() {
        SummaryRow with = row("browser-mix", 697.0), without = row("page", null);
        assertThat(MarkdownTable.of(List.of(with, without))).contains("| bytes/response |").contains("| 697 |").contains("| - |");
        assertThat(MarkdownTable.of(List.of(without))).doesNotContain("bytes/response");
    }

    @Test
    void thePerformancePageListsEachTargetsCodingAndWhoCannotCompress() {
        TargetRecord tidemill = record("tidemill-io", List.of("/page: br, 1,335 bytes (decodes to the expected bytes)",
                "/user/42: identity, 26 bytes (decodes to the expected bytes)", "/json: identity, 27 bytes (decodes to the expected bytes)"));
        TargetRecord jdk = record("jdk-httpserver", List.of("/page: identity, 14,765 bytes (decodes to the expected bytes)"));
        Result r = new Result("pages", "s", "f", Map.of(), List.of(), Map.of(), List.of(tidemill, jdk), List.of(), List.of(),
                List.of(), List.of(), null);
        String md = PerformanceDoc.encodings(r);
        assertThat(md).contains("| tidemill-io | br, 1,335 bytes | identity, 26 bytes | identity, 27 bytes |")
                .contains("| jdk-httpserver | identity, 14,765 bytes | - | - |")
                .contains("Answer the page uncompressed: jdk-httpserver (the JDK's HttpServer has no response compression).");
        assertThat(PerformanceDoc.OTHER_SUITES).containsKeys("pages", "heavy", "live");
    }

    private static TargetRecord record(String target, List<String> encodings) {
        return new TargetRecord(target, 1, List.of(), Map.of(), List.of(), 0, 0, List.of(), encodings);
    }

    private static SummaryRow row(String scenario, Double bytes) {
        return new SummaryRow("t", scenario, 1, 1000, 100, 900, 0, 0, 50, null, null, "req/s", null, false, 0, List.of(),
                null, null, null, null, bytes);
    }

    private static byte[] gzip(byte[] b) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(b);
        }
        return out.toByteArray();
    }

    @Test
    void theOldNotBuiltLineGivesWayOnceCompressionAndStreamsAreMeasured() {
        assertThat(PerformanceDoc.supersede(PerformanceDoc.OLD_NOT_BUILT, java.util.Set.of("pages", "streams")))
                .startsWith("TLS and HTTP/2 (not built yet)");
        assertThat(PerformanceDoc.supersede(PerformanceDoc.OLD_NOT_BUILT, java.util.Set.of("pages"))).isEqualTo(PerformanceDoc.OLD_NOT_BUILT);
        assertThat(PerformanceDoc.supersede("machines other than the one in the fingerprint", java.util.Set.of("pages", "streams")))
                .isEqualTo("machines other than the one in the fingerprint");
    }
}
