package dev.tidemill.internal.integration;

/**
 * The core's optional dependencies: each turns a feature on when its jar is there (Javalin's
 * {@code OptionalDependency}). Presence is probed once, by loading (not initialising) one class of
 * the library with the core's own class loader: on the class path that finds the jar, on the module
 * path it finds the module only if the application put it in the module graph (the core
 * {@code requires static} it, which reads a module but never resolves one). The classes that use a
 * library are separate from the ones that decide whether to, so none of them is loaded, and no
 * linkage error can happen, when it is absent.
 *
 * <p>The rule per feature, in docs/architecture.md ("Optional integrations"): on by default when
 * the jar is present and quietly off (or a fallback) when not, named in one line of the startup
 * report; asked for explicitly without the jar, the start fails with {@link #require}'s message.
 */
public enum OptionalDependency {
    /** /metrics: Micrometer's Prometheus registry (it brings micrometer-core). */
    METRICS("metrics", "io.micrometer:micrometer-registry-prometheus", "micrometer.registry.prometheus",
            "io.micrometer.prometheusmetrics.PrometheusMeterRegistry", "io.micrometer.core.instrument.MeterRegistry"),
    /** br response compression: brotli4j and its native library for this platform. */
    BROTLI("br compression", "com.aayushatharva.brotli4j:brotli4j", "com.aayushatharva.brotli4j",
            "com.aayushatharva.brotli4j.encoder.Encoder"),
    /** zstd response compression and zstd request bodies. */
    ZSTD("zstd compression", "com.github.luben:zstd-jni", "com.github.luben.zstd_jni", "com.github.luben.zstd.Zstd"),
    /** The OpenSSL TLS provider (BoringSSL through netty-tcnative). */
    OPENSSL("OpenSSL TLS provider", "io.netty:netty-tcnative-boringssl-static", "io.netty.tcnative.classes.openssl",
            "io.netty.internal.tcnative.SSL"),
    /** Bean validation of bound bodies, and their constraints in the OpenAPI schemas. */
    VALIDATION("bean validation", "org.hibernate.validator:hibernate-validator", "org.hibernate.validator",
            "org.hibernate.validator.HibernateValidator", "jakarta.validation.Validation"),
    /** Bearer tokens: JOSE parsing, signature verification and JWK sets. */
    JOSE("bearer tokens", "com.nimbusds:nimbus-jose-jwt", "com.nimbusds.jose.jwt", "com.nimbusds.jwt.SignedJWT"),
    /** Swagger UI's page and files for the OpenAPI document. */
    SWAGGER_UI("Swagger UI", "org.webjars:swagger-ui", "swagger.ui", null);

    private final String feature;
    private final String artifact;
    private final String module;
    /** Classes whose presence means the library is usable; none for a resource-only jar. */
    private final String[] probes;
    private volatile Boolean present;

    OptionalDependency(String feature, String artifact, String module, String... probes) {
        this.feature = feature;
        this.artifact = artifact;
        this.module = module;
        this.probes = probes == null ? new String[0] : probes;
    }

    /** @return what the dependency turns on, e.g. {@code metrics} */
    public String feature() {
        return feature;
    }

    /** @return its Maven coordinates, {@code groupId:artifactId} */
    public String artifact() {
        return artifact;
    }

    /** @return its module name, for an application on the module path */
    public String module() {
        return module;
    }

    /** @return whether the library can be used: its classes (or, for a webjar, its files) are visible to the core */
    public boolean present() {
        Boolean p = present;
        if (p == null) present = p = probe();
        return p;
    }

    private boolean probe() {
        ClassLoader loader = OptionalDependency.class.getClassLoader();
        if (this == SWAGGER_UI) {
            return (loader == null ? ClassLoader.getSystemClassLoader() : loader)
                    .getResource("META-INF/maven/org.webjars/swagger-ui/pom.properties") != null;
        }
        for (String name : probes) {
            try {
                Class.forName(name, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                return false;
            }
        }
        return true;
    }

    /**
     * @param asked what asked for the feature, e.g. {@code TIDEMILL_METRICS=true or Operations.metrics(true)}
     * @throws IllegalStateException naming the artifact to add when it is absent
     */
    public void require(String asked) {
        if (!present()) throw new IllegalStateException(missing(asked));
    }

    /**
     * @param asked what asked for the feature
     * @return the message for a feature asked for without its jar
     */
    public String missing(String asked) {
        return feature + " was asked for (" + asked + ") but needs " + artifact + ", which is not on the class path; add "
                + "that dependency (on the module path also `requires " + module + "` or --add-modules " + module
                + "), or stop asking for " + feature;
    }

    /** @return the startup report's words for this feature being off: what is off and what turns it on */
    public String off() {
        return feature + " (add " + artifact + ")";
    }
}
