/** Radix-tree routing, percent-decoding, query parsing and typed-parameter coercion; pure logic, no Netty. */
package dev.tidemill.internal.routing;
