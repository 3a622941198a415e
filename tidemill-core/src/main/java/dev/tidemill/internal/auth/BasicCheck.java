package dev.tidemill.internal.auth;

import dev.tidemill.BasicUsers;
import dev.tidemill.Principal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTP Basic credentials checked off the I/O threads: the password hash runs on a small pool (two
 * threads, 256 waiting; past that, 503), and a success is remembered for
 * {@link BasicUsers#CACHE_SECONDS} s under a salted SHA-256 of name and password (salt made per
 * process), at most 10,000 at once, so the slow hash is paid once per client, not per request.
 */
final class BasicCheck implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BasicCheck.class);
    private static final int MAX_REMEMBERED = 10_000;

    private record Remembered(Principal principal, long untilNanos) { }

    private final BasicUsers users;
    private final byte[] salt = new byte[16];
    private final Map<String, Remembered> remembered = new ConcurrentHashMap<>();
    private final ThreadPoolExecutor pool = new ThreadPoolExecutor(2, 2, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(256), r -> {
        Thread t = new Thread(r, "tidemill-basic");
        t.setDaemon(true);
        return t;
    });

    BasicCheck(BasicUsers users) {
        this.users = users;
        new SecureRandom().nextBytes(salt);
    }

    boolean allowPlainHttp() {
        return users.allowPlainHttp();
    }

    /**
     * @param credential the base64 of {@code user:password} (RFC 7617 2, UTF-8)
     * @param unauthorized the 401 to answer with
     * @return admitted now (remembered), refused, or pending on the pool
     */
    Outcome verify(String credential, Supplier<Outcome.Refused> unauthorized) {
        byte[] decoded;
        try {
            decoded = Base64.getDecoder().decode(credential);
        } catch (IllegalArgumentException e) {
            LOG.info("Basic credentials refused: not base64");
            return unauthorized.get();
        }
        String pair = new String(decoded, StandardCharsets.UTF_8);
        Arrays.fill(decoded, (byte) 0);
        int colon = pair.indexOf(':');
        if (colon <= 0) {
            LOG.info("Basic credentials refused: no user:password");
            return unauthorized.get();
        }
        String user = pair.substring(0, colon);
        char[] password = pair.substring(colon + 1).toCharArray();
        String key = key(pair);
        Remembered r = remembered.get(key);
        if (r != null && System.nanoTime() - r.untilNanos < 0) return new Outcome.Admitted(r.principal);
        CompletableFuture<Outcome> later = new CompletableFuture<>();
        try {
            pool.execute(() -> {
                try {
                    Outcome o = users.verify(user, password).<Outcome>map(p -> {
                        if (remembered.size() >= MAX_REMEMBERED) remembered.clear();
                        remembered.put(key, new Remembered(p, System.nanoTime() + TimeUnit.SECONDS.toNanos(BasicUsers.CACHE_SECONDS)));
                        return new Outcome.Admitted(p);
                    }).orElseGet(() -> {
                        LOG.info("Basic credentials refused: wrong user or password");
                        return unauthorized.get();
                    });
                    later.complete(o);
                } catch (RuntimeException e) {
                    later.completeExceptionally(e);
                } finally {
                    Arrays.fill(password, '\0');
                }
            });
        } catch (RejectedExecutionException e) {
            return new Outcome.Refused(503, "Service Unavailable", "too many password checks at once", "Retry-After", "1");
        }
        return new Outcome.Pending(later);
    }

    private String key(String pair) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update(salt);
            return Base64.getEncoder().encodeToString(d.digest(pair.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
