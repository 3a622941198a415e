/**
 * The protocol-neutral half of the request path: an {@code Exchange} per request (the handler's
 * {@code Request}), the {@code ReplySink} seam back to the transport, routing and the checks that
 * need no protocol ({@code RouteGate}), admission and dispatch ({@code Dispatcher},
 * {@code ConcurrencyLimit}), handler invocation ({@code Invoker}) and replies ({@code Replies},
 * {@code StreamedResponseBody}). A transport (HTTP/1.1, HTTP/2) opens exchanges and implements the sink.
 */
package dev.tidemill.internal.exchange;
