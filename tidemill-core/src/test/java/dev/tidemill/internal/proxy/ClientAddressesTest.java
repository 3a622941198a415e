package dev.tidemill.internal.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.Config;
import dev.tidemill.TrustedProxies;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Who the client is, given the peer and the forwarding headers; the settings that say whom to trust. */
class ClientAddressesTest {
    private static final InetAddress PROXY = ip("10.0.0.1");

    private static InetAddress ip(String s) {
        return ClientAddresses.literal(s);
    }

    private static String resolve(TrustedProxies t, InetAddress peer, String header, String... values) {
        HttpHeaders h = new DefaultHttpHeaders();
        for (String v : values) h.add(header, v);
        return new ClientAddresses(t).resolve(peer, h).getHostAddress();
    }

    private static TrustedProxies networks(String... cidrs) {
        return new TrustedProxies(List.of(cidrs), 0, TrustedProxies.Header.X_FORWARDED_FOR);
    }

    @Test
    void byDefaultNobodyIsTrusted() {
        assertThat(resolve(TrustedProxies.NONE, PROXY, "X-Forwarded-For", "203.0.113.7")).isEqualTo("10.0.0.1");
    }

    @Test
    void theRightMostUntrustedAddressIsTheClient() {
        TrustedProxies t = networks("10.0.0.0/8");
        assertThat(resolve(t, PROXY, "X-Forwarded-For", "203.0.113.7")).isEqualTo("203.0.113.7");
        // the client wrote 6.6.6.6 itself; the proxy appended what it saw
        assertThat(resolve(t, PROXY, "X-Forwarded-For", "6.6.6.6, 203.0.113.7")).isEqualTo("203.0.113.7");
        assertThat(resolve(t, PROXY, "X-Forwarded-For", "6.6.6.6, 203.0.113.7, 10.0.0.9")).isEqualTo("203.0.113.7");
        assertThat(resolve(t, PROXY, "X-Forwarded-For", "6.6.6.6", "203.0.113.7, 10.0.0.9")).as("two header lines")
                .isEqualTo("203.0.113.7");
        assertThat(resolve(t, PROXY, "X-Forwarded-For", "10.0.0.7, 10.0.0.9")).as("all trusted: the left-most").isEqualTo("10.0.0.7");
        assertThat(resolve(t, PROXY, "X-Forwarded-For", "203.0.113.7:4711")).isEqualTo("203.0.113.7");
        assertThat(resolve(t, PROXY, "X-Forwarded-For", "[2001:db8::1]:4711")).isEqualTo("2001:db8:0:0:0:0:0:1");
    }

    @Test
    void anUntrustedPeerIsTheClientWhateverItSends() {
        TrustedProxies t = networks("10.0.0.0/8");
        assertThat(resolve(t, ip("198.51.100.2"), "X-Forwarded-For", "203.0.113.7")).isEqualTo("198.51.100.2");
        assertThat(resolve(t, ip("11.0.0.1"), "X-Forwarded-For", "203.0.113.7")).isEqualTo("11.0.0.1");
    }

    @Test
    void aMalformedEntryEndsTheWalk() {
        TrustedProxies t = networks("10.0.0.0/8");
        assertThat(resolve(t, PROXY, "X-Forwarded-For", "203.0.113.7, garbage")).isEqualTo("10.0.0.1");
        assertThat(resolve(t, PROXY, "X-Forwarded-For", "garbage, 203.0.113.7")).isEqualTo("203.0.113.7");
        assertThat(resolve(t, PROXY, "X-Forwarded-For", "example.com")).as("never resolved as a name").isEqualTo("10.0.0.1");
        assertThat(resolve(t, PROXY, "X-Forwarded-For", "")).isEqualTo("10.0.0.1");
        assertThat(resolve(t, PROXY, "X-Forwarded-For", "203.0.113.7,")).isEqualTo("10.0.0.1");
        assertThat(resolve(t, PROXY, "X-Forwarded-For", "fe80::1%eth0")).isEqualTo("10.0.0.1");
        assertThat(resolve(t, PROXY, "X-Forwarded-For", "1.2.3.4:99999999")).isEqualTo("10.0.0.1");
    }

