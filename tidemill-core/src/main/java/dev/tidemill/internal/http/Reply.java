package dev.tidemill.internal.http;

import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpResponse;

/** What goes back for one exchange: a complete response, or the head of a streamed one. */
sealed interface Reply {

    /** @return whether the connection must close after this reply */
    boolean close();

    /**
     * A complete response with its body (empty for HEAD, 204, 304).
     *
     * @param response the response, its buffer owned by whoever writes or discards it
     * @param close close the connection after it
     */
    record Full(FullHttpResponse response, boolean close) implements Reply {}

    /**
     * The head of a chunked response; chunks follow through the {@link StreamingBody}.
     *
     * @param head status and headers
     * @param body the stream the producer writes to
     * @param close close the connection after the stream ends
     */
    record Stream(HttpResponse head, StreamingBody body, boolean close) implements Reply {}
}
