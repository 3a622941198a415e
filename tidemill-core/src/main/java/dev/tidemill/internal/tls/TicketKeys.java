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
    private volatile OpenSslSessionTicketKey[] keys;

    TicketKeys() {
        keys = new OpenSslSessionTicketKey[] {newKey()};
    }

    /** Makes a new encrypting key, keeps the previous one for decrypting, and applies both to {@code contexts}. */
    void rotate(Collection<SslContext> contexts) {
        OpenSslSessionTicketKey[] old = keys;
        keys = new OpenSslSessionTicketKey[] {newKey(), old[0]};
        for (SslContext c : contexts) apply(c);
    }

    /** @param context a context; only an OpenSSL one takes the keys */
    void apply(SslContext context) {
        if (context.sessionContext() instanceof OpenSslSessionContext s) s.setTicketKeys(keys);
    }

    /** @return keys held now (1 before the first rotation, then 2) */
    int held() {
        return keys.length;
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
