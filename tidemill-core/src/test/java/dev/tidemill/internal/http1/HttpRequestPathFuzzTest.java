package dev.tidemill.internal.http1;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tidemill.Config;
import dev.tidemill.ExecutionMode;
import dev.tidemill.Route;
import dev.tidemill.Tidemill;
import dev.tidemill.internal.codec.JacksonCodec;
import dev.tidemill.internal.exchange.AppSnapshot;
import dev.tidemill.internal.exchange.ExchangeContext;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The whole request path (head validation, Netty's decoder, the connection handler, the gate,
 * routing, an IO-mode handler, the encoder) on an {@link EmbeddedChannel}, fed arbitrary bytes in
 * arbitrary slices. Whatever comes in, nothing escapes the pipeline as an exception, and what goes
 * out is a sequence of HTTP/1.x responses with valid status codes; when nothing goes out, the
 * connection is still open, waiting for the rest of a request.
 */
class HttpRequestPathFuzzTest {
    private static final AppSnapshot APP;

    static {
        Tidemill app = Tidemill.create(Config.builder().executionMode(ExecutionMode.IO).workerLoops(1).build());
        List<Route> routes = List.of(app.get("/ok", req -> "ok"), app.post("/echo", req -> req.body()),
                app.get("/items/{id}", req -> req.pathParam("id")));
        APP = new AppSnapshot(app.config(), routes, List.of(), Map.of(), new JacksonCodec());
    }

    @FuzzTest(maxDuration = "10s")
    void anyBytesGetWellFormedAnswersOrAClose(byte[] input) {
        EmbeddedChannel ch = new EmbeddedChannel();
        // one server per input: an EmbeddedChannel brings its own event loop, which the server's
        // response batcher must know
        ExchangeContext server = new ExchangeContext(APP, UnpooledByteBufAllocator.DEFAULT, dev.tidemill.internal.protocol.Protocols.WEB_SOCKET);
        try {
            run(ch, server, input);
        } finally {
            server.close();
        }
    }

    private static void run(EmbeddedChannel ch, ExchangeContext server, byte[] input) {
        new PipelineInitializer(server, new DefaultChannelGroup(ImmediateEventExecutor.INSTANCE)).configure(ch);
        ch.pipeline().fireChannelActive();
        // in slices, as a socket would deliver them
        int slice = input.length == 0 ? 1 : 1 + (input[0] & 0x3f);
        for (int i = 0; i < input.length && ch.isOpen(); i += slice) {
            ch.writeInbound(Unpooled.wrappedBuffer(input, i, Math.min(slice, input.length - i)));
            ch.runPendingTasks();
        }
        ch.checkException();
        StringBuilder out = new StringBuilder();
        for (Object o; (o = ch.readOutbound()) != null; ) {
            if (o instanceof ByteBuf b) {
                out.append(b.toString(StandardCharsets.ISO_8859_1));
                b.release();
            }
        }
        String wire = out.toString();
        if (wire.isEmpty()) {
            // Nothing answered is right only while the server waits for the rest of a request: a
            // close without a response is a failure swallowed on the way (or a refusal that forgot
            // its status).
            assertThat(ch.isOpen()).as("no response, so the connection still waits for more bytes").isTrue();
        } else {
            assertThat(wire).matches("(?s)HTTP/1\\.[01] [1-5]\\d\\d .*");
        }
        ch.finishAndReleaseAll();
    }
}
