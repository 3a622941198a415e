/** Server lifecycle: transport selection, binding, the connection cap, environment settings, signals and the Date header. */
package dev.tidemill.internal.server;
