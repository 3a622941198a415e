package dev.tidemill;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Who may call a route: set with {@code requires(...)} on a route, a group or the app; the nearest
 * one wins (a route's over its groups', a group's over the app's), and an inherited requirement is
 * as much a decision as one set on the route. A route with none anywhere is anonymous and its
 * requests are not authenticated at all.
 *
 * <p>Checked on the I/O thread after routing, before the body is read and before a worker is woken
 * (with the rate limit, which it precedes); on WebSocket routes before the upgrade, on event streams
 * before the stream opens. A request without credentials, or with credentials that do not verify,
 * gets 401 with a {@code WWW-Authenticate} challenge; one that is authenticated but not allowed gets
 * 403 (RFC 6750 3.1: {@code error="insufficient_scope"} and the scope it needs).
 *
 * <pre>{@code
 * app.get("/me", req -> req.principal().orElseThrow().subject()).requires(Requirement.authenticated());
 * app.group("/admin").requires(Requirement.scope("admin"));
 * app.get("/status", req -> "up").requires(Requirement.anonymous());   // even inside a guarded group
 * }</pre>
 */
public sealed interface Requirement {

    /** @return any authenticated caller */
    static Requirement authenticated() {
        return Authenticated.INSTANCE;
    }

    /** @return anyone, not authenticated: overrides an inherited requirement */
    static Requirement anonymous() {
        return Anonymous.INSTANCE;
    }

    /**
     * @return anyone, but a caller who presents credentials is identified ({@link Request#principal()}),
     *     and refused if they are wrong: for a route that shows more to a known caller (the MCP endpoint)
     */
    static Requirement anyone() {
        return AnyCaller.INSTANCE;
    }

    /** @param name a scope @return an authenticated caller granted that scope */
    static Requirement scope(String name) {
        return new Scope(name);
    }

    /** @param name a role @return an authenticated caller holding that role */
    static Requirement role(String name) {
        return new Role(name);
    }

    /** @param choices at least one @return an authenticated caller meeting at least one of them */
    static Requirement anyOf(Requirement... choices) {
        return new AnyOf(List.of(choices));
    }

    /** @param all at least one @return an authenticated caller meeting every one of them */
    static Requirement allOf(Requirement... all) {
        return new AllOf(List.of(all));
    }

    /**
     * @param principal who called, empty when nobody authenticated
     * @return whether the requirement lets the request through
     */
    boolean isMetBy(Optional<Principal> principal);

    /** @return the scopes that would meet it, for {@code insufficient_scope}'s {@code scope} parameter (RFC 6750 3) */
    default List<String> scopes() {
        return List.of();
    }

    /** Any authenticated caller. */
    enum Authenticated implements Requirement {
        /** The one instance. */
        INSTANCE;

        @Override
        public boolean isMetBy(Optional<Principal> principal) {
            return principal.isPresent();
        }

        @Override
        public String toString() {
            return "authenticated";
        }
    }

    /** Anyone; nothing is authenticated. */
    enum Anonymous implements Requirement {
        /** The one instance. */
        INSTANCE;

        @Override
        public boolean isMetBy(Optional<Principal> principal) {
            return true;
        }

        @Override
        public String toString() {
            return "anonymous";
        }
    }

    /** Anyone; credentials, when presented, are checked and identify the caller. */
    enum AnyCaller implements Requirement {
        /** The one instance. */
        INSTANCE;

        @Override
        public boolean isMetBy(Optional<Principal> principal) {
            return true;
        }

        @Override
        public String toString() {
            return "anyone";
        }
    }

    /** @param name the scope an authenticated caller must be granted */
    record Scope(String name) implements Requirement {
        /** Checks the name: a scope token of RFC 6749 3.3 (visible ASCII but {@code "} and {@code \}). */
        public Scope {
            Objects.requireNonNull(name, "name");
            if (name.isEmpty() || !name.chars().allMatch(c -> c == 0x21 || (c >= 0x23 && c <= 0x5B) || (c >= 0x5D && c <= 0x7E))) {
                throw new IllegalArgumentException("not a scope token (RFC 6749 3.3): " + name);
            }
        }

        @Override
        public boolean isMetBy(Optional<Principal> principal) {
            return principal.map(p -> p.hasScope(name)).orElse(false);
        }

        @Override
        public List<String> scopes() {
            return List.of(name);
        }

        @Override
        public String toString() {
            return "scope " + name;
        }
    }

    /** @param name the role an authenticated caller must hold */
    record Role(String name) implements Requirement {
        /** Checks the name is not blank. */
        public Role {
            Objects.requireNonNull(name, "name");
            if (name.isBlank()) throw new IllegalArgumentException("role must not be blank");
        }

        @Override
        public boolean isMetBy(Optional<Principal> principal) {
            return principal.map(p -> p.hasRole(name)).orElse(false);
        }

        @Override
        public String toString() {
            return "role " + name;
        }
    }

    /** @param choices requirements of which one must be met (an authenticated caller always) */
    record AnyOf(List<Requirement> choices) implements Requirement {
        /** Copies the list; at least one choice. */
        public AnyOf {
            choices = List.copyOf(choices);
            if (choices.isEmpty()) throw new IllegalArgumentException("anyOf needs at least one requirement");
        }

        @Override
        public boolean isMetBy(Optional<Principal> principal) {
            return principal.isPresent() && choices.stream().anyMatch(r -> r.isMetBy(principal));
        }

        @Override
        public List<String> scopes() {
            return choices.stream().flatMap(r -> r.scopes().stream()).distinct().toList();
        }
    }

    /** @param all requirements that must all be met (an authenticated caller always) */
    record AllOf(List<Requirement> all) implements Requirement {
        /** Copies the list; at least one requirement. */
        public AllOf {
            all = List.copyOf(all);
            if (all.isEmpty()) throw new IllegalArgumentException("allOf needs at least one requirement");
        }

        @Override
        public boolean isMetBy(Optional<Principal> principal) {
            return principal.isPresent() && all.stream().allMatch(r -> r.isMetBy(principal));
        }

        @Override
        public List<String> scopes() {
            return all.stream().flatMap(r -> r.scopes().stream()).distinct().toList();
        }
    }
}
