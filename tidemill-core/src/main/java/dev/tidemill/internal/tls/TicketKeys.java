package dev.tidemill.internal.tls;

import io.netty.handler.ssl.OpenSslSessionContext;
import io.netty.handler.ssl.OpenSslSessionTicketKey;
import io.netty.handler.ssl.SslContext;
import java.security.SecureRandom;
import java.util.Collection;

/**
 * Session ticket keys for the OpenSSL provider (RFC 5077, and TLS 1.3 resumption tickets):
 * a random key made at start and again every {@code Tls.ticketKeyRotation}. The newest key encrypts
 * new tickets; the one before still decrypts, so a ticket issued just before a rotation still
 * resumes, and none lives longer than two periods. Keys exist only in memory: a restart ends every
 * ticket, which is what forward secrecy wants. The JDK provider keeps and rotates its own
 * ({@code jdk.tls.server.statelessKeyTimeout}); this does nothing for it.
 */
final class TicketKeys {
    private final SecureRandom random = new SecureRandom();
    /** Null with the JDK provider: then nothing here touches an OpenSSL class, whose tcnative may be absent. */
    private volatile OpenSslSessionTicketKey[] keys;

    /** @param openSsl whether the OpenSSL provider serves; the JDK's keeps no keys here */
    TicketKeys(boolean openSsl) {
        keys = openSsl ? new OpenSslSessionTicketKey[] {newKey()} : null;
    }

    /** Makes a new encrypting key, keeps the previous one for decrypting, and applies both to {@code contexts}. */
    void rotate(Collection<SslContext> contexts) {
        OpenSslSessionTicketKey[] old = keys;
        if (old == null) return;
        keys = new OpenSslSessionTicketKey[] {newKey(), old[0]};
        for (SslContext c : contexts) apply(c);
    }

    /** @param context a context; only an OpenSSL one takes the keys */
    void apply(SslContext context) {
        OpenSslSessionTicketKey[] k = keys;
        if (k != null && context.sessionContext() instanceof OpenSslSessionContext s) s.setTicketKeys(k);
    }

    /** @return keys held now (1 before the first rotation, then 2; 0 with the JDK provider) */
    int held() {
        OpenSslSessionTicketKey[] k = keys;
        return k == null ? 0 : k.length;
    }

    private OpenSslSessionTicketKey newKey() {
        byte[] name = new byte[OpenSslSessionTicketKey.NAME_SIZE];
        byte[] hmac = new byte[OpenSslSessionTicketKey.HMAC_KEY_SIZE];
        byte[] aes = new byte[OpenSslSessionTicketKey.AES_KEY_SIZE];
        random.nextBytes(name);
        random.nextBytes(hmac);
        random.nextBytes(aes);
        return new OpenSslSessionTicketKey(name, hmac, aes);
    }
}
