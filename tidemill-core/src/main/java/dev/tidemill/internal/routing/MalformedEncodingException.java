package dev.tidemill.internal.routing;

/**
 * Thrown when a path, a query string or a form body holds an invalid percent-encoding ({@code %},
 * {@code %4}, {@code %zz}) or bytes that do not decode in the expected charset. The caller answers
 * 400.
 */
public final class MalformedEncodingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what was malformed, e.g. {@code invalid percent-encoding in path} */
    public MalformedEncodingException(String message) {
        // No stack trace: this is a client error any request can trigger, so it must stay cheap.
        super(message, null, false, false);
    }
}
