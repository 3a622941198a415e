package dev.tidemill.internal.multipart;

import dev.tidemill.Limits;
import dev.tidemill.ProblemException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A push parser for {@code multipart/form-data} (RFC 7578 on RFC 2046 section 5.1 framing): feed
 * it the body in chunks of any size, then call {@link #finish()}; it reports each part to a
 * {@link PartListener} as it goes. It holds one part's header block (at most
 * {@link Limits#maxPartHeaderBytes()}) and nothing of any content: content is handed on as slices
 * of the caller's chunks. Chunks are {@link ByteBuffer}s, heap or direct, read with absolute
 * indexes: a socket's direct buffer is parsed where it lies, not copied into an array first (the
 * copy cost the uploads benchmark's 100 MiB multipart case about a sixth of its server CPU).
 *
 * <p>The scan for the delimiter {@code CRLF--boundary}: within a chunk, Horspool's algorithm, which
 * looks at one byte per window and moves the window by up to the delimiter's length (our own code
 * because the point is the cross-chunk state below, which no library scan keeps). Near a chunk's end,
 * where a delimiter no longer fits, a byte-by-byte match that may span chunks: the delimiter holds
 * one CR, at its start (a boundary's characters exclude CR), so no proper suffix of a partial match
 * is a prefix of it (KMP's failure function is all zeros), and after a mismatch the scan goes on at
 * the mismatching byte. A partial match at the end of a chunk is held back without copying
 * anything: its bytes are the delimiter's own first bytes, handed on from the delimiter array
 * should the match fail.
 *
 * <p>Accepted: a preamble and an epilogue (ignored), a body that starts with the first delimiter
 * (as if a CRLF preceded it), transport padding (spaces and tabs) after a boundary, no CRLF after
 * the final {@code --boundary--}. Refused, 400: a body without a delimiter or without the final
 * one, a boundary followed by anything but padding and CRLF or {@code --} (RFC 2046 forbids content
 * lines that start with the delimiter), and every header rule of {@link PartHeaders}. Refused, 413:
 * more than {@link Limits#maxParts()} parts, a header block (with the padding before it) over
 * {@link Limits#maxPartHeaderBytes()}, a field (a part without a file name) over
 * {@link Limits#maxFieldBytes()}, a file over {@link Limits#maxFileBytes()}. After a refusal the
 * parser refuses every further call.
 *
 * <p>Not thread-safe: one body, fed from one thread at a time.
 */
public final class MultipartParser {
    private enum State { PREAMBLE, AFTER_BOUNDARY, HEADERS, CONTENT, EPILOGUE, FAILED }

    /** Below this many candidate starts one Horspool window searches; from it, four ({@link #find}). */
    private static final int LANES_FROM = 1024;
    private static final int HEAD_BYTES = 128;

    private final byte[] delimiter;
    /** The delimiter's bytes as a buffer, for handing on a held-back partial match that was content; made when first needed. */
    private ByteBuffer delimiterBytes;
    /**
     * Horspool's skip per byte value: how far a window may move when its last byte is that value;
     * at most the delimiter's length (74), so bytes: a parser per form, and an int table was 1 KiB
     * of the 6.8 KiB a 1 KiB multipart request allocated (async-profiler's alloc event, IO mode).
     */
    private final byte[] skip = new byte[256];
    private final PartListener listener;
    private final int maxParts;
    private final int maxHeaderBytes;
    private final long maxFieldBytes;
    private final long maxFileBytes;

    private State state = State.PREAMBLE;
    /**
     * Delimiter bytes matched so far, possibly across chunks. Starts at 2: the body is scanned as if
     * it began with CRLF, so a first delimiter at offset 0 (no preamble, the usual case) matches.
     */
    private int matched = 2;
    /** Where the line after a boundary is: 0 nothing yet, 1 one '-', 2 in padding, 3 after CR. */
    private int lineState;
    private int padding;
    /** A part's header block; 128 bytes hold a browser's usual block (name, file name, type) without growing. */
    private byte[] head = new byte[HEAD_BYTES];
    private int headLength;
    private int parts;
    private PartHead current;
    private long partBytes;

    /**
     * @param boundary the {@code boundary} parameter, already checked ({@link #forContentType} checks it)
     * @param limits where maxParts, maxPartHeaderBytes, maxFieldBytes and maxFileBytes come from
     * @param listener told about each part
     */
    public MultipartParser(String boundary, Limits limits, PartListener listener) {
        if (!Boundary.valid(boundary)) throw new IllegalArgumentException("invalid boundary");
        this.delimiter = Boundary.delimiter(boundary);
        int last = delimiter.length - 1;
        Arrays.fill(skip, (byte) delimiter.length);
        for (int j = 0; j < last; j++) skip[delimiter[j] & 0xff] = (byte) (last - j);
        this.listener = listener;
        this.maxParts = limits.maxParts();
        this.maxHeaderBytes = limits.maxPartHeaderBytes();
        this.maxFieldBytes = limits.maxFieldBytes();
        this.maxFileBytes = limits.maxFileBytes();
    }

    /**
     * @param contentType the request's {@code Content-Type}
     * @param limits the multipart limits
     * @param listener told about each part
     * @return a parser for its boundary
     * @throws ProblemException 400 for a missing or invalid boundary parameter
     */
    public static MultipartParser forContentType(String contentType, Limits limits, PartListener listener) {
        return new MultipartParser(Boundary.of(contentType), limits, listener);
    }

    /**
     * @param chunk the next bytes of the body
     * @param off first byte
     * @param len bytes
     * @throws ProblemException 400 or 413 as the class describes
     */
    public void feed(byte[] chunk, int off, int len) {
        java.util.Objects.checkFromIndexSize(off, len, chunk.length);
        feed(ByteBuffer.wrap(chunk, off, len));
    }

    /**
     * @param chunk the next bytes of the body, from its position to its limit; the position is not
     *     moved, and content slices handed to the listener are indexes into this buffer
     * @throws ProblemException 400 or 413 as the class describes
     */
    public void feed(ByteBuffer chunk) {
        if (state == State.FAILED) throw new IllegalStateException("the parser refused this body already");
        int i = chunk.position();
        int end = chunk.limit();
        try {
            while (i < end) {
                i = switch (state) {
                    case PREAMBLE, CONTENT -> scan(chunk, i, end);
                    case AFTER_BOUNDARY -> afterBoundary(chunk, i, end);
                    case HEADERS -> headers(chunk, i, end);
                    case EPILOGUE, FAILED -> end;
                };
            }
        } catch (RuntimeException e) {
            state = State.FAILED;
            throw e;
        }
    }

    /**
     * The body ended.
     *
     * @throws ProblemException 400 unless the final delimiter {@code --boundary--} was seen
     */
    public void finish() {
        switch (state) {
            case EPILOGUE -> { }
            case FAILED -> throw new IllegalStateException("the parser refused this body already");
            case PREAMBLE -> {
                state = State.FAILED;
                throw Refusal.malformed("the body holds no boundary delimiter");
            }
            default -> {
                state = State.FAILED;
                throw Refusal.malformed("the body ended before the final boundary (--boundary--)");
            }
        }
    }

    /** @return whether the final delimiter was seen: the rest of the body is epilogue */
    public boolean complete() {
        return state == State.EPILOGUE;
    }

    /** Content (or preamble) up to the next delimiter; returns where the scan stopped. */
    private int scan(ByteBuffer b, int i, int end) {
        int from = i; // this chunk's first byte not yet handed on
        int carried = matched; // delimiter bytes matched in earlier chunks, held back
        while (i < end) {
            if (matched == 0) {
                // Whole delimiters that fit in this chunk: Horspool on the window's last byte, which
                // moves up to the delimiter's length (a boundary of 40 characters: 46 bytes) per look
                // instead of one; carried is 0 here, no earlier bytes are held back. Horspool never
                // moves a window past the start of a delimiter cut off by the chunk's end either, so
                // the byte-by-byte scan below starts where find() stopped.
                int at = find(b, i, end - delimiter.length);
                if (at >= 0) {
                    content(b, from, at - from);
                    boundary();
                    return at + delimiter.length;
                }
                i = Math.max(i, end - delimiter.length + 1);
                // Fewer bytes left than a delimiter: byte by byte, a partial match held back for the next chunk.
                while (i < end && b.get(i) != '\r') i++;
                if (i == end) break;
                matched = 1;
                i++;
            } else if (b.get(i) == delimiter[matched]) {
                i++;
                if (++matched == delimiter.length) {
                    content(b, from, i - (matched - carried) - from);
                    matched = 0;
                    boundary();
                    return i;
                }
            } else {
                // The held-back bytes were content after all; they precede everything of this chunk.
                if (carried > 0) {
                    if (delimiterBytes == null) delimiterBytes = ByteBuffer.wrap(delimiter).asReadOnlyBuffer();
                    content(delimiterBytes, 0, carried);
                }
                carried = 0;
                matched = 0; // b[i] is looked at again: it may be the CR of the real delimiter
            }
        }
        content(b, from, end - (matched - carried) - from);
        return end;
    }

    /**
     * Horspool's search for a whole delimiter starting in {@code [from, lastStart]}, in four lanes:
     * the range cut in four, each quarter searched by its own window, the four windows moved in
     * turn. One window is a chain of dependent loads (the byte under it picks its skip, which
     * places the next load), so it waits on memory at every step; four independent chains keep
     * four loads in flight. The parse of a 100 MiB form fed in 64 KiB direct chunks that had just
     * been written (as a socket read leaves them): 107-142 us per MiB with one window, 38-41 with
     * four (dev.tidemill.bench.MultipartScanCost, its command in its Javadoc; one core, 4 rounds).
     *
     * @return where the first delimiter starts, or -1 when none starts in the range
     */
    private int find(ByteBuffer b, int from, int lastStart) {
        int n = lastStart - from + 1;
        if (n <= 0) return -1;
        if (n < LANES_FROM) return horspool(b, from, lastStart + 1);
        int last = delimiter.length - 1;
        byte lastByte = delimiter[last];
        int q = n >>> 2;
        int e0 = from + q;
        int e1 = e0 + q;
        int e2 = e1 + q;
        int e3 = lastStart + 1;
        int w0 = from;
        int w1 = e0;
        int w2 = e1;
        int w3 = e2;
        while (w0 < e0 && w1 < e1 && w2 < e2 && w3 < e3) {
            byte c0 = b.get(w0 + last);
            byte c1 = b.get(w1 + last);
            byte c2 = b.get(w2 + last);
            byte c3 = b.get(w3 + last);
            if ((c0 == lastByte && startsWithDelimiter(b, w0, last)) || (c1 == lastByte && startsWithDelimiter(b, w1, last))
                    || (c2 == lastByte && startsWithDelimiter(b, w2, last)) || (c3 == lastByte && startsWithDelimiter(b, w3, last))) {
                break; // a delimiter in some lane: the lanes are finished in order below, the first one found wins
            }
            w0 += skip[c0 & 0xff];
            w1 += skip[c1 & 0xff];
            w2 += skip[c2 & 0xff];
            w3 += skip[c3 & 0xff];
        }
        int at = horspool(b, w0, e0);
        if (at < 0) at = horspool(b, w1, e1);
        if (at < 0) at = horspool(b, w2, e2);
        if (at < 0) at = horspool(b, w3, e3);
        return at;
    }

    /** @return the first delimiter start in {@code [from, to)} found by one Horspool window, or -1 */
    private int horspool(ByteBuffer b, int from, int to) {
        int last = delimiter.length - 1;
        byte lastByte = delimiter[last];
        for (int w = from; w < to; ) {
            byte c = b.get(w + last);
            if (c == lastByte && startsWithDelimiter(b, w, last)) return w;
            w += skip[c & 0xff];
        }
        return -1;
    }

    /** @return whether the {@code length} bytes at {@code at} are the delimiter's first {@code length} */
    private boolean startsWithDelimiter(ByteBuffer b, int at, int length) {
        for (int j = 0; j < length; j++) {
            if (b.get(at + j) != delimiter[j]) return false;
        }
        return true;
    }

    private void content(ByteBuffer b, int off, int len) {
        if (len <= 0 || state == State.PREAMBLE) return;
        partBytes += len;
        if (current.isFile() ? partBytes > maxFileBytes : partBytes > maxFieldBytes) {
            throw current.isFile()
                    ? Refusal.tooLarge("file " + Refusal.quoted(current.name()) + " is larger than " + maxFileBytes + " bytes (maxFileBytes)")
                    : Refusal.tooLarge("field " + Refusal.quoted(current.name()) + " is larger than " + maxFieldBytes + " bytes (maxFieldBytes)");
        }
        listener.partData(b, off, len);
    }

    private void boundary() {
        if (state == State.CONTENT) {
            current = null;
            listener.partEnd();
        }
        state = State.AFTER_BOUNDARY;
        lineState = 0;
        padding = 0;
    }

    /** The rest of a boundary's line: {@code --} (the final one), or padding then CRLF. */
    private int afterBoundary(ByteBuffer b, int i, int end) {
        while (i < end) {
            byte c = b.get(i++);
            switch (lineState) {
                case 0, 2 -> {
                    if (c == '-' && lineState == 0) {
                        lineState = 1;
                    } else if (c == ' ' || c == '\t') {
                        lineState = 2;
                        if (++padding > maxHeaderBytes) {
                            throw Refusal.tooLarge("a part's headers are larger than " + maxHeaderBytes + " bytes (maxPartHeaderBytes)");
                        }
                    } else if (c == '\r') {
                        lineState = 3;
                    } else if (c == '\n') {
                        throw Refusal.malformed("an LF without CR after a boundary (RFC 2046 lines end in CRLF)");
                    } else {
                        throw Refusal.malformed("a line of the body starts with the boundary but is not a boundary delimiter");
                    }
                }
                case 1 -> {
                    if (c != '-') throw Refusal.malformed("a line of the body starts with the boundary but is not a boundary delimiter");
                    state = State.EPILOGUE;
                    return end;
                }
                default -> {
                    if (c != '\n') throw Refusal.malformed("a CR without LF after a boundary");
                    if (++parts > maxParts) throw Refusal.tooLarge("more than " + maxParts + " parts (maxParts)");
                    state = State.HEADERS;
                    headLength = 0;
                    return i;
                }
            }
        }
        return end;
    }

    /** Collects a header block up to its empty line; bare CR and LF are refused here, byte by byte. */
    private int headers(ByteBuffer b, int i, int end) {
        while (i < end) {
            byte c = b.get(i++);
            if (padding + headLength >= maxHeaderBytes) {
                throw Refusal.tooLarge("a part's headers are larger than " + maxHeaderBytes + " bytes (maxPartHeaderBytes)");
            }
            boolean afterCr = headLength > 0 && head[headLength - 1] == '\r';
            if (afterCr != (c == '\n')) {
                throw Refusal.malformed(afterCr ? "a CR without LF in a part's headers" : "an LF without CR in a part's headers");
            }
            if (headLength == head.length) head = Arrays.copyOf(head, Math.min(head.length * 2, maxHeaderBytes));
            head[headLength++] = c;
            if (c == '\n' && (headLength == 2 || (head[headLength - 3] == '\n'))) {
                // the empty line: the block is every line before it
                current = PartHeaders.parse(head, headLength - 2);
                partBytes = 0;
                state = State.CONTENT;
                listener.partBegin(current);
                if (head.length > 4096) head = new byte[HEAD_BYTES]; // a large block is not kept for the next part
                return i;
            }
        }
        return end;
    }
}
