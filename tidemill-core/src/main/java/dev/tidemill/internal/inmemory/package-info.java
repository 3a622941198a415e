/**
 * The in-memory transport behind {@link dev.tidemill.Tidemill#inMemory()}: the HTTP/1.1 pipeline
 * on an {@code EmbeddedChannel} per connection, its handlers on one real event loop, the bytes in
 * and out kept in memory.
 */
package dev.tidemill.internal.inmemory;
