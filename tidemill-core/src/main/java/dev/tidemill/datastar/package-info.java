/**
 * Datastar (hypermedia over Server-Sent Events) on the server side: the events that patch a page's
 * elements and signals ({@link dev.tidemill.datastar.Datastar#patchElements},
 * {@link dev.tidemill.datastar.Datastar#patchSignals}, execute-script and redirect), the attributes
 * and {@code @get/@post...} actions a page built with {@link dev.tidemill.html.Tags} carries, and
 * the signals a request brings ({@link dev.tidemill.datastar.Datastar#readSignals}, bounded by
 * {@link dev.tidemill.datastar.SignalLimits}).
 *
 * <p>Two wire dialects sit behind the one API ({@link dev.tidemill.datastar.Dialect}): the 1.0
 * protocol by default, and the pre-1.0 one of the {@code @starfederation/datastar 1.0.0-beta.11}
 * browser client. See docs/datastar.md for the mapping between them and what cannot be mapped.
 */
package dev.tidemill.datastar;