    @Test
    void rfc7239ForwardedIsReadWhenChosen() {
        TrustedProxies t = new TrustedProxies(List.of("10.0.0.0/8"), 0, TrustedProxies.Header.FORWARDED);
        assertThat(resolve(t, PROXY, "Forwarded", "for=192.0.2.60;proto=http;by=203.0.113.43")).isEqualTo("192.0.2.60");
        assertThat(resolve(t, PROXY, "Forwarded", "for=6.6.6.6, for=\"[2001:db8:cafe::17]:4711\"")).isEqualTo("2001:db8:cafe:0:0:0:0:17");
        assertThat(resolve(t, PROXY, "Forwarded", "for=unknown")).isEqualTo("10.0.0.1");
        assertThat(resolve(t, PROXY, "Forwarded", "for=_hidden, for=192.0.2.9")).isEqualTo("192.0.2.9");
        assertThat(resolve(t, PROXY, "Forwarded", "proto=https")).as("no for=").isEqualTo("10.0.0.1");
        assertThat(resolve(t, PROXY, "X-Forwarded-For", "203.0.113.7")).as("the other header is ignored").isEqualTo("10.0.0.1");
    }

    @Test
    void aHopCountTrustsThatManyProxiesWhateverTheirAddresses() {
        TrustedProxies one = new TrustedProxies(List.of(), 1, TrustedProxies.Header.X_FORWARDED_FOR);
        TrustedProxies two = new TrustedProxies(List.of(), 2, TrustedProxies.Header.X_FORWARDED_FOR);
        assertThat(resolve(one, ip("198.51.100.2"), "X-Forwarded-For", "6.6.6.6, 203.0.113.9")).isEqualTo("203.0.113.9");
        assertThat(resolve(two, ip("198.51.100.2"), "X-Forwarded-For", "6.6.6.6, 203.0.113.9")).isEqualTo("6.6.6.6");
        assertThat(resolve(one, ip("198.51.100.2"), "X-Forwarded-For")).as("no header: the peer").isEqualTo("198.51.100.2");
    }

    @Test
    void networksMatchByPrefix() {
        assertThat(Network.parse("10.0.0.0/8").contains(ip("10.255.1.1"))).isTrue();
        assertThat(Network.parse("10.0.0.0/8").contains(ip("11.0.0.1"))).isFalse();
        assertThat(Network.parse("192.168.1.128/25").contains(ip("192.168.1.200"))).isTrue();
        assertThat(Network.parse("192.168.1.128/25").contains(ip("192.168.1.100"))).isFalse();
        assertThat(Network.parse("2001:db8::/32").contains(ip("2001:db8:ffff::1"))).isTrue();
        assertThat(Network.parse("2001:db8::/32").contains(ip("10.0.0.1"))).isFalse();
        assertThat(Network.parse("127.0.0.1").contains(ip("127.0.0.1"))).isTrue();
        assertThat(Network.parse("0.0.0.0/0").contains(ip("8.8.8.8"))).isTrue();
        for (String bad : new String[] {"10.0.0.0/33", "example.com", "10.0.0/8", "::/129", "10.0.0.0/-1"}) {
            assertThatThrownBy(() -> Network.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void theEnvironmentSetsItAndBadValuesAreNamedNotQuoted() {
        Config c = Config.fromEnvironment(Map.of("TIDEMILL_TRUSTED_PROXIES", "10.0.0.0/8, 192.168.0.0/16",
                "TIDEMILL_FORWARDED_HEADER", "forwarded"));
        assertThat(c.trustedProxies()).isEqualTo(new TrustedProxies(List.of("10.0.0.0/8", "192.168.0.0/16"), 0,
                TrustedProxies.Header.FORWARDED));
        assertThat(Config.fromEnvironment(Map.of("TIDEMILL_TRUSTED_HOPS", "2")).trustedProxies().hops()).isEqualTo(2);
        assertThat(Config.defaults().trustedProxies()).isEqualTo(TrustedProxies.NONE);
        assertThatThrownBy(() -> Config.fromEnvironment(Map.of("TIDEMILL_TRUSTED_PROXIES", "secret-value")))
                .hasMessageContaining("TIDEMILL_TRUSTED_PROXIES").hasMessageNotContaining("secret-value");
        assertThatThrownBy(() -> Config.fromEnvironment(Map.of("TIDEMILL_TRUSTED_HOPS", "17")))
                .hasMessageContaining("TIDEMILL_TRUSTED_HOPS");
        assertThatThrownBy(() -> new TrustedProxies(List.of("10.0.0.0/8"), 1, TrustedProxies.Header.X_FORWARDED_FOR))
                .hasMessageContaining("not both");
    }
}
