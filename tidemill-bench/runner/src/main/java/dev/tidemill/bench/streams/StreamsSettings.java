package dev.tidemill.bench.streams;

import static dev.tidemill.bench.Args.positive;
import static dev.tidemill.bench.Args.value;
import static dev.tidemill.bench.Args.words;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The command line of {@code ./tidemill bench streams}.
 *
 * @param quick shorter everything ({@code --quick}; the result is named {@code streams-quick} and
 *     {@code bench report} ignores it)
 * @param targets target names (empty: every target found)
 * @param scenarios {@code fanout}, {@code echo}, {@code isolation}
 * @param subscribers SSE fan-out subscriber counts
 * @param deliveries deliveries aimed at per fan-out row: events = max({@link #MIN_EVENTS}, deliveries / subscribers)
 * @param rate fan-out events per second asked of the publisher; 0: as fast as its backpressure allows
 * @param connections WebSocket echo connection counts
 * @param sizes WebSocket message sizes, bytes
 * @param windowSeconds WebSocket echo measured window per row, seconds
 * @param echoWarmupSeconds closed-loop echo before each row's window, seconds (not measured)
 * @param warmupSeconds per target, a fan-out and an echo run before anything is measured, seconds of echo
 * @param isolationSubscribers subscribers of the slow-subscriber isolation rows
 * @param isolationEvents events published in each isolation row
 * @param isolationRate isolation events per second (paced, so latency is delivery and not queueing)
 * @param datastarSubscribers SSE clients of the Datastar fan-out row
 * @param datastarEvents Datastar events published in that row
 * @param datastarRate Datastar events per second (2: twice a second, the rate live HTML is judged at)
 * @param name {@code streams} ({@code ./tidemill bench streams}) or {@code live} ({@code ./tidemill bench live},
 *     the Datastar fan-out alone)
 * @param clientTransport the client loop's transport: {@code auto} (io_uring, else epoll, else NIO),
 *     {@code io_uring}, {@code epoll} or {@code nio}
 * @param outDir where results go
 * @param repoRoot the repository root (peers are found under it)
 */
public record StreamsSettings(boolean quick, List<String> targets, List<String> scenarios, List<Integer> subscribers,
                              int deliveries, int rate, List<Integer> connections, List<Integer> sizes, int windowSeconds,
                              int echoWarmupSeconds, int warmupSeconds, int isolationSubscribers, int isolationEvents,
                              int isolationRate, int datastarSubscribers, int datastarEvents, int datastarRate, String name,
                              String clientTransport, Path outDir, Path repoRoot) {
    /** Fewest events a fan-out row publishes, however many subscribers it has. */
    public static final int MIN_EVENTS = 20;

    /** Every scenario, in the order they run. */
    public static final List<String> SCENARIOS = List.of("fanout", "echo", "isolation", "datastar");

    /** The suite name of {@code ./tidemill bench live}. */
    public static final String LIVE = "live";

    /**
     * @param args the arguments after {@code streams}
     * @return the settings
     * @throws IllegalArgumentException on an unknown or malformed option
     */
    public static StreamsSettings parse(List<String> args) {
        return parse(args, "streams");
    }

    /**
     * {@code ./tidemill bench live}: the Datastar fan-out only, 5,000 clients, an event twice a second
     * for 20 s (quick: 1,000 clients, 6 events).
     *
     * @param args the arguments after {@code live}
     * @return the settings
     */
    public static StreamsSettings parseLive(List<String> args) {
        return parse(args, LIVE);
    }

    private static StreamsSettings parse(List<String> args, String name) {
        boolean quick = args.contains("--quick");
        boolean live = name.equals(LIVE);
        List<String> targets = List.of();
        List<String> scenarios = live ? List.of("datastar") : List.of("fanout", "echo", "isolation");
        int dsSubs = quick ? 1_000 : 5_000, dsEvents = quick ? 6 : 40, dsRate = 2;
        List<Integer> subscribers = List.of(10, 100, 1_000, 10_000);
        int deliveries = quick ? 200_000 : 1_000_000, rate = 0;
        List<Integer> connections = List.of(10, 100, 1_000);
        List<Integer> sizes = List.of(32, 1_024, 16_384);
        int window = quick ? 2 : 5, echoWarmup = quick ? 1 : 2, warmup = quick ? 3 : 10;
        int isoSubs = 1_000, isoEvents = quick ? 100 : 200, isoRate = 20;
        String clientTransport = "auto";
        Path out = Path.of("bench", "results");
        Path root = Path.of("");
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--quick" -> { }
                case "--targets" -> targets = words(value(args, ++i, a));
                case "--scenarios" -> scenarios = words(value(args, ++i, a));
                case "--subscribers" -> subscribers = numbers(value(args, ++i, a), a);
                case "--deliveries" -> deliveries = positive(value(args, ++i, a), a);
                case "--rate" -> rate = Integer.parseInt(value(args, ++i, a));
                case "--connections" -> connections = numbers(value(args, ++i, a), a);
                case "--sizes" -> sizes = numbers(value(args, ++i, a), a);
                case "--duration" -> window = positive(value(args, ++i, a), a);
                case "--echo-warmup" -> echoWarmup = Integer.parseInt(value(args, ++i, a));
                case "--warmup" -> warmup = Integer.parseInt(value(args, ++i, a));
                case "--isolation-subscribers" -> isoSubs = positive(value(args, ++i, a), a);
                case "--isolation-events" -> isoEvents = positive(value(args, ++i, a), a);
                case "--isolation-rate" -> isoRate = positive(value(args, ++i, a), a);
                case "--client-transport" -> clientTransport = value(args, ++i, a);
                case "--datastar-subscribers" -> dsSubs = positive(value(args, ++i, a), a);
                case "--datastar-events" -> dsEvents = positive(value(args, ++i, a), a);
                case "--datastar-rate" -> dsRate = positive(value(args, ++i, a), a);
                case "--out" -> out = Path.of(value(args, ++i, a));
                case "--root" -> root = Path.of(value(args, ++i, a));
                default -> throw new IllegalArgumentException("unknown option " + a + " (streams takes --quick --targets a,b "
                        + "--scenarios fanout,echo,isolation --subscribers n,.. --deliveries N --rate EVENTS_PER_S "
                        + "--connections n,.. --sizes bytes,.. --duration S --echo-warmup S --warmup S "
                        + "--isolation-subscribers N --isolation-events N --isolation-rate N --datastar-subscribers N --datastar-events N "
                        + "--datastar-rate N --client-transport auto|io_uring|epoll|nio --out DIR)");
            }
        }
        for (String s : scenarios) {
            if (!SCENARIOS.contains(s)) throw new IllegalArgumentException("unknown scenario " + s + "; known: " + SCENARIOS);
        }
        if (rate < 0 || echoWarmup < 0 || warmup < 0) throw new IllegalArgumentException("rate and warm-ups must be >= 0");
        if (sizes.stream().anyMatch(s -> s < Long.BYTES)) throw new IllegalArgumentException("--sizes must be >= 8 bytes");
        if (isoSubs < 2) throw new IllegalArgumentException("--isolation-subscribers must be >= 2 (one of them stalls)");
        return new StreamsSettings(quick, targets, scenarios, subscribers, deliveries, rate, connections, sizes, window,
                echoWarmup, warmup, isoSubs, isoEvents, isoRate, dsSubs, dsEvents, dsRate, name, clientTransport, out, root);
    }

    /** @return the suite's name in result file names */
    public String suite() {
        return quick ? name + "-quick" : name;
    }

    /**
     * @param subscriberCount a fan-out row's subscribers
     * @return the events it publishes
     */
    public int eventsFor(int subscriberCount) {
        return Math.max(MIN_EVENTS, deliveries / Math.max(1, subscriberCount));
    }

    /** @return the most connections any row opens at once (limits are set from it) */
    public int maxConnections() {
        int m = Math.max(isolationSubscribers, datastarSubscribers);
        for (int s : subscribers) m = Math.max(m, s);
        for (int c : connections) m = Math.max(m, c);
        return m;
    }




    private static List<Integer> numbers(String v, String name) {
        List<Integer> out = words(v).stream().map(s -> positive(s.replace("_", ""), name)).toList();
        if (out.isEmpty()) throw new IllegalArgumentException(name + " needs at least one number");
        return out;
    }
}
