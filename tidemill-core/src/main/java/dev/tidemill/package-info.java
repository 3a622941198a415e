/**
 * Tidemill's public API: {@link dev.tidemill.Tidemill} (the app), {@link dev.tidemill.Config}
 * (settings and their defaults), {@link dev.tidemill.Request} and {@link dev.tidemill.Response},
 * typed {@link dev.tidemill.Param}eters, {@link dev.tidemill.Filter}s and
 * {@link dev.tidemill.Problem} details. Everything under {@code dev.tidemill.internal} is
 * implementation and may change without notice.
 */
package dev.tidemill;
