package dev.tidemill;

import dev.tidemill.internal.integration.OptionalDependency;
import java.time.Duration;
import java.util.Objects;

/**
 * What a server tells the people who run it: health endpoints, Prometheus metrics and the access
 * log (docs/operations.md). Every default is defined here and only here, in {@link Builder}'s
 * starting values. The endpoints are registered as {@link Route#operational(boolean) operational}
 * routes: they are not counted in request metrics, not logged, never rate limited and not in the
 * OpenAPI document.
 *
 * <p>Health and metrics are on by default, at fixed paths, because what runs a server
 * (Kubernetes probes, a Prometheus scrape) expects them there and the server binds to loopback by
 * default; an app that listens on a public interface and does not want them reachable moves them
 * ({@link Builder#metricsPath}) or turns them off. The access log is off by default: it writes a
 * line per request, which is a decision about volume and storage an app makes.
 *
 * @param health serve {@link #livenessPath()} and {@link #readinessPath()}. Default true.
 * @param livenessPath where liveness is answered. Default {@code /livez}.
 * @param readinessPath where readiness is answered. Default {@code /readyz}.
 * @param metrics record request, connection and worker-loop meters and serve them at
 *     {@link #metricsPath()}; off, nothing is recorded on the request path. Needs
 *     {@code io.micrometer:micrometer-registry-prometheus}. Default true when that jar is present,
 *     false when not; set to true explicitly without it, {@link Builder#build()} throws an
 *     {@link IllegalStateException} naming the artifact.
 * @param metricsPath where the Prometheus scrape is answered. Default {@code /metrics}.
 * @param accessLog write one line per request to the SLF4J logger {@code tidemill.access}.
 *     Default false.
 * @param stuckAfter a worker loop or I/O event loop that has not run a task submitted to it for
 *     this long is stuck, and {@code /livez} fails. 100 ms-1 h; default 10 s.
 * @param readinessTimeout how long one readiness check may take before it counts as failed.
 *     1 ms-1 h; default 2 s.
 */
public record Operations(
        boolean health,
        String livenessPath,
        String readinessPath,
        boolean metrics,
        String metricsPath,
        boolean accessLog,
        Duration stuckAfter,
        Duration readinessTimeout) {

    static final Range STUCK_AFTER = Range.duration("stuckAfter", Duration.ofMillis(100), Duration.ofHours(1));
    static final Range READINESS_TIMEOUT = Range.duration("readinessTimeout", Duration.ofMillis(1), Duration.ofHours(1));

    /** The defaults, as documented on each component. */
    public static final Operations DEFAULTS = new Builder().build();

    /** Checks every field; throws {@link IllegalArgumentException} naming the first bad one. */
    public Operations {
        checkPath("livenessPath", livenessPath);
        checkPath("readinessPath", readinessPath);
        checkPath("metricsPath", metricsPath);
        STUCK_AFTER.check(stuckAfter);
        READINESS_TIMEOUT.check(readinessTimeout);
    }

    private static void checkPath(String field, String path) {
        Objects.requireNonNull(path, field);
        if (!path.startsWith("/") || path.contains("{") || path.chars().anyMatch(c -> c <= 0x20 || c >= 0x7f)) {
            throw new IllegalArgumentException(field + " must be a literal path starting with '/'");
        }
    }

    /** @return a builder holding the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder starting from these settings */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Builder for {@link Operations}; starts from the defaults, which are defined here and nowhere else. */
    public static final class Builder {
        private boolean health = true;
        private String livenessPath = "/livez";
        private String readinessPath = "/readyz";
        /** Null until set: then on exactly when Micrometer is present. */
        private Boolean metrics;
        private String metricsPath = "/metrics";
        private boolean accessLog;
        private Duration stuckAfter = Duration.ofSeconds(10);
        private Duration readinessTimeout = Duration.ofSeconds(2);

        private Builder() {}

        private Builder(Operations o) {
            health = o.health;
            livenessPath = o.livenessPath;
            readinessPath = o.readinessPath;
            metrics = o.metrics;
            metricsPath = o.metricsPath;
            accessLog = o.accessLog;
            stuckAfter = o.stuckAfter;
            readinessTimeout = o.readinessTimeout;
        }

        /** @param v see {@link Operations#health()} @return this */
        public Builder health(boolean v) { health = v; return this; }
        /** @param v see {@link Operations#livenessPath()} @return this */
        public Builder livenessPath(String v) { livenessPath = v; return this; }
        /** @param v see {@link Operations#readinessPath()} @return this */
        public Builder readinessPath(String v) { readinessPath = v; return this; }
        /** @param v see {@link Operations#metrics()}; true needs Micrometer @return this */
        public Builder metrics(boolean v) { metrics = v; return this; }
        /** @param v see {@link Operations#metricsPath()} @return this */
        public Builder metricsPath(String v) { metricsPath = v; return this; }
        /** @param v see {@link Operations#accessLog()} @return this */
        public Builder accessLog(boolean v) { accessLog = v; return this; }
        /** @param v see {@link Operations#stuckAfter()} @return this */
        public Builder stuckAfter(Duration v) { stuckAfter = v; return this; }
        /** @param v see {@link Operations#readinessTimeout()} @return this */
        public Builder readinessTimeout(Duration v) { readinessTimeout = v; return this; }

        /**
         * @return the settings; throws {@link IllegalArgumentException} naming a bad field, and
         *     {@link IllegalStateException} when metrics were set on without Micrometer
         */
        public Operations build() {
            boolean on;
            if (metrics == null) {
                on = OptionalDependency.METRICS.present();
            } else {
                if (metrics) OptionalDependency.METRICS.require("metrics(true), or TIDEMILL_METRICS=true");
                on = metrics;
            }
            return new Operations(health, livenessPath, readinessPath, on, metricsPath, accessLog, stuckAfter,
                    readinessTimeout);
        }
    }
}
