package dev.tidemill;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An RFC 9457 problem detail, the body of every error Tidemill sends
 * ({@code application/problem+json}).
 *
 * @param type a URI naming the problem; {@code about:blank} when the status says it all
 * @param title short, human-readable summary; the same for every occurrence of the type
 * @param status the HTTP status
 * @param detail explanation of this occurrence, if any
 * @param errors one entry per failing input (parameters, body fields); empty when not applicable
 */
public record Problem(String type, String title, int status, Optional<String> detail, List<FieldError> errors) {

    /** Checks and copies the fields. */
    public Problem {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(title, "title");
        if (status < 400 || status > 599) throw new IllegalArgumentException("problem status must be 4xx or 5xx");
        Objects.requireNonNull(detail, "detail");
        errors = List.copyOf(errors);
    }

    /**
     * @param status 4xx or 5xx
     * @param title summary
     * @return a problem of type {@code about:blank} without detail
     */
    public static Problem of(int status, String title) {
        return new Problem("about:blank", title, status, Optional.empty(), List.of());
    }

    /**
     * @param status 4xx or 5xx
     * @param title summary
     * @param detail explanation of this occurrence
     * @return a problem of type {@code about:blank}
     */
    public static Problem of(int status, String title, String detail) {
        return new Problem("about:blank", title, status, Optional.of(detail), List.of());
    }

    /** @param detail explanation @return a copy with that detail */
    public Problem withDetail(String detail) {
        return new Problem(type, title, status, Optional.of(detail), errors);
    }

    /** @return this problem as an exception, for throwing from a handler */
    public ProblemException toException() {
        return new ProblemException(this);
    }

    /**
     * One failing input.
     *
     * @param type machine-readable kind, e.g. {@code missing}, {@code int_parsing}, {@code NotBlank}
     * @param loc where: {@code ["path"|"query"|"header"|"cookie"|"body", name...]}
     * @param msg human-readable message
     * @param input the offending input as received, if there was one
     */
    public record FieldError(String type, List<String> loc, String msg, Optional<String> input) {
        /** Checks and copies the fields. */
        public FieldError {
            Objects.requireNonNull(type, "type");
            loc = List.copyOf(loc);
            Objects.requireNonNull(msg, "msg");
            Objects.requireNonNull(input, "input");
        }
    }
}
