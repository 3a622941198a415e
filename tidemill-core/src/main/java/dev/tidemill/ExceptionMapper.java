package dev.tidemill;

/**
 * Turns an exception thrown by a handler or filter into a response value. Registered per exception
 * type with {@link Tidemill#exception}; the most specific registered type wins.
 *
 * @param <E> the exception type handled
 */
@FunctionalInterface
public interface ExceptionMapper<E extends Throwable> {
    /**
     * @param exception what was thrown
     * @param request the request being handled
     * @return a response value, as a {@link Handler} would return it
     */
    Object map(E exception, Request request);
}
