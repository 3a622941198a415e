package dev.tidemill.internal.http1;

import dev.tidemill.Config;
import dev.tidemill.ExecutionMode;
import dev.tidemill.Route;
import dev.tidemill.Tidemill;
import dev.tidemill.internal.codec.JacksonCodec;
import dev.tidemill.internal.exchange.Exchange;
import dev.tidemill.internal.exchange.ExchangeContext;
import dev.tidemill.internal.exchange.Reply;
import dev.tidemill.internal.exchange.ReplySink;
import dev.tidemill.internal.exchange.AppSnapshot;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * Real {@link Exchange}s for the parts' unit tests: an {@link ExchangeContext} built the way
 * {@code HttpRequestPathFuzzTest} builds one (IO mode, one worker loop, a {@code GET /ok} route),
 * and a {@link ReplySink} that records what it is sent. Close it after the test.
 */
final class TestExchanges implements AutoCloseable {
    /** A sink that keeps every reply it is sent, and may act on one (as the real writer would). */
    static final class RecordingSink implements ReplySink {
        final List<Reply> sent = new ArrayList<>();
        BiConsumer<Exchange, Reply> onSend = (ex, r) -> { };

        @Override
        public void send(Exchange ex, Reply reply) {
            sent.add(reply);
            onSend.accept(ex, reply);
        }

        @Override
        public void sendChunk(Exchange ex, ByteBuf chunk, CompletableFuture<Void> written) {
            chunk.release();
            throw new UnsupportedOperationException("not streamed in these tests");
        }

        @Override
        public void end(Exchange ex) {
            throw new UnsupportedOperationException("not streamed in these tests");
        }

        @Override
        public void abort(Exchange ex) {
            throw new UnsupportedOperationException("not streamed in these tests");
        }

        @Override
        public java.util.concurrent.ScheduledExecutorService scheduler() {
            throw new UnsupportedOperationException("no timers in these tests");
        }

        @Override
        public boolean onTransportThread() {
            return false; // these tests call from one thread, but take the general (CAS) path
        }

        /** @return the statuses sent, in order */
        List<Integer> statuses() {
            return sent.stream().map(Reply::status).toList();
        }

        void releaseAll() {
            for (Reply r : sent) r.release();
        }
    }

    final ExchangeContext context;
    final RecordingSink sink = new RecordingSink();

    TestExchanges() {
        Tidemill app = Tidemill.create(Config.builder().executionMode(ExecutionMode.IO).workerLoops(1).build());
        List<Route> routes = List.of(app.get("/ok", req -> "ok").requestTimeout(Duration.ofSeconds(1)));
        context = new ExchangeContext(new AppSnapshot(app.config(), routes, List.of(), java.util.Map.of(), new JacksonCodec()),
                UnpooledByteBufAllocator.DEFAULT, dev.tidemill.internal.protocol.Protocols.WEB_SOCKET);
    }

    /** @return a {@code GET /ok} exchange numbered {@code id}, routed (so it has an endpoint and can expire) */
    Exchange open(int id) {
        Exchange ex = new Exchange(context, sink, id, "GET", "/ok", "/ok", RequestHeaders.FACTORY.newHeaders(), false, null);
        if (context.gate().route(ex, 0) != null) throw new AssertionError("GET /ok did not route");
        return ex;
    }

    @Override
    public void close() {
        sink.releaseAll();
        context.close();
    }
}
