package dev.tidemill.internal.exchange;

import dev.tidemill.ExceptionMapper;
import dev.tidemill.Filter;
import dev.tidemill.Problem;
import dev.tidemill.ProblemException;
import dev.tidemill.Request;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a request's filters and handler on whatever thread its execution mode chose, awaits a
 * returned {@link CompletionStage} without holding that thread, maps exceptions, and hands the reply
 * to the exchange's {@link ReplySink}. The slot is released here, once the reply exists.
 */
final class Invoker {
    private static final Logger LOG = LoggerFactory.getLogger(Invoker.class);

    private final Replies replies;
    private final Map<Class<? extends Throwable>, ExceptionMapper<?>> mappers;
    private final Map<Class<?>, ExceptionMapper<?>> resolved = new ConcurrentHashMap<>();
    private final boolean debug;

    Invoker(Replies replies, Map<Class<? extends Throwable>, ExceptionMapper<?>> mappers, boolean debug) {
        this.replies = replies;
        this.mappers = mappers;
        this.debug = debug;
    }

    /** Runs the handler; called on the handler's thread (event loop, worker loop or virtual thread). */
    void run(Exchange ex, boolean onWorkerLoop) {
        // Flag first, state second; abandon() writes the state first, reads the flag second. Both
        // are volatile, so at least one side sees the other: either we see TIMED_OUT/CANCELLED and
        // skip the handler, or abandon() sees the flag and leaves the slot for us to release.
        if (onWorkerLoop) ex.inLoopHandler = true;
        AutoMode auto = ex.endpoint.auto();
        if (!ex.isRunning()) { // timed out or abandoned while queued
            ex.inLoopHandler = false;
            if (ex.probe) auto.probeNotRun(ex);
            ex.releaseSlot();
            return;
        }
        // AUTO times the handler until it returns (a CompletionStage's completion is not its time)
        AutoMode.Timing timing = auto == null ? null : auto.before(ex);
        long started = auto == null ? 0 : System.nanoTime();
        Object result;
        try {
            result = chain(ex, 0);
        } catch (Throwable t) {
            result = mapException(t, ex);
        } finally {
            if (onWorkerLoop) ex.inLoopHandler = false;
        }
        if (auto != null) auto.after(ex, System.nanoTime() - started, timing);
        complete(ex, result);
    }

    private Object chain(Exchange ex, int index) throws Exception {
        if (index == 0 && ex.session != null && ex.session.formTokenExpected()) { // the CSRF check's last step, on the read body
            dev.tidemill.internal.auth.FormToken.check(ex.session, ex.streamedBody() != null ? null : ex.body());
        }
        Filter[] filters = ex.endpoint.filters();
        if (index == filters.length) return ex.endpoint.handler().handle(ex);
        return filters[index].filter(ex, next -> chain(ex, index + 1));
    }

    private void complete(Exchange ex, Object result) {
        if (result instanceof CompletionStage<?> stage) {
            CompletableFuture<?> future = stage.toCompletableFuture();
            ex.awaiting = future;
            if (!ex.isRunning()) future.cancel(true); // a timeout raced the handler's return
            future.whenComplete((value, error) -> complete(ex, error == null ? value : mapException(error, ex)));
            return;
        }
        if (!ex.isRunning()) {
            ex.releaseSlot();
            return;
        }
        if (ex.session != null) { // saved before the answer goes out, so the next request finds it
            CompletableFuture<Void> saved;
            try {
                saved = ex.session.commit().toCompletableFuture();
            } catch (RuntimeException e) {
                saved = CompletableFuture.failedFuture(e);
            }
            if (!saved.isDone() || saved.isCompletedExceptionally()) {
                Object value = result;
                saved.whenComplete((v, e) -> complete(ex, e == null ? value : mapException(e, ex)));
                return;
            }
        }
        Reply reply;
        try {
            reply = replies.fromValue(ex, result);
        } catch (Throwable t) {
            reply = problemReply(ex, mapFailureToProblem(t, ex));
        }
        if (reply.upgrades()) {
            if (!ex.casState(Exchange.RUNNING, Exchange.STREAMING)) {
                reply.release();
                reply.takeover().abandoned();
                ex.releaseSlot();
                return;
            }
            ex.send(reply);
            return; // the slot is released when the connection the takeover runs ends
        }
        if (reply.streamed()) {
            StreamedResponseBody body = reply.stream();
            if (!ex.casState(Exchange.RUNNING, Exchange.STREAMING)) {
                reply.release();
                ex.releaseSlot();
                return;
            }
            ex.stream = body;
            ex.send(reply);
            try {
                body.producer.produce(body);
            } catch (Throwable t) {
                LOG.error("stream producer for {} failed", ex, t);
                body.abort();
            }
            return; // the slot is released when the stream closes
        }
        if (!ex.responded()) {
            reply.release();
            return;
        }
        ex.send(reply);
    }

    private Reply problemReply(Exchange ex, Problem p) {
        return replies.problem(ex, p, false);
    }

    /** @return the value a mapper produced for {@code t}, or a problem */
    private Object mapException(Throwable t, Request request) {
        Throwable e = unwrap(t);
        if (e instanceof ProblemException p) return problemResponse(p.problem());
        ExceptionMapper<?> mapper = find(e.getClass());
        if (mapper != null) {
            try {
                @SuppressWarnings("unchecked")
                ExceptionMapper<Throwable> m = (ExceptionMapper<Throwable>) mapper;
                Object mapped = m.map(e, request);
                if (mapped instanceof CompletionStage<?>) {
                    throw new IllegalStateException("an exception mapper must not return a CompletionStage");
                }
                return mapped;
            } catch (Throwable again) {
                return problemResponse(mapFailureToProblem(again, request));
            }
        }
        return problemResponse(mapFailureToProblem(e, request));
    }

    /** The last resort: a 500 with no detail (logged once, with its stack trace). */
    private Problem mapFailureToProblem(Throwable t, Request request) {
        Throwable e = unwrap(t);
        if (e instanceof ProblemException p) return p.problem();
        if (e instanceof CancellationException || e instanceof InterruptedException) {
            return Problem.of(503, "Service Unavailable", "the handler was cancelled");
        }
        LOG.error("unhandled exception in {}", request, e);
        Problem p = Problem.of(500, "Internal Server Error");
        if (!debug) return p;
        return p.withDetail(e.getMessage() == null ? e.getClass().getName() : e.getClass().getName() + ": " + e.getMessage());
    }

    private static dev.tidemill.Response problemResponse(Problem p) {
        return ProblemResponses.toResponse(p);
    }

    private ExceptionMapper<?> find(Class<?> type) {
        if (mappers.isEmpty()) return null;
        ExceptionMapper<?> m = resolved.computeIfAbsent(type, t -> {
            // Most specific wins: walk up the class hierarchy, nearest registered type first.
            for (Class<?> c = t; c != null; c = c.getSuperclass()) {
                ExceptionMapper<?> found = mappers.get(c);
                if (found != null) return found;
            }
            return NONE;
        });
        return m == NONE ? null : m;
    }

    private static final ExceptionMapper<Throwable> NONE = (e, r) -> null;

    private static Throwable unwrap(Throwable t) {
        Throwable e = t;
        while (e.getCause() != null && (e instanceof CompletionException || e instanceof ExecutionException
                // a streamed body's fault, thrown by its InputStream as an IOException (RequestBody): the problem it carries
                || (e instanceof java.io.IOException || e instanceof java.io.UncheckedIOException)
                        && e.getCause() instanceof ProblemException)) {
            e = e.getCause();
        }
        return e;
    }
}
