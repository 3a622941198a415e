package dev.tidemill.internal.http;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;

/**
 * Request headers that remember how many {@code Content-Length} fields the client sent. Netty folds
 * duplicates of an HTTP/1.0 request into one value before anyone sees them, and two lengths are how
 * a request gets smuggled past a proxy that picked the other one, so the count is kept as the
 * decoder adds each field and {@link RequestGate} refuses more than one.
 */
final class RequestHeaders extends DefaultHttpHeaders {
    static final HttpHeadersFactory FACTORY = new HttpHeadersFactory() {
        @Override
        public HttpHeaders newHeaders() {
            return new RequestHeaders();
        }

        @Override
        public HttpHeaders newEmptyHeaders() {
            return new RequestHeaders();
        }
    };

    private int contentLengthFields;

    @Override
    public HttpHeaders add(String name, Object value) {
        count(name);
        return super.add(name, value);
    }

    @Override
    public HttpHeaders add(CharSequence name, Object value) {
        count(name);
        return super.add(name, value);
    }

    private void count(CharSequence name) {
        if (HttpHeaderNames.CONTENT_LENGTH.contentEqualsIgnoreCase(name)) contentLengthFields++;
    }

    /** @return how many Content-Length fields were added (by the decoder, one per field line) */
    int contentLengthFields() {
        return contentLengthFields;
    }
}
