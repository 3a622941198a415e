package dev.tidemill.internal.server;

import dev.tidemill.Config;
import dev.tidemill.internal.codec.ContentEncoding;
import dev.tidemill.internal.integration.OptionalDependency;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The startup report's line naming the optional integrations that are off because their jar is
 * absent, and the artifact that turns each on. A feature asked for explicitly never gets here: its
 * absence already failed the build of its settings or the start.
 */
final class AbsentIntegrations {
    private AbsentIntegrations() {}

    /** @return the line, or empty when every integration is present */
    static Optional<String> line(Config config) {
        List<String> off = new ArrayList<>();
        if (!OptionalDependency.METRICS.present()) off.add("metrics, " + config.operations().metricsPath() + " not served ("
                + "add " + OptionalDependency.METRICS.artifact() + ")");
        if (config.compression().enabled()) {
            ContentEncoding.brotliMissing().ifPresent(a -> off.add("br compression (add " + a + ")"));
            if (!ContentEncoding.zstdAvailable()) off.add("zstd compression and zstd request bodies (add "
                    + OptionalDependency.ZSTD.artifact() + ")");
        }
        if (config.tls().enabled() && !OptionalDependency.OPENSSL.present()) {
            off.add("OpenSSL TLS provider, the JDK's serves (add " + OptionalDependency.OPENSSL.artifact() + ")");
        }
        if (!OptionalDependency.VALIDATION.present()) off.add("bean validation of bodies (add "
                + OptionalDependency.VALIDATION.artifact() + ")");
        if (!OptionalDependency.JOSE.present()) off.add("bearer tokens (add " + OptionalDependency.JOSE.artifact() + ")");
        if (!OptionalDependency.SWAGGER_UI.present()) off.add("Swagger UI for OpenApi (add "
                + OptionalDependency.SWAGGER_UI.artifact() + ")");
        return off.isEmpty() ? Optional.empty() : Optional.of("optional integrations off, their jars absent: " + String.join("; ", off));
    }
}
