/**
 * Protocol choice, in one place: which protocol serves a connection and how a connection switches
 * from one to another. The cleartext port starts every connection on HTTP/1.1 and lets HTTP/2 take
 * it over on its client preface (prior knowledge) or on an h2c Upgrade; the TLS port installs what
 * ALPN chose; a handler's {@code Response.webSocket(...)} switches an HTTP/1.1 connection to
 * WebSocket. Each protocol package knows only the exchange package and its own handlers; this one
 * knows them all, and nothing but the server's assembly knows this one.
 */
package dev.tidemill.internal.protocol;
