package dev.tidemill;

import java.io.Serial;

/**
 * A topic's store could not be reached (Redis down, or not answering within its timeout): the
 * publish or replay did not happen. Thrown by {@link Topic#publish} and given by the stages of
 * {@link Topic#publishAsync} and {@link Topic#replayAsync}; a route that lets it escape answers 503
 * with {@code Retry-After}, as for any 503 problem.
 */
public final class TopicUnavailableException extends ProblemException {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * @param topic the topic's name
     * @param why what failed, without credentials
     * @param cause the store client's error
     */
    public TopicUnavailableException(String topic, String why, Throwable cause) {
        super(Problem.of(503, "Service Unavailable", "topic " + topic + " is unavailable: " + why), cause);
    }
}
