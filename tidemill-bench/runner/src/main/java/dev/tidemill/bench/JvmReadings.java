package dev.tidemill.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the memory suite reads of a running JVM: RSS and threads from {@code /proc/<pid>/status},
 * live heap and native memory through {@code jcmd}, and the parsers of those outputs.
 */
final class JvmReadings {
    private JvmReadings() { }

    /** @return VmRSS in KiB, or -1 */
    static long rssKb(long pid) {
        return Host.read("/proc/" + pid + "/status").flatMap(s -> field(s, "VmRSS")).orElse(-1L);
    }

    /** @return the Threads count of /proc/<pid>/status, or -1 */
    static int threads(long pid) {
        return Host.read("/proc/" + pid + "/status").flatMap(s -> field(s, "Threads")).map(Long::intValue).orElse(-1);
    }

    static Optional<Long> field(String status, String name) {
        Matcher m = Pattern.compile("(?m)^" + name + ":\\s+(\\d+)").matcher(status);
        return m.find() ? Optional.of(Long.parseLong(m.group(1))) : Optional.empty();
    }

    /** @return live heap after a full GC (KiB), or -1 when jcmd could not tell */
    static long liveHeapKb(long pid) {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        Host.output(jcmd, Long.toString(pid), "GC.run");
        return Host.output(jcmd, Long.toString(pid), "GC.heap_info").map(JvmReadings::parseHeapUsedKb).orElse(-1L);
    }

    /**
     * The live objects' bytes, to the byte: {@code jcmd <pid> GC.class_histogram} runs a full GC and
     * counts what survives. Steadier than {@link #liveHeapKb}, whose young generation's "used" includes
     * the TLABs handed out since the GC (megabytes, changing from one reading to the next).
     *
     * @return the histogram's total bytes less its filler arrays, or -1 when jcmd could not tell
     */
    static long liveObjectBytes(long pid) {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        return Host.output(jcmd, Long.toString(pid), "GC.class_histogram").map(JvmReadings::parseHistogramBytes).orElse(-1L);
    }

    /**
     * @param histogram the output of {@code jcmd <pid> GC.class_histogram}
     * @return the bytes of its {@code Total} line less those of {@code jdk.internal.vm.FillerElement} and
     *     {@code FillerObject}: dead space the collector filled so the heap stays walkable (a megabyte or two,
     *     coming and going between readings), no object of the program; -1 without a total
     */
    static long parseHistogramBytes(String histogram) {
        Matcher m = Pattern.compile("(?m)^Total\\s+\\d+\\s+(\\d+)\\s*$").matcher(histogram);
        if (!m.find()) return -1;
        long total = Long.parseLong(m.group(1));
        Matcher filler = Pattern.compile("(?m)^\\s*\\d+:\\s+\\d+\\s+(\\d+)\\s+\\S*jdk\\.internal\\.vm\\.Filler(?:Element|Object)\\b").matcher(histogram);
        while (filler.find()) total -= Long.parseLong(filler.group(1));
        return total;
    }

    /** @return the NMT summary of a JVM started with {@link MemorySuite#NMT_FLAG}, or empty when jcmd could not tell */
    static Optional<MemorySuite.Nmt> nativeMemory(long pid) {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        return Host.output(jcmd, Long.toString(pid), "VM.native_memory", "summary").flatMap(JvmReadings::parseNmt);
    }

    /**
     * @param summary the output of {@code jcmd <pid> VM.native_memory summary}
     * @return total committed and committed per category (largest first), or empty without a total
     */
    static Optional<MemorySuite.Nmt> parseNmt(String summary) {
        Matcher total = Pattern.compile("(?m)^Total: reserved=\\d+KB, committed=(\\d+)KB").matcher(summary);
        if (!total.find()) return Optional.empty();
        Matcher m = Pattern.compile("(?m)^-\\s+(.+?) \\(reserved=\\d+KB, committed=(\\d+)KB").matcher(summary);
        List<Map.Entry<String, Long>> categories = new ArrayList<>();
        while (m.find()) categories.add(Map.entry(m.group(1).trim(), Long.parseLong(m.group(2))));
        categories.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        Map<String, Long> sorted = new LinkedHashMap<>();
        categories.forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return Optional.of(new MemorySuite.Nmt(Long.parseLong(total.group(1)), sorted));
    }

    /**
     * @param heapInfo the output of {@code jcmd <pid> GC.heap_info} under ParallelGC
     * @return young + old "used" in KiB, or -1 when neither is there
     */
    static long parseHeapUsedKb(String heapInfo) {
        Matcher m = Pattern.compile("(?m)^\\s*(PSYoungGen|ParOldGen)\\s+total \\d+K, used (\\d+)K").matcher(heapInfo);
        long used = 0;
        boolean any = false;
        while (m.find()) {
            used += Long.parseLong(m.group(2));
            any = true;
        }
        return any ? used : -1;
    }
}
