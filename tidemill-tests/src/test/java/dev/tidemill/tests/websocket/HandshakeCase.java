package dev.tidemill.tests.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.testing.WebSocketClient;
import dev.tidemill.testing.WebSocketFrame;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One handshake row: the exact request bytes, the status the server must answer, header checks on
 * the answer, and the source. A 101 must also carry the right {@code Sec-WebSocket-Accept} and then
 * speak WebSocket (a close frame sent is answered with one); every answer is followed by a fresh
 * connection that must still be served.
 *
 * @param id the suite's id
 * @param name what is special about the request
 * @param source the RFC section the answer comes from
 * @param request the request, one char per byte
 * @param statuses the statuses it may get (one, unless two RFCs leave a choice)
 * @param headers checks: {@code Name: value} (present, value equal ignoring case), {@code !Name}
 *     (absent), {@code Name~text} (present, containing the text ignoring case) or {@code !Name~text}
 *     (absent or not containing the text)
 * @param extra any further check of the answer
 */
record HandshakeCase(String id, String name, String source, String request, List<Integer> statuses, List<String> headers,
        Consumer<TestResponse> extra) {
    static final String SECTION = "H handshake";
    private static final Pattern KEY = Pattern.compile("(?im)^Sec-WebSocket-Key:[ \\t]*(\\S*)");

    @Override
    public String toString() {
        return id + " " + name;
    }

    void run(TestClient client) {
        try (RawConnection raw = client.raw()) {
            raw.write(request);
            TestResponse r = raw.readResponse();
            assertThat(r.status()).as("%s -> %s", this, r).isIn(statuses);
            for (String h : headers) check(r, h);
            extra.accept(r);
            if (r.status() == 101) {
                Matcher key = KEY.matcher(request);
                assertThat(key.find()).isTrue();
                assertThat(r.header("Sec-WebSocket-Accept")).as("%s: RFC 6455 4.2.2 accept", this).hasValue(WebSocketClient.accept(key.group(1)));
                assertThat(r.header("Upgrade").map(v -> v.toLowerCase(Locale.ROOT))).as("%s", this).hasValue("websocket");
                assertThat(r.header("Connection").orElse("").toLowerCase(Locale.ROOT)).as("%s", this).contains("upgrade");
                raw.write(WebSocketFrame.close(1000, "").encode(true));
                byte[] answer = raw.readAllUntilClose();
                assertThat(answer).as("%s: after the 101 the connection speaks WebSocket: our close is answered", this)
                        .startsWith(0x88, 0x02, 0x03, 0xe8);
            } else {
                assertThat(r.header("Content-Type")).as("%s: problem+json", this).hasValue("application/problem+json");
            }
        }
        try (WebSocketClient canary = client.webSocket(ConformanceServer.ECHO)) {
            canary.send("canary");
            assertThat(canary.nextMessage().map(WebSocketClient.Message::text)).as("%s: canary", this).hasValue("canary");
            canary.close(1000, "");
        }
    }

    private void check(TestResponse r, String h) {
        if (h.startsWith("!") && h.contains("~")) {
            String name = h.substring(1, h.indexOf('~'));
            String part = h.substring(h.indexOf('~') + 1).toLowerCase(Locale.ROOT);
            assertThat(r.header(name).orElse("").toLowerCase(Locale.ROOT)).as("%s: %s -> %s", this, h, r).doesNotContain(part);
        } else if (h.startsWith("!")) {
            assertThat(r.header(h.substring(1))).as("%s: no %s -> %s", this, h.substring(1), r).isEmpty();
        } else if (h.contains("~")) {
            String name = h.substring(0, h.indexOf('~'));
            String part = h.substring(h.indexOf('~') + 1).toLowerCase(Locale.ROOT);
            assertThat(r.header(name).map(v -> v.toLowerCase(Locale.ROOT))).as("%s: %s -> %s", this, h, r)
                    .hasValueSatisfying(v -> assertThat(v).contains(part));
        } else {
            String name = h.substring(0, h.indexOf(':'));
            String value = h.substring(h.indexOf(':') + 1).trim();
            assertThat(r.header(name).map(v -> v.toLowerCase(Locale.ROOT))).as("%s: %s -> %s", this, h, r)
                    .hasValue(value.toLowerCase(Locale.ROOT));
        }
    }
}
