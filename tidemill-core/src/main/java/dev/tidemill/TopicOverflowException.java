package dev.tidemill;

import java.io.Serial;

/**
 * A publish to a {@link Topic.Overflow#ERROR} topic found subscriptions with full queues. The
 * message was still delivered to every subscription with room and has its id.
 */
public final class TopicOverflowException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;
    private final MessageId messageId;
    private final int missed;

    /**
     * @param topic the topic's name
     * @param messageId the id the message got
     * @param missed how many subscriptions did not get it
     * @param capacity the topic's capacity per subscription
     */
    public TopicOverflowException(String topic, MessageId messageId, int missed, int capacity) {
        super("topic " + topic + ": message " + messageId + " not delivered to " + missed + " subscription"
                + (missed == 1 ? "" : "s") + " holding " + capacity + " pending messages (capacity)", null, false, false);
        this.messageId = messageId;
        this.missed = missed;
    }

    /** @return the id the message got */
    public MessageId messageId() {
        return messageId;
    }

    /** @return how many subscriptions did not get the message */
    public int missed() {
        return missed;
    }
}
