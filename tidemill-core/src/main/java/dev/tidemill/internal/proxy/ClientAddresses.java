package dev.tidemill.internal.proxy;

import dev.tidemill.TrustedProxies;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.NetUtil;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Who the client is: the socket's peer, or, when the peer is a trusted proxy, the address the
 * forwarding chain says, walked from the right (the entry the nearest proxy appended) and
 * stopping at the first address not trusted. Entries a client wrote itself sit to the left of
 * every trusted proxy's and are never reached, which is why the right-most untrusted address is
 * the one believed (the left-most is whatever the client chose to claim).
 */
public final class ClientAddresses {
    private final TrustedProxies config;
    private final List<Network> networks = new ArrayList<>();

    /** @param config who is trusted */
    public ClientAddresses(TrustedProxies config) {
        this.config = config;
        for (String n : config.networks()) networks.add(Network.parse(n));
    }

    /**
     * @param peer the socket's peer
     * @param headers the request headers
     * @return the client's address
     */
    public InetAddress resolve(InetAddress peer, HttpHeaders headers) {
        if (!config.enabled() || (config.hops() == 0 && !trusted(peer))) return peer;
        List<String> chain = config.header() == TrustedProxies.Header.FORWARDED
                ? forwardedFor(headers.getAll("Forwarded")) : list(headers.getAll("X-Forwarded-For"));
        InetAddress addr = peer;
        int hopsLeft = config.hops(); // the peer is the first of them
        for (int i = chain.size() - 1; i >= 0; i--) {
            InetAddress a = literal(chain.get(i));
            if (a == null) return addr; // malformed or obfuscated: believe nothing further left
            addr = a;
            if (config.hops() > 0) {
                if (--hopsLeft == 0) return addr;
            } else if (!trusted(a)) {
                return addr;
            }
        }
        return addr;
    }

    private boolean trusted(InetAddress a) {
        for (Network n : networks) if (n.contains(a)) return true;
        return false;
    }

    /** @return the comma-separated entries of every {@code X-Forwarded-For} line, in order */
    static List<String> list(List<String> values) {
        List<String> out = new ArrayList<>();
        for (String v : values) for (String p : v.split(",", -1)) out.add(p.strip());
        return out;
    }

    /** @return the {@code for=} value of every element of every {@code Forwarded} line (RFC 7239 4), in order */
    static List<String> forwardedFor(List<String> values) {
        List<String> out = new ArrayList<>();
        for (String v : values) {
            for (String element : splitOutsideQuotes(v, ',')) {
                String found = "";
                for (String pair : splitOutsideQuotes(element, ';')) {
                    int eq = pair.indexOf('=');
                    if (eq > 0 && pair.substring(0, eq).strip().toLowerCase(Locale.ROOT).equals("for")) {
                        String val = pair.substring(eq + 1).strip();
                        if (val.length() >= 2 && val.startsWith("\"") && val.endsWith("\"")) val = val.substring(1, val.length() - 1);
                        found = val;
                    }
                }
                out.add(found); // an element without for= is malformed for our purpose: it stops the walk
            }
        }
        return out;
    }

    private static List<String> splitOutsideQuotes(String s, char sep) {
        List<String> out = new ArrayList<>();
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"') quoted = !quoted;
            else if (c == sep && !quoted) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        out.add(s.substring(start));
        return out;
    }

    /**
     * @param entry {@code 192.0.2.1}, {@code 192.0.2.1:4711}, {@code 2001:db8::1}, {@code [2001:db8::1]:4711}
     * @return the address, or null if it is not an IP literal (never resolved as a name)
     */
    static InetAddress literal(String entry) {
        String s = entry.strip();
        if (s.startsWith("[")) {
            int end = s.indexOf(']');
            if (end < 0) return null;
            String after = s.substring(end + 1);
            if (!after.isEmpty() && !after.matches(":[0-9]{1,5}")) return null;
            s = s.substring(1, end);
        } else if (s.indexOf(':') == s.lastIndexOf(':') && s.indexOf(':') > 0) {
            String port = s.substring(s.indexOf(':') + 1);
            if (!port.matches("[0-9]{1,5}")) return null;
            s = s.substring(0, s.indexOf(':')); // IPv4 with a port; a bare IPv6 has several colons
        }
        if (s.indexOf('%') >= 0) return null; // zone ids mean nothing across hosts
        byte[] b = NetUtil.createByteArrayFromIpAddressString(s);
        if (b == null) return null;
        try {
            return InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
