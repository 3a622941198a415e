package dev.tidemill.internal.exchange;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.List;

/**
 * What goes back for one exchange, before any protocol framing: status, the handler's headers,
 * content type, body and length. The transport turns it into bytes ({@code http1.ResponseEncoder}
 * for HTTP/1.1) and adds what is its own: status line, {@code Connection}, chunked coding,
 * {@code Date}, {@code Server}.
 *
 * @param exchange the exchange this answers (so a reply can travel between threads alone)
 * @param status the status code, 200-599 (1xx are the transport's business)
 * @param headers the handler's headers, name/value pairs, with {@code Content-Length},
 *     {@code Transfer-Encoding} and {@code Connection} already removed
 * @param contentType the content type to send unless {@code headers} names one; null for none
 * @param body the body bytes, owned by whoever writes or discards the reply; empty for HEAD,
 *     1xx, 204, 304 and a file body
 * @param contentLength the {@code Content-Length} to send (a HEAD keeps the GET's), or -1 for none
 *     (204, 304, a streamed body, the HEAD of a streamed body)
 * @param stream the streamed body whose chunks follow, or null
 * @param close the connection must close after this reply (the handler said
 *     {@code Connection: close}, or the request can no longer be trusted)
 * @param takeover for a {@code 101 Switching Protocols}: what runs the connection once the head
 *     is written (the transport hands it the connection); null otherwise
 * @param file a body that stays on disk, sent after the head ({@code contentLength} is its
 *     length, {@code body} is empty); null otherwise. The transport owns it with the reply and
 *     closes it ({@link #release()} does, for a reply never written)
 */
public record Reply(Exchange exchange, int status, List<String> headers, CharSequence contentType, ByteBuf body, long contentLength,
        StreamedResponseBody stream, boolean close, ConnectionTakeover takeover, FileBody file) {

    /** A reply that keeps the connection's protocol. */
    public Reply(Exchange exchange, int status, List<String> headers, CharSequence contentType, ByteBuf body, long contentLength,
            StreamedResponseBody stream, boolean close) {
        this(exchange, status, headers, contentType, body, contentLength, stream, close, null, null);
    }

    /** @return the same reply, closing the connection after it */
    Reply closing() {
        return close ? this : new Reply(exchange, status, headers, contentType, body, contentLength, stream, true, takeover, file);
    }

    /** @return whether the body is a file region that follows the head ({@link #file()}) */
    public boolean fromFile() {
        return file != null;
    }

    /** @return whether this is the head of a streamed body */
    public boolean streamed() {
        return stream != null;
    }

    /** @return whether the connection changes protocol after this reply (a {@code 101}) */
    public boolean upgrades() {
        return takeover != null;
    }

    /** Releases the body buffer, for a reply that will never be written. */
    public void release() {
        if (body != Unpooled.EMPTY_BUFFER) body.release();
        if (file != null) file.close();
    }
}
