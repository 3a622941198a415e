package dev.tidemill.cli;

/** A bad command line: {@link Main} prints the message on one line and exits with status 2. */
final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
