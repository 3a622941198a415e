package dev.tidemill;

import java.util.Objects;
import java.util.Optional;

/**
 * A consumer of a {@link ConsumerGroup}, declared on the app like a route
 * ({@link Tidemill#consume}): a topic, a group, a worker and the {@link ExecutionMode} the worker
 * runs in. It starts taking messages when the server has started and stops when the server stops:
 * from the start of a graceful stop it takes no more, and the stop waits, within the grace, for the
 * messages in its worker to finish; what is unfinished stays with the group.
 *
 * <pre>{@code
 * app.consume(jobs, ConsumerGroup.builder("mailer").build(), (message, delivery) -> send(message.value()))
 *    .mode(ExecutionMode.VIRTUAL);
 * }</pre>
 *
 * <p>Modes as for routes: {@link ExecutionMode#IO} runs the worker on an I/O event loop (it must
 * never block), {@link ExecutionMode#LOOP} on a worker loop, {@link ExecutionMode#VIRTUAL} on a
 * virtual thread per message. Default: the app's mode ({@link Config#executionMode()}).
 *
 * @param <T> the message type
 */
public final class ConsumerRoute<T> {
    private final Topic<T> topic;
    private final ConsumerGroup group;
    private final Topic.Worker<T> worker;
    private ExecutionMode mode;

    ConsumerRoute(Topic<T> topic, ConsumerGroup group, Topic.Worker<T> worker) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.group = Objects.requireNonNull(group, "group");
        this.worker = Objects.requireNonNull(worker, "worker");
    }

    /**
     * @param mode where the worker runs
     * @return this
     */
    public ConsumerRoute<T> mode(ExecutionMode mode) {
        this.mode = Objects.requireNonNull(mode, "mode");
        return this;
    }

    /** @return the topic */
    public Topic<T> topic() {
        return topic;
    }

    /** @return the group and this consumer's settings */
    public ConsumerGroup group() {
        return group;
    }

    /** @return the worker */
    public Topic.Worker<T> worker() {
        return worker;
    }

    /** @return the mode set with {@link #mode}, if any (else the app's) */
    public Optional<ExecutionMode> mode() {
        return Optional.ofNullable(mode);
    }

    @Override
    public String toString() {
        return "consumer group " + group.name() + " on topic " + topic.name() + (mode == null ? "" : ", mode " + mode);
    }
}
