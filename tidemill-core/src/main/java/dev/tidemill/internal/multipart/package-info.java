/**
 * {@code multipart/form-data} (RFC 7578 on RFC 2046's framing), written here rather than taken from
 * a library so that every byte rule and limit is ours to state and test: {@link
 * dev.tidemill.internal.multipart.MultipartParser} (push, byte chunks in, part events out, nothing
 * buffered but one part's header block), {@link dev.tidemill.internal.multipart.MultipartReader}
 * (the blocking {@link dev.tidemill.Multipart} over an {@code InputStream}) and {@link
 * dev.tidemill.internal.multipart.FormParts} (fields and {@link dev.tidemill.Upload}s for the body
 * binder, large files spooled to a temporary file deleted when the request ends).
 */
package dev.tidemill.internal.multipart;
