package dev.tidemill.internal.proxy;

import io.netty.util.NetUtil;
import java.net.InetAddress;

/**
 * An IP network in CIDR notation ({@code 10.0.0.0/8}, {@code 2001:db8::/32}, or a single address).
 * Addresses are literals only: nothing here ever resolves a name.
 */
public final class Network {
    private final byte[] prefix;
    private final int bits;

    private Network(byte[] prefix, int bits) {
        this.prefix = prefix;
        this.bits = bits;
    }

    /**
     * @param cidr an address or {@code address/bits}
     * @return the network; throws {@link IllegalArgumentException} naming the bad value
     */
    public static Network parse(String cidr) {
        String s = cidr.strip();
        int slash = s.indexOf('/');
        byte[] addr = NetUtil.createByteArrayFromIpAddressString(slash < 0 ? s : s.substring(0, slash));
        if (addr == null) throw new IllegalArgumentException("not an IP network (address or address/bits): " + cidr);
        int bits = addr.length * 8;
        if (slash >= 0) {
            String b = s.substring(slash + 1);
            if (!b.matches("[0-9]{1,3}") || Integer.parseInt(b) > addr.length * 8) {
                throw new IllegalArgumentException("invalid prefix length in " + cidr);
            }
            bits = Integer.parseInt(b);
        }
        return new Network(addr, bits);
    }

    /** @param a an address @return whether it is in this network (an IPv4 address never is in an IPv6 one) */
    public boolean contains(InetAddress a) {
        byte[] b = a.getAddress();
        if (b.length != prefix.length) return false;
        int full = bits / 8;
        for (int i = 0; i < full; i++) if (b[i] != prefix[i]) return false;
        int rest = bits % 8;
        if (rest == 0) return true;
        int mask = 0xff << (8 - rest) & 0xff;
        return (b[full] & mask) == (prefix[full] & mask);
    }
}
