package dev.tidemill.internal.http1;

import dev.tidemill.internal.exchange.Reply;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jctools.queues.MpscUnboundedXaddArrayQueue;

/**
 * Replies from other threads waiting for a connection's event loop: {@link ReplyWriter}'s inbox,
 * kept in a superclass so it costs no object of its own per connection. Created by the first
 * such reply (an IO-mode connection never needs one); the connection itself is the batcher's queue
 * item, once per burst, so a reply hop allocates nothing.
 */
abstract class ReplyInbox {
    private static final VarHandle INBOX;
    private static final VarHandle QUEUED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            INBOX = l.findVarHandle(ReplyInbox.class, "inbox", MpscUnboundedXaddArrayQueue.class);
            QUEUED = l.findVarHandle(ReplyInbox.class, "queued", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // through INBOX
    private volatile MpscUnboundedXaddArrayQueue<Reply> inbox;
    /** The connection is in its batcher's queue: further replies only join the inbox. */
    @SuppressWarnings("unused") // through QUEUED
    private volatile boolean queued;

    /**
     * Any thread.
     *
     * @return whether the caller must queue the connection on its batcher (it was not queued)
     */
    final boolean offer(Reply reply) {
        inbox().offer(reply);
        // Same pattern as the batcher's: offer, then read the flag; delivering() clears it before polling.
        return !queued && QUEUED.compareAndSet(this, false, true);
    }

    /** On the event loop, when the batcher delivers, before {@link #poll}: the next reply queues the connection again. */
    final void delivering() {
        QUEUED.setVolatile(this, false);
    }

    /** @return the next reply waiting, or null; on the event loop, after {@link #delivering} */
    final Reply poll() {
        return inbox.poll();
    }

    @SuppressWarnings("unchecked")
    private MpscUnboundedXaddArrayQueue<Reply> inbox() {
        MpscUnboundedXaddArrayQueue<Reply> q = inbox;
        if (q == null) {
            MpscUnboundedXaddArrayQueue<Reply> fresh = new MpscUnboundedXaddArrayQueue<>(16);
            Object witness = INBOX.compareAndExchange(this, null, fresh);
            q = witness == null ? fresh : (MpscUnboundedXaddArrayQueue<Reply>) witness;
        }
        return q;
    }
}
