/**
 * What a server tells the people who run it: {@code /livez} ({@link dev.tidemill.internal.ops.Heartbeats}),
 * {@code /readyz} ({@link dev.tidemill.internal.ops.Readiness}), {@code /metrics} (through {@link dev.tidemill.internal.ops.Meters}: Micrometer's
 * Prometheus registry when it is present) and the access log
 * ({@link dev.tidemill.internal.ops.AccessLog}), wired by {@link dev.tidemill.internal.ops.Operational}.
 * The request path reaches this package only through the exchange's
 * {@link dev.tidemill.internal.exchange.ServerObserver} and the per-route
 * {@link dev.tidemill.internal.exchange.RouteObserver} resolved at start. See docs/operations.md.
 */
package dev.tidemill.internal.ops;
