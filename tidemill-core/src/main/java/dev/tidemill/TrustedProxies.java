package dev.tidemill;

import dev.tidemill.internal.proxy.Network;
import java.util.List;
import java.util.Objects;

/**
 * Which peers may tell the server who the client is, through {@code X-Forwarded-For} or
 * {@code Forwarded} (RFC 7239). {@link Request#clientAddress()} and the rate limiter believe
 * those headers only from a trusted peer; from anyone else they are ignored. The default trusts
 * nobody: the client address is the socket's peer.
 *
 * <p>Two ways to say who is trusted, one at a time: {@link #networks()} (the proxies' addresses,
 * CIDR blocks such as {@code 10.0.0.0/8}; the client is the right-most address in the chain that
 * is not in them), or {@link #hops()} (exactly that many proxies stand in front, whatever their
 * addresses; the client is the address the farthest one saw). A malformed or obfuscated entry
 * ({@code unknown}, {@code _hidden}) ends the walk: the last address believed is the client.
 *
 * @param networks trusted proxy networks, CIDR ({@code 192.168.0.0/16}, {@code 2001:db8::/32}) or
 *     single addresses; default none
 * @param hops proxies in front, 0-16; 0 (the default) means "use {@code networks}"
 * @param header which header carries the chain; default {@link Header#X_FORWARDED_FOR}
 */
public record TrustedProxies(List<String> networks, int hops, Header header) {
    static final Range HOPS = Range.count("trustedHops", 0, 16); // before NONE: its constructor checks it

    /** Trust nobody. */
    public static final TrustedProxies NONE = new TrustedProxies(List.of(), 0, Header.X_FORWARDED_FOR);

    /** The header that carries the chain of addresses. */
    public enum Header {
        /** {@code X-Forwarded-For: client, proxy1, proxy2}. */
        X_FORWARDED_FOR,
        /** {@code Forwarded: for=client, for=proxy1} (RFC 7239). */
        FORWARDED
    }

    /** Checks every network and that only one way is used. */
    public TrustedProxies {
        networks = List.copyOf(networks);
        for (String n : networks) Network.parse(n); // throws naming the bad one
        HOPS.check(hops);
        Objects.requireNonNull(header, "header");
        if (hops > 0 && !networks.isEmpty()) {
            throw new IllegalArgumentException("trust proxies by networks or by hops, not both");
        }
    }

    /** @return whether any peer is trusted */
    public boolean enabled() {
        return hops > 0 || !networks.isEmpty();
    }
}
