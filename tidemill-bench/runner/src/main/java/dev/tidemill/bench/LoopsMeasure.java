package dev.tidemill.bench;

import dev.tidemill.bench.common.LoopsContract;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Measures one cell of the event-loop matrix in a process started for it: a micro row in a
 * {@link LoopsMicro} JVM, a network row against a server started by {@link RunningTarget} (pinned
 * to the server CPUs; this JVM, the client, runs on the others). A network cell is checked before
 * it is timed (a small run whose every answer must be right), primed, warmed up, then timed; the
 * server's CPU ({@code /proc/<pid>/stat}, with its children) and context switches
 * ({@link ContextSwitches}) are read around the timed runs, its VmHWM after them.
 */
final class LoopsMeasure {
    /** The longest a micro JVM may take for all its runs before it is killed (seconds). */
    private static final int MICRO_TIMEOUT_SECONDS = 600;

    private final LoopsSettings settings;
    private final CpuSets cpus;
    private final Path certDir;
    private final Path work;
    private final PrintStream out;

    LoopsMeasure(LoopsSettings settings, CpuSets cpus, Path certDir, Path work, PrintStream out) {
        this.settings = settings;
        this.cpus = cpus;
        this.certDir = certDir;
        this.work = work;
        this.out = out;
    }

    /** A micro cell: one JVM, its own readings. */
    LoopsCell micro(int pass, LoopsRow row, String executor) {
        if (row == LoopsRow.TASKS_VIRTUAL && !executor.equals("jdk-virtual")) {
            return LoopsCell.without(pass, row.id(), executor, LoopsCell.NOT_AVAILABLE, "a virtual thread runs on the JDK's own scheduler; "
                    + "no other executor can carry one", List.of());
        }
        var refused = LoopsExecutors.refusal(executor);
        if (refused.isPresent()) return LoopsCell.without(pass, row.id(), executor, LoopsCell.NOT_AVAILABLE, refused.get(), List.of());
        int count = row.count(settings.quick());
        List<String> argv = new ArrayList<>(List.of("taskset", "-c", cpus.serverList()));
        argv.addAll(TlsTargets.jvm(Path.of(System.getProperty("java.home"), "bin", "java").toString(), System.getProperty("java.class.path"),
                LoopsMicro.class.getName()));
        argv.addAll(List.of(row.id(), executor, Integer.toString(count), Integer.toString(LoopsRow.TASK_BATCH),
                Integer.toString(settings.warmups()), Integer.toString(settings.runs())));
        Preflight.serverBusyPercent(cpus, 300);
        TlsLoad.Output o = TlsLoad.run(argv, MICRO_TIMEOUT_SECONDS);
        List<Double> warm = new ArrayList<>(), runs = new ArrayList<>();
        long cpuNanos = 0, vol = 0, invol = 0, hwm = -1;
        for (String line : o.text().lines().toList()) {
            String[] f = line.trim().split("\\s+");
            if (f[0].equals("run") && f.length == 7) {
                double ms = Long.parseLong(f[3]) / 1e6;
                if (f[1].equals("warmup")) {
                    warm.add(ms);
                } else {
                    runs.add(ms);
                    cpuNanos += Long.parseLong(f[4]);
                    vol += Long.parseLong(f[5]);
                    invol += Long.parseLong(f[6]);
                }
            } else if (f[0].equals("hwm") && f.length == 2) {
                hwm = Long.parseLong(f[1]);
            }
        }
        if (o.exit() != 0 || runs.size() != settings.runs()) {
            return LoopsCell.without(pass, row.id(), executor, LoopsCell.FAILED, "exited " + o.exit() + ": " + TlsLoad.lastLines(o.text(), 5),
                    List.of());
        }
        long ops = (long) count * runs.size();
        return new LoopsCell(pass, row.id(), executor, LoopsCell.OK, "", count, warm, runs, LoopsCell.median(runs), min(runs), max(runs),
                cpuNanos / 1e3 / ops, hwm, (double) vol / ops, (double) invol / ops, Double.NaN, Double.NaN, Map.of(), List.of());
    }

    /** A network cell: a server started for it. */
    LoopsCell network(int pass, LoopsRow row, String column) {
        var notServed = LoopsTargets.notServed(column, row);
        if (notServed.isPresent()) return LoopsCell.without(pass, row.id(), column, LoopsCell.NOT_AVAILABLE, notServed.get(), List.of());
        LoopsTargets.Ports ports = new LoopsTargets.Ports(freePort(), row == LoopsRow.TCP ? freePort() : 0);
        Target target;
        try {
            target = LoopsTargets.target(column, settings.repoRoot(), ports, certDir);
        } catch (IllegalStateException notBuilt) {
            return LoopsCell.without(pass, row.id(), column, LoopsCell.NOT_AVAILABLE, notBuilt.getMessage(), List.of());
        }
        Preflight.serverBusyPercent(cpus, 300);
        RunningTarget server;
        try {
            server = RunningTarget.start(target, cpus, work.resolve("p" + pass).resolve(row.id() + "-" + column));
        } catch (IllegalStateException e) {
            String unavailable = e.getMessage().lines().filter(l -> l.contains("unavailable")).findFirst().orElse("");
            return LoopsCell.without(pass, row.id(), column, unavailable.isEmpty() ? LoopsCell.FAILED : LoopsCell.NOT_AVAILABLE,
                    unavailable.isEmpty() ? TlsLoad.lastLines(e.getMessage(), 5) : unavailable.strip(), List.of());
        }
        try (server) {
            int port = row == LoopsRow.TCP ? ports.tcp() : row.tls() ? ports.tls() : server.port();
            // A port can accept before the server is done starting (Tidemill binds first and builds the rest while
            // clients wait in the backlog): the line the contract has it print once it listens says when it is ready
            String ready = awaitReady(server);
            if (ready.isEmpty() || !awaitPort(port)) {
                return LoopsCell.without(pass, row.id(), column, LoopsCell.FAILED, ready.isEmpty() ? "no '" + LoopsContract.READY_PREFIX
                        + "' line within 30 s: " + server.logTail() : "nothing listens on the row's port " + port, server.startupLines());
            }
            List<String> startup = List.of(ready);
            String expected = LoopsTargets.transport(column);
            if (column.startsWith("tidemill-") && !ready.contains("transport " + expected.toUpperCase(Locale.ROOT))) {
                return LoopsCell.without(pass, row.id(), column, LoopsCell.FAILED, "the server did not report transport " + expected + ": " + ready,
                        startup);
            }
            LoopsClient.Outcome check = load(row, port, true);
            if (!check.clean()) {
                boolean refused = (row == LoopsRow.WS || row == LoopsRow.WSS) && check.firstError().contains("the upgrade was answered");
                return LoopsCell.without(pass, row.id(), column, refused ? LoopsCell.NOT_AVAILABLE : LoopsCell.FAILED,
                        (refused ? "no WebSocket on this port: " : "answered wrongly, not timed: ") + check.firstError(), startup);
            }
            return timed(pass, row, column, server, port, startup);
        }
    }

