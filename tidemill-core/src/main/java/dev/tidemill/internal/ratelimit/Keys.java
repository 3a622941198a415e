package dev.tidemill.internal.ratelimit;

import dev.tidemill.RateLimit;
import dev.tidemill.Request;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Optional;

/**
 * A request's key under a {@link RateLimit}: its client address (IPv4 whole, IPv6 by its /64,
 * since one host or home network is routinely given a whole /64 and could otherwise rotate
 * through 2^64 keys), a header's value, or the limit's function. Keys of different kinds never
 * collide: each kind has its own prefix.
 */
public final class Keys {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Keys() {}

    /**
     * @param limit the limit
     * @param req the request, routed, before its body is read
     * @return the key, or empty if the request is exempt (the limit's function said so)
     */
    public static Optional<String> of(RateLimit limit, Request req) {
        if (limit.keyFunction().isPresent()) return limit.keyFunction().get().apply(req).map(k -> "f:" + k);
        if (limit.header().isPresent()) {
            Optional<String> v = req.header(limit.header().get());
            if (v.isPresent()) return Optional.of("h:" + v.get());
        }
        return Optional.of(address(req.clientAddress()));
    }

    /** @return {@code a:192.0.2.1}, or {@code a:20010db8000000aa/64} for any address of that IPv6 /64 */
    static String address(InetAddress a) {
        byte[] b = a.getAddress();
        if (!(a instanceof Inet6Address)) return "a:" + a.getHostAddress();
        StringBuilder s = new StringBuilder(21).append("a:");
        for (int i = 0; i < 8; i++) s.append(HEX[(b[i] >> 4) & 0xf]).append(HEX[b[i] & 0xf]);
        return s.append("/64").toString();
    }
}
