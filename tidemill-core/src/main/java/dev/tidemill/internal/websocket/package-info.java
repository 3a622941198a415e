/**
 * WebSocket (RFC 6455, permessage-deflate RFC 7692) as a protocol that takes a connection over
 * after its handshake: {@code WebSocketUpgrade} checks the handshake and answers it (the 101 goes
 * out through the ordinary reply path, carrying a {@code ConnectionTakeover}); {@code Takeover}
 * installs Netty's frame codec, our frame checks and the {@code WebSocketConnection} that runs
 * the protocol (reassembly, limits, control frames, the closing handshake, ping and idle timers);
 * {@code Session} is the handler's {@code WebSocket} and {@code Callbacks} runs the handler in the
 * route's execution mode, one callback at a time.
 */
package dev.tidemill.internal.websocket;
