/**
 * HTTP/1.1 over TCP: the transport side of the exchange seam. The pipeline is
 * {@code RequestDecoder} (strict head check, then Netty's parser) followed by
 * {@code Http1Connection} (the read state machine), which opens an exchange per request with the
 * connection's {@code ReplyWriter} as its {@code ReplySink}; responses are encoded to bytes by
 * {@code ResponseEncoder}. Start with docs/architecture.md.
 */
package dev.tidemill.internal.http1;
