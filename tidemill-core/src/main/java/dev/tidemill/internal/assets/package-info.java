/**
 * Static assets: the catalogue built at start (a directory scanned, resources added by name, each
 * hashed and precompressed), the request path's decoding into a catalogue key, the conditional
 * and range headers, and the handler that answers from it. Not exported.
 */
package dev.tidemill.internal.assets;
