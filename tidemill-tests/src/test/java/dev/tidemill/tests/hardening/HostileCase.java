package dev.tidemill.tests.hardening;

/**
 * One hostile request of the hardening suite: the exact bytes sent, what the server must answer,
 * whether the connection must close, and where the rule comes from.
 *
 * @param category the suite category, its number and name, e.g. {@code 1 framing}
 * @param name what is wrong, short and unique
 * @param source the RFC section, CVE or public report the case comes from
 * @param bytes the exact bytes, one char per byte (ISO-8859-1)
 * @param status the status the server must answer with; {@link #CLOSED} for a close without an
 *     answer, {@link #REFUSED_OR_CLOSED} for any 4xx or a close without an answer
 * @param close whether the connection must close afterwards
 */
public record HostileCase(String category, String name, String source, String bytes, int status, Close close) {
    /** Expect no answer at all: the server closes the connection. */
    public static final int CLOSED = -1;
    /** Expect a 4xx answer or a close without one (e.g. a timeout that may fire mid-response). */
    public static final int REFUSED_OR_CLOSED = -2;

    /** What must happen to the connection after the answer. */
    public enum Close {
        /** The server closes it (a refused message leaves the framing unknown). */
        MUST,
        /** It stays open: a follow-up request on it is served. */
        MUST_NOT
    }

    /** @return whether the request is well-formed and must be served */
    public boolean served() {
        return status >= 200 && status < 300;
    }

    @Override
    public String toString() {
        return name;
    }
}
