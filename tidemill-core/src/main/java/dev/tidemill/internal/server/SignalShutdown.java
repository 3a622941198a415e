package dev.tidemill.internal.server;

import dev.tidemill.Server;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGTERM/SIGINT handling for {@link dev.tidemill.Tidemill#run()}: the first signal starts a
 * graceful stop, a second one cuts the grace short. Uses {@code sun.misc.Signal} (in jdk.unsupported,
 * present in every JDK) rather than a shutdown hook, because a hook cannot tell a second signal from
 * the first and runs after the JVM has begun exiting. The handlers are installed before the server
 * starts, so a signal that arrives while it starts still stops it gracefully.
 */
public final class SignalShutdown {
    private static final Logger LOG = LoggerFactory.getLogger(SignalShutdown.class);

    private final CountDownLatch signalled = new CountDownLatch(1);
    private final AtomicInteger count = new AtomicInteger();
    private final AtomicReference<Server> server = new AtomicReference<>();

    private SignalShutdown() {}

    /** @return handlers for TERM and INT, installed now */
    public static SignalShutdown install() {
        SignalShutdown s = new SignalShutdown();
        SignalHandler handler = s::onSignal;
        for (String name : new String[] {"TERM", "INT"}) {
            // A signal ignored when the JVM started stays ignored (the JVM installs no handler then): a
            // shell does that to SIGINT for a job it starts in the background, where Ctrl-C must not reach it.
            if (Signal.handle(new Signal(name), handler) == SignalHandler.SIG_IGN) {
                LOG.warn("SIG{} was ignored when this process started (as a shell does for a background job), so it does not "
                        + "stop the server; SIG{} does", name, name.equals("INT") ? "TERM" : "INT");
            }
        }
        return s;
    }

    private void onSignal(Signal sig) {
        int n = count.incrementAndGet();
        if (n == 1) {
            LOG.info("SIG{} received: stopping gracefully (signal again to stop now)", sig.getName());
            signalled.countDown();
        } else {
            LOG.info("SIG{} received again: stopping now", sig.getName());
            Server s = server.get();
            if (s != null) s.stopNow();
        }
    }

    /**
     * Blocks until a signal arrives (or has arrived), then stops the server gracefully.
     *
     * @param running the started server
     * @param grace how long in-flight requests may finish
     */
    public void awaitAndStop(Server running, Duration grace) {
        server.set(running);
        try {
            signalled.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (count.get() > 1) running.stopNow();
        running.stop(grace);
        LOG.info("stopped");
    }
}
