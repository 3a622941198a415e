package dev.tidemill.internal.tls;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.ssl.SslClientHelloHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Future;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first handler of a TLS connection: holds the bytes until the whole ClientHello is in (Netty's
 * {@link SslClientHelloHandler}, here capped at {@link #MAX_CLIENT_HELLO} so a declared 16 MiB
 * handshake is refused before anything is allocated for it), reads its SNI and ALPN extensions,
 * then either refuses or replaces itself with an {@link SslHandler} from the current
 * {@link CertificateSet}, chosen by the SNI name. The handshake then runs on the held bytes.
 *
 * <p>Refused here: bytes that are not a TLS handshake (plain HTTP on the TLS port: closed at
 * once), and an ALPN offer that names none of the protocols served, which gets the fatal
 * {@code no_application_protocol} alert RFC 7301 3.2 asks for. Neither provider can be told to
 * send that alert (OpenSSL's selector only knows "no ALPN" or "pick my last"), and answering such a
 * client with no ALPN at all is what the ALPACA cross-protocol attacks rely on.
 */
final class ClientHelloGate extends SslClientHelloHandler<SslContext> {
    private static final Logger LOG = LoggerFactory.getLogger(ClientHelloGate.class);

    /**
     * The longest ClientHello accepted, in bytes. Browsers send 0.5-2 KiB (about 1.8 KiB with a
     * post-quantum key share); 16 KiB leaves room for many extensions and keeps a peer from making
     * the server hold Netty's default 64 KiB per stalled connection.
     */
    static final int MAX_CLIENT_HELLO = 16 * 1024;

    /** A TLS record: alert (21), version 1.2, length 2, fatal (2), no_application_protocol (120). */
    private static final byte[] NO_APPLICATION_PROTOCOL = {0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x78};

    private static final int SERVER_NAME = 0;
    private static final int ALPN = 16;

    private final Supplier<CertificateSet> contexts;
    private final List<String> served;
    private final long handshakeTimeoutMillis;
    private final TlsCounters counters;
    /** Set once refused: bytes still arriving before the close can ask again, and must not be counted twice. */
    private boolean refused;

    /**
     * @param contexts the current contexts
     * @param served the ALPN protocols served
     * @param handshakeTimeoutMillis given to the {@link SslHandler} too
     * @param counters refusals are counted there
     */
    ClientHelloGate(Supplier<CertificateSet> contexts, List<String> served, long handshakeTimeoutMillis, TlsCounters counters) {
        super(MAX_CLIENT_HELLO);
        this.contexts = contexts;
        this.served = served;
        this.handshakeTimeoutMillis = handshakeTimeoutMillis;
        this.counters = counters;
    }

    @Override
    protected Future<SslContext> lookup(ChannelHandlerContext ctx, ByteBuf hello) {
        if (refused) return ctx.executor().newSucceededFuture(null);
        if (hello == null) {
            refused = true; // not a TLS handshake record: plain HTTP, a scanner, noise
            counters.notTls.increment();
            return ctx.executor().newSucceededFuture(null);
        }
        String host = null;
        List<String> offered = null;
        try {
            Extensions ext = Extensions.read(hello);
            host = ext.serverName;
            offered = ext.alpn;
        } catch (IndexOutOfBoundsException malformed) {
            // left for the TLS engine to refuse with its own alert
        }
        if (offered != null && offered.stream().noneMatch(served::contains)) {
            refused = true;
            counters.noApplicationProtocol.increment();
            LOG.debug("{}: ALPN offer {} has none of {}: no_application_protocol", ctx.channel(), offered, served);
            ctx.writeAndFlush(Unpooled.wrappedBuffer(NO_APPLICATION_PROTOCOL)).addListener(ChannelFutureListener.CLOSE);
            return ctx.executor().newSucceededFuture(null);
        }
        return ctx.executor().newSucceededFuture(contexts.get().select(host));
    }

    @Override
    protected void onLookupComplete(ChannelHandlerContext ctx, Future<SslContext> future) {
        SslContext context = future.getNow();
        if (context == null) {
            ctx.close(); // refused above (the alert, if any, is already queued ahead of the close)
            return;
        }
        SslHandler ssl = context.newHandler(ctx.alloc());
        ssl.setHandshakeTimeoutMillis(handshakeTimeoutMillis);
        ctx.pipeline().replace(this, "ssl", ssl);
    }

    /** The two extensions read from a ClientHello body (RFC 8446 4.1.2, from {@code legacy_version} on). */
    private record Extensions(String serverName, List<String> alpn) {
        static Extensions read(ByteBuf b) {
            int i = b.readerIndex() + 2 + 32; // legacy_version, random
            int end = b.writerIndex();
            i += 1 + b.getUnsignedByte(i); // legacy_session_id
            i += 2 + b.getUnsignedShort(i); // cipher_suites
            i += 1 + b.getUnsignedByte(i); // legacy_compression_methods
            if (i + 2 > end) return new Extensions(null, null); // no extensions at all
            int limit = Math.min(end, i + 2 + b.getUnsignedShort(i));
            i += 2;
            String name = null;
            List<String> alpn = null;
            while (i + 4 <= limit) {
                int type = b.getUnsignedShort(i);
                int len = b.getUnsignedShort(i + 2);
                int data = i + 4;
                if (data + len > limit) throw new IndexOutOfBoundsException("extension past the hello");
                if (type == SERVER_NAME) name = serverName(b, data, data + len);
                else if (type == ALPN) alpn = protocols(b, data, data + len);
                i = data + len;
            }
            return new Extensions(name, alpn);
        }

        /** server_name_list: the first host_name (type 0) entry (RFC 6066 3). */
        private static String serverName(ByteBuf b, int i, int end) {
            int listEnd = Math.min(end, i + 2 + b.getUnsignedShort(i));
            for (i += 2; i + 3 <= listEnd; ) {
                int type = b.getUnsignedByte(i);
                int len = b.getUnsignedShort(i + 1);
                if (i + 3 + len > listEnd) break;
                if (type == 0) return b.toString(i + 3, len, StandardCharsets.US_ASCII);
                i += 3 + len;
            }
            return null;
        }

        /** ProtocolNameList: length-prefixed names (RFC 7301 3.1). */
        private static List<String> protocols(ByteBuf b, int i, int end) {
            List<String> out = new ArrayList<>();
            int listEnd = Math.min(end, i + 2 + b.getUnsignedShort(i));
            for (i += 2; i + 1 <= listEnd; ) {
                int len = b.getUnsignedByte(i);
                if (len == 0 || i + 1 + len > listEnd) break;
                out.add(b.toString(i + 1, len, StandardCharsets.ISO_8859_1));
                i += 1 + len;
            }
            return out;
        }
    }
}
