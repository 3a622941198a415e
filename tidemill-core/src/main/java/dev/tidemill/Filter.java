package dev.tidemill;

/**
 * Around-handler middleware. Runs where the handler runs (same thread, same execution mode), after
 * routing and parameter coercion. Call {@code next.proceed(request)} to continue the chain, or
 * return a value of your own to short-circuit it; the value is interpreted as a {@link Handler}'s.
 */
@FunctionalInterface
public interface Filter {
    /**
     * @param request the request
     * @param next the rest of the chain, ending with the route's handler
     * @return the response value
     * @throws Exception propagated to the exception mappers
     */
    Object filter(Request request, Chain next) throws Exception;

    /** The rest of a filter chain. */
    @FunctionalInterface
    interface Chain {
        /**
         * Runs the next filter, or the handler.
         *
         * @param request the request to pass on
         * @return the response value
         * @throws Exception from the next filter or the handler
         */
        Object proceed(Request request) throws Exception;
    }
}
