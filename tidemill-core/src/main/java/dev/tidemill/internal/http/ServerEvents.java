package dev.tidemill.internal.http;

/** Events the server sends down a connection's pipeline. */
public enum ServerEvents {
    /** Graceful shutdown began: close now if idle, else after the in-flight requests. */
    DRAIN
}
