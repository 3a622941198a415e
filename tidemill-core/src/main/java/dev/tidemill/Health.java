package dev.tidemill;

import java.util.Objects;

/**
 * The answer of one {@link ReadinessCheck}: healthy or not, and a short detail that
 * {@code /readyz} shows (say what is wrong, never a secret: the body is served to anyone who can
 * reach the endpoint).
 *
 * @param healthy whether the dependency is usable
 * @param detail a short human-readable note; empty for none
 */
public record Health(boolean healthy, String detail) {

    /** Checks the detail. */
    public Health {
        Objects.requireNonNull(detail, "detail");
    }

    /** @return healthy, without detail */
    public static Health ok() {
        return new Health(true, "");
    }

    /** @param detail a short note, e.g. {@code "3 connections idle"} @return healthy */
    public static Health ok(String detail) {
        return new Health(true, detail);
    }

    /** @param detail what is wrong, e.g. {@code "database refused the connection"} @return unhealthy */
    public static Health unhealthy(String detail) {
        return new Health(false, detail);
    }
}
