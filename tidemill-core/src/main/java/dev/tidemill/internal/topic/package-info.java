/**
 * In-process topics ({@link dev.tidemill.Topic}): subject patterns ({@code Subjects}), one bounded
 * queue per subscription with the overflow policies ({@code LocalSubscription}), the fan-out and
 * the process-wide registry ({@code LocalTopic}), and the replay buffer ({@code ReplayBuffer}).
 */
package dev.tidemill.internal.topic;
