package dev.tidemill.internal.http1;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;

/**
 * Request headers that count the framing fields the client sent ({@code Content-Length},
 * {@code Transfer-Encoding}, {@code Host}) as the decoder adds them. Netty folds duplicate lengths of
 * an HTTP/1.0 request into one value before anyone sees them, and two lengths are how a request gets
 * smuggled past a proxy that picked the other one; {@link RequestGate} refuses more than one of each.
 * Counting here also spares the gate a {@code getAll} list per header per request.
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
    private int transferEncodingFields;
    private int hostFields;

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
        switch (name.length()) {
            case 4 -> {
                if (HttpHeaderNames.HOST.contentEqualsIgnoreCase(name)) hostFields++;
            }
            case 14 -> {
                if (HttpHeaderNames.CONTENT_LENGTH.contentEqualsIgnoreCase(name)) contentLengthFields++;
            }
            case 17 -> {
                if (HttpHeaderNames.TRANSFER_ENCODING.contentEqualsIgnoreCase(name)) transferEncodingFields++;
            }
            default -> { }
        }
    }

    /** @return how many Content-Length fields were added (by the decoder, one per field line) */
    int contentLengthFields() {
        return contentLengthFields;
    }

    /** @return how many Transfer-Encoding fields were added */
    int transferEncodingFields() {
        return transferEncodingFields;
    }

    /** @return how many Host fields were added */
    int hostFields() {
        return hostFields;
    }
}
