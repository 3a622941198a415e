package dev.tidemill.internal.exchange;

import dev.tidemill.Problem;

/**
 * Why a request is refused before its handler runs.
 *
 * @param problem what to answer
 * @param close whether the connection must close (framing can no longer be trusted)
 * @param headers extra response headers, name/value pairs
 */
public record Verdict(Problem problem, boolean close, String... headers) {

    /** @return a verdict that keeps the connection */
    static Verdict of(int status, String title, String detail) {
        return new Verdict(Problem.of(status, title, detail), false);
    }
}
