package dev.tidemill.internal.tls;

import dev.tidemill.Tls;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the current {@link CertificateSet} and replaces it when its files change, without a
 * restart (short-lived certificates, ACME renewals): every {@code Tls.reloadInterval} it reads
 * the files and compares the SHA-256 of their bytes with what the current set was built from.
 * A change builds a new set from exactly the bytes it hashed, so a file rewritten during the
 * check cannot mix two versions; new connections get it, open ones keep theirs. A set that fails
 * to build (a half-written file, a key that does not match its certificate, a wrong password)
 * leaves the old one serving and is logged once, with the reason, until the files change again.
 *
 * <p>The session ticket key rotation ({@link TicketKeys}) runs on the same daemon thread: both
 * are rare, and building contexts there keeps the cost off the event loops.
 */
final class CertificateReloader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CertificateReloader.class);

    private final Tls tls;
    private final ContextFactory factory;
    private final DevelopmentCertificate dev;
    private final TicketKeys tickets;
    private final Set<Path> files;
    private final ScheduledExecutorService timer;
    private volatile CertificateSet current;
    private byte[] loaded; // the digest the current set was built from; the timer thread only after start
    private byte[] failed; // the digest that last failed, logged once
    private volatile long reloads;
    private volatile long failures;

    /**
     * Builds the first set; a failure here stops the server's start.
     *
     * @param tls the settings
     * @param factory builds the contexts
     * @param dev the development certificate, or null
     * @param tickets the session ticket keys, rotated here
     */
    CertificateReloader(Tls tls, ContextFactory factory, DevelopmentCertificate dev, TicketKeys tickets) {
        this.tls = tls;
        this.factory = factory;
        this.dev = dev;
        this.tickets = tickets;
        this.files = CertificateSet.files(tls);
        Map<Path, byte[]> bytes = CertificateSet.read(files);
        this.current = CertificateSet.build(tls, factory, dev, bytes);
        this.loaded = digest(bytes);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tidemill-tls-reload");
            t.setDaemon(true);
            return t;
        });
        long every = tls.reloadInterval().toMillis();
        if (!files.isEmpty()) timer.scheduleWithFixedDelay(this::check, every, every, TimeUnit.MILLISECONDS);
        long rotate = tls.ticketKeyRotation().toMillis();
        timer.scheduleAtFixedRate(() -> tickets.rotate(current.all()), rotate, rotate, TimeUnit.MILLISECONDS);
    }

    /** @return the contexts new connections use */
    CertificateSet current() {
        return current;
    }

    /** @return how many times new contexts were swapped in since start */
    long reloads() {
        return reloads;
    }

    /** @return how many changed file sets could not be used (each counted once) */
    long failures() {
        return failures;
    }

    /** One check: rebuild if the files' bytes differ from what the current set was built from. */
    void check() {
        try {
            Map<Path, byte[]> bytes;
            try {
                bytes = CertificateSet.read(files);
            } catch (RuntimeException e) {
                fail(("missing:" + e.getMessage()).getBytes(java.nio.charset.StandardCharsets.UTF_8), e);
                return;
            }
            byte[] d = digest(bytes);
            if (Arrays.equals(d, loaded) || Arrays.equals(d, failed)) return;
            CertificateSet next;
            try {
                next = CertificateSet.build(tls, factory, dev, bytes);
            } catch (RuntimeException e) {
                fail(d, e);
                return;
            }
            current = next;
            loaded = d;
            failed = null;
            reloads++;
            LOG.info("TLS certificates reloaded; new connections use: {}", String.join("; ", next.description()));
        } catch (RuntimeException | Error e) {
            LOG.error("TLS certificate check failed", e); // never let the timer die
        }
    }

    private void fail(byte[] d, RuntimeException e) {
        if (Arrays.equals(d, failed)) return;
        failed = d;
        failures++;
        LOG.warn("TLS certificate files changed but cannot be used; still serving the previous ones: {}", e.getMessage());
    }

    private static byte[] digest(Map<Path, byte[]> bytes) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (Map.Entry<Path, byte[]> e : bytes.entrySet()) {
                md.update(e.getKey().toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                md.update(DevelopmentCertificate.sha256(e.getValue()));
            }
            return md.digest();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
