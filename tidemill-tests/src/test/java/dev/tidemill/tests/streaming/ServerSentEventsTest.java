package dev.tidemill.tests.streaming;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Response;
import dev.tidemill.SseEvent;
import dev.tidemill.SseStream;
import dev.tidemill.Topic;
import dev.tidemill.testing.EventStream;
import dev.tidemill.testing.EventStream.Event;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.tests.support.Diagnostics;
import dev.tidemill.tests.support.Setup;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Server-Sent Events over real sockets, in every execution mode: the head, events as a browser
 * parses them, pings on a quiet stream, onClose exactly once however the stream ends, the slot
 * held and the request timeout waived, and a topic streamed with Last-Event-ID resume.
 */
@Timeout(60)
class ServerSentEventsTest {
    private Topic<String> topic;

    @AfterEach
    void closeTopic() {
        if (topic != null) topic.close();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void eventsArriveAsABrowserParsesThemAndTheHandlerEndsTheStream(Setup setup) throws Exception {
        AtomicInteger closes = new AtomicInteger();
        try (TestClient client = setup.start(app -> app.get("/events", req -> Response.sse(stream -> {
            stream.onClose(closes::incrementAndGet);
            stream.send("hello");
            stream.send(SseEvent.data("two\nlines").event("multi").id("2"));
            stream.send("line\r\nbreaks\rall\nkinds");
            stream.close();
        })));
                EventStream events = client.events(TestRequest.get("/events"))) {
            assertThat(events.response().status()).isEqualTo(200);
            assertThat(events.response().header("Content-Type")).hasValue("text/event-stream; charset=utf-8");
            assertThat(events.response().header("Cache-Control")).hasValue("no-cache");
            assertThat(events.response().header("X-Accel-Buffering")).hasValue("no");
            assertThat(events.next()).hasValue(new Event("message", "hello", ""));
            assertThat(events.next()).hasValue(new Event("multi", "two\nlines", "2"));
            assertThat(events.next()).hasValue(new Event("message", "line\nbreaks\nall\nkinds", "2"));
            assertThat(events.next()).as("the handler closed the stream").isEmpty();
            await("onClose ran").atMost(Duration.ofSeconds(10)).until(() -> closes.get() == 1);
            Diagnostics.awaitSlotsReleased(client);
        }
        assertThat(closes).hasValue(1);
    }

    @Test
    void aQuietStreamIsPingedAndHoldsItsSlotPastTheRequestTimeout() {
        Setup setup = Setup.onDefaultTransport(ExecutionMode.IO);
        try (TestClient client = setup.start(b -> b.ssePing(Duration.ofMillis(200)).requestTimeout(Duration.ofMillis(100)),
                app -> app.get("/quiet", req -> Response.sse(stream -> stream.send("open"))));
                EventStream events = client.events(TestRequest.get("/quiet"))) {
            assertThat(events.next()).hasValue(new Event("message", "open", ""));
            assertThat(events.nextComment()).as("after ssePing without a send").hasValue("ping");
            assertThat(events.nextComment()).hasValue("ping");
            assertThat(events.ended()).as("still open, well past the 100 ms request timeout").isFalse();
            assertThat(Diagnostics.slots(client)).as("the stream holds its slot").isEqualTo(1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aClientThatLeavesEndsTheStreamAndOnCloseRunsOnce(Setup setup) throws Exception {
        AtomicInteger closes = new AtomicInteger();
        AtomicReference<SseStream> open = new AtomicReference<>();
        try (TestClient client = setup.start(b -> b.ssePing(Duration.ofMillis(100)), app -> app.get("/leave", req -> Response.sse(stream -> {
            stream.onClose(closes::incrementAndGet);
            open.set(stream);
            stream.send("hi");
        })))) {
            try (EventStream events = client.events(TestRequest.get("/leave"))) {
                assertThat(events.next()).isPresent();
            }
            await("the stream noticed the client left").atMost(Duration.ofSeconds(10)).until(() -> open.get() != null && !open.get().isOpen());
            await("onClose ran").atMost(Duration.ofSeconds(10)).until(() -> closes.get() == 1);
            Diagnostics.awaitSlotsReleased(client);
            assertThat(open.get().send("late").toCompletableFuture()).isCompletedExceptionally();
            open.get().close();
            assertThat(closes).as("exactly once").hasValue(1);
        }
    }

    @Test
    void aHandlerThatThrowsEndsTheStreamAndOnCloseRunsOnce() throws Exception {
        AtomicInteger closes = new AtomicInteger();
        try (TestClient client = Setup.onDefaultTransport(ExecutionMode.LOOP).start(app -> app.get("/fail", req -> Response.sse(stream -> {
            stream.onClose(closes::incrementAndGet);
            stream.send("before");
            throw new IllegalStateException("boom");
        })));
                EventStream events = client.events(TestRequest.get("/fail"))) {
            assertThat(events.next()).hasValue(new Event("message", "before", ""));
            // A producer that fails truncates the body: the client sees the connection end without the last chunk.
            assertThatThrownBy(events::next).isInstanceOf(java.io.UncheckedIOException.class);
            await("onClose ran").atMost(Duration.ofSeconds(10)).until(() -> closes.get() == 1);
            Diagnostics.awaitSlotsReleased(client);
        }
        assertThat(closes).hasValue(1);
    }

    @Test
    void aGracefulStopSendsAFinalEventThenEndsTheStream() throws Exception {
        AtomicInteger closes = new AtomicInteger();
        CompletableFuture<Void> opened = new CompletableFuture<>();
        TestClient client = Setup.onDefaultTransport(ExecutionMode.LOOP).start(app -> app.get("/long", req -> Response.sse(stream -> {
            stream.onClose(closes::incrementAndGet);
            stream.send("open");
            opened.complete(null);
        })));
        try (client; EventStream events = client.events(TestRequest.get("/long"))) {
            assertThat(events.next()).hasValue(new Event("message", "open", ""));
            opened.get(5, TimeUnit.SECONDS);
            Thread stopper = Thread.ofVirtual().start(() -> client.server().stop(Duration.ofSeconds(10)));
            assertThat(events.next()).hasValue(new Event("shutdown", "the server is shutting down", ""));
            assertThat(events.next()).as("then the stream ends").isEmpty();
            stopper.join(10_000);
            assertThat(stopper.isAlive()).as("the stop did not wait for the grace period").isFalse();
        }
        assertThat(closes).hasValue(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aTopicStreamsWithIdsAndResumesFromLastEventId(Setup setup) {
        topic = Topic.<String>builder("sse-room-" + setup.mode()).replay(3, Duration.ofMinutes(1)).build();
        try (TestClient client = setup.start(app -> app.get("/rooms/{room}/events",
                req -> Response.sse(topic, "room." + req.pathParam("room"), m -> SseEvent.data(m.value()))))) {
            try (EventStream live = client.events(TestRequest.get("/rooms/1/events"))) {
                await("subscribed").atMost(Duration.ofSeconds(10)).until(() -> topic.stats().subscriptions() == 1);
                topic.publish("room.1", "a");
                topic.publish("room.2", "not for room 1");
                topic.publish("room.1", "b");
                assertThat(live.next()).hasValue(new Event("message", "a", "1-0"));
                assertThat(live.next()).hasValue(new Event("message", "b", "3-0"));
            }
            await("the subscription ended with the stream").atMost(Duration.ofSeconds(10)).until(() -> topic.stats().subscriptions() == 0);
            topic.publish("room.1", "c"); // id 4, while the client is away
            try (EventStream resumed = client.events(TestRequest.get("/rooms/1/events").header("Last-Event-ID", "3-0"))) {
                assertThat(resumed.next()).as("what it missed, from the replay buffer").hasValue(new Event("message", "c", "4-0"));
                await("subscribed").atMost(Duration.ofSeconds(10)).until(() -> topic.stats().subscriptions() == 1);
                topic.publish("room.1", "d");
                assertThat(resumed.next()).as("then live, nothing twice").hasValue(new Event("message", "d", "5-0"));
            }
            // The buffer holds ids 3-0 to 5-0 now; a client that saw only id 1 lost id 2 (of room 2: the
            // count is of the topic's messages, a gap is announced, never silent). "1" is the
            // single-number form of 1-0, as clients of earlier versions send it back.
            try (EventStream late = client.events(TestRequest.get("/rooms/1/events").header("Last-Event-ID", "1"))) {
                assertThat(late.next()).hasValue(new Event("lost", "1 no longer kept after id 1-0", ""));
                assertThat(late.next()).hasValue(new Event("message", "b", "3-0"));
                assertThat(late.next()).hasValue(new Event("message", "c", "4-0"));
                assertThat(late.next()).hasValue(new Event("message", "d", "5-0"));
            }
        }
    }

    @Test
    void aStalledClientLosesMessagesUnderDropOldestWithoutHoldingBackTheOthersAndIsToldWhatItLost() {
        topic = Topic.<String>builder("sse-stalled").capacity(8).overflow(Topic.Overflow.DROP_OLDEST).build();
        String kib = "x".repeat(1024);
        int n = 8_000; // 8 MiB: more than the kernel's socket buffers and Netty's write buffer hold for a client that reads nothing
        try (TestClient client = Setup.onDefaultTransport(ExecutionMode.IO).start(app -> app.get("/all",
                req -> Response.sse(topic, "*", m -> SseEvent.data(m.value()))));
                EventStream stalled = client.events(TestRequest.get("/all"));
                EventStream fast = client.events(TestRequest.get("/all"))) {
            await("both subscribed").atMost(Duration.ofSeconds(10)).until(() -> topic.stats().subscriptions() == 2);
            for (int i = 1; i <= n; i++) {
                topic.publish("t", kib);
                // The fast client reads each message before the next is published: it never falls behind.
                assertThat(fast.next().map(Event::lastEventId)).hasValue(i + "-0");
            }
            assertThat(topic.stats().dropped()).as("the stalled client's queue overflowed").isPositive();
            // Now the stalled client reads: what it did not get is announced, then it catches up to the end.
            boolean toldOfLoss = false;
            String last = "";
            while (!last.equals(n + "-0")) {
                Event e = stalled.next().orElseThrow();
                if (e.type().equals("lost")) {
                    toldOfLoss = true;
                    assertThat(e.data()).contains("dropped: this client fell behind");
                } else {
                    assertThat(e.data()).isEqualTo(kib);
                }
                last = e.lastEventId();
            }
            assertThat(toldOfLoss).isTrue();
        }
    }
}
