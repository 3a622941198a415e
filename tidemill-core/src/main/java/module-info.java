/**
 * Tidemill's core: the framework and server. Only {@code dev.tidemill}, {@code dev.tidemill.html}, {@code dev.tidemill.datastar} and {@code dev.tidemill.controller}, the API applications
 * type, are exported; the implementation under {@code dev.tidemill.internal} is not readable from
 * outside, whatever its classes' modifiers. No third-party type appears in the exported API, so
 * nothing is required transitively.
 *
 * <p>The optional integrations are {@code requires static}: read when the application puts them in
 * the module graph (its own {@code requires}, or {@code --add-modules}), never resolved because of
 * the core; {@code internal.integration.OptionalDependency} tells whether each is there.
 */
module dev.tidemill {
    exports dev.tidemill;
    exports dev.tidemill.html;
    exports dev.tidemill.datastar;
    /** Controllers' annotations, read by tidemill-processor at compile time (all of CLASS retention). */
    exports dev.tidemill.controller;
    // the fan-out a backend that stores messages elsewhere relays into (LocalTopic.relay)
    exports dev.tidemill.internal.topic to dev.tidemill.redis;

    requires io.netty.buffer;
    requires io.netty.codec;
    requires io.netty.codec.http;
    requires io.netty.codec.http2;
    requires io.netty.codec.compression;
    /** TLS (internal.tls): Netty's SslHandler and contexts, and netty-tcnative's classes for the OpenSSL provider. */
    requires io.netty.handler;
    requires static io.netty.tcnative.classes.openssl;
    requires io.netty.common;
    requires io.netty.transport;
    requires io.netty.transport.classes.epoll;
    requires io.netty.transport.classes.io_uring;
    requires tools.jackson.core;
    requires tools.jackson.databind;
    requires static jakarta.validation;
    requires static org.hibernate.validator;
    requires org.jctools.core;
    requires org.slf4j;
    /** /metrics: meters, JVM binders and the Prometheus registry; no Micrometer type is in the exported API. */
    /** Bearer tokens (internal.auth): JOSE parsing, signatures, JWK sets. */
    requires static com.nimbusds.jose.jwt;
    /** OpenID Connect sign-in (internal.auth): the provider's discovery and token endpoints. */
    requires java.net.http;
    /** ExecutionMode.AUTO reads a handler thread's CPU clock (ThreadMXBean). */
    requires java.management;
    requires static micrometer.core;
    requires static micrometer.registry.prometheus;
    requires static com.github.luben.zstd_jni;
    /** Brotli response compression; the native library is a separate module found as a service. */
    requires static com.aayushatharva.brotli4j;
    /** br request bodies. Google's Brotli decoder ships no module name; "dec" is the automatic name of its jar. */
    requires dec;
    /** sun.misc.Signal, for SIGTERM/SIGINT. */
    requires jdk.unsupported;

    /** Topics: the in-process backend, looked up as a service so that the API names no implementation class. */
    uses dev.tidemill.Topic.Backend;
    /** Controllers: each module's generated index of its @Controller classes (Tidemill.controllers). */
    uses dev.tidemill.ControllerIndex;
    provides dev.tidemill.Topic.Backend with dev.tidemill.internal.topic.LocalTopics;
}
