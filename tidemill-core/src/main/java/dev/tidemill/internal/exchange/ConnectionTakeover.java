package dev.tidemill.internal.exchange;

import io.netty.channel.Channel;

/**
 * What runs a connection after a {@code 101 Switching Protocols}: the other half of a protocol
 * upgrade. The transport writes the 101, removes its own handlers, and calls {@link #install}
 * before handing over the bytes that followed the request (they reach the installed handlers as
 * the first read). This is how another protocol (WebSocket) plugs into a connection without
 * the HTTP/1.1 code knowing anything about it.
 */
public interface ConnectionTakeover {

    /**
     * Adds this protocol's handlers at the end of {@code channel}'s pipeline. On the channel's
     * event loop, after the 101 was flushed.
     *
     * @param channel the connection
     */
    void install(Channel channel);

    /** The 101 was never written (the peer left first): release what the takeover holds. */
    void abandoned();
}
