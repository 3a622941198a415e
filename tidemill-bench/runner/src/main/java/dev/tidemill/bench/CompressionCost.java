package dev.tidemill.bench;

import dev.tidemill.bench.common.PageData;
import dev.tidemill.internal.codec.AcceptEncoding.Choice;
import dev.tidemill.internal.codec.ChunkEncoder;
import dev.tidemill.internal.codec.ContentEncoding;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code ./tidemill bench compression [--seconds S] [--file PATH]}: the CPU one compressed response
 * costs, per coding and level, on the bench's 16 KiB page ({@link PageData#reference()}, or the
 * file given: what precompressing a static asset costs, docs/static-assets.md), through the
 * server's own encoder ({@code internal.codec.ContentEncoding}, reachable here because the runner
 * runs on the class path), plus a streamed SSE event (about 200 bytes, compressed and flushed on
 * its own as {@code ChunkEncoder} does). One thread, timed by its own CPU clock
 * ({@link ThreadMXBean#getCurrentThreadCpuTime()}), so the figure is CPU per response whatever
 * else the machine runs; each cell warms up for the same time it measures. The defaults in
 * {@code dev.tidemill.Compression} were picked from this table (docs/compression.md).
 */
final class CompressionCost {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private record Cell(String coding, int level, long bytes, double microsPerResponse, double mibPerCpuSecond) {}

    private CompressionCost() {}

    static void run(List<String> args, PrintStream out) {
        double seconds = 1.0;
        java.nio.file.Path file = null;
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("--seconds") && i + 1 < args.size()) seconds = Double.parseDouble(args.get(++i));
            else if (args.get(i).equals("--file") && i + 1 < args.size()) file = java.nio.file.Path.of(args.get(++i));
            else throw new IllegalArgumentException("usage: bench compression [--seconds S] [--file PATH]");
        }
        byte[] page;
        try {
            page = file == null ? PageData.reference().getBytes(StandardCharsets.UTF_8) : java.nio.file.Files.readAllBytes(file);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("bench compression: cannot read " + file + ": " + e.getMessage(), e);
        }
        ByteBuf body = Unpooled.wrappedBuffer(page);
        long nanos = (long) (seconds * 1e9);
        List<Cell> cells = new ArrayList<>();
        for (int level : new int[] {1, 3, 4, 5, 6, 9, 11}) cells.add(full(Choice.BR, level, body, nanos));
        for (int level : new int[] {1, 3, 6, 9, 19}) cells.add(full(Choice.ZSTD, level, body, nanos));
        for (int level : new int[] {1, 5, 6, 9}) cells.add(full(Choice.GZIP, level, body, nanos));
        out.printf(Locale.ROOT, "%s: %,d bytes (%s); %.1f s per cell after %.1f s warm-up; CPU time of one thread%n%n",
                file == null ? "page" : "file", page.length, file == null ? "PageData.reference()" : file.getFileName(), seconds, seconds);
        out.println("| coding | level | bytes | ratio | CPU per response (us) | MiB/s per core |");
        out.println("|---|---|---|---|---|---|");
        for (Cell c : cells) {
            out.printf(Locale.ROOT, "| %s | %d | %,d | %.1f%% | %.1f | %.0f |%n", c.coding, c.level, c.bytes,
                    100.0 * c.bytes / page.length, c.microsPerResponse, c.mibPerCpuSecond);
        }
        byte[] event = ("event: datastar-patch-elements\ndata: elements <div id=\"cell-17\" class=\"cell taken\" "
                + "data-owner=\"ada\">X</div>\ndata: selector #cell-17\ndata: mode outer\nid: 4242\n\n")
                .getBytes(StandardCharsets.UTF_8);
        out.printf(Locale.ROOT, "%nstreamed: one SSE event of %d bytes, compressed and flushed on its own (a stream's steady state)%n%n", event.length);
        out.println("| coding | level | bytes on the wire per event | CPU per event (us) |");
        out.println("|---|---|---|---|");
        for (Choice coding : List.of(Choice.BR, Choice.ZSTD, Choice.GZIP)) {
            int level = switch (coding) {
                case BR -> dev.tidemill.Compression.DEFAULTS.brotliLevel();
                case ZSTD -> Math.min(3, dev.tidemill.Compression.DEFAULTS.zstdLevel());
                default -> dev.tidemill.Compression.DEFAULTS.gzipLevel();
            };
            double[] r = stream(coding, level, event, nanos);
            out.printf(Locale.ROOT, "| %s | %d | %.0f | %.1f |%n", ContentEncoding.token(coding), level, r[0], r[1]);
        }
        out.printf(Locale.ROOT, "%nidentity: %,d bytes, 0 us%n", page.length);
    }

    private static Cell full(Choice coding, int level, ByteBuf body, long nanos) {
        ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;
        long bytes = 0;
        for (int pass = 0; pass < 2; pass++) { // pass 0 warms up
            long n = 0;
            long start = THREADS.getCurrentThreadCpuTime();
            long cpu;
            do {
                for (int i = 0; i < 16; i++) {
                    ByteBuf out = ContentEncoding.encode(coding, body, level, alloc);
                    bytes = out.readableBytes();
                    out.release();
                }
                n += 16;
                cpu = THREADS.getCurrentThreadCpuTime() - start;
            } while (cpu < nanos);
            if (pass == 1) {
                double micros = cpu / 1e3 / n;
                double mibPerSecond = body.readableBytes() * (double) n / (cpu / 1e9) / (1 << 20);
                return new Cell(ContentEncoding.token(coding), level, bytes, micros, mibPerSecond);
            }
        }
        throw new AssertionError();
    }

    /** @return {bytes per event, microseconds per event} in a stream's steady state */
    private static double[] stream(Choice coding, int level, byte[] event, long nanos) {
        ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;
        double[] result = new double[2];
        for (int pass = 0; pass < 2; pass++) {
            try (ChunkEncoder encoder = ContentEncoding.chunkEncoder(coding, level, alloc)) {
                encoder.encode(Unpooled.wrappedBuffer(event)).release(); // the stream's head, not counted
                long n = 0;
                long wire = 0;
                long start = THREADS.getCurrentThreadCpuTime();
                long cpu;
                do {
                    ByteBuf out = encoder.encode(Unpooled.wrappedBuffer(event));
                    wire += out.readableBytes();
                    out.release();
                    n++;
                    cpu = THREADS.getCurrentThreadCpuTime() - start;
                } while (cpu < nanos);
                result[0] = (double) wire / n;
                result[1] = cpu / 1e3 / n;
            }
        }
        return result;
    }
}
