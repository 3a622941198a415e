package dev.tidemill.internal.tls;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/** What the TLS listener refused or cut, since start; in {@code Server.diagnostics()} as {@code tls.*}. */
final class TlsCounters {
    /** Connections closed before their handshake because {@code Tls.maxHandshakes} were in progress. */
    final LongAdder overHandshakeLimit = new LongAdder();
    /** Connections closed because their handshake did not finish within {@code Tls.handshakeTimeout}. */
    final LongAdder handshakeTimeouts = new LongAdder();
    /** Handshakes that failed (bad protocol version, no shared cipher, a client certificate that does not verify). */
    final LongAdder handshakeFailures = new LongAdder();
    /** ClientHellos whose ALPN offer named no protocol served: the no_application_protocol alert. */
    final LongAdder noApplicationProtocol = new LongAdder();
    /** Connections whose first bytes were not a TLS handshake (plain HTTP on the TLS port). */
    final LongAdder notTls = new LongAdder();
    /** Handshakes completed. */
    final LongAdder handshakes = new LongAdder();

    Map<String, Long> snapshot() {
        Map<String, Long> out = new LinkedHashMap<>();
        out.put("tls.handshakes", handshakes.sum());
        out.put("tls.handshakes.failed", handshakeFailures.sum());
        out.put("tls.handshakes.timed_out", handshakeTimeouts.sum());
        out.put("tls.handshakes.over_limit", overHandshakeLimit.sum());
        out.put("tls.alpn.refused", noApplicationProtocol.sum());
        out.put("tls.not_tls", notTls.sum());
        return out;
    }
}
