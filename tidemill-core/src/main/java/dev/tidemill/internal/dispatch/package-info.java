/**
 * Worker loops for {@link dev.tidemill.ExecutionMode#LOOP}: lock-free bounded queues with coalesced
 * wakeups ({@code WorkerLoop}), least-loaded assignment ({@code LoopGroup}) and batched hand-back of
 * replies to the event loops ({@code ResponseBatcher}).
 */
package dev.tidemill.internal.dispatch;
