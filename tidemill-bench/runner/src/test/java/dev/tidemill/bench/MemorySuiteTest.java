package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The memory suite's readings: jcmd and /proc parsing, the per-loop slope, the tables. */
class MemorySuiteTest {

    @Test
    void liveHeapIsYoungPlusOldUsedFromParallelGcHeapInfo() {
        String heapInfo = """
                12345:
                 PSYoungGen      total 305664K, used 5243K [0x00000000eab00000, 0x0000000100000000, 0x0000000100000000)
                  eden space 262144K, 2% used [0x00000000eab00000,0x00000000eb01ec98,0x00000000fab00000)
                 ParOldGen       total 699392K, used 2048K [0x00000000c0000000, 0x00000000eab00000, 0x00000000eab00000)
                 Metaspace       used 9876K, committed 10240K, reserved 1114112K
                """;
        assertThat(JvmReadings.parseHeapUsedKb(heapInfo)).isEqualTo(5243 + 2048);
        assertThat(JvmReadings.parseHeapUsedKb("12345:\n garbage-first heap   total 1048576K, used 1024K")).isEqualTo(-1);
    }

    @Test
    void nativeMemoryIsTotalAndCategoriesCommittedLargestFirst() {
        String summary = """
                5931:

                Native Memory Tracking:

                (Omitting categories weighting less than 1KB)

                Total: reserved=2486517KB, committed=1127977KB
                       malloc: 24469KB #49035, peak=23607KB #49037
                       mmap:   reserved=2462048KB, committed=1103508KB

                -                 Java Heap (reserved=1048576KB, committed=1048576KB)
                                            (mmap: reserved=1048576KB, committed=1048576KB, at peak)

                -                     Class (reserved=1048783KB, committed=1679KB)
                                            (classes #3325)

                -                        GC (reserved=26039KB, committed=26039KB)
                                            (malloc=6155KB tag=GC #95) (at peak)

                -    Native Memory Tracking (reserved=877KB, committed=877KB)
                """;
        MemorySuite.Nmt nmt = JvmReadings.parseNmt(summary).orElseThrow();
        assertThat(nmt.committedKb()).isEqualTo(1127977);
        assertThat(nmt.categoriesCommittedKb()).containsExactly(Map.entry("Java Heap", 1048576L), Map.entry("GC", 26039L),
                Map.entry("Class", 1679L), Map.entry("Native Memory Tracking", 877L));
        assertThat(nmt.outsideHeapKb()).isEqualTo(1127977 - 1048576);
        assertThat(JvmReadings.parseNmt("5931:\nNative memory tracking is not enabled\n")).isEmpty();
    }

    @Test
    void nmtIsAddedRightAfterTheJavaExecutableOfJvmTargetsOnly() {
        Target jvm = new Target("t", "peer", true, false, (port, threads, dir) ->
                new Target.Command(List.of("/jdk/bin/java", "-Xmx1g", "-cp", "x", "Main"), Map.of("A", "1")));
        Target.Command c = MemorySuite.withNmt(jvm).launch().at(1, 1, java.nio.file.Path.of("."));
        assertThat(c.argv()).containsExactly("/jdk/bin/java", MemorySuite.NMT_FLAG, "-Xmx1g", "-cp", "x", "Main");
        assertThat(c.env()).containsEntry("A", "1");
        Target nginx = new Target("nginx", "native", false, true, (port, threads, dir) -> new Target.Command(List.of("nginx"), Map.of()));
        assertThat(MemorySuite.withNmt(nginx)).isSameAs(nginx);
    }

    @Test
    void anAotTargetIsItsBaseWithTheCacheItsTrainingRunWrites() {
        MemorySuite suite = new MemorySuite(MemorySuite.Settings.parse(List.of()), System.out);
        TargetCatalog catalog = new TargetCatalog(java.nio.file.Path.of("no-peers-here"), "cp");
        List<Target> chosen = suite.choose(catalog, List.of("tidemill-io", "tidemill-io-aot"));
        assertThat(chosen).extracting(Target::name).containsExactly("tidemill-io", "tidemill-io-aot", TargetCatalog.BASELINE);
        List<String> plain = chosen.get(0).launch().at(1, 1, java.nio.file.Path.of(".")).argv();
        List<String> cached = chosen.get(1).launch().at(1, 1, java.nio.file.Path.of(".")).argv();
        assertThat(cached.get(1)).startsWith("-XX:AOTCache=").endsWith("tidemill-io.aot");
        assertThat(cached.subList(2, cached.size())).isEqualTo(plain.subList(1, plain.size()));
        assertThat(chosen.get(1).kind()).isEqualTo("tidemill");

        List<Target> all = suite.choose(catalog, List.of());
        List<String> names = all.stream().map(Target::name).toList();
        assertThat(names).containsSubsequence(MemorySuite.AOT_BY_DEFAULT, MemorySuite.AOT_BY_DEFAULT + MemorySuite.AOT)
                .doesNotContain("tidemill-io-aot", "nginx");
    }

