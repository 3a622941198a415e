package dev.tidemill.internal.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.RateLimit;
import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** GCRA on an injected clock: boundaries, refill, remaining counts, sweeping, keys. */
class LimiterTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000_000L);

    private Limiter limiter(int requests, Duration per, int burst, int maxKeys) {
        return new Limiter(RateLimit.builder("t").requests(requests).per(per).burst(burst).maxKeys(maxKeys).build(), now::get);
    }

    @Test
    void exactlyTheBurstThenOneEveryInterval() {
        Limiter l = limiter(5, Duration.ofSeconds(1), 5, 10);
        for (int i = 0; i < 5; i++) assertThat(l.acquire("k")).as("request %d: -1 - remaining", i).isEqualTo(-1 - (4 - i));
        long wait = l.acquire("k");
        assertThat(wait).isEqualTo(200_000_000L); // one request every 200 ms
        now.addAndGet(199_999_999L);
        assertThat(l.acquire("k")).isEqualTo(1);
        now.addAndGet(1);
        assertThat(l.acquire("k")).isEqualTo(-1);
        assertThat(l.acquire("k")).isPositive();
        now.addAndGet(Duration.ofSeconds(10).toNanos());
        for (int i = 0; i < 5; i++) assertThat(l.acquire("k")).isNegative();
        assertThat(l.acquire("k")).isPositive();
    }

    @Test
    void aBurstSmallerThanTheRateSmoothsTraffic() {
        Limiter l = limiter(10, Duration.ofSeconds(1), 1, 10);
        assertThat(l.acquire("k")).isEqualTo(-1);
        assertThat(l.acquire("k")).isEqualTo(100_000_000L);
        assertThat(l.acquire("other")).as("keys are independent").isEqualTo(-1);
    }

    @Test
    void idleKeysAreSweptAndAFullTableOverflowsIntoOneSharedBudget() {
        Limiter l = limiter(1, Duration.ofSeconds(10), 1, 3);
        for (String k : new String[] {"a", "b", "c"}) assertThat(l.acquire(k)).isNegative();
        assertThat(l.keys()).isEqualTo(3);
        assertThat(l.acquire("d")).as("overflow budget, first use").isNegative();
        assertThat(l.acquire("e")).as("overflow budget, spent").isPositive();
        assertThat(l.overflowed()).isEqualTo(2);
        now.addAndGet(Duration.ofSeconds(10).toNanos());
        assertThat(l.acquire("f")).isNegative(); // the full table is swept first: every key is idle again
        assertThat(l.keys()).isEqualTo(1);
        assertThat(l.overflowed()).isEqualTo(2);
    }

    @Test
    void ipv6AddressesAreKeyedByTheirSlash64() throws Exception {
        assertThat(Keys.address(InetAddress.getByName("2001:db8:0:0:1::1")))
                .isEqualTo(Keys.address(InetAddress.getByName("2001:db8::ffff:ffff:ffff:ffff")))
                .isEqualTo("a:20010db800000000/64");
        assertThat(Keys.address(InetAddress.getByName("2001:db8:0:1::1"))).isNotEqualTo(Keys.address(InetAddress.getByName("2001:db8::1")));
        assertThat(Keys.address(InetAddress.getByName("192.0.2.1"))).isEqualTo("a:192.0.2.1");
    }
}
