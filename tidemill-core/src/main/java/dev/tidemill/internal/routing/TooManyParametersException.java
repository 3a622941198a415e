package dev.tidemill.internal.routing;

/** Thrown when a query string or form body holds more than {@link dev.tidemill.Limits#maxQueryPairs()} pairs. */
public final class TooManyParametersException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what overflowed */
    public TooManyParametersException(String message) {
        // No stack trace: any client can trigger it, so it must stay cheap.
        super(message, null, false, false);
    }
}
