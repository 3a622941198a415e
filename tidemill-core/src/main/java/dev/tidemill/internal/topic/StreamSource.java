package dev.tidemill.internal.topic;

import dev.tidemill.Subscription;
import dev.tidemill.Topic;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * A topic an event stream can follow ({@code Response.sse(topic, ...)}): a subscription with
 * back-pressure, read together with {@link Topic#replayAsync}. The in-process topic is one; a backend
 * that stores messages elsewhere is one through its process-local fan-out ({@link LocalTopic#relay}).
 *
 * @param <T> the message type
 */
public interface StreamSource<T> {
    /**
     * While the stage {@code onMessage} returns is not complete, nothing more is delivered (messages
     * wait in the queue, under the overflow policy); a stage that fails closes the subscription.
     *
     * @param executor where {@code onMessage} runs
     * @param onMessage called once per message, in id order
     * @param patterns the patterns
     * @return the subscription
     */
    Subscription<T> subscribeAsync(Executor executor, Function<Topic.Message<T>, CompletionStage<?>> onMessage, String... patterns);
}
