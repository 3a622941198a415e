package dev.tidemill;

import java.io.IOException;
import java.io.OutputStream;

/** Reads and writes JSON. The default is Jackson 3; replace it with {@link Tidemill#json(JsonCodec)}. */
public interface JsonCodec {

    /**
     * @param value a record, collection, map or scalar
     * @param out where to write the UTF-8 JSON
     * @throws IOException if writing fails
     */
    void write(Object value, OutputStream out) throws IOException;

    /**
     * @param json UTF-8 JSON bytes
     * @param type target type
     * @param <T> target type
     * @return the value
     * @throws MalformedJsonException if the bytes are not JSON of that shape (answered with 400)
     */
    <T> T read(byte[] json, Class<T> type);

    /** The body is not JSON, or not JSON of the expected shape. */
    class MalformedJsonException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /** @param message what was wrong and where; sent to the client as the problem's detail */
        public MalformedJsonException(String message) {
            super(message, null, false, false);
        }
    }
}
