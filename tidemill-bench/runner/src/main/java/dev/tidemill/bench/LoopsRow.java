package dev.tidemill.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The rows of the event-loop matrix, after the reference's (rsloop's benchmark write-up): the
 * micro rows run on executors in a fresh JVM ({@link LoopsMicro}), the network rows against a
 * server process per column ({@link LoopsClient}, {@link LoopsWsClient}). Counts are the full run's;
 * {@code --quick} divides them by {@link #QUICK_DIVISOR}.
 */
enum LoopsRow {
    /** One batch of callbacks scheduled on the loop from the loop. */
    CALLBACKS("callbacks", true, 1_000_000, 0),
    /** Tasks as {@code CompletableFuture} chains that hop to the executor twice. */
    TASKS_FUTURE("tasks-future", true, 200_000, 0),
    /** Tasks that queue their continuation once, without futures. */
    TASKS_LOOP("tasks-loop", true, 200_000, 0),
    /** Tasks as virtual threads that yield once. */
    TASKS_VIRTUAL("tasks-virtual", true, 200_000, 0),
    /** Sequential 1 KiB round trips over one TCP connection to an echo. */
    TCP("tcp", false, 20_000, 1),
    /** {@code GET /plaintext} over keep-alive connections. */
    HTTP("http", false, 8_000, LoopsRow.NETWORK_CONNECTIONS),
    /** The same over TLS. */
    HTTPS("https", false, 8_000, LoopsRow.NETWORK_CONNECTIONS),
    /** WebSocket echo, 32, 256 and 4,096-byte messages in turn. */
    WS("ws", false, 8_000, LoopsRow.NETWORK_CONNECTIONS),
    /** The same over TLS. */
    WSS("wss", false, 8_000, LoopsRow.NETWORK_CONNECTIONS),
    /** Connect, one request with {@code Connection: close}, read to the close. */
    SHORT("short", false, 8_000, LoopsRow.NETWORK_CONNECTIONS);

    /** Connections of the HTTP and WebSocket rows, and concurrency of the short-connection row (the reference's 16). */
    static final int NETWORK_CONNECTIONS = 16;
    /** Tasks per batch of the task rows, joined before the next (the reference's 5,000). */
    static final int TASK_BATCH = 5_000;
    /** Bytes per TCP round trip. */
    static final int TCP_BYTES = 1024;
    /** What {@code --quick} divides every count by. */
    static final int QUICK_DIVISOR = 10;

    private final String id;
    private final boolean micro;
    private final int fullCount;
    private final int connections;

    LoopsRow(String id, boolean micro, int fullCount, int connections) {
        this.id = id;
        this.micro = micro;
        this.fullCount = fullCount;
        this.connections = connections;
    }

    /** @return its name on the command line and in results */
    String id() {
        return id;
    }

    /** @return whether it runs on executors ({@link LoopsMicro}) rather than against servers */
    boolean micro() {
        return micro;
    }

    /** @return connections (1 for the round trips, the concurrency for short connections; 0 for micro rows) */
    int connections() {
        return connections;
    }

    /**
     * @param quick whether the run is quick
     * @return operations per run (callbacks, tasks, round trips, requests, messages or connections)
     */
    int count(boolean quick) {
        return quick ? fullCount / QUICK_DIVISOR : fullCount;
    }

    /** @return whether it speaks TLS */
    boolean tls() {
        return this == HTTPS || this == WSS;
    }

    /**
     * @param quick whether the run is quick
     * @return what the row does, with its counts, for tables
     */
    String title(boolean quick) {
        String n = String.format(Locale.ROOT, "%,d", count(quick));
        int per = connections == 0 ? 0 : count(quick) / connections;
        return switch (this) {
            case CALLBACKS -> n + " callbacks";
            case TASKS_FUTURE -> n + " tasks, CompletableFuture chains";
            case TASKS_LOOP -> n + " tasks, loop continuations";
            case TASKS_VIRTUAL -> n + " tasks, virtual threads";
            case TCP -> n + " 1 KiB TCP round trips";
            case HTTP -> "HTTP/1.1 keep-alive, " + connections + " x " + per;
            case HTTPS -> "HTTP/1.1 over TLS, " + connections + " x " + per;
            case WS -> "WebSocket echo, " + connections + " x " + per;
            case WSS -> "WebSocket echo over TLS, " + connections + " x " + per;
            case SHORT -> n + " short connections, " + connections + " at a time";
        };
    }

    /** @return every row id */
    static List<String> ids() {
        return Arrays.stream(values()).map(LoopsRow::id).toList();
    }

    /**
     * @param id a row id
     * @return the row
     * @throws IllegalArgumentException naming the known ones
     */
    static LoopsRow of(String id) {
        return Arrays.stream(values()).filter(r -> r.id.equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown row " + id + " (rows: " + String.join(",", ids()) + ")"));
    }
}
