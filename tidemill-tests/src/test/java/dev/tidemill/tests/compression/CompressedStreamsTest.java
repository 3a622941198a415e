package dev.tidemill.tests.compression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.Response;
import dev.tidemill.ResponseStream;
import dev.tidemill.SseEvent;
import dev.tidemill.SseStream;
import dev.tidemill.testing.StreamingResponse;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.tests.support.Decoders;
import dev.tidemill.tests.support.Setup;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Streamed and SSE bodies are compressed chunk by chunk with a flush after each: the test writes
 * one chunk (or event), reads one chunk off the wire and decodes everything received so far with
 * the real decoder, and only then writes the next. Were a chunk held back in the compressor, the
 * client would get nothing to read and the test would fail at its read timeout, never pass.
 */
@Timeout(120)
class CompressedStreamsTest {
    private static final List<String> CODINGS = List.of("br", "zstd", "gzip");

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void everyChunkOfAStreamIsDecodableWhenItArrives(Setup setup) throws Exception {
        BlockingQueue<ResponseStream> producers = new LinkedBlockingQueue<>();
        try (TestClient client = setup.start(app -> app.get("/stream",
                req -> Response.stream("text/plain; charset=utf-8", producers::add)))) {
            for (String coding : CODINGS) {
                try (StreamingResponse r = client.stream(TestRequest.get("/stream").header("Accept-Encoding", coding))) {
                    assertThat(r.status()).isEqualTo(200);
                    assertThat(r.header("Content-Encoding")).as(coding).hasValue(coding);
                    assertThat(r.header("Vary")).as(coding).hasValue("Accept-Encoding");
                    ResponseStream out = producers.poll(20, TimeUnit.SECONDS);
                    assertThat(out).as("the producer ran").isNotNull();
                    ByteArrayOutputStream wire = new ByteArrayOutputStream();
                    StringBuilder sent = new StringBuilder();
                    for (int i = 0; i < 5; i++) {
                        String piece = "piece " + i + " of a stream that arrives when it is written; ".repeat(i + 1);
                        out.write(piece).toCompletableFuture().get(20, TimeUnit.SECONDS);
                        sent.append(piece);
                        wire.writeBytes(r.nextChunk().orElseThrow());
                        assertThat(new String(Decoders.decodePrefix(coding, wire.toByteArray()), StandardCharsets.UTF_8))
                                .as("%s after chunk %d", coding, i).isEqualTo(sent.toString());
                    }
                    out.close();
                    for (var chunk = r.nextChunk(); chunk.isPresent(); chunk = r.nextChunk()) wire.writeBytes(chunk.get());
                    assertThat(r.ended()).isTrue();
                    assertThat(new String(Decoders.decode(coding, wire.toByteArray()), StandardCharsets.UTF_8))
                            .as("%s whole", coding).isEqualTo(sent.toString());
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void everyEventReachesTheClientBeforeTheNextIsProduced(Setup setup) throws Exception {
        BlockingQueue<SseStream> streams = new LinkedBlockingQueue<>();
        try (TestClient client = setup.start(b -> b.ssePing(Duration.ofHours(1)),
                app -> app.get("/events", req -> Response.sse(streams::add)))) {
            for (String coding : CODINGS) {
                try (StreamingResponse r = client.stream(TestRequest.get("/events").header("Accept-Encoding", "gzip;q=0.1, " + coding))) {
                    assertThat(r.header("Content-Encoding")).as(coding).hasValue(coding);
                    assertThat(r.header("Content-Type")).hasValue("text/event-stream; charset=utf-8");
                    SseStream s = streams.poll(20, TimeUnit.SECONDS);
                    assertThat(s).isNotNull();
                    ByteArrayOutputStream wire = new ByteArrayOutputStream();
                    StringBuilder sent = new StringBuilder();
                    for (int i = 0; i < 5; i++) {
                        SseEvent e = SseEvent.data("{\"board\":" + i + ",\"cells\":\"" + "x".repeat(50 * i) + "\"}")
                                .event("datastar-patch-signals").id(Integer.toString(i));
                        s.send(e).toCompletableFuture().get(20, TimeUnit.SECONDS);
                        sent.append(e.encode());
                        wire.writeBytes(r.nextChunk().orElseThrow());
                        assertThat(new String(Decoders.decodePrefix(coding, wire.toByteArray()), StandardCharsets.UTF_8))
                                .as("%s after event %d", coding, i).isEqualTo(sent.toString());
                    }
                    s.close();
                    for (var chunk = r.nextChunk(); chunk.isPresent(); chunk = r.nextChunk()) wire.writeBytes(chunk.get());
                    assertThat(new String(Decoders.decode(coding, wire.toByteArray()), StandardCharsets.UTF_8)).isEqualTo(sent.toString());
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aClientThatLeavesMidStreamFreesTheStreamAndTheServerGoesOn(Setup setup) throws Exception {
        BlockingQueue<ResponseStream> producers = new LinkedBlockingQueue<>();
        try (TestClient client = setup.start(app -> {
            app.get("/stream", req -> Response.stream("text/plain", producers::add));
            app.get("/after", req -> "still here");
        })) {
            for (String coding : CODINGS) {
                ResponseStream out;
                try (StreamingResponse r = client.stream(TestRequest.get("/stream").header("Accept-Encoding", coding))) {
                    out = producers.poll(20, TimeUnit.SECONDS);
                    out.write("one");
                    assertThat(r.nextChunk()).isPresent();
                }
                await("the stream noticed the client left").atMost(Duration.ofSeconds(10)).until(() -> !out.isOpen());
                assertThat(out.write("two").toCompletableFuture()).isCompletedExceptionally();
            }
            assertThat(client.get("/after").text()).isEqualTo("still here");
        }
    }
}
