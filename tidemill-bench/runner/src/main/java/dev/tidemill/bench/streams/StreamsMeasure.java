package dev.tidemill.bench.streams;

import dev.tidemill.bench.ProcessCpu;
import io.netty.channel.Channel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * Measures one row against one running server: opens the connections on the {@link ClientLoop},
 * drives the scenario, and reads server CPU ({@code /proc/<pid>/stat}), the client loop thread's
 * CPU and the client process's CPU over exactly the measured window.
 */
final class StreamsMeasure {
    /** A fan-out row that sees no new delivery for this long ends with what it has (the rest is missing). */
    static final long STALL_NANOS = 10_000_000_000L;

    private final ClientLoop loop;
    private final int port;
    private final long serverPid;
    private final int clientCpus;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    StreamsMeasure(ClientLoop loop, int port, long serverPid, int clientCpus) {
        this.loop = loop;
        this.port = port;
        this.serverPid = serverPid;
        this.clientCpus = clientCpus;
    }

    /**
     * SSE: subscribe, wait until the server counts every subscriber, ask it to publish, wait for
     * every delivery (or {@link #STALL_NANOS} without one).
     *
     * @param stream {@code /sse/fanout} or {@code /sse/lossy}
     * @param subscribers connections
     * @param stalled how many of them stop reading
     * @param events events to publish
     * @param rate events per second (0: unpaced)
     * @param timeoutSeconds the most the publishing may take
     * @return what the reading subscribers saw, and the window
     */
    Fanout fanout(String stream, int subscribers, int stalled, int events, int rate, int timeoutSeconds) {
        return fanout(stream, subscribers, stalled, events, rate, timeoutSeconds, new SseFanoutClient());
    }

    /**
     * The same with the client given: one that expects a prefix and suffix around the numbers.
     *
     * @param stream the stream's path
     * @param subscribers connections
     * @param stalled how many of them stop reading
     * @param events events to publish
     * @param rate events per second (0: unpaced)
     * @param timeoutSeconds the most the publishing may take
     * @param client the subscribers' client
     * @return what the reading subscribers saw, and the window
     */
    Fanout fanout(String stream, int subscribers, int stalled, int events, int rate, int timeoutSeconds, SseFanoutClient client) {
        awaitSubscribers(stream, 0, 30);
        List<Channel> channels = client.subscribe(loop, port, stream, subscribers, stalled);
        try {
            awaitSubscribers(stream, subscribers, 30);
            long expected = (long) events * (subscribers - stalled);
            Cpu before = cpu();
            int status = post(stream + "/publish?events=" + events + "&rate=" + rate);
            if (status / 100 != 2) throw new IllegalStateException("POST " + stream + "/publish answered " + status);
            long deadline = before.nanos + timeoutSeconds * 1_000_000_000L;
            long last = client.received(), lastChange = System.nanoTime();
            while (last < expected) {
                sleep(5);
                long now = System.nanoTime(), r = client.received();
                if (r != last) {
                    last = r;
                    lastChange = now;
                } else if (now - lastChange > STALL_NANOS || now > deadline) {
                    break;
                }
            }
            Cpu after = cpu();
            SseFanoutClient.Snapshot seen = client.snapshot(loop);
            long end = seen.lastNanos() == 0 ? after.nanos : seen.lastNanos();
            // CPU is read when the runner notices the last delivery (<= 5 ms late); deliveries/s
            // use the publish request to that delivery.
            return new Fanout(seen, window(before, after), end - before.nanos, client.firstBytes(loop));
        } finally {
            ClientLoop.closeAll(channels);
        }
    }

    /**
     * WebSocket: connect, run closed-loop for the warm-up, then measure a window.
     *
     * @param path the WebSocket path
     * @param connections connections
     * @param bytes message size
     * @param warmupSeconds unmeasured closed loop first
     * @param windowSeconds the measured window
     * @return the window's counters and CPU
     */
    Echo echo(String path, int connections, int bytes, int warmupSeconds, int windowSeconds) {
        WsEchoClient client = new WsEchoClient(bytes);
        List<Channel> channels = client.connect(loop, port, path, connections);
        try {
            loop.call(() -> {
                client.start();
                return null;
            });
            sleep(warmupSeconds * 1_000L);
            Cpu before = loop.call(() -> {
                client.record(true);
                return cpu();
            });
            sleep(windowSeconds * 1_000L);
            Object[] end = loop.call(() -> {
                Cpu c = cpu();
                WsEchoClient.Snapshot s = client.snapshot();
                client.stop();
                return new Object[] {c, s};
            });
            Cpu after = (Cpu) end[0];
            return new Echo((WsEchoClient.Snapshot) end[1], window(before, after));
        } finally {
            sleep(100); // the close frames go out before the connections are reset
            ClientLoop.closeAll(channels);
        }
    }

    /**
     * @param path a WebSocket path
     * @return whether a handshake there succeeds
     */
    boolean servesWebSocket(String path) {
        try {
            List<Channel> c = new WsEchoClient(Long.BYTES).connect(loop, port, path, 1);
            ClientLoop.closeAll(c);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * @param stream an SSE stream's path
     * @return whether the server answers its subscriber count
     */
    boolean servesSse(String stream) {
        try {
            return get(stream + "/subscribers").statusCode() == 200;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Waits until the server counts exactly {@code n} subscribers of a stream. */
    void awaitSubscribers(String stream, int n, int seconds) {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        String last = "";
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = get(stream + "/subscribers");
            last = r.statusCode() + " " + r.body().trim();
            if (r.statusCode() == 200 && r.body().trim().equals(Integer.toString(n))) return;
            sleep(20);
        }
        throw new IllegalStateException("the server did not count " + n + " subscribers of " + stream + " within " + seconds
                + " s (last answer: " + last + ")");
    }

    private HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10)).GET().build());
    }

    private int post(String path) {
        return send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.noBody()).build()).statusCode();
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(request.method() + " " + request.uri() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    /** CPU counters at one moment. */
    private record Cpu(long nanos, long serverTicks, long clientLoopNanos, long clientTicks) {}

    private Cpu cpu() {
        try {
            return new Cpu(System.nanoTime(), ProcessCpu.ticks(serverPid), loop.cpuNanos(),
                    ProcessCpu.ticks(ProcessHandle.current().pid()));
        } catch (IOException e) {
            throw new UncheckedIOException("the server process is gone", e);
        }
    }

    private StreamsRows.Window window(Cpu a, Cpu b) {
        long loopNanos = a.clientLoopNanos < 0 || b.clientLoopNanos < 0 ? -1 : b.clientLoopNanos - a.clientLoopNanos;
        return new StreamsRows.Window(b.nanos - a.nanos, ProcessCpu.micros(b.serverTicks - a.serverTicks), loopNanos,
                ProcessCpu.micros(b.clientTicks - a.clientTicks), clientCpus);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * @param seen counters
     * @param window CPU over the publish request to the moment the runner saw the last delivery
     * @param deliveryNanos the publish request to the last delivery, nanoseconds
     * @param firstBytes the first bytes of the first subscriber's event stream
     */
    record Fanout(SseFanoutClient.Snapshot seen, StreamsRows.Window window, long deliveryNanos, byte[] firstBytes) {}

    /** @param seen counters @param window CPU and time */
    record Echo(WsEchoClient.Snapshot seen, StreamsRows.Window window) {}
}
