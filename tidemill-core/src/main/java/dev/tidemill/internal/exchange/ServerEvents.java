package dev.tidemill.internal.exchange;

/** Events the server sends down every connection's pipeline, whatever its protocol. */
public enum ServerEvents {
    /** Graceful shutdown began: close now if idle, else after the in-flight requests. */
    DRAIN
}