    @Test
    void aJvmThatCouldNotUseItsCacheIsNoticed() {
        assertThat(AotTraining.refused("[0.006s][error][aot] Unable to map shared spaces")).isTrue();
        assertThat(AotTraining.refused("[0.011s][warning][aot] The AOT cache was created by a different version")).isTrue();
        assertThat(AotTraining.refused("[main] INFO dev.tidemill.internal.server.HttpServer - listening on http://127.0.0.1:1"))
                .isFalse();
    }

    @Test
    void statusFieldsAreReadByName() {
        String status = "Name:\tjava\nThreads:\t27\nVmPeak:\t 99 kB\nVmRSS:\t  123456 kB\n";
        assertThat(JvmReadings.field(status, "VmRSS")).contains(123456L);
        assertThat(JvmReadings.field(status, "Threads")).contains(27L);
        assertThat(JvmReadings.field(status, "VmSwap")).isEmpty();
    }

    @Test
    void aResponseIsReadByItsContentLengthWithoutWaitingForTheClose() throws Exception {
        String wire = "HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\nHello, World!";
        assertThat(LoopbackGet.readResponse(new ByteArrayInputStream(wire.getBytes(StandardCharsets.ISO_8859_1))))
                .isEqualTo(wire);
    }

    @Test
    void slopeIsKibPerExtraLoopAndIgnoresMissingReadings() {
        List<MemorySuite.LoopRow> rows = List.of(new MemorySuite.LoopRow(1, 1000, 100, 20),
                new MemorySuite.LoopRow(2, 1100, -1, 21), new MemorySuite.LoopRow(4, 1300, 130, 23),
                new MemorySuite.LoopRow(8, 1700, 170, 27));
        assertThat(LoopLadder.slope(rows, MemorySuite.LoopRow::rssKb)).isCloseTo(100.0, within(1e-9));
        assertThat(LoopLadder.slope(rows, MemorySuite.LoopRow::heapKb)).isCloseTo(10.0, within(1e-9));
        assertThat(LoopLadder.slope(rows.subList(0, 1), MemorySuite.LoopRow::rssKb)).isNaN();
        assertThat(MemorySuite.median(List.of(3.0, 1.0, 2.0))).isEqualTo(2.0);
        assertThat(MemorySuite.median(List.of(4.0, 1.0))).isEqualTo(2.5);
    }

    @Test
    void tablesShowEveryTargetAndLoopCount() {
        MemorySuite.Result r = new MemorySuite.Result("memory", false, "2026-11-30T00:00:00Z", "2026-11-30T00:05:00Z", Map.of(),
                List.of(), Map.of("jvmFlags", "[-Xmx1g]", "serverCpus", "0", "rss", "VmRSS", "heap", "jcmd", "firstResponse", "x",
                        "starts", 3),
                List.of(), List.of(new MemorySuite.TargetRow("tidemill-loop", List.of(410.0, 400.0, 420.0), 410.0, 60 * 1024,
                        8 * 1024, 10_000, 10_000, 0, 0, 100 * 1024, 20 * 1024, 4.1, 1.2,
                        new MemorySuite.Nmt(1100 * 1024, new java.util.LinkedHashMap<>(Map.of("Java Heap", 1024L * 1024))), null,
                        List.of())),
                List.of(new MemorySuite.LoopRow(1, 61440, 8192, 20)), Double.NaN, Double.NaN);
        String md = MemoryReport.page(r);
        assertThat(md).contains("| tidemill-loop | 410 | 60.0 | 8.0 | 1100.0 (76.0) | 10,000 | 100.0 | 20.0 | - | 4.1 | 1.2 |  |")
                .contains("| tidemill-loop | 1100.0 | Java Heap 1024.0 |")
                .contains("| 1 | 60.0 | 8.0 | 20 |").contains("RSS - KiB");
    }
}
