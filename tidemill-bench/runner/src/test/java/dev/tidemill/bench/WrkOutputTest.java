package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class WrkOutputTest {
    static final String CLEAN = """
            Running 10s test @ http://127.0.0.1:18080/plaintext
              1 threads and 64 connections
              Thread Stats   Avg      Stdev     Max   +/- Stdev
                Latency   512.33us  201.45us   9.87ms   91.20%
                Req/Sec   125.43k     3.21k  131.02k    70.00%
              Latency Distribution
                 50%  480.00us
                 75%  560.00us
                 90%  690.00us
                 99%    1.21ms
              1248123 requests in 10.00s, 157.12MB read
            Requests/sec: 124799.64
            Transfer/sec:     15.71MB
            """;

    static final String ERRORS = """
            Running 3s test @ http://127.0.0.1:18080/json
              1 threads and 1024 connections
              Thread Stats   Avg      Stdev     Max   +/- Stdev
                Latency    15.20ms    4.10ms   1.02s    88.00%
                Req/Sec    40.10k     2.00k   44.00k    66.67%
              Latency Distribution
                 50%   14.90ms
                 75%   16.00ms
                 90%   18.30ms
                 99%    1.50s
              120300 requests in 3.01s, 20.01MB read
              Socket errors: connect 0, read 12, write 3, timeout 7
              Non-2xx or 3xx responses: 42
            Requests/sec:  39966.78
            Transfer/sec:      6.65MB
            """;

    @Test
    void parsesACleanRunWithMicrosecondsAndMilliseconds() {
        WrkResult r = WrkResult.parse(CLEAN);
        assertThat(r.requests()).isEqualTo(1_248_123);
        assertThat(r.seconds()).isCloseTo(10.0, within(1e-9));
        assertThat(r.requestsPerSec()).isCloseTo(124_799.64, within(1e-6));
        assertThat(r.p50Us()).isCloseTo(480.0, within(1e-9));
        assertThat(r.p99Us()).isCloseTo(1_210.0, within(1e-9));
        assertThat(r.socketErrors()).isZero();
        assertThat(r.non2xx()).isZero();
        assertThat(r.hasErrors()).isFalse();
    }

    @Test
    void parsesSocketErrorsNon2xxAndSeconds() {
        WrkResult r = WrkResult.parse(ERRORS);
        assertThat(r.requests()).isEqualTo(120_300);
        assertThat(r.seconds()).isCloseTo(3.01, within(1e-9));
        assertThat(r.p50Us()).isCloseTo(14_900.0, within(1e-6));
        assertThat(r.p99Us()).isCloseTo(1_500_000.0, within(1e-6));
        assertThat(r.socketErrors()).isEqualTo(22);
        assertThat(r.non2xx()).isEqualTo(42);
        assertThat(r.hasErrors()).isTrue();
    }

    @Test
    void withoutLatencyFlagPercentilesAreNaN() {
        String out = CLEAN.substring(0, CLEAN.indexOf("  Latency Distribution")) + "  1000 requests in 1.00s, 1MB read\nRequests/sec: 1000.00\n";
        WrkResult r = WrkResult.parse(out);
        assertThat(r.p50Us()).isNaN();
        assertThat(r.requests()).isEqualTo(1000);
    }

    @Test
    void refusesOutputOfAFailedRun() {
        assertThatThrownBy(() -> WrkResult.parse("unable to connect to 127.0.0.1:1 Connection refused\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("requests in");
    }
}
