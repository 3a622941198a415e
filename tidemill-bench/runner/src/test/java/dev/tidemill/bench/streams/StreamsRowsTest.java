package dev.tidemill.bench.streams;

import static org.assertj.core.api.Assertions.assertThat;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class StreamsRowsTest {
    private static Histogram micros(long... values) {
        Histogram h = new Histogram(3_600_000_000L, 3);
        for (long v : values) h.recordValue(v);
        return h;
    }

    private static StreamsRows.Window window(long wallNanos, double serverMicros, long loopNanos, double processMicros) {
        return new StreamsRows.Window(wallNanos, serverMicros, loopNanos, processMicros, 1);
    }

    @Test
    void fanOutRowCountsMissingDeliveriesAndCpuPerThousand() {
        // 3 subscribers x 100 events expected, 290 arrived; 2 s, 580 ms of server CPU
        SseFanoutClient.Snapshot seen = new SseFanoutClient.Snapshot(290, 1, 0, 0, micros(1_000, 2_000, 3_000));
        StreamsRows.SseRow r = StreamsRows.sse("t", "fanout", 3, 0, 100, 0, seen, window(2_000_000_000L, 580_000, 200_000_000L, 300_000),
                2_000_000_000L);
        assertThat(r.expected()).isEqualTo(300);
        assertThat(r.missing()).isEqualTo(10);
        assertThat(r.deliveriesPerSec()).isEqualTo(145);
        assertThat(r.serverCpuMsPer1000()).isEqualTo(2000.0); // 580 ms / 0.29 thousand deliveries
        assertThat(r.serverCpuPercent()).isEqualTo(29.0);
        // HdrHistogram reports a value's bucket at 3 significant digits
        assertThat(r.p50Ms()).isCloseTo(2.0, org.assertj.core.data.Offset.offset(0.005));
        assertThat(r.p99Ms()).isCloseTo(3.0, org.assertj.core.data.Offset.offset(0.005));
        assertThat(r.clientLoopCpuPercent()).isEqualTo(10.0);
        assertThat(r.clientBound()).isFalse();
        assertThat(r.notes()).contains("10 deliveries missing", "1 out of order");
    }

    @Test
    void stalledSubscribersAreNotExpected() {
        SseFanoutClient.Snapshot seen = new SseFanoutClient.Snapshot(900, 0, 0, 0, micros(500));
        StreamsRows.SseRow r = StreamsRows.sse("t", "isolation", 10, 1, 100, 20, seen, window(5_000_000_000L, 1, 1, 1), 5_000_000_000L);
        assertThat(r.expected()).isEqualTo(900);
        assertThat(r.missing()).isZero();
        assertThat(r.notes()).isEmpty();
    }

    @Test
    void moreThanExpectedIsNeverNegativeMissing() {
        SseFanoutClient.Snapshot seen = new SseFanoutClient.Snapshot(120, 20, 0, 0, micros(1));
        assertThat(StreamsRows.sse("t", "fanout", 1, 0, 100, 0, seen, window(1, 1, 1, 1), 1).missing()).isZero();
    }

    @Test
    void aSaturatedClientLoopOrClientCpuMarksTheRowAFloor() {
        WsEchoClient.Snapshot seen = new WsEchoClient.Snapshot(10_000, 0, 0, micros(50, 60, 70));
        StreamsRows.WsRow busyLoop = StreamsRows.ws("t", 10, 32, seen, window(1_000_000_000L, 500_000, 950_000_000L, 500_000));
        StreamsRows.WsRow busyProcess = StreamsRows.ws("t", 10, 32, seen, window(1_000_000_000L, 500_000, 500_000_000L, 910_000));
        StreamsRows.WsRow idle = StreamsRows.ws("t", 10, 32, seen, window(1_000_000_000L, 500_000, 900_000_000L, 900_000));
        assertThat(busyLoop.clientBound()).isTrue();
        assertThat(busyLoop.notes()).containsExactly(StreamsRows.CLIENT_BOUND);
        assertThat(busyProcess.clientBound()).isTrue();
        assertThat(idle.clientBound()).isFalse(); // exactly 90 % is not above it
        assertThat(idle.notes()).isEmpty();
        assertThat(idle.roundTripsPerSec()).isEqualTo(10_000);
        assertThat(idle.serverCpuMsPer1000()).isEqualTo(50.0); // 500 ms / 10 thousand round trips
    }

    @Test
    void processCpuIsAShareOfTheClientCpus() {
        StreamsRows.Window two = new StreamsRows.Window(1_000_000_000L, 0, -1, 1_800_000, 2);
        assertThat(two.clientProcessPercent()).isEqualTo(90.0);
        assertThat(two.clientLoopPercent()).isEqualTo(-1);
        assertThat(two.clientBound()).isFalse();
    }

    @Test
    void anEmptyWindowHasNoPercentilesAndNoCpuPerThousand() {
        WsEchoClient.Snapshot none = new WsEchoClient.Snapshot(0, 0, 0, micros());
        StreamsRows.WsRow r = StreamsRows.ws("t", 10, 32, none, window(1_000_000_000L, 1_000, 1, 1));
        assertThat(r.p99Ms()).isNaN();
        assertThat(r.serverCpuMsPer1000()).isNaN();
        assertThat(r.notes()).contains("no round trip completed");
    }

    @Test
    void echoesOfTheWrongSizeOrNotTheMessageInFlightAreNoted() {
        WsEchoClient.Snapshot seen = new WsEchoClient.Snapshot(1_000, 2, 3, micros(50));
        StreamsRows.WsRow r = StreamsRows.ws("t", 10, 32, seen, window(1_000_000_000L, 1_000, 1, 1));
        assertThat(r.wrongSize()).isEqualTo(2);
        assertThat(r.notes()).containsExactly("2 echoes of the wrong size", "3 echoes not the message in flight");
    }
}
