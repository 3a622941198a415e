package dev.tidemill.internal.exchange;

import dev.tidemill.Problem;

/**
 * Why a request is refused before its handler runs, or, with no problem, an answer the gate gave
 * itself: a CORS preflight's {@code 204}.
 *
 * @param problem what to answer; null for an answer without a body (an allowed preflight's 204, a redirect)
 * @param close whether the connection must close (framing can no longer be trusted)
 * @param status the status: the problem's, else that of the answer without a body
 * @param headers extra response headers, name/value pairs
 */
public record Verdict(Problem problem, boolean close, int status, String... headers) {

    /** A problem, or (null) a 204. */
    public Verdict(Problem problem, boolean close, String... headers) {
        this(problem, close, problem == null ? 204 : problem.status(), headers);
    }

    /** @return a 303 to {@code location}, without a body: a browser sent to sign in */
    static Verdict seeOther(String location) {
        return new Verdict(null, false, 303, "Location", location);
    }

    /**
     * Not decided yet: {@link RouteGate#admission} completes with the verdict (null to go on) once
     * the caller is authenticated off the transport's thread. Compared by identity.
     */
    public static final Verdict PENDING = new Verdict(null, false);

    /** @return a verdict that keeps the connection */
    static Verdict of(int status, String title, String detail) {
        return new Verdict(Problem.of(status, title, detail), false);
    }

    /** @return a 204 with these headers (an allowed CORS preflight) */
    static Verdict noContent(String... headers) {
        return new Verdict(null, false, headers);
    }
}
