package dev.tidemill;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A typed path or query parameter, declared on a route with {@link Route#params} and read with
 * {@link Request#param}. Declaring parameters lets the router coerce and check them on the I/O
 * thread before any handler is dispatched, and lets an OpenAPI generator describe them.
 *
 * <pre>{@code
 * static final Param<Integer> ID = Param.path("id", ParamType.INT);
 * static final Param<Integer> LIMIT = Param.query("limit", ParamType.INT).withDefault(20);
 * static final Param<List<String>> TAG = Param.queryList("tag", ParamType.STRING);
 * app.get("/items/{id}", req -> find(req.param(ID), req.param(LIMIT))).params(ID, LIMIT, TAG);
 * }</pre>
 *
 * @param <T> the value type handed to the handler
 */
public final class Param<T> {

    /** Where a parameter is read from; also the first element of a 422 error's {@code loc}. */
    public enum Location {
        /** A {@code {name}} segment of the route pattern. */
        PATH,
        /** A key of the query string. */
        QUERY;

        /** @return {@code path} or {@code query} */
        public String label() {
            return this == PATH ? "path" : "query";
        }
    }

    /** How many values a parameter takes and what happens when it is missing. */
    public enum Shape {
        /** Exactly one value; missing -> 422 unless a default is set. */
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

    /** @return the same query parameter, optional: missing gives {@link Optional#empty()} */
    public Param<Optional<T>> optional() {
        requireSingleQuery("optional()");
        return new Param<>(name, location, type, Shape.OPTIONAL, null);
    }

    /**
     * @param value used when the query key is absent
     * @return the same query parameter with a default
     */
    public Param<T> withDefault(T value) {
        requireSingleQuery("withDefault()");
        return new Param<>(name, location, type, Shape.DEFAULTED, Objects.requireNonNull(value, "value"));
    }

    private void requireSingleQuery(String what) {
        if (location != Location.QUERY || shape != Shape.REQUIRED) {
            throw new IllegalStateException(what + " applies to a required query parameter, not to " + this);
        }
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
