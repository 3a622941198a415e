/**
 * The HTTP request path, one stage per file: pipeline ({@code PipelineInitializer}), decoding
 * ({@code RequestDecoder}, {@code RequestHeaders}), reading and ordered writing
 * ({@code ConnectionHandler}), checks, routing and coercion ({@code RequestGate}), admission and
 * dispatch ({@code ServerContext}), handler invocation ({@code Invoker}), encoding ({@code Replies})
 * and streaming ({@code StreamingBody}). Start with docs/architecture.md.
 */
package dev.tidemill.internal.http;
