package dev.tidemill.bench.targets;

import dev.tidemill.Config;
import dev.tidemill.ExecutionMode;
import dev.tidemill.Route;
import dev.tidemill.Server;
import dev.tidemill.Tidemill;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The target of {@code ./tidemill bench auto}: configured by {@code TIDEMILL_*} variables (the app's
 * mode in {@code TIDEMILL_MODE}), with
 *
 * <ul>
 *   <li>the mixed app: {@value #TRIVIAL} (a constant), {@value #CPU} (computes {@value #CPU_MICROS} us)
 *       and {@value #BLOCK} (sleeps {@value #BLOCK_MILLIS} ms), in the app's mode, or each in the mode
 *       the argument {@code --modes=io,loop,virtual} gives it (trivial, cpu, block: a hand-picked
 *       assignment);</li>
 *   <li>the overhead check: {@value #PLAINTEXT} and its twin {@value #TWIN} in the app's mode, and
 *       {@value #AUTO_PLAINTEXT}, the same handler in AUTO;</li>
 *   <li>{@value #MODES}: every route's {@link Server#routeModes()} as JSON, with the mixed routes' calls so far (IO, so
 *       reading it wakes no worker).</li>
 * </ul>
 */
public final class TidemillAutoApp {
    /** A route that does nothing. */
    public static final String TRIVIAL = "/mixed/trivial";
    /** A route that computes. */
    public static final String CPU = "/mixed/cpu";
    /** A route that blocks. */
    public static final String BLOCK = "/mixed/block";
    /** CPU time {@value #CPU} takes, in microseconds. */
    public static final int CPU_MICROS = 200;
    /** How long {@value #BLOCK} sleeps, in milliseconds. */
    public static final int BLOCK_MILLIS = 5;
    /** Plaintext in the app's mode. */
    public static final String PLAINTEXT = "/overhead/plaintext";
    /** The same, a second route: the A/A twin. */
    public static final String TWIN = "/overhead/twin";
    /** The same handler in AUTO. */
    public static final String AUTO_PLAINTEXT = "/overhead/auto";
    /** The routes' modes now, as JSON. */
    public static final String MODES = "/_modes";
    /** The argument that gives the mixed routes their modes: {@code --modes=<trivial>,<cpu>,<block>}. */
    public static final String MODES_ARG = "--modes=";
    /** The answer of the plaintext routes. */
    public static final String BODY = "Hello, World!";

    private static final AtomicReference<Server> SERVER = new AtomicReference<>();
    private static final LongAdder TRIVIAL_CALLS = new LongAdder(), CPU_CALLS = new LongAdder(), BLOCK_CALLS = new LongAdder();

    /** @return calls of a mixed route so far (-1 for the others) */
    private static long calls(String pattern) {
        return switch (pattern) {
            case TRIVIAL -> TRIVIAL_CALLS.sum();
            case CPU -> CPU_CALLS.sum();
            case BLOCK -> BLOCK_CALLS.sum();
            default -> -1;
        };
    }

    private TidemillAutoApp() {}

    /**
     * @param config the configuration
     * @param modes the mixed routes' modes (trivial, cpu, block), or empty for the app's
     * @return the app, not started
     */
    public static Tidemill create(Config config, List<ExecutionMode> modes) {
        Tidemill app = Tidemill.create(config);
        Route trivial = app.get(TRIVIAL, req -> {
            TRIVIAL_CALLS.increment();
            return "ok";
        });
        Route cpu = app.get(CPU, req -> {
            CPU_CALLS.increment();
            return "computed " + TidemillApp.spin(CPU_MICROS * 1_000L);
        });
        Route block = app.get(BLOCK, req -> {
            BLOCK_CALLS.increment();
            Thread.sleep(BLOCK_MILLIS);
            return "blocked";
        });
        if (!modes.isEmpty()) {
            trivial.mode(modes.get(0));
            cpu.mode(modes.get(1));
            block.mode(modes.get(2));
        }
        app.get(PLAINTEXT, req -> BODY);
        app.get(TWIN, req -> BODY);
        app.get(AUTO_PLAINTEXT, req -> BODY).mode(ExecutionMode.AUTO);
        app.get(MODES, req -> {
            Server s = SERVER.get();
            return s == null ? List.of() : s.routeModes().stream().map(m -> Map.of("route", m.pattern(), "declared", m.declared().name(),
                    "current", m.current().name(), "why", m.why(), "moves", m.moves(), "calls", calls(m.pattern()))).toList();
        }).mode(ExecutionMode.IO);
        return app;
    }

    /** @param args {@code --modes=io,loop,virtual} or nothing; the rest in TIDEMILL_* variables */
    public static void main(String[] args) {
        List<ExecutionMode> modes = List.of();
        for (String a : args) {
            if (a.startsWith(MODES_ARG)) {
                modes = java.util.Arrays.stream(a.substring(MODES_ARG.length()).split(","))
                        .map(m -> ExecutionMode.valueOf(m.trim().toUpperCase(Locale.ROOT))).toList();
                if (modes.size() != 3) throw new IllegalArgumentException(MODES_ARG + " takes three modes: trivial, cpu, block");
            } else {
                throw new IllegalArgumentException("unknown argument " + a);
            }
        }
        List<ExecutionMode> chosen = modes;
        Tidemill app = create(Config.fromEnvironment(), chosen);
        app.run(server -> {
            SERVER.set(server);
            System.out.println("tidemill auto bench app on http://" + server.host() + ":" + server.port() + " mode "
                    + app.config().executionMode() + (chosen.isEmpty() ? "" : ", mixed routes " + chosen));
            server.startupReport().forEach(line -> System.out.println("startup: " + line));
        });
    }
}
