package dev.tidemill.testing;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.ProtocolException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Buffered reading from a socket: CRLF lines, exact byte counts, reads until EOF. Every blocking
 * read is bounded by the socket's read timeout; a timeout is reported as a
 * {@link SocketTimeoutException} naming what was being read. Not thread-safe.
 */
final class HttpInput {
    /** Longest status, header, chunk-size or trailer line accepted. */
    static final int MAX_LINE = 64 * 1024;
    /** Most bytes one response body (or one read-until-close) may have. */
    static final int MAX_BODY = 256 * 1024 * 1024;

    private final Pipe pipe;
    private final InputStream in;
    private final int timeoutMillis;
    private byte[] buf = new byte[8192];
    private int pos;
    private int lim;
    private boolean eof;
    private String context = "the response";

    HttpInput(Pipe pipe, int timeoutMillis) throws IOException {
        this.pipe = pipe;
        this.in = pipe.input();
        this.timeoutMillis = timeoutMillis;
    }

    /** @param what what is read next, for error messages, e.g. "the status line" */
    void context(String what) {
        context = what;
    }

    String context() {
        return context;
    }

    int buffered() {
        return lim - pos;
    }

    /**
     * Reads once more from the socket into the buffer (growing it if full).
     *
     * @return false at EOF
     */
    boolean fill() throws IOException {
        if (eof) return false;
        if (pos == lim) {
            pos = 0;
            lim = 0;
        } else if (lim == buf.length) {
            if (pos > 0) {
                System.arraycopy(buf, pos, buf, 0, lim - pos);
                lim -= pos;
                pos = 0;
            } else {
                if (buf.length >= MAX_BODY) {
                    throw new ProtocolException("more than " + MAX_BODY + " bytes buffered while reading " + context);
                }
                buf = Arrays.copyOf(buf, Math.min(MAX_BODY, buf.length * 2));
            }
        }
        int n;
        try {
            n = in.read(buf, lim, buf.length - lim);
        } catch (SocketTimeoutException e) {
            throw timeout(e);
        }
        if (n < 0) {
            eof = true;
            return false;
        }
        lim += n;
        return true;
    }

    private SocketTimeoutException timeout(SocketTimeoutException cause) throws SocketTimeoutException {
        int ms;
        try {
            ms = pipe.readTimeout();
        } catch (IOException e) {
            ms = timeoutMillis;
        }
        SocketTimeoutException e = new SocketTimeoutException(
                "no data from the server for " + ms + " ms while reading " + context
                        + (buffered() > 0 ? "; unparsed bytes so far: " + preview(buf, pos, lim - pos) : ""));
        e.initCause(cause);
        return e;
    }

    /**
     * Waits up to {@code millis} for at least one byte (or EOF).
     *
     * @return true if bytes are buffered, false on EOF or when nothing came in time
     */
    boolean awaitData(int millis) throws IOException {
        return probe(millis) > 0;
    }

