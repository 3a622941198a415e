package dev.tidemill.internal.auth;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jose.util.JSONObjectUtils;
import com.nimbusds.jose.util.Resource;
import dev.tidemill.BearerTokens;
import java.net.URI;
import java.net.URL;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The public keys tokens are verified with: a fixed set, or one fetched from a JWKS URI (named by
 * the settings or by the issuer's discovery document, whose {@code issuer} must equal the
 * configured one exactly). Fetches run on one background thread, never on an I/O thread: at
 * start, every {@code keysRefresh} ahead of need, and when a token names a key the set lacks. Such
 * refetches are single flight (every request that needs one waits on the same fetch) and at most
 * one per {@code refetchInterval}, so a flood of made-up {@code kid}s costs one fetch a minute. A
 * failed fetch keeps the keys already held. Nimbus's {@code JWKSourceBuilder} does most of this
 * too, but its {@code get()} blocks the calling thread while it fetches; here a request waiting for
 * keys holds no thread, it resumes when the fetch's future completes.
 */
final class KeyRing implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KeyRing.class);
    /** Connect and read timeouts of a fetch, and the most bytes a key set or discovery document may have. */
    private static final int TIMEOUT_MS = 5_000, MAX_BYTES = 512 * 1024;

    private final BearerTokens settings;
    private final ScheduledExecutorService fetcher;
    private final DefaultResourceRetriever http = new DefaultResourceRetriever(TIMEOUT_MS, TIMEOUT_MS, MAX_BYTES);
    private final AtomicLong fetches = new AtomicLong();
    /** Null until the first fetch succeeds. */
    private volatile JWKSet keys;
    private URL jwksUrl; // fetcher thread only
    private CompletableFuture<JWKSet> inFlight; // guarded by this
    private long lastFetchNanos; // guarded by this
    private boolean fetchedOnce; // guarded by this: an on-demand refetch ran

    KeyRing(BearerTokens settings) {
        this.settings = settings;
        if (settings.jwks().isPresent()) {
            try {
                keys = JWKSet.parse(settings.jwks().get()).toPublicJWKSet();
            } catch (java.text.ParseException e) {
                throw new IllegalArgumentException("BearerTokens.jwks is not a JWK set: " + e.getMessage());
            }
            fetcher = null;
        } else {
            fetcher = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "tidemill-keys");
                t.setDaemon(true);
                return t;
            });
        }
    }

    /** Fetches now, then every {@code keysRefresh}. */
    void start() {
        if (fetcher == null) return;
        long every = settings.keysRefresh().toMillis();
        fetcher.scheduleWithFixedDelay(() -> refetch(false), 0, every, TimeUnit.MILLISECONDS);
    }

    /** @return the keys held, null before the first fetch succeeded */
    JWKSet current() {
        return keys;
    }

    /** @return key-set fetches attempted so far */
    long fetches() {
        return fetches.get();
    }

    /**
     * A token names a key the set lacks.
     *
     * @return the keys after one refetch (shared with every other request waiting for it), or the
     *     keys held now when a refetch ran less than {@code refetchInterval} ago (or the set is fixed)
     */
    CompletableFuture<JWKSet> unknownKey() {
        if (fetcher == null) return CompletableFuture.completedFuture(keys);
        synchronized (this) {
            if (inFlight != null) return inFlight;
            boolean recent = fetchedOnce && System.nanoTime() - lastFetchNanos < settings.refetchInterval().toNanos();
            if (recent) return CompletableFuture.completedFuture(keys);
        }
        return refetch(true);
    }

    private CompletableFuture<JWKSet> refetch(boolean onDemand) {
        CompletableFuture<JWKSet> f;
        synchronized (this) {
            if (inFlight != null) return inFlight;
            f = inFlight = new CompletableFuture<>();
            // Only a refetch for an unknown kid counts towards refetchInterval: a kid that appears a
            // few seconds after the start's (or a scheduled) fetch is a rotation, and gets its fetch.
            if (onDemand) {
                lastFetchNanos = System.nanoTime();
                fetchedOnce = true;
            }
        }
        Runnable fetch = () -> {
            JWKSet got = null;
            try {
                fetches.incrementAndGet();
                got = fetch();
                keys = got;
            } catch (Exception e) {
                LOG.warn("fetching the token keys failed ({}); {}", e.toString(),
                        keys == null ? "tokens get 503 until a fetch succeeds" : "the keys held keep serving");
            } finally {
                synchronized (this) {
                    inFlight = null;
                }
                f.complete(got != null ? got : keys);
            }
        };
        if (onDemand) fetcher.execute(fetch);
        else fetch.run(); // already on the fetcher (the scheduled refresh)
        return f;
    }

    /** On the fetcher thread. */
    private JWKSet fetch() throws Exception {
        if (jwksUrl == null) jwksUrl = settings.jwksUri().isPresent() ? settings.jwksUri().get().toURL() : discover();
        Resource r = http.retrieveResource(jwksUrl);
        return JWKSet.parse(r.getContent()).toPublicJWKSet();
    }

    /** OpenID Connect Discovery 1.0 section 4: the issuer's document names the key set; its issuer must be ours exactly. */
    private URL discover() throws Exception {
        String issuer = settings.issuer().orElseThrow();
        String base = issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer;
        Map<String, Object> doc = JSONObjectUtils.parse(http.retrieveResource(URI.create(base + "/.well-known/openid-configuration")
                .toURL()).getContent());
        Object named = doc.get("issuer");
        if (!issuer.equals(named)) {
            throw new IllegalStateException("the discovery document names issuer " + named + ", not " + issuer);
        }
        Object jwks = doc.get("jwks_uri");
        if (!(jwks instanceof String s)) throw new IllegalStateException("the discovery document has no jwks_uri");
        return URI.create(s).toURL();
    }

    @Override
    public void close() {
        if (fetcher != null) fetcher.shutdownNow();
    }
}
