package dev.tidemill.bench.html;

import dev.tidemill.bench.common.PageData;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One render of the 50-row page to UTF-8 bytes, per engine ({@code ./tidemill bench html}). JMH
 * forks a JVM per engine, so no engine's call sites are polluted by another's. Before anything is
 * timed, {@link #setup} checks the engine's page against {@link PageData#reference()}, byte for
 * byte, and refuses to measure an engine that differs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RenderBenchmark {
    /** The engine, a key of {@link Engine#ALL}. */
    @Param({"tidemill-builder", "tidemill-baked", "stringbuilder", "jte", "j2html", "mustache", "pebble", "freemarker", "thymeleaf", "rocker", "htmlflow"})
    public String engine;

    private Engine renderer;
    private List<PageData.Row> rows;

    /** Makes the engine and checks its page against the reference. */
    @Setup
    public void setup() {
        renderer = Engine.named(engine);
        rows = PageData.rows();
        check(engine, renderer.render(PageData.TITLE, rows));
    }

    /** @return the page's bytes (JMH consumes them) */
    @Benchmark
    public byte[] render() {
        return renderer.render(PageData.TITLE, rows);
    }

    /**
     * @param engine its name, for the message
     * @param page what it rendered
     * @throws IllegalStateException naming the first differing byte, if the page is not the reference
     */
    static void check(String engine, byte[] page) {
        byte[] ref = PageData.reference().getBytes(StandardCharsets.UTF_8);
        int at = Arrays.mismatch(ref, page);
        if (at < 0) return;
        int from = Math.max(0, at - 60);
        throw new IllegalStateException(engine + " does not render the reference page: first difference at byte " + at
                + "\n  reference: " + snippet(ref, from, at) + "\n  " + engine + ": " + snippet(page, from, at));
    }

    private static String snippet(byte[] b, int from, int at) {
        int to = Math.min(b.length, at + 60);
        return from >= b.length ? "(ends)" : new String(b, from, to - from, StandardCharsets.UTF_8).replace("\n", "\\n");
    }
}
