/**
 * HTTP/2 (RFC 9113, HPACK RFC 7541) on Netty's codec: each stream an exchange through the same
 * seam as HTTP/1.1 ({@code internal.exchange.ReplySink}, {@code RequestBodySource}), so routing,
 * coercion, limits, modes, streamed bodies, SSE, compression, metrics and CORS are the ones
 * HTTP/1.1 uses. Reached by ALPN {@code h2} over TLS or by the cleartext connection preface
 * (prior knowledge). Internal: nothing here is exported.
 */
package dev.tidemill.internal.http2;