    /**
     * Waits up to {@code millis} for a byte or the end of the connection.
     *
     * @return 1 if bytes are buffered, 0 if nothing came in time, -1 if the server closed the
     *     connection (EOF or reset) with nothing buffered
     */
    int probe(long millis) throws IOException {
        if (buffered() > 0) return 1;
        if (eof) return -1;
        int old = pipe.readTimeout();
        pipe.readTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, millis)));
        try {
            return fill() ? 1 : -1;
        } catch (SocketTimeoutException e) {
            return 0;
        } catch (SocketException e) {
            eof = true; // reset by peer
            return -1;
        } finally {
            if (!pipe.isClosed()) pipe.readTimeout(old);
        }
    }

    /**
     * @return true if the server closed the connection (EOF, or a reset) with nothing buffered
     *     within {@code millis}; bytes that arrive meanwhile stay buffered
     */
    boolean awaitEof(long millis) throws IOException {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        int old = pipe.readTimeout();
        try {
            while (true) {
                if (eof) return true;
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (left <= 0) return false;
                pipe.readTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, left)));
                try {
                    fill();
                } catch (SocketTimeoutException e) {
                    return false;
                } catch (SocketException e) {
                    eof = true; // reset by peer: closed as well
                    return true;
                }
            }
        } finally {
            if (!pipe.isClosed()) pipe.readTimeout(old);
        }
    }

    /** @return true if the connection is at EOF and nothing is buffered (reads if needed) */
    boolean atEnd() throws IOException {
        if (buffered() > 0) return false;
        return !fill();
    }

    /**
     * Reads one CRLF-terminated line (without the CRLF) as ISO-8859-1. A bare LF, a line longer
     * than {@link #MAX_LINE} or EOF in the middle of the line fail.
     */
    String readLine() throws IOException {
        int scanned = 0;
        while (true) {
            for (int i = pos + scanned; i < lim; i++) {
                if (buf[i] == '\n') {
                    if (i == pos || buf[i - 1] != '\r') {
                        throw new ProtocolException("line ended by a bare LF (no CR) while reading " + context + ": "
                                + preview(buf, pos, i + 1 - pos));
                    }
                    String line = new String(buf, pos, i - 1 - pos, StandardCharsets.ISO_8859_1);
                    pos = i + 1;
                    return line;
                }
            }
            scanned = lim - pos;
            if (scanned > MAX_LINE) {
                throw new ProtocolException("line longer than " + MAX_LINE + " bytes while reading " + context);
            }
            if (!fill()) {
                throw new EOFException("the server closed the connection "
                        + (scanned == 0 ? "before " : "in the middle of ") + context
                        + (scanned > 0 ? "; received: " + preview(buf, pos, scanned) : ""));
            }
        }
    }

    /** Reads exactly {@code n} bytes; EOF before that fails naming how many arrived. */
    byte[] readExactly(long n) throws IOException {
        if (n > MAX_BODY) throw new ProtocolException(context + " of " + n + " bytes is over the limit of " + MAX_BODY);
        byte[] out = new byte[(int) n];
        int got = Math.min(out.length, lim - pos);
        System.arraycopy(buf, pos, out, 0, got);
        pos += got;
        while (got < out.length) {
            int r;
            try {
                r = in.read(out, got, out.length - got);
            } catch (SocketTimeoutException e) {
                throw timeout(e);
            }
            if (r < 0) {
                eof = true;
                throw new EOFException("the server closed the connection after " + got + " of " + n
                        + " bytes of " + context);
            }
            got += r;
        }
        return out;
    }

    /**
     * Returns buffered bytes, or reads once, at most {@code max}.
     *
     * @return the bytes, or null at EOF
     */
    byte[] readSome(int max) throws IOException {
        if (buffered() == 0 && !fill()) return null;
        int n = Math.min(max, lim - pos);
        byte[] out = Arrays.copyOfRange(buf, pos, pos + n);
        pos += n;
        return out;
    }

    /**
     * Reads until EOF.
     *
     * @param resetIsEof treat a connection reset as the end instead of failing
     */
    byte[] readToEof(boolean resetIsEof) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true) {
            out.write(buf, pos, lim - pos);
            pos = lim;
            if (out.size() > MAX_BODY) {
                throw new ProtocolException("more than " + MAX_BODY + " bytes while reading " + context);
            }
            try {
                if (!fill()) return out.toByteArray();
            } catch (SocketException e) {
                if (!resetIsEof) throw e;
                eof = true;
                return out.toByteArray();
            } catch (SocketTimeoutException e) {
                SocketTimeoutException t = new SocketTimeoutException(e.getMessage() + "; received before that: "
                        + out.size() + " bytes: " + preview(out.toByteArray(), 0, out.size()));
                t.initCause(e);
                throw t;
            }
        }
    }

    /** @return up to 200 bytes, printable ASCII kept, others escaped, quoted */
    static String preview(byte[] b, int off, int len) {
        StringBuilder s = new StringBuilder("\"");
        int n = Math.min(len, 200);
        for (int i = off; i < off + n; i++) {
            int c = b[i] & 0xff;
            switch (c) {
                case '\r' -> s.append("\\r");
                case '\n' -> s.append("\\n");
                case '\t' -> s.append("\\t");
                case '"' -> s.append("\\\"");
                case '\\' -> s.append("\\\\");
                default -> {
                    if (c >= 0x20 && c < 0x7f) s.append((char) c);
                    else s.append(String.format("\\x%02x", c));
                }
            }
        }
        s.append('"');
        if (len > n) s.append("... (").append(len).append(" bytes)");
        return s.toString();
    }
}
