package dev.tidemill;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A typed path, query, header or cookie parameter, declared on a route with {@link Route#params}
 * and read with {@link Request#param}. Declaring parameters lets the router coerce and check them on
 * the I/O thread before any handler is dispatched, and lets an OpenAPI generator describe them. A
 * missing required value or one its type refuses is answered 422, one error per failing value, its
 * {@code loc} the location's label and the name ({@code ["header", "X-Limit"]}).
 *
 * <pre>{@code
 * static final Param<Integer> ID = Param.path("id", ParamType.INT);
 * static final Param<Integer> LIMIT = Param.query("limit", ParamType.INT).withDefault(20);
 * static final Param<List<String>> TAG = Param.queryList("tag", ParamType.STRING);
 * static final Param<Optional<String>> TENANT = Param.header("X-Tenant").optional();
 * app.get("/items/{id}", req -> find(req.param(ID), req.param(LIMIT))).params(ID, LIMIT, TAG, TENANT);
 * }</pre>
 *
 * @param <T> the value type handed to the handler
 */
public final class Param<T> {

    /** Where a parameter is read from; also the first element of a 422 error's {@code loc}. */
    public enum Location {
        /** A {@code {name}} segment of the route pattern. */
        PATH("path"),
        /** A key of the query string. */
        QUERY("query"),
        /** A request header field, its name matched case-insensitively; the first field of that name counts. */
        HEADER("header"),
        /** A cookie of the request's {@code Cookie} field(s) (RFC 6265), its name matched exactly; the first of that name counts. */
        COOKIE("cookie");

        private final String label;

        Location(String label) {
            this.label = label;
        }

        /** @return {@code path}, {@code query}, {@code header} or {@code cookie} */
        public String label() {
            return label;
        }
    }

    /** How many values a parameter takes and what happens when it is missing. */
    public enum Shape {
        /** Exactly one value; missing -> 422 ({@code "type": "missing"}, {@code "msg": "Field required"}). */
        REQUIRED,
        /** Zero or one value, handed over as {@link Optional}. */
        OPTIONAL,
        /** One value, or the default when missing. */
        DEFAULTED,
        /** Every value of a repeated query key, as a {@link List} (empty when absent). */
        LIST
    }

    private final String name;
    private final Location location;
    private final ParamType<?> type;
    private final Shape shape;
    private final Object defaultValue;

    private Param(String name, Location location, ParamType<?> type, Shape shape, Object defaultValue) {
        this.name = Objects.requireNonNull(name, "name");
        if (name.isEmpty()) throw new IllegalArgumentException("parameter name must not be empty");
        if ((location == Location.HEADER || location == Location.COOKIE) && !isToken(name)) {
            throw new IllegalArgumentException("a " + location.label() + " name is a token (RFC 9110 5.6.2): '" + name + "'");
        }
        this.location = location;
        this.type = Objects.requireNonNull(type, "type");
        this.shape = shape;
        this.defaultValue = defaultValue;
    }

    /** @param name segment name in the pattern @return a required String path parameter */
    public static Param<String> path(String name) {
        return path(name, ParamType.STRING);
    }

    /**
     * @param name segment name in the pattern
     * @param type value type
     * @param <T> value type
     * @return a required path parameter
     */
    public static <T> Param<T> path(String name, ParamType<T> type) {
        return new Param<>(name, Location.PATH, type, Shape.REQUIRED, null);
    }

    /** @param name query key @return a required String query parameter */
    public static Param<String> query(String name) {
        return query(name, ParamType.STRING);
    }

    /**
     * @param name query key
     * @param type value type
     * @param <T> value type
     * @return a required query parameter (the first value when the key repeats)
     */
    public static <T> Param<T> query(String name, ParamType<T> type) {
        return new Param<>(name, Location.QUERY, type, Shape.REQUIRED, null);
    }

    /**
     * @param name repeated query key
     * @param type element type
     * @param <T> element type
     * @return a query parameter collecting every value of the key, in order
     */
    public static <T> Param<List<T>> queryList(String name, ParamType<T> type) {
        return new Param<>(name, Location.QUERY, type, Shape.LIST, null);
    }

    /**
     * @param name header field name, a token (RFC 9110 5.6.2), matched case-insensitively
     * @return a required String header parameter
     * @throws IllegalArgumentException if the name is not a token
     */
    public static Param<String> header(String name) {
        return header(name, ParamType.STRING);
    }

    /**
     * @param name header field name, a token (RFC 9110 5.6.2), matched case-insensitively
     * @param type value type
     * @param <T> value type
     * @return a required header parameter (the first field when the header repeats; missing -> 422
     *     with {@code loc} {@code ["header", name]})
     * @throws IllegalArgumentException if the name is not a token
     */
    public static <T> Param<T> header(String name, ParamType<T> type) {
        return new Param<>(name, Location.HEADER, type, Shape.REQUIRED, null);
    }

    /**
     * @param name cookie name, a token, matched exactly
     * @return a required String cookie parameter
     * @throws IllegalArgumentException if the name is not a token
     */
    public static Param<String> cookie(String name) {
        return cookie(name, ParamType.STRING);
    }

    /**
     * @param name cookie name, a token, matched exactly
     * @param type value type
     * @param <T> value type
     * @return a required cookie parameter, read from the {@code Cookie} field(s) (the first cookie of
     *     that name; missing -> 422 with {@code loc} {@code ["cookie", name]})
     * @throws IllegalArgumentException if the name is not a token
     */
    public static <T> Param<T> cookie(String name, ParamType<T> type) {
        return new Param<>(name, Location.COOKIE, type, Shape.REQUIRED, null);
    }

    /**
     * @return the same query, header or cookie parameter, optional: missing gives {@link Optional#empty()}
     * @throws IllegalStateException for a path parameter, or one already optional, defaulted or a list
     */
    public Param<Optional<T>> optional() {
        requireSingle("optional()");
        return new Param<>(name, location, type, Shape.OPTIONAL, null);
    }

    /**
     * @param value used when the query key, header or cookie is absent (a present but invalid value
     *     is still a 422)
     * @return the same query, header or cookie parameter with a default
     * @throws IllegalStateException for a path parameter, or one already optional, defaulted or a list
     */
    public Param<T> withDefault(T value) {
        requireSingle("withDefault()");
        return new Param<>(name, location, type, Shape.DEFAULTED, Objects.requireNonNull(value, "value"));
    }

    private void requireSingle(String what) {
        if (location == Location.PATH || shape != Shape.REQUIRED) {
            throw new IllegalStateException(what + " applies to a required query, header or cookie parameter, not to " + this);
        }
    }

    /** RFC 9110 5.6.2: tchar is {@code !#$%&'*+-.^_`|~}, a digit or a letter (ASCII); true for "". Also a method's check. */
    static boolean isToken(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c < 0x80 && (Character.isLetterOrDigit(c) || "!#$%&'*+-.^_`|~".indexOf(c) >= 0))) return false;
        }
        return true;
    }

    /** @return whether both read the same value: one location, one name (a header's in any case) */
    boolean sameAs(Param<?> other) {
        return location == other.location
                && (location == Location.HEADER ? name.equalsIgnoreCase(other.name) : name.equals(other.name));
    }

    /** @return the name */
    public String name() {
        return name;
    }

    /** @return where it is read from */
    public Location location() {
        return location;
    }

    /** @return the type of each value */
    public ParamType<?> type() {
        return type;
    }

    /** @return how many values it takes */
    public Shape shape() {
        return shape;
    }

    /** @return the default, for {@link Shape#DEFAULTED} */
    public Optional<Object> defaultValue() {
        return Optional.ofNullable(defaultValue);
    }

    @Override
    public String toString() {
        return location.label() + " parameter '" + name + "' (" + type + ", " + shape.name().toLowerCase() + ")";
    }
}
