package dev.tidemill.tests.http2;

import static dev.tidemill.tests.http2.H2Cases.*;
import static dev.tidemill.testing.H2Fields.*;
import static dev.tidemill.testing.H2Wire.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.tests.http2.Http2ConformanceTest.Case;
import dev.tidemill.testing.H2Wire;
import java.util.List;

/**
 * h2spec's {@code http2/5.1} to {@code http2/7} cases: stream states, identifiers, concurrency,
 * priority, error handling, extensions, and every frame type's rules (RFC 9113 5 to 7).
 */
final class H2StateCases {
    private H2StateCases() {}

    /** Runs a setup that may call handlers, then asserts the step it returns calls none. */
    static java.util.function.Consumer<H2Wire> noHandlerAfterFirst(java.util.function.Function<H2Wire, Runnable> setup) {
        return w -> {
            Runnable then = setup.apply(w);
            int before = Http2ConformanceTest.HANDLED.get();
            then.run();
            assertThat(Http2ConformanceTest.HANDLED.get()).as("handler calls").isEqualTo(before);
        };
    }

    static void add(List<Case> l) {
        l.add(c("http2/5.1/1", "DATA on an idle stream: connection error PROTOCOL_ERROR",
                goAway(w -> w.data(1, END_STREAM, ascii("test")), PROTOCOL_ERROR)));
        l.add(c("http2/5.1/2", "RST_STREAM on an idle stream: connection error PROTOCOL_ERROR",
                goAway(w -> w.rstStream(1, CANCEL), PROTOCOL_ERROR)));
        l.add(c("http2/5.1/3", "WINDOW_UPDATE on an idle stream: connection error PROTOCOL_ERROR",
                goAway(w -> w.windowUpdate(1, 100), PROTOCOL_ERROR)));
        l.add(c("http2/5.1/4", "CONTINUATION on an idle stream: connection error PROTOCOL_ERROR",
                goAway(w -> w.continuation(1, END_HEADERS, w.hpack(get("/"))), PROTOCOL_ERROR)));
        l.add(c("http2/5.1/5", "DATA on a half-closed (remote) stream: STREAM_CLOSED", w -> {
            halfClosedRemote(w, 1);
            w.data(1, END_STREAM, ascii("test"));
            w.expectStreamOrConnectionError(1, STREAM_CLOSED);
        }));
        l.add(c("http2/5.1/6", "HEADERS on a half-closed (remote) stream: stream error STREAM_CLOSED; Netty checks"
                + " 'a third header block' first and answers PROTOCOL_ERROR, also a stream error (RFC 9113 8.1), accepted",
                w -> {
            halfClosedRemote(w, 1);
            w.headers(1, END_HEADERS | END_STREAM, w.hpack("x-trailer", "t"));
            w.expectStreamOrConnectionError(1, STREAM_CLOSED, PROTOCOL_ERROR);
        }));
        l.add(c("http2/5.1/7", "CONTINUATION on a half-closed (remote) stream: STREAM_CLOSED or PROTOCOL_ERROR", w -> {
            halfClosedRemote(w, 1);
            w.continuation(1, END_HEADERS, w.hpack("x-trailer", "t"));
            w.expectStreamOrConnectionError(1, STREAM_CLOSED, PROTOCOL_ERROR);
        }));
        l.add(c("http2/5.1/8", "DATA after sending RST_STREAM: STREAM_CLOSED", w -> {
            openPost(w, 1);
            w.rstStream(1, CANCEL);
            w.data(1, END_STREAM, ascii("test"));
            w.expectStreamOrConnectionError(1, STREAM_CLOSED);
        }));
        l.add(c("http2/5.1/9", "HEADERS after sending RST_STREAM: STREAM_CLOSED", w -> {
            openPost(w, 1);
            w.rstStream(1, CANCEL);
            w.headers(1, END_HEADERS | END_STREAM, w.hpack(get("/")));
            w.expectStreamOrConnectionError(1, STREAM_CLOSED);
        }));
        l.add(c("http2/5.1/10", "CONTINUATION after sending RST_STREAM: STREAM_CLOSED or PROTOCOL_ERROR", w -> {
            openPost(w, 1);
            w.rstStream(1, CANCEL);
            w.continuation(1, END_HEADERS, w.hpack("x-trailer", "t"));
            w.expectStreamOrConnectionError(1, STREAM_CLOSED, PROTOCOL_ERROR);
        }));
        l.add(c("http2/5.1/11", "DATA on a closed stream: STREAM_CLOSED", w -> {
            closedStream(w, 1);
            w.data(1, END_STREAM, ascii("test"));
            w.expectStreamOrConnectionError(1, STREAM_CLOSED);
        }));
        l.add(c("http2/5.1/12", "HEADERS on a closed stream: STREAM_CLOSED", w -> {
            closedStream(w, 1);
            w.headers(1, END_HEADERS | END_STREAM, w.hpack(get("/")));
            w.expectStreamOrConnectionError(1, STREAM_CLOSED);
        }));
        l.add(c("http2/5.1/13", "CONTINUATION on a closed stream: STREAM_CLOSED or PROTOCOL_ERROR", w -> {
            closedStream(w, 1);
            w.continuation(1, END_HEADERS, w.hpack(get("/")));
            w.expectStreamOrConnectionError(1, STREAM_CLOSED, PROTOCOL_ERROR);
        }));
        l.add(c("http2/5.1.1/1", "an even-numbered stream id from the client: connection error PROTOCOL_ERROR",
                goAway(w -> w.request(2, "/"), PROTOCOL_ERROR)));
        l.add(c("http2/5.1.1/2", "a stream id smaller than a previous one: connection error PROTOCOL_ERROR (5.1.1), or"
                + " stream error STREAM_CLOSED, since opening 5 closed the idle stream 3 (5.1.1, 'closed'): Netty keeps no"
                + " record of ids never used and answers the latter; accepted, no handler runs", noHandlerAfterFirst(w -> {
            w.request(5, "/");
            ok(w, 5);
            w.expectBody(5);
            return () -> {
                w.request(3, "/");
                w.expectStreamOrConnectionError(3, PROTOCOL_ERROR, STREAM_CLOSED);
            };
        })));
        l.add(c("http2/5.1.2/1", "HEADERS past SETTINGS_MAX_CONCURRENT_STREAMS (100): RST_STREAM REFUSED_STREAM"
                + " or PROTOCOL_ERROR", w -> {
            for (int i = 0; i < 100; i++) openPost(w, 1 + 2 * i);
            openPost(w, 201);
            w.expectRstStream(201, REFUSED_STREAM, PROTOCOL_ERROR);
        }));
        l.add(c("http2/5.3.1/1", "HEADERS that depend on their own stream: stream error PROTOCOL_ERROR (RFC 9113 5.3.1"
                + " keeps this rule though it deprecates the priority scheme)", w -> {
            w.headers(1, END_HEADERS | END_STREAM | PRIORITY_FLAG, concat(priorityBytes(1, false, 15), w.hpack(get("/"))));
            w.expectStreamOrConnectionError(1, PROTOCOL_ERROR);
        }));
        l.add(c("http2/5.3.1/2", "PRIORITY that depends on its own stream: stream error PROTOCOL_ERROR", w -> {
            w.priority(1, 1, false, 15);
            w.expectStreamOrConnectionError(1, PROTOCOL_ERROR);
        }));
        l.add(c("http2/5.4.1/1", "an invalid PING (length 6): GOAWAY FRAME_SIZE_ERROR",
                goAway(w -> w.ping(0, new byte[6]), FRAME_SIZE_ERROR)));
        l.add(c("http2/5.4.1/2", "a connection error closes the TCP connection after GOAWAY", w -> {
            w.frame(PING, 0, 1, new byte[8]);
            w.expectGoAway(PROTOCOL_ERROR); // asserts the close as well
        }));
        l.add(c("http2/5.5/1", "an unknown extension frame: ignored", w -> {
            w.frame(0xff, 0, 0, ascii("extension"));
            w.expectAlive();
        }));
        l.add(c("http2/5.5/2", "an unknown extension frame inside a header block: connection error PROTOCOL_ERROR",
                goAway(w -> {
                    w.headers(1, END_STREAM, w.hpack(get("/")));
                    w.frame(0xff, 0, 1, ascii("extension"));
                    w.continuation(1, END_HEADERS, new byte[0]);
                }, PROTOCOL_ERROR)));
        l.add(c("http2/6.1/1", "DATA with stream id 0: connection error PROTOCOL_ERROR",
                goAway(w -> w.data(0, END_STREAM, ascii("test")), PROTOCOL_ERROR)));
        l.add(c("http2/6.1/2", "DATA on a stream that is not open: STREAM_CLOSED", w -> {
            halfClosedRemote(w, 1);
            w.data(1, END_STREAM, ascii("test"));
            w.expectStreamOrConnectionError(1, STREAM_CLOSED);
        }));
        l.add(c("http2/6.1/3", "DATA with a pad length not less than the payload: connection error PROTOCOL_ERROR",
                goAway(w -> {
                    openPost(w, 1);
                    w.data(1, END_STREAM | PADDED, concat(new byte[] {6}, ascii("test")));
                }, PROTOCOL_ERROR)));
        l.add(c("http2/6.2/1", "HEADERS without END_HEADERS then PRIORITY: connection error PROTOCOL_ERROR", goAway(w -> {
            w.headers(1, END_STREAM, w.hpack(get("/")));
            w.priority(3, 0, false, 15);
        }, PROTOCOL_ERROR)));
        l.add(c("http2/6.2/2", "HEADERS to another stream inside a header block: connection error PROTOCOL_ERROR",
                goAway(w -> {
                    w.headers(1, END_STREAM, w.hpack(get("/")));
                    w.headers(3, END_STREAM | END_HEADERS, w.hpack(get("/")));
                }, PROTOCOL_ERROR)));
        l.add(c("http2/6.2/3", "HEADERS with stream id 0: connection error PROTOCOL_ERROR",
                goAway(w -> w.headers(0, END_STREAM | END_HEADERS, w.hpack(get("/"))), PROTOCOL_ERROR)));
        l.add(c("http2/6.2/4", "HEADERS with a pad length not less than the payload: connection error PROTOCOL_ERROR",
                goAway(w -> {
                    byte[] b = w.hpack(get("/"));
                    w.headers(1, END_STREAM | END_HEADERS | PADDED, concat(new byte[] {(byte) (b.length + 1)}, b));
                }, PROTOCOL_ERROR)));
        l.add(c("http2/6.3/1", "PRIORITY with stream id 0: connection error PROTOCOL_ERROR",
                goAway(w -> w.priority(0, 0, false, 15), PROTOCOL_ERROR)));
        l.add(c("http2/6.3/2", "PRIORITY with a length other than 5: stream error FRAME_SIZE_ERROR", w -> {
            w.frame(PRIORITY, 0, 1, new byte[4]);
            w.expectStreamOrConnectionError(1, FRAME_SIZE_ERROR);
        }));
        l.add(c("http2/6.4/1", "RST_STREAM with stream id 0: connection error PROTOCOL_ERROR",
                goAway(w -> w.rstStream(0, CANCEL), PROTOCOL_ERROR)));
        l.add(c("http2/6.4/2", "RST_STREAM on an idle stream: connection error PROTOCOL_ERROR",
                goAway(w -> w.rstStream(3, CANCEL), PROTOCOL_ERROR)));
        l.add(c("http2/6.4/3", "RST_STREAM with a length other than 4: connection error FRAME_SIZE_ERROR", goAway(w -> {
            openPost(w, 1);
            w.frame(RST_STREAM, 0, 1, new byte[3]);
        }, FRAME_SIZE_ERROR)));
        l.add(c("http2/6.5/1", "SETTINGS with ACK and a payload: connection error FRAME_SIZE_ERROR",
                goAway(w -> w.frame(SETTINGS, ACK, 0, new byte[6]), FRAME_SIZE_ERROR)));
        l.add(c("http2/6.5/2", "SETTINGS on stream 1: connection error PROTOCOL_ERROR",
                goAway(w -> w.frame(SETTINGS, 0, 1, new byte[6]), PROTOCOL_ERROR)));
        l.add(c("http2/6.5/3", "SETTINGS with a length not a multiple of 6: connection error FRAME_SIZE_ERROR",
                goAway(w -> w.frame(SETTINGS, 0, 0, new byte[3]), FRAME_SIZE_ERROR)));
        l.add(c("http2/6.5.2/1", "SETTINGS_ENABLE_PUSH 2: connection error PROTOCOL_ERROR",
                goAway(w -> w.settings(ENABLE_PUSH, 2), PROTOCOL_ERROR)));
        l.add(c("http2/6.5.2/2", "SETTINGS_INITIAL_WINDOW_SIZE 2^31: connection error FLOW_CONTROL_ERROR",
                goAway(w -> w.settings(INITIAL_WINDOW_SIZE, 1L << 31), FLOW_CONTROL_ERROR)));
        l.add(c("http2/6.5.2/3", "SETTINGS_MAX_FRAME_SIZE 16383: connection error PROTOCOL_ERROR",
                goAway(w -> w.settings(MAX_FRAME_SIZE, 16383), PROTOCOL_ERROR)));
        l.add(c("http2/6.5.2/4", "SETTINGS_MAX_FRAME_SIZE 2^24: connection error PROTOCOL_ERROR",
                goAway(w -> w.settings(MAX_FRAME_SIZE, 1 << 24), PROTOCOL_ERROR)));
        l.add(c("http2/6.5.2/5", "an unknown SETTINGS identifier: ignored, acknowledged", w -> {
            w.settings(0xff, 1);
            assertThat(w.expectFrame(SETTINGS).has(ACK)).isTrue();
        }));
        l.add(c("http2/6.5.3/1", "several SETTINGS_INITIAL_WINDOW_SIZE values: the last counts (1 byte of DATA)", w -> {
            w.settings(INITIAL_WINDOW_SIZE, 100, INITIAL_WINDOW_SIZE, 1);
            w.expectFrame(SETTINGS);
            w.request(1, "/big");
            ok(w, 1);
            assertThat(w.expectFrame(DATA).payload()).hasSize(1);
        }));
        l.add(c("http2/6.5.3/2", "SETTINGS without ACK: acknowledged", w -> {
            w.settings(MAX_CONCURRENT_STREAMS, 10);
            assertThat(w.expectFrame(SETTINGS).has(ACK)).isTrue();
        }));
        l.add(c("http2/6.7/1", "PING: answered with ACK and the same data", w -> {
            w.ping(0, ascii("12345678"));
            w.expectPingAck(ascii("12345678"));
        }));
        l.add(c("http2/6.7/2", "PING with ACK: not answered", w -> {
            w.ping(ACK, ascii("invalid!"));
            w.ping(0, ascii("12345678"));
            H2Wire.Frame f = w.expectFrame(PING);
            assertThat(f.payload()).isEqualTo(ascii("12345678"));
        }));
        l.add(c("http2/6.7/3", "PING on stream 1: connection error PROTOCOL_ERROR",
                goAway(w -> w.frame(PING, 0, 1, new byte[8]), PROTOCOL_ERROR)));
        l.add(c("http2/6.7/4", "PING with a length other than 8: connection error FRAME_SIZE_ERROR",
                goAway(w -> w.ping(0, new byte[6]), FRAME_SIZE_ERROR)));
        l.add(c("http2/6.8/1", "GOAWAY on stream 1: connection error PROTOCOL_ERROR",
                goAway(w -> w.frame(GOAWAY, 0, 1, new byte[8]), PROTOCOL_ERROR)));
        l.add(c("http2/6.9/1", "WINDOW_UPDATE of 0 on the connection: connection error PROTOCOL_ERROR",
                goAway(w -> w.windowUpdate(0, 0), PROTOCOL_ERROR)));
        l.add(c("http2/6.9/2", "WINDOW_UPDATE of 0 on a stream: stream error PROTOCOL_ERROR", w -> {
            openPost(w, 1);
            w.windowUpdate(1, 0);
            w.expectRstStream(1, PROTOCOL_ERROR);
            w.expectAlive();
        }));
        l.add(c("http2/6.9/3", "WINDOW_UPDATE with a length other than 4: connection error FRAME_SIZE_ERROR",
                goAway(w -> w.frame(WINDOW_UPDATE, 0, 0, new byte[3]), FRAME_SIZE_ERROR)));
        l.add(c("http2/6.9.1/1", "SETTINGS_INITIAL_WINDOW_SIZE 1, then a request: DATA of 1 byte", w -> {
            w.settings(INITIAL_WINDOW_SIZE, 1);
            w.expectFrame(SETTINGS);
            w.request(1, "/big");
            ok(w, 1);
            assertThat(w.expectFrame(DATA).payload()).hasSize(1);
        }));
        l.add(c("http2/6.9.1/2", "WINDOW_UPDATEs past 2^31-1 on the connection: connection error FLOW_CONTROL_ERROR",
                goAway(w -> {
                    w.windowUpdate(0, 0x7fffffff);
                    w.windowUpdate(0, 0x7fffffff);
                }, FLOW_CONTROL_ERROR)));
        l.add(c("http2/6.9.1/3", "WINDOW_UPDATEs past 2^31-1 on a stream: stream error FLOW_CONTROL_ERROR", w -> {
            openPost(w, 1);
            w.windowUpdate(1, 0x7fffffff);
            w.windowUpdate(1, 0x7fffffff);
            w.expectRstStream(1, FLOW_CONTROL_ERROR);
        }));
        l.add(c("http2/6.9.2/1", "SETTINGS_INITIAL_WINDOW_SIZE changed after HEADERS: the stream's window follows", w -> {
            w.settings(INITIAL_WINDOW_SIZE, 0);
            w.expectFrame(SETTINGS);
            w.request(1, "/big");
            ok(w, 1);
            w.settings(INITIAL_WINDOW_SIZE, 1);
            assertThat(w.expectFrame(DATA).payload()).hasSize(1);
        }));
        l.add(c("http2/6.9.2/2", "SETTINGS_INITIAL_WINDOW_SIZE making a window negative: it waits for WINDOW_UPDATE", w -> {
            w.settings(INITIAL_WINDOW_SIZE, 3);
            w.expectFrame(SETTINGS);
            w.request(1, "/big");
            ok(w, 1);
            assertThat(w.expectFrame(DATA).payload()).hasSize(3);
            w.settings(INITIAL_WINDOW_SIZE, 2); // window -1
            w.windowUpdate(1, 2); // window 1
            assertThat(w.expectFrame(DATA).payload()).hasSize(1);
        }));
        l.add(c("http2/6.9.2/3", "SETTINGS_INITIAL_WINDOW_SIZE over 2^31-1: connection error FLOW_CONTROL_ERROR",
                goAway(w -> w.settings(INITIAL_WINDOW_SIZE, 0x80000000L), FLOW_CONTROL_ERROR)));
        l.add(c("http2/6.10/1", "several CONTINUATION frames after HEADERS: answered", w -> {
            byte[] b = w.hpack(get("/"));
            w.headers(1, END_STREAM, java.util.Arrays.copyOfRange(b, 0, 1));
            w.continuation(1, 0, java.util.Arrays.copyOfRange(b, 1, 2));
            w.continuation(1, END_HEADERS, java.util.Arrays.copyOfRange(b, 2, b.length));
            ok(w, 1);
        }));
        l.add(c("http2/6.10/2", "CONTINUATION followed by a non-CONTINUATION frame: connection error PROTOCOL_ERROR",
                goAway(w -> {
                    byte[] b = w.hpack(get("/"));
                    w.headers(1, END_STREAM, java.util.Arrays.copyOfRange(b, 0, 1));
                    w.continuation(1, 0, java.util.Arrays.copyOfRange(b, 1, 2));
                    w.data(1, END_STREAM, ascii("test"));
                }, PROTOCOL_ERROR)));
        l.add(c("http2/6.10/3", "CONTINUATION with stream id 0: connection error PROTOCOL_ERROR", goAway(w -> {
            byte[] b = w.hpack(get("/"));
            w.headers(1, END_STREAM, java.util.Arrays.copyOfRange(b, 0, 1));
            w.continuation(0, END_HEADERS, java.util.Arrays.copyOfRange(b, 1, b.length));
        }, PROTOCOL_ERROR)));
        l.add(c("http2/6.10/4", "CONTINUATION after HEADERS with END_HEADERS: connection error PROTOCOL_ERROR",
                goAway(w -> {
                    w.headers(1, END_HEADERS, w.hpack(post()));
                    w.continuation(1, END_HEADERS, w.hpack("x-a", "b"));
                }, PROTOCOL_ERROR)));
        l.add(c("http2/6.10/5", "CONTINUATION after CONTINUATION with END_HEADERS: connection error PROTOCOL_ERROR",
                goAway(w -> {
                    byte[] b = w.hpack(post());
                    w.headers(1, 0, java.util.Arrays.copyOfRange(b, 0, 1));
                    w.continuation(1, END_HEADERS, java.util.Arrays.copyOfRange(b, 1, b.length));
                    w.continuation(1, END_HEADERS, w.hpack("x-a", "b"));
                }, PROTOCOL_ERROR)));
        l.add(c("http2/6.10/6", "CONTINUATION after DATA: connection error PROTOCOL_ERROR", goAway(w -> {
            openPost(w, 1);
            w.data(1, 0, ascii("test"));
            w.continuation(1, END_HEADERS, w.hpack("x-a", "b"));
        }, PROTOCOL_ERROR)));
        l.add(c("http2/7/1", "GOAWAY with an unknown error code: no special behaviour (no error in return)", w -> {
            w.goAway(0, 0xff);
            expectNoErrorAfterGoAway(w);
        }));
        l.add(c("http2/7/2", "RST_STREAM with an unknown error code: no special behaviour", w -> {
            openPost(w, 1);
            w.rstStream(1, 0xff);
            w.expectAlive();
        }));
    }
}
