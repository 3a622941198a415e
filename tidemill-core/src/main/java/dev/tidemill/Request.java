package dev.tidemill;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;

/**
 * One HTTP request, as a handler sees it: the head and declared parameters already checked, the
 * body fully read (within {@link Limits#maxBodyBytes()}), or, on a route with
 * {@link Route#streamedBody()}, ready to be read as it arrives ({@link #bodyStream()}).
 */
public interface Request {

    /** @return the method, upper case, e.g. {@code GET} */
    String method();

    /** @return the path as sent, still percent-encoded, without the query string */
    String path();

    /** @return the route pattern that matched, e.g. {@code /items/{id}} */
    String routePattern();

    /**
     * @param param a parameter declared on the route with {@link Route#params}
     * @param <T> its value type
     * @return the coerced value
     * @throws IllegalArgumentException if the route did not declare it
     */
    <T> T param(Param<T> param);

    /**
     * @param name a {@code {name}} segment of the route pattern
     * @return its percent-decoded text
     * @throws IllegalArgumentException if the pattern has no such segment
     */
    String pathParam(String name);

    /** @param name query key @return its first value, percent-decoded, if present */
    Optional<String> query(String name);

    /** @param name header name, any case @return its first value, if present */
    Optional<String> header(String name);

    /** @param name header name, any case @return every value, in order; empty if absent */
    List<String> headers(String name);

    /** @param name cookie name @return its value, if the {@code Cookie} header carries it */
    Optional<String> cookie(String name);

    /**
     * @return the body bytes; empty for a request without a body. On a route with
     *     {@link Route#streamedBody()} this reads the whole stream, blocking (not on the event loop)
     */
    byte[] body();

    /**
     * @return the body as it arrives, on a route declared with {@link Route#streamedBody()}
     * @throws IllegalStateException on any other route (its body was read whole before the handler ran)
     */
    RequestBody bodyStream();

    /** @return the body decoded as text, in the charset of {@code Content-Type} (UTF-8 by default) */
    String bodyText();

    /**
     * Binds the body to a type: JSON ({@code application/json} or {@code +json}), a URL-encoded form
     * ({@code application/x-www-form-urlencoded}) or a multipart form ({@code multipart/form-data}:
     * text fields like a URL-encoded form's, file parts into components of type {@link Upload} or
     * {@code List<Upload>}), then validates it with Bean Validation. A file larger than
     * {@link Limits#uploadMemoryBytes()} is spooled to a temporary file deleted when the request ends.
     * Failures throw {@link ProblemException}: 415 for a missing or unsupported content type, 400
     * for malformed JSON or a malformed multipart body, 413 past a multipart limit
     * ({@link Limits#maxParts()}, {@link Limits#maxPartHeaderBytes()}, {@link Limits#maxFieldBytes()},
     * {@link Limits#maxFileBytes()}), 422 with one {@code errors} entry per violated field.
     *
     * @param type a record or bean
     * @param <T> the type
     * @return the bound, valid value
     */
    <T> T body(Class<T> type);

    /**
     * @return the app's JSON codec ({@code Tidemill.json(...)}, else Tidemill's default), the one
     *     {@link #body(Class)} binds with, for JSON a handler finds elsewhere (Datastar's signals in
     *     a query parameter). A {@code Request} that is not the server's own (a test's stand-in)
     *     answers Tidemill's default codec.
     */
    default JsonCodec json() {
        return dev.tidemill.internal.codec.JacksonCodec.DEFAULT;
    }

    /**
     * The body as a {@code multipart/form-data} form (RFC 7578), part by part: see {@link Multipart}.
     * For binding a whole form into a record (text fields and {@link Upload} components), use
     * {@link #body(Class)} instead. Blocking: call it from the handler's thread.
     *
     * @return the parts, none read yet
     * @throws ProblemException 415 when the body is not {@code multipart/form-data}, 400 for a
     *     missing or invalid boundary
     */
    Multipart multipart();

