package dev.tidemill.internal.http1;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;

/**
 * Request headers that capture the fields the request path decides on while the decoder adds
 * them, so nothing looks them up again afterwards: how many {@code Content-Length},
 * {@code Transfer-Encoding} and {@code Host} fields came (Netty folds an HTTP/1.0 request's
 * duplicate lengths into one value before anyone sees them, and two lengths are how a request
 * gets smuggled past a proxy that picked the other one; {@link HeadChecks} refuses more than one
 * of each), and the first value of each of those and of {@code Connection} and {@code Expect}.
 *
 * <p>No validation here: {@link HeadValidator} has already checked every byte of the head against
 * the grammar (names are tokens, values carry no control byte but HTAB, no bare CR or LF) before
 * Netty's parser sees it, and a head it let through unchecked is past the size limits, which
 * Netty refuses before building any header. Netty's own name and value validation would scan the
 * same bytes a second time.
 */
final class RequestHeaders extends HeaderFields {
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
    private String contentLength;
    private String transferEncoding;
    private String host;
    private String connection;
    private String expect;

    RequestHeaders() {}

    @Override
    void added(String name, String value) {
        capture(name, value);
    }

    @Override
    public HttpHeaders copy() {
        RequestHeaders copy = new RequestHeaders();
        copyFieldsTo(copy);
        copy.contentLengthFields = contentLengthFields;
        copy.transferEncodingFields = transferEncodingFields;
        copy.hostFields = hostFields;
        copy.contentLength = contentLength;
        copy.transferEncoding = transferEncoding;
        copy.host = host;
        copy.connection = connection;
        copy.expect = expect;
        return copy;
    }

    private void capture(String name, String value) {
        switch (name.length()) {
            case 4 -> {
                if (HttpHeaderNames.HOST.contentEqualsIgnoreCase(name) && hostFields++ == 0) host = value.toString();
            }
            case 6 -> {
                if (HttpHeaderNames.EXPECT.contentEqualsIgnoreCase(name)) expect = join(expect, value);
            }
            case 10 -> {
                if (HttpHeaderNames.CONNECTION.contentEqualsIgnoreCase(name)) connection = join(connection, value);
            }
            case 14 -> {
                if (HttpHeaderNames.CONTENT_LENGTH.contentEqualsIgnoreCase(name) && contentLengthFields++ == 0) {
                    contentLength = value.toString();
                }
            }
            case 17 -> {
                if (HttpHeaderNames.TRANSFER_ENCODING.contentEqualsIgnoreCase(name) && transferEncodingFields++ == 0) {
                    transferEncoding = value.toString();
                }
            }
            default -> { }
        }
    }

    /** Several fields of a list-valued header mean the same as one field with the values comma-joined (RFC 9110 5.3). */
    private static String join(String sofar, Object value) {
        return sofar == null ? value.toString() : sofar + ", " + value;
    }

    /**
     * @param list a comma-separated field value, or null
     * @param token a token
     * @return whether one of the list's elements is {@code token}, ignoring case and optional whitespace
     */
    static boolean hasToken(String list, String token) {
        if (list == null) return false;
        int n = list.length();
        int i = 0;
        while (i < n) {
            while (i < n && (list.charAt(i) == ' ' || list.charAt(i) == '\t' || list.charAt(i) == ',')) i++;
            int start = i;
            while (i < n && list.charAt(i) != ',') i++;
            int end = i;
            while (end > start && (list.charAt(end - 1) == ' ' || list.charAt(end - 1) == '\t')) end--;
            if (end - start == token.length() && list.regionMatches(true, start, token, 0, token.length())) return true;
        }
        return false;
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

    /** @return the first Content-Length value, or null */
    String contentLength() {
        return contentLength;
    }

    /** @return the first Transfer-Encoding value, or null */
    String transferEncoding() {
        return transferEncoding;
    }

    /** @return the first Host value, or null */
    String host() {
        return host;
    }

    /** @return every Connection value, comma-joined, or null */
    String connection() {
        return connection;
    }

    /** @return every Expect value, comma-joined, or null */
    String expect() {
        return expect;
    }
}