    private LoopsCell timed(int pass, LoopsRow row, String column, RunningTarget server, int port, List<String> startup) {
        long primeEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(settings.primeSeconds());
        while (System.nanoTime() < primeEnd) load(row, port, false);
        List<Double> warm = new ArrayList<>(), runs = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < settings.warmups(); i++) warm.add(run(row, port, problems).nanos() / 1e6);
        long pid = server.pid();
        ContextSwitches s0 = ContextSwitches.of(pid);
        long t0 = TlsSuite.treeTicks(pid);
        CpuTimes c0 = CpuTimes.now();
        long ops = 0;
        for (int i = 0; i < settings.runs(); i++) {
            LoopsClient.Outcome o = run(row, port, problems);
            runs.add(o.nanos() / 1e6);
            ops += o.ops();
        }
        double busy = CpuTimes.now().busyPercentSince(c0, Set.copyOf(cpus.client()));
        long ticks = TlsSuite.treeTicks(pid) - t0;
        ContextSwitches s = ContextSwitches.of(pid).since(s0);
        long hwm = UploadsSuite.peakRssKb(pid);
        double syscalls = Double.NaN;
        Map<String, Long> top = Map.of();
        if (settings.syscalls()) {
            long[] counted = new long[1];
            LoopsStrace.Counts c = LoopsStrace.count(pid, cpus.clientList(), () -> counted[0] = run(row, port, problems).ops(),
                    work.resolve("strace"));
            syscalls = counted[0] > 0 ? (double) c.total() / counted[0] : Double.NaN;
            top = c.top();
        }
        if (!problems.isEmpty()) {
            return LoopsCell.without(pass, row.id(), column, LoopsCell.FAILED, String.join("; ", problems.subList(0, Math.min(3, problems.size()))),
                    startup);
        }
        long perRun = row.count(settings.quick());
        return new LoopsCell(pass, row.id(), column, LoopsCell.OK, "", perRun, warm, runs, LoopsCell.median(runs), min(runs), max(runs),
                ProcessCpu.micros(ticks) / ops, hwm, (double) s.voluntary() / ops, (double) s.involuntary() / ops, busy, syscalls, top,
                startup);
    }

    /** A counted run: its outcome, a problem noted when any answer was wrong. */
    private LoopsClient.Outcome run(LoopsRow row, int port, List<String> problems) {
        LoopsClient.Outcome o = load(row, port, false);
        if (!o.clean() || o.ops() != row.count(settings.quick())) {
            problems.add(o.ops() + " of " + row.count(settings.quick()) + " operations right, " + o.errors() + " wrong: " + o.firstError());
        }
        return o;
    }

    /**
     * @param check a check before timing: one connection, two operations
     * @return the row's load against the port
     */
    private LoopsClient.Outcome load(LoopsRow row, int port, boolean check) {
        int count = check ? 2 : row.count(settings.quick());
        int connections = check ? 1 : row.connections();
        return switch (row) {
            case TCP -> LoopsClient.tcp(port, count, LoopsRow.TCP_BYTES);
            case HTTP, HTTPS -> LoopsClient.http(port, row.tls(), connections, count / connections);
            case WS, WSS -> LoopsWsClient.echo(port, row.tls(), connections, count / connections);
            case SHORT -> LoopsClient.shortConnections(port, count, connections);
            default -> throw new IllegalArgumentException(row + " is not a network row");
        };
    }

    private static double min(List<Double> xs) {
        return xs.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    private static double max(List<Double> xs) {
        return xs.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the server's {@link LoopsContract#READY_PREFIX} line, once it printed one (at most 30 s), else empty */
    private static String awaitReady(RunningTarget server) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            var line = server.logTail().lines().filter(l -> l.startsWith(LoopsContract.READY_PREFIX)).findFirst();
            if (line.isPresent()) return line.get();
            Preflight.sleep(20);
        }
        return "";
    }

    /** @return whether the port accepts a connection within 30 s */
    private static boolean awaitPort(int port) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return true;
            } catch (IOException notYet) {
                Preflight.sleep(20);
            }
        }
        return false;
    }

    /** @return a scratch directory under the run's */
    static Path scratch(Path root, String name) {
        try {
            return Files.createDirectories(root.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
