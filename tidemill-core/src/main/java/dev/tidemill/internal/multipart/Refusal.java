package dev.tidemill.internal.multipart;

import dev.tidemill.Problem;
import dev.tidemill.ProblemException;

/** The two kinds of refusal a multipart body gets: malformed (400) or over a limit (413). */
final class Refusal {
    private Refusal() {}

    /** @param detail which rule the body broke @return a 400 to throw */
    static ProblemException malformed(String detail) {
        return new ProblemException(Problem.of(400, "Malformed multipart body", detail));
    }

    /** @param detail which limit, by its {@code Limits} name @return a 413 to throw */
    static ProblemException tooLarge(String detail) {
        return new ProblemException(Problem.of(413, "Content Too Large", detail));
    }

    /** @param name a part's name, from the client @return it quoted for a problem's detail, cut to 64 characters */
    static String quoted(String name) {
        return "\"" + (name.length() <= 64 ? name : name.substring(0, 64) + "...") + "\"";
    }
}
