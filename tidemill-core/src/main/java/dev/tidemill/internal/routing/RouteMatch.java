package dev.tidemill.internal.routing;

import java.util.Arrays;
import java.util.Objects;

/**
 * The answer of {@link Router#match}: a route, or why there is none.
 *
 * @param <T> the route value
 */
public sealed interface RouteMatch<T> permits RouteMatch.Found, RouteMatch.NotFound, RouteMatch.MethodNotAllowed {
    /**
     * A route matched. The arrays are shared or handed over: do not modify them.
     *
     * @param value the route value
     * @param pattern the route pattern as registered
     * @param names parameter names, in pattern order
     * @param rawValues parameter values, still percent-encoded, aligned with {@code names}; a
     *     catch-all's value is the rest of the path without its leading {@code /}
     * @param <T> the route value
     */
    public record Found<T>(T value, String pattern, String[] names, String[] rawValues) implements RouteMatch<T> {
        @Override
        public boolean equals(Object o) {
            return o instanceof Found<?> f && Objects.equals(value, f.value) && pattern.equals(f.pattern)
                    && Arrays.equals(names, f.names) && Arrays.equals(rawValues, f.rawValues);
        }

        @Override
        public int hashCode() {
            return Objects.hash(value, pattern, Arrays.hashCode(names), Arrays.hashCode(rawValues));
        }

        @Override
        public String toString() {
            return "Found[" + pattern + ", names=" + Arrays.toString(names) + ", rawValues="
                    + Arrays.toString(rawValues) + ", value=" + value + "]";
        }
    }

    /**
     * No route has this path, whatever the method.
     *
     * @param <T> the route value
     */
    public record NotFound<T>() implements RouteMatch<T> {
        private static final NotFound<?> INSTANCE = new NotFound<>();

        /** @param <T> the route value @return the shared instance */
        @SuppressWarnings("unchecked")
        public static <T> NotFound<T> instance() {
            return (NotFound<T>) INSTANCE;
        }
    }

    /**
     * Routes have this path, but not for this method.
     *
     * @param allow the methods that do, sorted, joined with {@code ", "}, HEAD included wherever GET
     *     is (e.g. {@code GET, HEAD, POST}); the value of the {@code Allow} header
     * @param <T> the route value
     */
    public record MethodNotAllowed<T>(String allow) implements RouteMatch<T> {}
}
