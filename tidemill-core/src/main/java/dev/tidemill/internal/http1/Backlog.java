package dev.tidemill.internal.http1;

import io.netty.channel.Channel;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;

/**
 * The messages an HTTP/1.1 connection read but may not handle yet: the pipelining cap is reached,
 * or the client is not reading the responses already produced. While any are parked the socket is
 * not read, so TCP pushes back on the client; what is parked is bounded by one read's worth of
 * bytes. Event-loop confined.
 */
final class Backlog {
    private ArrayDeque<Object> parked; // created when a first message parks

    /** Parks {@code msg} and stops reading {@code channel}. */
    void park(Object msg, Channel channel) {
        if (parked == null) parked = new ArrayDeque<>(4);
        parked.add(msg);
        channel.config().setAutoRead(false);
    }

    /** @return whether any message is parked */
    boolean any() {
        return parked != null && !parked.isEmpty();
    }

    /** @return the oldest parked message, still parked, or null */
    Object peek() {
        return parked == null ? null : parked.peek();
    }

    /** @return the oldest parked message, no longer parked, or null */
    Object poll() {
        return parked == null ? null : parked.poll();
    }

    /** The connection closed: every parked message is released. */
    void release() {
        if (parked != null) for (Object m; (m = parked.poll()) != null; ) ReferenceCountUtil.release(m);
    }
}
