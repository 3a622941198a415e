package dev.tidemill.tests.streaming;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tidemill.Response;
import dev.tidemill.ResponseStream;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.StreamingResponse;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.tests.support.Diagnostics;
import dev.tidemill.tests.support.Setup;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Streaming responses ({@code Response.stream}): chunks reach the client as they are written; a
 * client that leaves mid-stream closes the stream and fails later writes; a client that does not
 * read holds the producer back; the slot is held while streaming and released at the end; a stream
 * is exempt from the request timeout once its first byte is out.
 */
@Timeout(60)
class StreamingResponseTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void chunksArriveAsTheyAreWrittenAndTheSlotIsHeldUntilClose(Setup setup) throws Exception {
        int n = 3;
        List<CompletableFuture<Void>> signals = IntStream.rangeClosed(0, n).mapToObj(i -> new CompletableFuture<Void>()).toList();
        AtomicInteger written = new AtomicInteger();
        AtomicReference<ResponseStream> first = new AtomicReference<>();
        try (TestClient client = setup.start(app -> app.get("/stream", req -> Response.stream("text/plain", out -> {
            first.compareAndSet(null, out);
            // Each write waits for the test's signal; the last signal closes the stream.
            for (int i = 0; i < n; i++) {
                int k = i;
                signals.get(i).thenRun(() -> {
                    written.incrementAndGet();
                    out.write("chunk " + k + "\n");
                });
            }
            signals.get(n).thenRun(out::close);
        })))) {
            try (StreamingResponse s = client.stream(TestRequest.get("/stream"))) {
                assertThat(s.status()).isEqualTo(200);
                assertThat(s.chunked()).as("chunked on HTTP/1.1; HTTP/2 frames every body").isEqualTo(setup.protocol() == TestClient.Protocol.HTTP_1_1);
                assertThat(s.header("Content-Type")).hasValue("text/plain");
                assertThat(Diagnostics.slots(client)).as("the stream holds its slot").isEqualTo(1);
                for (int i = 0; i < n; i++) {
                    signals.get(i).complete(null);
                    assertThat(s.nextChunkText()).isEqualTo("chunk " + i + "\n");
                    assertThat(written.get()).as("chunk %d read before chunk %d was written", i, i + 1).isEqualTo(i + 1);
                    assertThat(Diagnostics.slots(client)).as("the stream holds its slot").isEqualTo(1);
                }
                assertThat(first.get().isOpen()).isTrue();
                assertThat(first.get().closed().toCompletableFuture()).isNotDone();
                signals.get(n).complete(null);
                assertThat(s.nextChunk()).isEmpty();
                assertThat(s.ended()).isTrue();
                assertThat(first.get().isOpen()).isFalse();
                // close() may run on the producer's thread (when it registered the last signal after
                // the test completed it) and completes closed() just after the final chunk is out
                await("closed() completes").atMost(Duration.ofSeconds(10)).until(() -> first.get().closed().toCompletableFuture().isDone());
                assertThat(first.get().write("late").toCompletableFuture()).isCompletedExceptionally();
            }
            Diagnostics.awaitSlotsReleased(client);
            // Again, with every signal already given: the producer writes everything at once.
            var again = client.get("/stream");
            assertThat(again.status()).isEqualTo(200);
            assertThat(again.text()).isEqualTo("chunk 0\nchunk 1\nchunk 2\n");
            Diagnostics.awaitSlotsReleased(client);
        } finally {
            signals.forEach(f -> f.complete(null));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void pipelinedStreamsComeBackInOrder(Setup setup) {
        try (TestClient client = setup.start(app -> {
            app.get("/stream/{name}", req -> {
                String name = req.pathParam("name");
                return Response.stream("text/plain", out -> {
                    out.write(name + "-1 ");
                    out.write(name + "-2");
                    out.close();
                });
            });
            app.get("/plain", req -> "plain");
        })) {
            try (Connection c = client.connect()) {
                var rs = c.pipeline(List.of(TestRequest.get("/stream/a"), TestRequest.get("/plain"),
                        TestRequest.get("/stream/b"), TestRequest.get("/stream/c")));
                assertThat(rs).extracting(r -> r.text()).containsExactly("a-1 a-2", "plain", "b-1 b-2", "c-1 c-2");
                assertThat(rs.get(0).chunked()).isTrue();
                assertThat(c.send(TestRequest.get("/plain")).text()).isEqualTo("plain");
            }
            Diagnostics.awaitSlotsReleased(client);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void clientDisconnectMidStreamClosesTheStreamAndFailsWrites(Setup setup) throws Exception {
        AtomicReference<ResponseStream> stream = new AtomicReference<>();
        try (TestClient client = setup.start(app -> {
            app.get("/stream", req -> Response.stream("text/plain", out -> {
                stream.set(out); // before the write: the client can read "first" before this line runs
                out.write("first\n");
            }));
            app.get("/ok", req -> "ok");
        })) {
            StreamingResponse s = client.stream(TestRequest.get("/stream"));
            assertThat(s.status()).isEqualTo(200);
            assertThat(s.nextChunkText()).isEqualTo("first\n");
            ResponseStream out = stream.get();
            assertThat(out.isOpen()).isTrue();
            assertThat(out.closed().toCompletableFuture()).isNotDone();
            assertThat(Diagnostics.slots(client)).isEqualTo(1);

            s.close(); // abrupt disconnect mid-stream

            await("closed() completes after the client left").atMost(Duration.ofSeconds(10)).until(() -> out.closed().toCompletableFuture().isDone());
            assertThat(out.isOpen()).isFalse();
            CompletableFuture<Void> late = out.write("after\n").toCompletableFuture();
            await("a write after the disconnect completes").atMost(Duration.ofSeconds(10)).until(late::isDone);
            assertThat(late).isCompletedExceptionally();
            assertThat(late).failsWithin(Duration.ZERO).withThrowableOfType(ExecutionException.class)
                    .withCauseInstanceOf(ClosedChannelException.class);
            Diagnostics.awaitSlotsReleased(client);
            out.close(); // idempotent, and must not release the slot again
            assertThat(Diagnostics.slots(client)).isZero();
            assertThat(client.get("/ok").text()).isEqualTo("ok");
        }
    }

    /**
     * The positive signal that the producer was held back: with the client reading nothing, the
     * server's write-stall timeout (which fires only when none of the pending bytes left for the
     * whole timeout) cuts the connection and fails the write the producer was waiting on. A server
     * without back-pressure would have completed all 16 MiB of writes first, and the producer would
     * have ended normally.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void clientThatDoesNotReadHoldsTheProducerBack(Setup setup) throws Exception {
        int chunkSize = 64 * 1024;
        int chunks = 256; // 16 MiB: more than the socket buffers take in for a client that reads nothing (this test proves it)
        AtomicInteger completedWrites = new AtomicInteger();
        AtomicReference<CompletableFuture<Void>> pendingWrite = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CompletableFuture<Void> producerDone = new CompletableFuture<>();
        try (TestClient client = setup.start(b -> b.writeStallTimeout(Duration.ofSeconds(1)),
                app -> app.get("/big", req -> Response.stream("application/octet-stream", out ->
                        writeFrom(out, 0, chunks, chunkSize, completedWrites, pendingWrite, failure, producerDone))))) {
            try (StreamingResponse s = client.stream(TestRequest.get("/big"))) {
                assertThat(s.status()).isEqualTo(200);
                // Not reading: the producer waits on a write until the write-stall timeout cuts the connection.
                await("the producer ends").atMost(Duration.ofSeconds(10)).until(producerDone::isDone);
                assertThat(producerDone).as("the producer of a response the client never read").isCompletedExceptionally();
                assertThat(completedWrites.get()).as("writes completed while the client read nothing").isLessThan(chunks);
                assertThat(pendingWrite.get()).as("the write the producer was held on").failsWithin(Duration.ZERO)
                        .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(ClosedChannelException.class);
            }
            Diagnostics.awaitSlotsReleased(client);
        }
    }

    /**
     * A producer waiting on a client that has not read yet resumes once the client reads: every byte
     * arrives, in order. (That the producer is held while the client does not read is
     * {@link #clientThatDoesNotReadHoldsTheProducerBack}.)
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aProducerWaitingOnTheClientResumesWhenItReads(Setup setup) throws Exception {
        int chunkSize = 64 * 1024;
        int chunks = 256; // 16 MiB, as in clientThatDoesNotReadHoldsTheProducerBack
        AtomicInteger completedWrites = new AtomicInteger();
        AtomicReference<CompletableFuture<Void>> pendingWrite = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CompletableFuture<Void> producerDone = new CompletableFuture<>();
        try (TestClient client = setup.start(app -> app.get("/big", req -> Response.stream("application/octet-stream", out ->
                writeFrom(out, 0, chunks, chunkSize, completedWrites, pendingWrite, failure, producerDone))))) {
            try (StreamingResponse s = client.stream(TestRequest.get("/big"))) {
                assertThat(s.status()).isEqualTo(200);
                await("the producer waits on a write").atMost(Duration.ofSeconds(10)).until(() -> {
                    CompletableFuture<Void> w = pendingWrite.get();
                    return w != null && !w.isDone();
                });
                long received = 0;
                long index = 0;
                long wrong = -1;
                for (Optional<byte[]> c = s.nextChunk(); c.isPresent(); c = s.nextChunk()) {
                    for (byte b : c.get()) {
                        if (wrong < 0 && b != (byte) (index / chunkSize)) wrong = index;
                        index++;
                    }
                    received += c.get().length;
                }
                assertThat(wrong).as("first byte out of order (chunk i is all i)").isEqualTo(-1);
                assertThat(received).isEqualTo((long) chunks * chunkSize);
            }
            producerDone.get(10, TimeUnit.SECONDS);
            assertThat(failure.get()).isNull();
            assertThat(completedWrites.get()).isEqualTo(chunks);
            Diagnostics.awaitSlotsReleased(client);
        }
    }

    /**
     * A client that leaves while the producer waits on a write fails that write: the producer ends
     * exceptionally (positive signal; a server that ignored the leaving client would leave it
     * waiting forever, or let its writes succeed), the stream closes, the slot is released.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void clientLeavingWhileTheProducerIsHeldBackFailsThePendingWrite(Setup setup) throws Exception {
        int chunkSize = 64 * 1024;
        AtomicReference<ResponseStream> stream = new AtomicReference<>();
        AtomicReference<CompletableFuture<Void>> pendingWrite = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CompletableFuture<Void> producerDone = new CompletableFuture<>();
        try (TestClient client = setup.start(app -> app.get("/big", req -> Response.stream("application/octet-stream", out -> {
            stream.set(out);
            writeFrom(out, 0, 1024, chunkSize, new AtomicInteger(), pendingWrite, failure, producerDone); // 64 MiB
        })))) {
            StreamingResponse s = client.stream(TestRequest.get("/big"));
            assertThat(s.status()).isEqualTo(200);
            await("the producer waits on a write").atMost(Duration.ofSeconds(10)).until(() -> {
                CompletableFuture<Void> w = pendingWrite.get();
                return w != null && !w.isDone();
            });

            s.close(); // the client leaves without reading

            await("the producer ends").atMost(Duration.ofSeconds(10)).until(producerDone::isDone);
            assertThat(producerDone).isCompletedExceptionally();
            assertThat(pendingWrite.get()).as("the write the producer was waiting on when the client left")
                    .failsWithin(Duration.ZERO).withThrowableOfType(ExecutionException.class)
                    .withCauseInstanceOf(ClosedChannelException.class);
            ResponseStream out = stream.get();
            await("closed() completes").atMost(Duration.ofSeconds(10)).until(() -> out.closed().toCompletableFuture().isDone());
            assertThat(out.isOpen()).isFalse();
            Diagnostics.awaitSlotsReleased(client);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void producerFailureTruncatesTheBody(Setup setup) {
        // Response.StreamProducer#produce: an exception "closes the stream (the client sees a
        // truncated chunked body)", so a failed stream can never pass for a complete one.
        try (TestClient client = setup.start(app -> {
            app.get("/fails", req -> Response.stream("text/plain", out -> {
                out.write("partial\n");
                throw new IllegalStateException("producer failed");
            }));
            app.get("/ok", req -> "ok");
        })) {
            try (StreamingResponse s = client.stream(TestRequest.get("/fails"))) {
                assertThat(s.status()).isEqualTo(200);
                assertThat(s.nextChunkText()).isEqualTo("partial\n");
                assertThatThrownBy(s::nextChunk)
                        .as("the body must end without its terminating chunk, not as a complete response")
                        .isInstanceOf(UncheckedIOException.class);
            }
            Diagnostics.awaitSlotsReleased(client);
            assertThat(client.get("/ok").text()).isEqualTo("ok");
        }
    }

    /** Writes chunk {@code i} (every byte = i), then the next once the stage completes; closes after the last. */
    private static void writeFrom(ResponseStream out, int i, int chunks, int size, AtomicInteger completed,
            AtomicReference<CompletableFuture<Void>> pending, AtomicReference<Throwable> failure,
            CompletableFuture<Void> done) {
        if (i == chunks) {
            out.close();
            done.complete(null);
            return;
        }
        byte[] data = new byte[size];
        Arrays.fill(data, (byte) i);
        CompletableFuture<Void> w = out.write(data).toCompletableFuture();
        pending.set(w);
        w.whenComplete((v, e) -> {
            if (e != null) {
                failure.set(e);
                done.completeExceptionally(e);
                return;
            }
            completed.incrementAndGet();
            writeFrom(out, i + 1, chunks, size, completed, pending, failure, done);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void streamIsExemptFromTheRequestTimeoutOnceStarted(Setup setup) {
        Duration timeout = Duration.ofMillis(300);
        int pieces = 7; // one now, then one every 100 ms: the stream outlives the request timeout
        try (TestClient client = setup.start(b -> b.requestTimeout(timeout), app -> app.get("/slow", req ->
                Response.stream("text/plain", out -> {
                    CompletionStage<Void> chain = out.write("piece 0\n");
                    for (int i = 1; i < pieces; i++) {
                        int k = i;
                        chain = chain.thenRunAsync(() -> { }, CompletableFuture.delayedExecutor(100, TimeUnit.MILLISECONDS))
                                .thenCompose(v -> out.write("piece " + k + "\n"));
                    }
                    chain.whenComplete((v, e) -> out.close());
                })))) {
            try (StreamingResponse s = client.stream(TestRequest.get("/slow"))) {
                assertThat(s.status()).isEqualTo(200);
                for (int i = 0; i < pieces; i++) assertThat(s.nextChunkText()).isEqualTo("piece " + i + "\n");
                assertThat(s.nextChunk()).isEmpty();
            }
            Diagnostics.awaitSlotsReleased(client);
            // The same stream behind a keep-alive request, then another request on that connection.
            try (Connection c = client.connect()) {
                var r = c.send(TestRequest.get("/slow"));
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.chunked()).isTrue();
                assertThat(r.text()).isEqualTo(IntStream.range(0, pieces).mapToObj(i -> "piece " + i + "\n")
                        .reduce("", String::concat));
                assertThat(c.send(TestRequest.get("/slow")).status()).isEqualTo(200);
            }
            Diagnostics.awaitSlotsReleased(client);
        }
    }
}
