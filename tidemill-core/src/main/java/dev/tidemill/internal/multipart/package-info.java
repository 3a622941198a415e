/**
 * {@code multipart/form-data} (RFC 7578 on RFC 2046's framing), written here rather than taken from
 * a library so that every byte rule and limit is ours to state and test: {@link
 * dev.tidemill.internal.multipart.MultipartParser} (push, buffers in, part events out, nothing
 * buffered but one part's header block), {@link dev.tidemill.internal.multipart.MultipartReader}
 * (the blocking {@link dev.tidemill.Multipart} over an {@code InputStream}), {@link
 * dev.tidemill.internal.multipart.MultipartPump} (the non-blocking reader: the parser fed as pieces
 * arrive, content to the handler's {@link dev.tidemill.Multipart.Sink}s) and {@link
 * dev.tidemill.internal.multipart.FormParts} (fields and {@link dev.tidemill.Upload}s for the body
 * binder, large files spooled to a temporary file deleted when the request ends).
 */
package dev.tidemill.internal.multipart;
