package dev.tidemill;

/** Thrown to answer with a {@link Problem}; the framework renders it as {@code application/problem+json}. */
public class ProblemException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Problem problem;

    /** @param problem what to answer with */
    public ProblemException(Problem problem) {
        super(problem.title(), null, false, false);
        this.problem = problem;
    }

    /**
     * @param problem what to answer with
     * @param cause what went wrong underneath, for the log (never in the answer)
     */
    protected ProblemException(Problem problem, Throwable cause) {
        super(problem.title(), cause, false, false);
        this.problem = problem;
    }

    /** @return the problem */
    public Problem problem() {
        return problem;
    }
}
