package dev.tidemill.internal.routing;

import dev.tidemill.Param;
import dev.tidemill.ParamType;
import dev.tidemill.Problem;
import io.netty.handler.codec.http.cookie.Cookie;
import io.netty.handler.codec.http.cookie.ServerCookieDecoder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Coerces the parameters a route declares, once per request, collecting one {@link
 * Problem.FieldError} per failing value (every failure, not just the first). Built once per route.
 * Header values are looked up only for declared header parameters, and the {@code Cookie} fields
 * parsed (at most once) only when a cookie parameter is declared.
 */
public final class ParamCoercer {
    private static final Object[] NO_VALUES = {};
    private static final String[] NO_STRINGS = {};
    private static final Result EMPTY = new Result(NO_VALUES, NO_STRINGS, List.of());

    private final Param<?>[] params;
    private final String[] pathNames;
    /** For a path parameter, its index in {@code pathNames}; -1 for any other. */
    private final int[] pathIndex;
    /** The error for a missing required query, header or cookie parameter, built once. */
    private final Problem.FieldError[] missing;
    /** {@code [location, name]}, the {@code loc} of a value error, built once. */
    private final List<List<String>> locs;
    /** Whether a header or cookie parameter is declared. */
    private final boolean readsHeaders;

    /**
     * @param declared the route's parameters, in declaration order
     * @param pathNames the pattern's parameter names, in pattern order
     * @throws IllegalArgumentException if a path parameter is not in the pattern, or a parameter is
     *     declared twice
     */
    public ParamCoercer(List<Param<?>> declared, String[] pathNames) {
        this.params = declared.toArray(Param<?>[]::new);
        this.pathNames = pathNames.length == 0 ? NO_STRINGS : pathNames.clone();
        this.pathIndex = new int[params.length];
        this.missing = new Problem.FieldError[params.length];
        List<List<String>> l = new ArrayList<>(params.length);
        for (int i = 0; i < params.length; i++) {
            Param<?> p = Objects.requireNonNull(params[i], "declared parameter");
            for (int j = 0; j < i; j++) {
                if (sameParam(params[j], p)) {
                    throw new IllegalArgumentException(p.location().label() + " parameter '" + p.name()
                            + "' is declared twice");
                }
            }
            pathIndex[i] = p.location() == Param.Location.PATH ? Arrays.asList(this.pathNames).indexOf(p.name()) : -1;
            if (p.location() == Param.Location.PATH && pathIndex[i] < 0) {
                throw new IllegalArgumentException(p + " is not in the route pattern, whose parameters are "
                        + Arrays.toString(this.pathNames));
            }
            l.add(List.of(p.location().label(), p.name()));
            missing[i] = new Problem.FieldError("missing", l.get(i), "Field required", Optional.empty());
        }
        this.locs = l;
        boolean headers = false;
        for (Param<?> p : params) headers |= p.location() == Param.Location.HEADER || p.location() == Param.Location.COOKIE;
        this.readsHeaders = headers;
    }

    /** @return whether {@link #coerce} reads request headers: a header or cookie parameter is declared */
    public boolean readsHeaders() {
        return readsHeaders;
    }

    /**
     * The outcome of {@link #coerce}. The arrays are not copied: do not modify them.
     *
     * @param values the coerced values, aligned with the declared parameters ({@link Optional} for an
     *     optional parameter, a {@link List} for a list, the default when absent); an entry is null
     *     where that parameter failed
     * @param pathValues every path parameter's percent-decoded text, aligned with the pattern names
     * @param errors one entry per failing value; empty when all are fine
     */
    public record Result(Object[] values, String[] pathValues, List<Problem.FieldError> errors) {
        /** @return whether there are no errors */
        public boolean ok() {
            return errors.isEmpty();
        }
    }

