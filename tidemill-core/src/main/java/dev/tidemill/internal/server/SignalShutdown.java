package dev.tidemill.internal.server;

import dev.tidemill.Server;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGTERM/SIGINT handling for {@link dev.tidemill.Tidemill#run()}: the first signal starts a
 * graceful stop, a second one cuts the grace short. Uses {@code sun.misc.Signal} (in jdk.unsupported,
 * present in every JDK) rather than a shutdown hook, because a hook cannot tell a second signal from
 * the first and runs after the JVM has begun exiting.
 */
public final class SignalShutdown {
    private static final Logger LOG = LoggerFactory.getLogger(SignalShutdown.class);

    private SignalShutdown() {}

    /**
     * Blocks until a signal arrives and the server has stopped.
     *
     * @param server the running server
     * @param grace how long in-flight requests may finish
     */
    public static void awaitSignals(Server server, Duration grace) {
        CountDownLatch signalled = new CountDownLatch(1);
        AtomicInteger count = new AtomicInteger();
        SignalHandler handler = sig -> {
            int n = count.incrementAndGet();
            if (n == 1) {
                LOG.info("SIG{} received: stopping gracefully (grace {} ms; signal again to stop now)", sig.getName(), grace.toMillis());
                signalled.countDown();
            } else {
                LOG.info("SIG{} received again: stopping now", sig.getName());
                server.stopNow();
            }
        };
        Signal.handle(new Signal("TERM"), handler);
        Signal.handle(new Signal("INT"), handler);
        try {
            signalled.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        server.stop(grace);
        LOG.info("stopped");
    }
}
