package dev.tidemill.tests.hardening;

import dev.tidemill.Config;
import dev.tidemill.Param;
import dev.tidemill.ParamType;
import dev.tidemill.Tidemill;

/**
 * The process {@link GracefulShutdownUnderLoadTest} starts and signals: {@code /ok}, a blocking
 * {@code /sleep?ms=N} and a non-blocking {@code /async?ms=N}, configured by {@code TIDEMILL_*}
 * variables, run until SIGTERM.
 */
public final class ShutdownTarget {
    private static final Param<Long> MS = Param.query("ms", ParamType.LONG).withDefault(100L);

    private ShutdownTarget() {}

    /** @param args ignored */
    public static void main(String[] args) {
        Tidemill app = Tidemill.create(Config.fromEnvironment());
        app.get("/ok", req -> "ok");
        app.get("/sleep", req -> {
            Thread.sleep(req.param(MS));
            return "slept";
        }).params(MS).mode(dev.tidemill.ExecutionMode.VIRTUAL);
        app.get("/async", req -> java.util.concurrent.CompletableFuture.supplyAsync(() -> "later",
                java.util.concurrent.CompletableFuture.delayedExecutor(req.param(MS), java.util.concurrent.TimeUnit.MILLISECONDS)))
                .params(MS);
        app.run(server -> System.out.println("listening on " + server.port()));
    }
}