    /**
     * The body as a {@code multipart/form-data} form (RFC 7578), read without blocking: each part's
     * headers go to {@code parts}, which names the {@link Multipart.Sink} that takes its content,
     * piece by piece as it arrives, with no copy beyond the parser's. For IO and LOOP handlers (it
     * works in VIRTUAL too); on a route declared with {@link Route#streamedBody()} the body is
     * parsed as it is read, within {@link Limits#bodyHighWaterBytes()}, else from memory.
     *
     * <pre>{@code
     * app.post("/upload", req -> {
     *     Multipart.FileSink file = Multipart.Sink.toFile(dir.resolve(UUID.randomUUID() + ".bin"), 1L << 30);
     *     return req.multipart(part -> part.name().equals("file") ? file : Multipart.Sink.skip())
     *             .thenApply(done -> Map.of("bytes", file.bytes()));
     * }).streamedBody().maxBodyBytes(1L << 30);
     * }</pre>
     *
     * @param parts told about each part, in order
     * @return completes once the final boundary was read, every part's sink ended and every file
     *     closed; fails with a {@link ProblemException} as {@link Multipart} describes (400, 413, or
     *     the streamed body's own faults), or with what a sink threw
     * @throws ProblemException 415 when the body is not {@code multipart/form-data}, 400 for a
     *     missing or invalid boundary
     */
    java.util.concurrent.CompletionStage<Void> multipart(Multipart.PartHandler parts);

    /** @param name attribute name @return a value set by a filter with {@link #attribute(String, Object)} */
    Optional<Object> attribute(String name);

    /**
     * @return who called and how ({@link Principal#via()}), on a route with a {@link Requirement}
     *     that the request met; empty on a route without one (nothing is authenticated there)
     */
    default Optional<Principal> principal() {
        return Optional.empty();
    }

    /**
     * @return the caller's session on an app with {@link Sessions} (a new one, stored only once
     *     something is put in it or someone logs in, when the request brought none); empty otherwise
     */
    default Optional<Session> session() {
        return Optional.empty();
    }

    /** @param name attribute name @param value value, visible to later filters and the handler */
    void attribute(String name, Object value);

    /**
     * @return the client certificate chain the TLS handshake verified (mTLS,
     *     {@link Tls#clientAuth()}), the client's own certificate first; empty over plain HTTP or
     *     when the client sent none
     */
    default List<java.security.cert.X509Certificate> tlsPeerCertificates() {
        return List.of();
    }

    /**
     * @return the verified client certificate's subject ({@link #tlsPeerCertificates()}'s first),
     *     e.g. {@code CN=alice,O=Example}; empty without one
     */
    default Optional<java.security.Principal> tlsPrincipal() {
        List<java.security.cert.X509Certificate> chain = tlsPeerCertificates();
        return chain.isEmpty() ? Optional.empty() : Optional.of(chain.get(0).getSubjectX500Principal());
    }

    /** @return the client's address */
    InetSocketAddress remoteAddress();

    /**
     * @return the protocol that carried the request, as a servlet container names it:
     *     {@code HTTP/1.1}, {@code HTTP/1.0} or {@code HTTP/2.0} (a WebSocket opened by an HTTP/2
     *     extended CONNECT, RFC 8441, reports {@code HTTP/2.0}); {@code HTTP/1.1} by default
     */
    default String protocol() {
        return "HTTP/1.1";
    }

    /**
     * The client's address: the socket's peer, or, when the peer is a trusted proxy
     * ({@link Config#trustedProxies()}), the address its {@code X-Forwarded-For} or
     * {@code Forwarded} header names. Rate limits key by it. A peer that is not an IP socket (an
     * in-memory channel) is reported as the loopback address.
     *
     * @return the client's IP address
     */
    default java.net.InetAddress clientAddress() {
        InetSocketAddress a = remoteAddress();
        return a.getAddress() != null ? a.getAddress() : java.net.InetAddress.getLoopbackAddress();
    }

    /**
     * @return this request's id: the client's {@code X-Request-Id} when it is 1-200 characters of
     *     {@code [A-Za-z0-9._-]}, else one generated on first call (16 lowercase hex digits). The
     *     id known when the response is written is echoed in its {@code X-Request-Id} header and
     *     written to the access log (docs/operations.md).
     */
    String requestId();

    /**
     * @return the caller's W3C trace context, when the request carries exactly one valid
     *     {@code traceparent} header; what a tracer needs to continue the trace
     */
    Optional<TraceParent> traceParent();
}