    /**
     * @param rawPathValues the matched path values, still percent-encoded, aligned with the pattern names
     * @param query the parsed query string
     * @param headers every value of a request header by name (case-insensitive), an empty list when
     *     it is absent; null for a request without headers. Called only for declared header and
     *     cookie parameters.
     * @return the values and the errors
     * @throws MalformedEncodingException if a path value is not valid percent-encoding (answer 400)
     */
    public Result coerce(String[] rawPathValues, Map<String, List<String>> query, Function<String, List<String>> headers) {
        if (rawPathValues.length != pathNames.length) {
            throw new IllegalArgumentException("expected " + pathNames.length + " path values, got " + rawPathValues.length);
        }
        if (params.length == 0 && pathNames.length == 0) return EMPTY;
        String[] pathValues = NO_STRINGS;
        if (pathNames.length > 0) {
            pathValues = new String[pathNames.length];
            // Decoded only now, after matching, so that %2F never changed which route matched.
            for (int i = 0; i < pathValues.length; i++) pathValues[i] = PathDecoder.decode(rawPathValues[i]);
        }
        if (params.length == 0) return new Result(NO_VALUES, pathValues, List.of());
        Object[] values = new Object[params.length];
        List<Problem.FieldError> errors = null;
        Map<String, List<String>> cookies = null; // parsed at the first cookie parameter
        for (int i = 0; i < params.length; i++) {
            Param<?> p = params[i];
            ParamType<?> type = p.type();
            if (pathIndex[i] >= 0) {
                String text = pathValues[pathIndex[i]];
                try {
                    values[i] = type.parse(text);
                } catch (IllegalArgumentException e) {
                    errors = add(errors, valueError(type, locs.get(i), e, text));
                }
                continue;
            }
            List<String> given;
            if (p.location() == Param.Location.QUERY) {
                given = query == null ? null : query.get(p.name());
            } else if (p.location() == Param.Location.HEADER) {
                given = headers == null ? null : headers.apply(p.name());
            } else {
                if (cookies == null) cookies = cookies(headers);
                given = cookies.get(p.name());
            }
            boolean absent = given == null || given.isEmpty();
            switch (p.shape()) {
                case LIST -> {
                    if (absent) {
                        values[i] = List.of();
                        continue;
                    }
                    Object[] items = new Object[given.size()];
                    boolean failed = false;
                    for (int k = 0; k < items.length; k++) {
                        String text = given.get(k);
                        try {
                            items[k] = type.parse(text);
                        } catch (IllegalArgumentException e) {
                            failed = true;
                            List<String> loc = List.of("query", p.name(), Integer.toString(k));
                            errors = add(errors, valueError(type, loc, e, text));
                        }
                    }
                    if (!failed) values[i] = List.of(items);
                }
                case REQUIRED, OPTIONAL, DEFAULTED -> {
                    if (absent) {
                        switch (p.shape()) {
                            case OPTIONAL -> values[i] = Optional.empty();
                            case DEFAULTED -> values[i] = p.defaultValue().orElseThrow();
                            default -> errors = add(errors, missing[i]);
                        }
                        continue;
                    }
                    String text = given.get(0); // a repeated key, header or cookie: the first value counts
                    try {
                        Object v = type.parse(text);
                        values[i] = p.shape() == Param.Shape.OPTIONAL ? Optional.of(v) : v;
                    } catch (IllegalArgumentException e) {
                        errors = add(errors, valueError(type, locs.get(i), e, text));
                    }
                }
            }
        }
        return new Result(values, pathValues, errors == null ? List.of() : Collections.unmodifiableList(errors));
    }

    /**
     * @param p a parameter
     * @return its index in the declared parameters (the same object, else the same location and
     *     name, a header's in any case), or -1
     */
    public int indexOf(Param<?> p) {
        for (int i = 0; i < params.length; i++) if (params[i] == p) return i;
        for (int i = 0; i < params.length; i++) {
            if (sameParam(params[i], p)) return i;
        }
        return -1;
    }

    /** @return whether both read the same value: one location, one name (a header's in any case) */
    private static boolean sameParam(Param<?> a, Param<?> b) {
        if (a.location() != b.location()) return false;
        return a.location() == Param.Location.HEADER ? a.name().equalsIgnoreCase(b.name()) : a.name().equals(b.name());
    }

    /** @return every cookie of the request's {@code Cookie} fields (RFC 6265 5.4, leniently), name to values in order */
    private static Map<String, List<String>> cookies(Function<String, List<String>> headers) {
        List<String> fields = headers == null ? null : headers.apply("Cookie");
        if (fields == null || fields.isEmpty()) return Map.of();
        Map<String, List<String>> out = new java.util.HashMap<>();
        for (String field : fields) {
            for (Cookie c : ServerCookieDecoder.LAX.decodeAll(field)) {
                out.computeIfAbsent(c.name(), k -> new ArrayList<>(1)).add(c.value());
            }
        }
        return out;
    }

    private static Problem.FieldError valueError(ParamType<?> type, List<String> loc, IllegalArgumentException e,
            String text) {
        String msg = e.getMessage() != null ? e.getMessage() : "Input is not valid";
        return new Problem.FieldError(type.errorType(), loc, msg, Optional.of(text));
    }

    private static List<Problem.FieldError> add(List<Problem.FieldError> errors, Problem.FieldError e) {
        List<Problem.FieldError> list = errors != null ? errors : new ArrayList<>(2);
        list.add(e);
        return list;
    }
}
