package dev.tidemill.tests.streaming;

import static dev.tidemill.html.Tags.id;
import static dev.tidemill.html.Tags.li;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.Response;
import dev.tidemill.Topic;
import dev.tidemill.datastar.Datastar;
import dev.tidemill.datastar.Dialect;
import dev.tidemill.datastar.PatchMode;
import dev.tidemill.testing.EventStream;
import dev.tidemill.testing.EventStream.Event;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.tests.support.Setup;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Datastar events written to an open {@code SseStream} and fanned out from a topic, in every
 * execution mode: each event reaches the client as it is sent, a topic message becomes the event
 * the function makes of it with the message id as its id, and a reconnect resumes after it.
 */
class DatastarStreamsTest {
    private static final Datastar DS = Datastar.of(Dialect.PRE_1_0);
    private Topic<String> topic;

    @AfterEach
    void closeTopic() {
        if (topic != null) topic.close();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void eventsOnAStreamAndFromATopic(Setup setup) {
        topic = Topic.<String>builder("board-" + setup.mode()).replay(8, Duration.ofMinutes(1)).build();
        try (TestClient client = setup.start(app -> {
            app.get("/live", req -> Response.sse(stream -> stream.send(DS.patchSignals("{\"online\":true}").sse())
                    .thenCompose(v -> stream.send(DS.patchElements(li(id("m0"), "hello")).selector("#feed").mode(PatchMode.APPEND).sse()))
                    .whenComplete((v, e) -> stream.close())));
            app.get("/board", req -> Datastar.sse(topic, "board.*",
                    m -> DS.patchElements(li(id("m" + m.id()), m.value())).selector("#feed").mode(PatchMode.APPEND)));
        })) {
            try (EventStream events = client.events(TestRequest.get("/live"))) {
                assertThat(events.next()).hasValue(new Event("datastar-merge-signals", "signals {\"online\":true}", ""));
                assertThat(events.next()).hasValue(new Event("datastar-merge-fragments",
                        "selector #feed\nmergeMode append\nfragments <li id=\"m0\">hello</li>", ""));
                assertThat(events.next()).isEmpty();
            }
            try (EventStream events = client.events(TestRequest.get("/board"))) {
                await("subscribed").atMost(Duration.ofSeconds(10)).until(() -> topic.stats().subscriptions() == 1);
                topic.publish("board.main", "first <b>");
                assertThat(events.next()).hasValue(new Event("datastar-merge-fragments",
                        "selector #feed\nmergeMode append\nfragments <li id=\"m1-0\">first &lt;b&gt;</li>", "1-0"));
            }
            await("unsubscribed").atMost(Duration.ofSeconds(10)).until(() -> topic.stats().subscriptions() == 0);
            topic.publish("board.main", "while away");
            try (EventStream events = client.events(TestRequest.get("/board").header("Last-Event-ID", "1-0"))) {
                assertThat(events.next()).as("replayed after Last-Event-ID").hasValue(new Event("datastar-merge-fragments",
                        "selector #feed\nmergeMode append\nfragments <li id=\"m2-0\">while away</li>", "2-0"));
            }
        }
    }
}
