package dev.tidemill.tests.hardening;

import dev.tidemill.Response;
import dev.tidemill.tests.support.Setup;
import dev.tidemill.testing.TestClient;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The app every hardening case talks to: a handful of routes that count what ran, with short
 * timeouts so that a request the server silently ignores fails the case quickly instead of hanging.
 *
 * <ul>
 *   <li>{@code GET /ok} answers {@code ok}: the follow-up and canary requests;</li>
 *   <li>{@code GET|POST /echo} counts in {@link #echoed} and answers the body (POST) or {@code echo};</li>
 *   <li>{@code GET /smuggled} counts in {@link #smuggled}: no malformed case may ever reach it;</li>
 *   <li>{@code GET /status/{code}} answers that status with a body, which 204 and 304 must drop;</li>
 *   <li>{@code GET /big} answers 8 MiB, allocated per response (slow-read and flood cases);</li>
 *   <li>{@code POST /json} binds and validates a {@link Person};</li>
 *   <li>{@code GET /inject/name} and {@code /inject/value} try to put CR LF into a response header.</li>
 * </ul>
 */
final class HostileServer implements AutoCloseable {
    /** The validated JSON body of {@code POST /json}. */
    record Person(@jakarta.validation.constraints.NotBlank String name,
                  @jakarta.validation.constraints.Min(0) @jakarta.validation.constraints.Max(150) int age) {}

    /** The request appended to every refused case in the same write: it must never run. */
    static final String SMUGGLED = "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n";
    /** Size of {@code GET /big}: larger than any socket buffer, allocated per response. */
    static final int BIG_BYTES = 8 << 20;
    /** Header-read, idle, body-stall and write-stall timeout of this server. */
    static final Duration SHORT = Duration.ofSeconds(2);

    final TestClient client;
    final AtomicInteger echoed = new AtomicInteger();
    final AtomicInteger smuggled = new AtomicInteger();

    HostileServer(Setup setup) {
        this.client = setup.start(b -> b.headerReadTimeout(SHORT).idleTimeout(SHORT.plusSeconds(1)).bodyStallTimeout(SHORT)
                        .writeStallTimeout(SHORT),
                app -> {
                    app.get("/ok", req -> "ok");
                    app.post("/echo", req -> {
                        echoed.incrementAndGet();
                        return req.body();
                    });
                    app.get("/echo", req -> {
                        echoed.incrementAndGet();
                        return "echo";
                    });
                    app.get("/smuggled", req -> {
                        smuggled.incrementAndGet();
                        return "smuggled";
                    });
                    app.get("/status/{code}", req -> Response.status(Integer.parseInt(req.pathParam("code")))
                            .text("a body the status must not carry"));
                    app.post("/json", req -> req.body(Person.class));
                    app.get("/big", req -> Response.ok().bytes(new byte[BIG_BYTES], "application/octet-stream"));
                    app.get("/inject/name", req -> Response.ok().header("X-A\r\nSet-Cookie", "evil").text("never"));
                    app.get("/inject/value", req -> Response.ok().header("X-A", "a\r\nSet-Cookie: evil=1").text("never"));
                });
    }

    /** A server on the default transport in the default mode. */
    static HostileServer start() {
        return new HostileServer(Setup.onDefaultTransport(dev.tidemill.ExecutionMode.LOOP));
    }

    void reset() {
        echoed.set(0);
        smuggled.set(0);
    }

    @Override
    public void close() {
        client.close();
    }
}
