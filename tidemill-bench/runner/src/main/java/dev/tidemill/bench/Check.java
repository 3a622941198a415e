package dev.tidemill.bench;

/**
 * One preflight check.
 *
 * @param name what was checked
 * @param verdict {@code pass}, {@code fail} or {@code unknown}
 * @param reading the raw reading it was judged on
 * @param rule what passes
 */
public record Check(String name, String verdict, String reading, String rule) {
    /** @return whether this check failed (unknown is not a failure, but is recorded) */
    public boolean failed() {
        return verdict.equals("fail");
    }
}
