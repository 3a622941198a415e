package dev.tidemill.internal.auth;

import dev.tidemill.Principal;
import dev.tidemill.Session;
import dev.tidemill.SessionStore;
import dev.tidemill.Sessions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One request's view of its session: loaded from the store by the gate (or new), changed by the
 * handler, saved by {@link #commit()} before the reply goes out, which then carries
 * {@link #setCookie()}. Used by one thread at a time (the gate's, then the handler's), handed over
 * with the exchange.
 */
public final class SessionState implements Session {
    /** Value names the server keeps for itself (the provider's tokens): hidden from {@link #get}, refused by {@link #put}. */
    static final String RESERVED = "tidemill.";
    /** A session used again within this long is not saved just to move its last use. */
    private static final Duration TOUCH_EVERY = Duration.ofMinutes(1);

    private final Sessions settings;
    private final SessionCookies cookies;
    private String id; // null until stored
    private final boolean fromCookie;
    private Optional<String> subject = Optional.empty();
    private Set<String> scopes = Set.of();
    private Set<String> roles = Set.of();
    private final Map<String, String> values = new LinkedHashMap<>();
    private String csrf;
    private boolean formTokenExpected;
    private Instant created;
    private Instant lastSeen;
    private boolean dirty;
    private boolean newId;
    private boolean ended;
    /** The request came with a cookie this server signed whose session is gone (expired, logged out): clear it. */
    private boolean stale;
    private final List<String> deleted = new ArrayList<>(1);

    private SessionState(Sessions settings, SessionCookies cookies, String id, SessionStore.Data data) {
        this.settings = settings;
        this.cookies = cookies;
        this.fromCookie = data != null;
        Instant now = Instant.now();
        if (data != null) {
            this.id = id;
            subject = data.subject();
            scopes = data.scopes();
            roles = data.roles();
            values.putAll(data.values());
            csrf = data.csrfToken();
            created = data.created();
            lastSeen = data.lastSeen();
            if (Duration.between(lastSeen, now).compareTo(TOUCH_EVERY) > 0) dirty = true;
            lastSeen = now;
        } else {
            csrf = SessionCookies.newToken();
            created = now;
            lastSeen = now;
        }
    }

    /** @return a session loaded from the store under {@code id}, or a new one (stale when the cookie named a gone one) */
    static SessionState of(Sessions settings, SessionCookies cookies, String id, Optional<SessionStore.Data> data) {
        SessionStore.Data d = data.filter(x -> alive(settings, x)).orElse(null);
        SessionState s = new SessionState(settings, cookies, id, d);
        s.stale = id != null && d == null;
        if (data.isPresent() && d == null) s.deleted.add(id);
        return s;
    }

    private static boolean alive(Sessions settings, SessionStore.Data d) {
        Instant now = Instant.now();
        return Duration.between(d.created(), now).compareTo(settings.absoluteTimeout()) < 0
                && Duration.between(d.lastSeen(), now).compareTo(settings.idleTimeout()) < 0;
    }

    /** @return whether the request came with a valid cookie of a live session (an ambient credential: CSRF applies) */
    boolean fromCookie() {
        return fromCookie;
    }

    @Override
    public Optional<Principal> principal() {
        return subject.map(s -> new Principal(s, scopes, roles, Principal.Via.SESSION, Map.of()));
    }

    @Override
    public Optional<String> get(String name) {
        return name.startsWith(RESERVED) ? Optional.empty() : Optional.ofNullable(values.get(name));
    }

    @Override
    public void put(String name, String value) {
        if (name.startsWith(RESERVED)) throw new IllegalArgumentException("names starting with " + RESERVED + " are the server's");
        int bytes = name.getBytes(StandardCharsets.UTF_8).length + value.getBytes(StandardCharsets.UTF_8).length;
        for (Map.Entry<String, String> e : values.entrySet()) {
            if (!e.getKey().equals(name) && !e.getKey().startsWith(RESERVED)) {
                bytes += e.getKey().getBytes(StandardCharsets.UTF_8).length + e.getValue().getBytes(StandardCharsets.UTF_8).length;
            }
        }
        if (bytes > MAX_VALUE_BYTES) throw new IllegalArgumentException("a session holds at most " + MAX_VALUE_BYTES + " bytes of values");
        values.put(name, value);
        dirty = true;
    }

    @Override
    public void remove(String name) {
        if (!name.startsWith(RESERVED) && values.remove(name) != null) dirty = true;
    }

    @Override
    public Optional<String> accessToken() {
        return Optional.ofNullable(values.get(ProviderTokens.ACCESS));
    }

    /** @return the provider's tokens this session holds (after an OpenID Connect sign-in), or null */
    ProviderTokens providerTokens() {
        return ProviderTokens.from(values);
    }

    /** Keeps the provider's tokens (at sign-in, after a refresh), apart from the application's values and their limit. */
    void keep(ProviderTokens tokens) {
        values.keySet().removeIf(k -> k.startsWith(ProviderTokens.PREFIX));
        tokens.into(values);
        dirty = true;
    }

    /** @return the cookies this request's session uses (their signing keys, whether {@code __Host-}) */
    SessionCookies cookies() {
        return cookies;
    }

    @Override
    public String csrfToken() {
        return csrf;
    }

    /** The CSRF check passes only if the request's form carries the token ({@link FormToken}). */
    void expectFormToken() {
        formTokenExpected = true;
    }

    /** @return whether the handler may run only once the form's token was found good */
    public boolean formTokenExpected() {
        return formTokenExpected;
    }

    @Override
    public void login(String who, Set<String> grantedScopes, Set<String> heldRoles) {
        Principal check = new Principal(who, grantedScopes, heldRoles, Principal.Via.SESSION, Map.of()); // checks the subject
        rotate();
        subject = Optional.of(check.subject());
        scopes = check.scopes();
        roles = check.roles();
        dirty = true;
        ended = false;
    }

    @Override
    public void logout() {
        if (id != null) deleted.add(id);
        id = null;
        subject = Optional.empty();
        values.clear();
        ended = true;
        dirty = false;
    }

    /** A new id (the old one deleted at commit) and a new CSRF token: at login, or when privileges change. */
    private void rotate() {
        if (id != null) deleted.add(id);
        id = null;
        csrf = SessionCookies.newToken();
        created = Instant.now();
    }

    /** Saves what changed and deletes what was replaced; done before the reply is built. */
    public CompletionStage<Void> commit() {
        SessionStore store = settings.store();
        CompletionStage<Void> done = CompletableFuture.completedFuture(null);
        for (String old : deleted) done = done.thenCompose(v -> store.delete(old));
        deleted.clear();
        if (dirty && !ended) {
            if (id == null) {
                id = SessionCookies.newId();
                newId = true;
            }
            Duration age = Duration.between(created, Instant.now());
            Duration ttl = settings.idleTimeout();
            Duration left = settings.absoluteTimeout().minus(age);
            if (left.compareTo(ttl) < 0) ttl = left.isNegative() ? Duration.ofSeconds(1) : left;
            SessionStore.Data data = new SessionStore.Data(subject, scopes, roles, values, csrf, created, lastSeen);
            String saving = id;
            Duration keep = ttl;
            done = done.thenCompose(v -> store.save(saving, data, keep));
            dirty = false;
        }
        return done;
    }

    /** @return the {@code Set-Cookie} value the reply carries, or null for none */
    public String setCookie() {
        if (newId) return cookies.set(id);
        if ((ended && fromCookie) || (stale && id == null)) return cookies.clear();
        return null;
    }
}
