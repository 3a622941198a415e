package dev.tidemill.tests.params;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ExecutionMode;
import dev.tidemill.RateLimit;
import dev.tidemill.Tidemill;
import dev.tidemill.TrustedProxies;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.tests.support.Setup;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code Request.clientAddress()} over real sockets: forwarding headers believed only from a
 * trusted peer (here the test itself, on loopback, plays the proxy), spoofing attempts, and the
 * rate limiter keying by the address it yields (IPv6 by /64).
 */
@Timeout(60)
class TrustedProxiesTest {

    private static TestClient start(UnaryOperator<dev.tidemill.Config.Builder> config) {
        Tidemill app = Tidemill.create(config.apply(Setup.onDefaultTransport(ExecutionMode.LOOP).config()).build());
        app.get("/who", req -> req.clientAddress().getHostAddress());
        app.get("/limited", req -> "ok").rateLimit(RateLimit.builder("per-client").requests(1).per(Duration.ofHours(1)).build());
        return TestClient.start(app);
    }

    private static String who(Connection c, String header, String value) {
        return c.send(TestRequest.get("/who").header(header, value)).text();
    }

    @Test
    void byDefaultForwardingHeadersAreIgnored() {
        try (TestClient client = start(b -> b); Connection c = client.connect()) {
            assertThat(who(c, "X-Forwarded-For", "203.0.113.7")).isEqualTo("127.0.0.1");
            assertThat(who(c, "Forwarded", "for=203.0.113.7")).isEqualTo("127.0.0.1");
        }
    }

    @Test
    void anUntrustedPeerCannotSpoofItsAddress() {
        try (TestClient client = start(b -> b.trustedNetworks("10.0.0.0/8")); Connection c = client.connect()) {
            assertThat(who(c, "X-Forwarded-For", "203.0.113.7")).isEqualTo("127.0.0.1");
        }
    }

    @Test
    void aTrustedProxyChainYieldsTheRightMostUntrustedAddress() {
        try (TestClient client = start(b -> b.trustedNetworks("127.0.0.0/8", "10.0.0.0/8")); Connection c = client.connect()) {
            assertThat(who(c, "X-Forwarded-For", "203.0.113.7")).isEqualTo("203.0.113.7");
            assertThat(who(c, "X-Forwarded-For", "6.6.6.6, 203.0.113.7, 10.1.2.3")).isEqualTo("203.0.113.7");
            assertThat(who(c, "X-Forwarded-For", "203.0.113.7, not-an-address")).isEqualTo("127.0.0.1");
            assertThat(c.send(TestRequest.get("/who")).text()).as("no header").isEqualTo("127.0.0.1");
        }
    }

    @Test
    void forwardedAndHopCountsWork() {
        try (TestClient client = start(b -> b.trustedProxies(new TrustedProxies(List.of(), 1, TrustedProxies.Header.FORWARDED)));
                Connection c = client.connect()) {
            assertThat(who(c, "Forwarded", "for=6.6.6.6, for=\"[2001:db8::5]:443\"")).isEqualTo("2001:db8:0:0:0:0:0:5");
            assertThat(who(c, "X-Forwarded-For", "203.0.113.7")).isEqualTo("127.0.0.1");
        }
    }

    @Test
    void theRateLimiterKeysByTheClientAddressAndIpv6ByItsSlash64() {
        try (TestClient client = start(b -> b.trustedNetworks("127.0.0.1")); Connection c = client.connect()) {
            assertThat(c.send(TestRequest.get("/limited").header("X-Forwarded-For", "203.0.113.1")).status()).isEqualTo(200);
            assertThat(c.send(TestRequest.get("/limited").header("X-Forwarded-For", "203.0.113.1")).status()).isEqualTo(429);
            assertThat(c.send(TestRequest.get("/limited").header("X-Forwarded-For", "203.0.113.2")).status()).isEqualTo(200);
            assertThat(c.send(TestRequest.get("/limited").header("X-Forwarded-For", "2001:db8::1")).status()).isEqualTo(200);
            assertThat(c.send(TestRequest.get("/limited").header("X-Forwarded-For", "2001:db8::ffff")).status())
                    .as("same /64").isEqualTo(429);
            assertThat(c.send(TestRequest.get("/limited").header("X-Forwarded-For", "2001:db8:0:1::1")).status())
                    .as("next /64").isEqualTo(200);
            // a spoofed left-most entry changes nothing: the proxy's own entry is the client
            assertThat(c.send(TestRequest.get("/limited").header("X-Forwarded-For", "9.9.9.9, 203.0.113.1")).status()).isEqualTo(429);
        }
    }
}
